"""Superqueens (OEIS A051223, and A051224 up to symmetry) counted with the square's whole group.

A superqueen moves as a queen and as a knight. The 8 symmetries of the square map knight jumps to
knight jumps, so they map superqueen placements to superqueen placements, and each placement has
exactly one queen in every row and column: the Somers / Takaken search of
:mod:`nqueens_cp.searches.bitboard_kernel` (its module docstring says why it is exact) applies
unchanged, with the knight's jumps added to each row's attacks. It visits one member of every
class: *corner* boards (the row-0 queen in column 0, no symmetric member: 8 each; the diagonal
reflection removed by ``bound1``, the row-1 queen's column) and *inner* boards (the row-0 queen in
column ``bound1 < (n - 1) / 2``, the edges pruned by ``sidemask`` / ``lastmask``, the finished board
compared with its rotations by ``_check_class``, which gives its class's size, 2, 4 or 8). One pass
gives both numbers: ``8 c8 + 4 c4 + 2 c2`` placements in ``c8 + c4 + c2`` classes.

Against the left-half mirror alone (:func:`nqueens_cp.searches.family_kernel.search_count`) that
visits about a quarter of the leaves. The work is split over the tasks ``(corner, bound1, column)``,
``column`` the queen of the first row the task does not fix (row 2 of a corner board, row 1 of an
inner one), each one call of the compiled search, which releases the GIL: ``workers`` threads count
in parallel, taking the tasks largest first.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nqueens_cp.searches.bitboard_kernel import _AVAIL, _last_row_class, _lastmask, _push, _restrict, _take
from nqueens_cp.system.compiled import compiled, inline

Int64Array = npt.NDArray[np.int64]

#: The smallest board the group search takes (smaller boards hold no superqueen placement but n = 1).
MIN_N = 6

@inline
def _knight(bit: int, above: int) -> int:
    """The squares of the next row that knights on ``bit`` (this row) and ``above`` (the row above)
    reach."""
    return (bit << 2) | (bit >> 2) | (above << 1) | (above >> 1)


@compiled
def _group_count(n: int, corner: bool, bound1: int, column: int, counts: Int64Array) -> None:
    """Add to ``counts[0:3]`` the classes of 8, 4 and 2 members whose chosen member (see the module
    docstring) is a corner board (``corner``) or an inner board with this ``bound1`` and the queen
    of its first free row (row 2 of a corner board, row 1 of an inner one) in ``column``."""
    last = n - 1
    full = (1 << n) - 1
    sidemask = (1 << last) | 1
    bound2 = last - bound1
    endbit = (1 << last) >> bound1
    lastmask = _lastmask(n, bound1)
    board = np.zeros(n, np.int64)
    frames = np.zeros((4, n), np.int64)
    board[0] = 1 if corner else 1 << bound1
    fixed = np.array((1 << bound1, 1 << column) if corner else (1 << column, 0), np.int64)
    left = board[0] << 1
    down = board[0]
    right = board[0] >> 1
    row = 1
    for bit in fixed[:2 if corner else 1]:  # the task's own queens, each checked as the search would
        free = full & ~(left | down | right | _knight(board[row - 1], board[row - 2] if row >= 2 else 0))
        if not _restrict(free, row, down, corner, bound1, bound2, sidemask) & bit:
            return
        board[row] = bit
        left = ((left | bit) << 1) & full
        down |= bit
        right = (right | bit) >> 1
        row += 1
    start = row
    _push(frames, row, left, down, right, _restrict(full & ~(left | down | right | _knight(board[row - 1], board[row - 2])),
                                                    row, down, corner, bound1, bound2, sidemask))
    while row >= start:
        if frames[_AVAIL, row] == 0:
            row -= 1
            continue
        bit, left, down, right = _take(frames, row, full)
        board[row] = bit
        nxt = full & ~(left | down | right | _knight(bit, board[row - 1]))
        if nxt == 0:
            continue
        if row + 1 < last:
            row += 1
            _push(frames, row, left, down, right, _restrict(nxt, row, down, corner, bound1, bound2, sidemask))
            continue
        size = _last_row_class(board, nxt, n, corner, bound1, bound2, endbit, lastmask)
        if size:
            counts[0 if size == 8 else 1 if size == 4 else 2] += 1


@dataclass(frozen=True)
class SuperqueensCount:
    """The superqueen placements of an n x n board and their classes under the square's symmetries."""

    n: int
    placements: int
    classes: int


def tasks(n: int) -> list[tuple[bool, int, int]]:
    """The ``(corner, bound1, column)`` tasks of :func:`count` (n >= MIN_N), corner boards first."""
    last = n - 1
    corner = [(True, bound1, column) for bound1 in range(2, last) for column in range(n)]
    inner = [(False, bound1, column) for bound1 in range(1, n) if bound1 < last - bound1 for column in range(n)]
    return corner + inner


def count(n: int, workers: int = 2) -> SuperqueensCount:
    """The superqueen placements of the n x n board (n >= MIN_N) and their classes, on ``workers``
    threads."""
    if n < MIN_N:
        raise ValueError(f"the superqueens group search takes n >= {MIN_N}, got {n}")

    def one(task: tuple[bool, int, int]) -> Int64Array:
        counts = np.zeros(3, np.int64)
        _group_count(n, *task, counts)
        return counts

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        c8, c4, c2 = (int(x) for x in sum(pool.map(one, tasks(n)), np.zeros(3, np.int64)))
    return SuperqueensCount(n, 8 * c8 + 4 * c4 + 2 * c2, c8 + c4 + c2)
