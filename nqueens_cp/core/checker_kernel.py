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
