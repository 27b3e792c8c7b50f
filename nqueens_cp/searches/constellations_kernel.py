"""The numba-compiled finishing search of start constellations (see :mod:`.constellations`).

This module imports numba and numpy at import time: import it only where the compiled search
runs. Kernels are compiled with ``cache=True`` (machine code cached on disk, so later processes
load it instead of compiling).

For each constellation ``(top, bottom, left, right)`` the kernel lists the free inner rows (rows
1..n-2 without a border queen), precomputes per free row the columns the border queens take or
attack (``blocked``), and fills the free rows top down with the bitboard search: ``left`` and
``right`` hold the diagonal attacks of the queens placed so far, shifted by the gap between one
free row and the next, ``down`` their columns. Every free row takes one of as many free columns,
so the last three free rows have at most three, two and one columns left: they are finished
without the stack, their candidates unrolled and the last two rows counted without branches
(fewer mispredicted branches, the search's main cost). Constellations fixed by a
rotation (few: about 1 in 200 at n = 16) run a variant that also checks every completion for the
same symmetry, which the class count (OEIS A002562) needs.

All masks and counts are int64: n <= ``MAX_N`` = 32 bits of board plus the shifted diagonal bits
(which only move away from the board and are masked off); one constellation's completions and
the weighted sum over all of them (A000170(27) is about 2.3e17) fit in an int64. Totals are
converted to Python ints before anything else touches them.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import numpy.typing as npt

from .bitboard import COMPILED_MAX_N as MAX_N
from .compiled import compiled, inline
from .constellations import Constellation, ConstellationCount, Finished, tally

Int64Array = npt.NDArray[np.int64]

# Symmetry codes of the table passed to the kernel.
_PLAIN, _ROT180, _ROT90 = 0, 1, 2


@inline
def _pop_lowest(avail: Int64Array, t: int) -> int:
    """Take the lowest untried free column of level ``t`` (there is one) off its set; return its bit."""
    free: int = avail[t]
    bit = free & -free
    avail[t] = free ^ bit
    return bit


@inline
def _step(t: int, bit: int, full: int, gaps: Int64Array, blocked: Int64Array,
          lefts: Int64Array, downs: Int64Array, rights: Int64Array) -> tuple[int, int, int, int]:
    """A queen ``bit`` on free row ``t``: the attacks it leaves on free row ``t + 1`` (diagonals
    shifted by the gap between the two rows) and the free squares of that row."""
    gap = gaps[t]
    left = (lefts[t] | bit) << gap
    down = downs[t] | bit
    right = (rights[t] | bit) >> gap
    return left, down, right, full & ~(left | down | right | blocked[t + 1])


@inline
def _push(t: int, left: int, down: int, right: int, free: int,
          lefts: Int64Array, downs: Int64Array, rights: Int64Array, avail: Int64Array) -> None:
    """Open free row ``t`` with these attacks and these squares to try."""
    lefts[t] = left
    downs[t] = down
    rights[t] = right
    avail[t] = free


@compiled
def _setup(n: int, top: int, bottom: int, left: int, right: int,
           rows: Int64Array, blocked: Int64Array, gaps: Int64Array) -> int:
    """Fill ``rows``/``blocked``/``gaps`` for one constellation; returns the number of free rows."""
    last = n - 1
    full = (1 << n) - 1
    queen_rows = (0, last, left, right)
    queen_cols = (top, bottom, 0, last)
    columns = (1 << top) | (1 << bottom) | 1 | (1 << last)
    free_rows = 0
    for row in range(1, last):
        if row in (left, right):
            continue
        mask = columns
        for q in range(4):
            distance = abs(row - queen_rows[q])
            mask |= (1 << (queen_cols[q] + distance)) | ((1 << queen_cols[q]) >> distance)
        rows[free_rows] = row
        blocked[free_rows] = mask & full
        free_rows += 1
    for t in range(free_rows - 1):
        gaps[t] = rows[t + 1] - rows[t]
    return free_rows


@inline
def _last_two(full: int, left: int, down: int, right: int, blocked1: int, gap: int, blocked0: int) -> int:
    """Completions of the last two free rows, ``left``/``down``/``right`` the attacks entering the
    first of them (which has at most two free columns: every other column holds a queen), and
    ``gap`` the rows between the two. Branch-free: each candidate adds 1 when the last row keeps
    a square."""
    free = full & ~(left | down | right | blocked1)
    last_row = full & ~((left << gap) | down | (right >> gap) | blocked0)
    one = free & -free
    other = free ^ one
    return (int(one != 0) & int(last_row & ~((one << gap) | one | (one >> gap)) != 0)) + (
        int(other != 0) & int(last_row & ~((other << gap) | other | (other >> gap)) != 0))


@inline
def _last_three(full: int, free: int, left: int, down: int, right: int, gap2: int,
                blocked1: int, gap1: int, blocked0: int) -> int:
    """Completions of the last three free rows: ``free`` the (at most three, at least one) free
    columns of the first of them, ``left``/``down``/``right`` the attacks entering it, ``gap2``
    and ``gap1`` the gaps to the next rows. The candidates are unrolled, no loop."""
    first = free & -free
    rest = free ^ first
    second = rest & -rest
    third = rest ^ second
    total = _last_two(full, (left | first) << gap2, down | first, (right | first) >> gap2, blocked1, gap1, blocked0)
    if second:
        total += _last_two(full, (left | second) << gap2, down | second, (right | second) >> gap2,
                           blocked1, gap1, blocked0)
    if third:
        total += _last_two(full, (left | third) << gap2, down | third, (right | third) >> gap2,
                           blocked1, gap1, blocked0)
    return total


@compiled
def _count_plain(n: int, depth: int, blocked: Int64Array, gaps: Int64Array,
                 lefts: Int64Array, downs: Int64Array, rights: Int64Array, avail: Int64Array) -> int:
    """Completions of the free rows (``depth`` of them) with the border attacks in ``blocked``.

    The stack holds rows ``0 .. depth-4``; the last three free rows are finished in the loop body
    (:func:`_last_three`: every column but three holds a queen by then). A queen is only pushed
    when the row after its successor still has a free square (one row of lookahead).
    """
    full = (1 << n) - 1
    if depth <= 3:
        return _count_tiny(n, depth, blocked, gaps)
    last = depth - 1
    blocked0 = blocked[last]
    gap1 = gaps[last - 1]
    blocked1 = blocked[last - 1]
    count = 0
    t = 0
    _push(0, 0, 0, 0, full & ~blocked[0], lefts, downs, rights, avail)
    while t >= 0:
        if avail[t] == 0:
            t -= 1
            continue
        bit = _pop_lowest(avail, t)
        left, down, right, nxt = _step(t, bit, full, gaps, blocked, lefts, downs, rights)
        if nxt == 0:
            continue
        if t + 3 == last:
            # Row depth-3 next: its (at most three) free columns are finished without the stack.
            count += _last_three(full, nxt, left, down, right, gaps[t + 1], blocked1, gap1, blocked0)
            continue
        # Look one row further: a row left without a square by the queens so far is a dead end
        # whatever row t + 1 gets (2-4% less time at n = 16 and 17, in one process).
        gap = gaps[t + 1]
        if full & ~((left << gap) | down | (right >> gap) | blocked[t + 2]) == 0:
            continue
        t += 1
        _push(t, left, down, right, nxt, lefts, downs, rights, avail)
    return count


@compiled
def _count_tiny(n: int, depth: int, blocked: Int64Array, gaps: Int64Array) -> int:
    """Completions when at most three free rows are left."""
    full = (1 << n) - 1
    if depth == 0:
        return 1
    free = full & ~blocked[0]
    if depth == 1:
        return 1 if free else 0
    if depth == 2:
        return _last_two(full, 0, 0, 0, blocked[0], gaps[0], blocked[1])
    if free == 0:
        return 0
    return _last_three(full, free, 0, 0, 0, gaps[0], blocked[1], gaps[1], blocked[2])


@compiled
def _column_of(bit: int) -> int:
    column = 0
    while bit > 1:
        bit >>= 1
        column += 1
    return column


@compiled
def _count_symmetric(n: int, depth: int, rows: Int64Array, blocked: Int64Array, gaps: Int64Array,
                     board: Int64Array, check90: bool, out: Int64Array,
                     lefts: Int64Array, downs: Int64Array, rights: Int64Array, avail: Int64Array) -> None:
    """Like ``_count_plain``, and checks each completion (``board`` holds the border queens):
    ``out[0]`` += completions, ``out[1]`` += those fixed by the 180-degree rotation, ``out[2]``
    += those fixed by the 90-degree rotation (when ``check90``)."""
    full = (1 << n) - 1
    last_col = n - 1
    completions = 0
    fixed180 = 0
    fixed90 = 0
    t = 0
    _push(0, 0, 0, 0, full & ~blocked[0] if depth > 0 else 0, lefts, downs, rights, avail)
    finished = depth == 0
    while True:
        if finished:
            finished = False
            completions += 1
            is180 = True
            for row in range(n):
                if board[last_col - row] != last_col - board[row]:
                    is180 = False
                    break
            if is180:
                fixed180 += 1
            if check90:
                is90 = True
                for row in range(n):
                    if board[board[row]] != last_col - row:
                        is90 = False
                        break
                if is90:
                    fixed90 += 1
            if depth == 0:
                break
        if t < 0:
            break
        if avail[t] == 0:
            t -= 1
            continue
        bit = _pop_lowest(avail, t)
        board[rows[t]] = _column_of(bit)
        if t + 1 == depth:
            finished = True
            continue
        left, down, right, nxt = _step(t, bit, full, gaps, blocked, lefts, downs, rights)
        if nxt == 0:
            continue
        t += 1
        _push(t, left, down, right, nxt, lefts, downs, rights, avail)
    out[0] += completions
    out[1] += fixed180
    out[2] += fixed90


@compiled
def _finish_all(n: int, table: Int64Array, out: Int64Array) -> None:
    """For each row ``(top, bottom, left, right, symmetry)`` of ``table``: ``out`` row = completions,
    completions fixed by rotating 180 degrees, and by 90 degrees (the last two only for a
    constellation fixed by that rotation)."""
    rows = np.zeros(n, np.int64)
    blocked = np.zeros(n, np.int64)
    gaps = np.zeros(n, np.int64)
    board = np.zeros(n, np.int64)
    lefts = np.zeros(n, np.int64)
    downs = np.zeros(n, np.int64)
    rights = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    last = n - 1
    for c in range(table.shape[0]):
        top = table[c, 0]
        bottom = table[c, 1]
        left = table[c, 2]
        right = table[c, 3]
        symmetry = table[c, 4]
        depth = _setup(n, top, bottom, left, right, rows, blocked, gaps)
        if symmetry == _PLAIN:
            out[c, 0] = _count_plain(n, depth, blocked, gaps, lefts, downs, rights, avail)
            out[c, 1] = 0
            out[c, 2] = 0
        else:
            board[0] = top
            board[last] = bottom
            board[left] = 0
            board[right] = last
            out[c, 0] = 0
            out[c, 1] = 0
            out[c, 2] = 0
            _count_symmetric(n, depth, rows, blocked, gaps, board, symmetry == _ROT90, out[c],
                             lefts, downs, rights, avail)


def _table(items: Sequence[Constellation]) -> Int64Array:
    table = np.zeros((len(items), 5), np.int64)
    for index, constellation in enumerate(items):
        symmetry = _ROT90 if constellation.rot90 else _ROT180 if constellation.rot180 else _PLAIN
        table[index] = (*constellation.search_key, symmetry)
    return table


def finish_batch(n: int, items: Sequence[Constellation]) -> list[Finished]:
    """The completions of each constellation of ``items``, by the compiled search."""
    if not 4 <= n <= MAX_N:
        raise ValueError(f"the compiled constellation kernel handles 4 <= n <= {MAX_N}, got {n}")
    out = np.zeros((len(items), 3), np.int64)
    _finish_all(n, _table(items), out)
    return [Finished(int(c), int(f180), int(f90)) for c, f180, f90 in out.tolist()]


def count_batch(n: int, items: Sequence[Constellation]) -> ConstellationCount:
    """Solutions and classes contributed by ``items``, finished by the compiled search."""
    result = ConstellationCount(0, 0)
    for constellation, finished in zip(items, finish_batch(n, items), strict=True):
        result = result + tally(constellation, finished)
    return result
