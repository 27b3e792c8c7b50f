"""The checker's compiled loops (numba), for the answers too many or too large for Python.

Like :mod:`nqueens_cp.core.checker` they share no code with any search: each re-derives the rules
(one queen per column and per diagonal, columns on the board) from the definition. They find
*whether* and *where* a board fails; the checker's own functions then say what failed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from nqueens_cp.system.compiled import compiled

if TYPE_CHECKING:
    import numpy.typing as npt

#: What :func:`first_failure` finds wrong with a board of a batch.
INVALID, NOT_AFTER = 1, 2


@compiled
def _first_failure(boards: Any, previous: Any, ordered: bool) -> tuple[int, int]:
    k, n = boards.shape
    column = np.full(n, -1, np.int64)  # the board that last put a queen on each line
    up = np.full(2 * n, -1, np.int64)
    down = np.full(2 * n, -1, np.int64)
    for i in range(k):
        for r in range(n):
            c = boards[i, r]
            if c < 0 or c >= n or column[c] == i or up[r + c] == i or down[r - c + n] == i:
                return i, INVALID
            column[c] = i
            up[r + c] = i
            down[r - c + n] = i
        if ordered:
            for r in range(n):
                before = boards[i - 1, r] if i > 0 else previous[r]
                if boards[i, r] != before:
                    if boards[i, r] < before:
                        return i, NOT_AFTER
                    break
            else:
                return i, NOT_AFTER
    return -1, 0


def first_failure(boards: npt.NDArray[Any], previous: npt.NDArray[Any] | None) -> tuple[int, int]:
    """The first board (row) of ``boards`` whose columns break a rule (``INVALID``) or, given the
    board ``previous`` that came before the batch, the first that does not come strictly after the
    one before it in lexicographic order (``NOT_AFTER``); ``(-1, 0)`` when none. O(size)."""
    ordered = previous is not None
    before = previous if previous is not None else np.full(boards.shape[1], -1, boards.dtype)
    if not ordered and boards.shape[0] == 0:
        return -1, 0
    index, what = _first_failure(boards, before.astype(boards.dtype), ordered)
    return int(index), int(what)


@compiled
def _first_clash(columns: Any) -> int:
    n = columns.shape[0]
    words = (2 * n) // 64 + 1
    column = np.zeros(words, np.uint64)  # one bit per line
    up = np.zeros(words, np.uint64)
    down = np.zeros(words, np.uint64)
    one = np.uint64(1)
    for r in range(n):
        c = np.int64(columns[r])
        if c < 0 or c >= n:
            return r
        u = r + c
        d = r - c + n
        bc = one << np.uint64(c & 63)
        bu = one << np.uint64(u & 63)
        bd = one << np.uint64(d & 63)
        if (column[c >> 6] & bc) or (up[u >> 6] & bu) or (down[d >> 6] & bd):
            return r
        column[c >> 6] |= bc
        up[u >> 6] |= bu
        down[d >> 6] |= bd
    return -1


def first_clash(columns: npt.NDArray[Any]) -> int:
    """The first row of the board ``columns`` (``columns[row] == col``) whose queen is off the board
    or on a line an earlier queen holds; -1 when none. One pass, 5n bits of memory."""
    return int(_first_clash(columns))
