"""The numba-compiled finishing search of start constellations (see :mod:`.constellations`).

This module imports numba and numpy at import time: import it only where the compiled search
runs. Kernels are compiled with ``cache=True`` (machine code cached on disk, so later processes
load it instead of compiling).

For each constellation ``(top, bottom, left, right)`` the kernel lists the free inner rows (rows
1..n-2 without a border queen), precomputes per free row the columns the border queens take or
attack (``blocked``), and fills the free rows top down: ``left`` and ``right`` hold the diagonal
attacks of the queens placed so far, shifted by the gap between one free row and the next,
``down`` their columns. The search is level-synchronous over batches of open states
(:func:`_count_plain`): a pass over one row's states gives each its next child with no
data-dependent branch, where a depth-first search mispredicts a branch at almost every node (its
main cost). The last two free rows are counted branch-free (:func:`_last_two`). Constellations
fixed by a rotation (few: about 1 in 200 at n = 16) run a depth-first variant that also checks
every completion for the same symmetry, which the class count (OEIS A002562) needs.

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
def _child(full: int, left: int, down: int, right: int, bit: int, gap: int,
           blocked_next: int) -> tuple[int, int, int, int]:
    """A queen ``bit`` on a free row with these attacks: the attacks it leaves on the next free row
    (diagonals shifted by the ``gap`` between the two rows) and the free squares of that row."""
    left = (left | bit) << gap
    down = down | bit
    right = (right | bit) >> gap
    return left, down, right, full & ~(left | down | right | blocked_next)


@inline
def _step(t: int, bit: int, full: int, gaps: Int64Array, blocked: Int64Array,
          lefts: Int64Array, downs: Int64Array, rights: Int64Array) -> tuple[int, int, int, int]:
    """A queen ``bit`` on free row ``t`` of the stack: :func:`_child` of that row's attacks."""
    return _child(full, lefts[t], downs[t], rights[t], bit, gaps[t], blocked[t + 1])


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


#: States a level's buffer holds in :func:`_count_plain` (1024 x 4 int64 = 32 KiB per level).
BATCH = 1024


@inline
def _keep(level: Int64Array, kept: int, left: int, down: int, right: int, rest: int) -> int:
    """Write a state at position ``kept`` of its level; the next position (the same one when the
    state has no column ``rest`` to try)."""
    level[kept, 0] = left
    level[kept, 1] = down
    level[kept, 2] = right
    level[kept, 3] = rest
    return kept + int(rest != 0)


@compiled
def _count_plain(n: int, depth: int, blocked: Int64Array, gaps: Int64Array, states: Int64Array,
                 sizes: Int64Array) -> int:
    """Completions of the free rows (``depth`` >= 4 of them) with the border attacks in ``blocked``.

    A level-synchronous search over batches of states: ``states[t]`` holds up to ``BATCH`` open
    states of free row ``t`` (attacks left, down, right and the columns still to try), ``sizes[t]``
    how many. One pass over a level gives each of its states one child (its lowest untried
    column) in the next level's buffer, kept only when that row and the one after it have a free
    square, and keeps the state itself only while it has columns left (both lists compacted in
    place by adding 0 or 1 to their ends). The pass has no data-dependent branch: the depth-first
    search's main cost, the mispredicted branch at each node, is gone (kernel time at n = 17:
    0.75-0.78 of the stack search it replaced). The search goes one level down when the next buffer
    is half full or the level is used up, back up when a level is empty. States of row ``depth - 3``
    are finished in their pass: each child's last two rows are counted branch-free (``_last_two``).
    """
    full = (1 << n) - 1
    last = depth - 1
    last_gap = gaps[last - 1]
    blocked_last = blocked[last]
    blocked_before = blocked[last - 1]
    states[0, 0, 0] = 0
    states[0, 0, 1] = 0
    states[0, 0, 2] = 0
    states[0, 0, 3] = full & ~blocked[0]
    sizes[0] = int(states[0, 0, 3] != 0)
    sizes[1:depth] = 0
    count = 0
    t = 0
    while t >= 0:
        size = sizes[t]
        if size == 0:
            t -= 1
            continue
        level = states[t]
        gap = gaps[t]
        if t + 2 == last:
            kept = 0
            found = 0
            for i in range(size):
                left, down, right, free = level[i, 0], level[i, 1], level[i, 2], level[i, 3]
                into_left, into_down, into_right, _ = _child(full, left, down, right, free & -free, gap, 0)
                found += _last_two(full, into_left, into_down, into_right, blocked_before, last_gap, blocked_last)
                kept = _keep(level, kept, left, down, right, free & (free - 1))
            count += found
            sizes[t] = kept
            continue
        below = states[t + 1]
        added = sizes[t + 1]
        first = max(0, size - (BATCH - added))  # the states whose children fit below
        kept = first
        blocked_next = blocked[t + 1]
        next_gap = gaps[t + 1]
        blocked_after = blocked[t + 2]
        for i in range(first, size):
            left, down, right, free = level[i, 0], level[i, 1], level[i, 2], level[i, 3]
            into_left, into_down, into_right, into_free = _child(full, left, down, right, free & -free, gap,
                                                                 blocked_next)
            # One row of lookahead: the row after next must keep a square too.
            ahead = full & ~((into_left << next_gap) | into_down | (into_right >> next_gap) | blocked_after)
            added = _keep(below, added, into_left, into_down, into_right, into_free & -int(ahead != 0))
            kept = _keep(level, kept, left, down, right, free & (free - 1))
        sizes[t + 1] = added
        sizes[t] = kept
        if added >= BATCH // 2 or kept == 0:
            t += 1
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
    states = np.zeros((n, BATCH, 4), np.int64)
    sizes = np.zeros(n, np.int64)
    last = n - 1
    for c in range(table.shape[0]):
        top = table[c, 0]
        bottom = table[c, 1]
        left = table[c, 2]
        right = table[c, 3]
        symmetry = table[c, 4]
        depth = _setup(n, top, bottom, left, right, rows, blocked, gaps)
        if symmetry == _PLAIN:
            out[c, 0] = (_count_plain(n, depth, blocked, gaps, states, sizes) if depth > 3
                         else _count_tiny(n, depth, blocked, gaps))
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
