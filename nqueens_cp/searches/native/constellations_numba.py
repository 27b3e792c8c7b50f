"""The numba source of the compiled finishing search of start constellations (see :mod:`.constellations`).

This module imports numba and numpy at import time. It is imported only to compile the kernel:
:func:`finish_all` is compiled as one C function (``numba.cfunc``) whose machine code
:mod:`nqueens_cp.system.machine_code` keeps on disk, and :mod:`.constellations_kernel` runs it (the helpers below
are numba functions with ``cache=True``, inlined or linked into it).

For each constellation ``(top, bottom, left, right)`` the kernel lists the free inner rows (rows
1..n-2 without a border queen), precomputes per free row the columns the border queens take or
attack (``blocked``), and fills the free rows top down: ``left`` and ``right`` hold the diagonal
attacks of the queens placed so far, shifted by the gap between one free row and the next,
``down`` their columns. The search is level-synchronous over batches of open states
(:func:`_count_plain`): a pass over one row's states gives each its next child with no
data-dependent branch, where a depth-first search mispredicts a branch at almost every node (its
main cost). The last two free rows are counted branch-free (:func:`_last_two`). Constellations
fixed by a rotation (49 of 4,319 at n = 17) are finished the same way; the class count (OEIS
A002562) also needs their completions that the rotation fixes, which a search of the rotation's
orbits of squares counts (:func:`_count_rotation_fixed`: a quarter or half of the free rows).

All masks and counts are int64: n <= ``MAX_N`` = 32 bits of board plus the shifted diagonal bits
(which only move away from the board and are masked off); one constellation's completions and
the weighted sum over all of them (A000170(27) is about 2.3e17) fit in an int64. Totals are
converted to Python ints before anything else touches them.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt
from numba.np.numpy_support import carray

from nqueens_cp.searches.native.constellations_abi import BATCH, NUMBA_SIGNATURE, PLAIN, ROT90, SCRATCH_ROWS
from nqueens_cp.system.compiled import compiled, inline

Int64Array = npt.NDArray[np.int64]


@inline
def _child(full: int, left: int, down: int, right: int, bit: int, gap: int,
           blocked_next: int) -> tuple[int, int, int, int]:
    """A queen ``bit`` on a free row with these attacks: the attacks it leaves on the next free row
    (diagonals shifted by the ``gap`` between the two rows) and the free squares of that row."""
    left = (left | bit) << gap
    down = down | bit
    right = (right | bit) >> gap
    return left, down, right, full & ~(left | down | right | blocked_next)


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


@inline
def _keep(level: Int64Array, kept: int, left: int, down: int, right: int, rest: int) -> int:
    """Write a state at position ``kept`` of its level; the next position (the same one when the
    state has no column ``rest`` to try)."""
    at = np.uint64(kept)  # unsigned: no negative-index wrap-around (see _count_plain)
    level[at, 0] = left
    level[at, 1] = down
    level[at, 2] = right
    level[at, 3] = rest
    return kept + int(rest != 0)


@inline
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

    The buffers are indexed by unsigned integers: numba wraps a negative signed index around (a
    compare and an add per access), which an unsigned one cannot be. The function is inlined into
    :func:`finish_all`, which makes the buffers' arrays, so their shapes are constants (offsets are
    shifts, not multiplications). Kernel time at n = 17 (plain constellations, medians of 5,
    alternated in one process): inlined 0.90 of the called function, and unsigned indices 0.65 of
    signed on top; LLVM also keeps the lookahead's select a conditional move, where it had
    compiled a branch.
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
                at = np.uint64(i)
                left, down, right, free = level[at, 0], level[at, 1], level[at, 2], level[at, 3]
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
            at = np.uint64(i)
            left, down, right, free = level[at, 0], level[at, 1], level[at, 2], level[at, 3]
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


@inline
def _orbit_square(last: int, row: int, col: int, k: int, quarter: bool) -> tuple[int, int]:
    """Image ``k`` of square ``(row, col)`` under the rotation by 90 degrees (``quarter``) or by 180."""
    if not quarter:
        k *= 2
    for _ in range(k):
        row, col = col, last - row
    return row, col


@inline
def _orbit_size(last: int, row: int, col: int, quarter: bool) -> int:
    """How many squares the orbit of ``(row, col)`` has: 1 for the centre, else 4 or 2."""
    if 2 * row == last and 2 * col == last:
        return 1
    return 4 if quarter else 2


@inline
def _orbit_fits(last: int, row: int, col: int, quarter: bool, board: Int64Array,
                columns: Int64Array, sums: Int64Array, diffs: Int64Array) -> bool:
    """Whether the squares of the orbit of ``(row, col)`` are on empty lines of the board and do
    not attack each other."""
    for k in range(_orbit_size(last, row, col, quarter)):
        r, c = _orbit_square(last, row, col, k, quarter)
        if board[r] >= 0 or columns[c] or sums[r + c] or diffs[r - c + last]:
            return False
        for j in range(k):
            r2, c2 = _orbit_square(last, row, col, j, quarter)
            if r == r2 or c == c2 or r + c == r2 + c2 or r - c == r2 - c2:
                return False
    return True


@inline
def _mark_orbit(last: int, row: int, col: int, quarter: bool, value: int, board: Int64Array,
                columns: Int64Array, sums: Int64Array, diffs: Int64Array) -> None:
    """Put the queens of the orbit of ``(row, col)`` on the board (``value`` 1) or take them off (0)."""
    for k in range(_orbit_size(last, row, col, quarter)):
        r, c = _orbit_square(last, row, col, k, quarter)
        board[r] = c if value else -1
        columns[c] = value
        sums[r + c] = value
        diffs[r - c + last] = value


@compiled
def _count_rotation_fixed(n: int, board: Int64Array, quarter: bool, columns: Int64Array, sums: Int64Array,
                          diffs: Int64Array, rows: Int64Array, tried: Int64Array) -> int:
    """The completions of ``board`` (a column per row, -1 for an empty row; its queens fixed by the
    rotation) that the rotation by 90 degrees (``quarter``) or by 180 degrees maps to themselves.

    Such a completion is a union of the rotation's orbits of squares (4 squares, or 2, or the
    centre alone), so the search fills the first empty row with a whole orbit at a time: a
    quarter or half of the rows' choices, a tiny tree beside the full completion count. The
    other arrays are its work space (``sums`` and ``diffs`` 2n long, ``rows`` and ``tried`` n + 1).
    """
    last = n - 1
    columns[:n] = 0
    sums[:2 * n] = 0
    diffs[:2 * n] = 0
    for r in range(n):
        if board[r] >= 0:
            columns[board[r]] = 1
            sums[r + board[r]] = 1
            diffs[r - board[r] + last] = 1
    row = 0
    while row < n and board[row] >= 0:
        row += 1
    if row == n:
        return 1
    count = 0
    level = 0
    rows[0] = row
    tried[0] = -1
    while level >= 0:
        row = rows[level]
        col = tried[level]
        if col >= 0:  # back at this level: take the last orbit placed here off
            _mark_orbit(last, row, col, quarter, 0, board, columns, sums, diffs)
        col += 1
        while col < n and not _orbit_fits(last, row, col, quarter, board, columns, sums, diffs):
            col += 1
        if col == n:
            level -= 1
            continue
        _mark_orbit(last, row, col, quarter, 1, board, columns, sums, diffs)
        tried[level] = col
        following = row + 1
        while following < n and board[following] >= 0:
            following += 1
        if following == n:
            count += 1
            continue
        level += 1
        rows[level] = following
        tried[level] = -1
    return count


def finish_all(n: int, count: int, table_at: Any, out_at: Any, states_at: Any, scratch_at: Any) -> None:
    """For each row ``(top, bottom, left, right, symmetry)`` of the ``count`` x 5 ``table``: its row
    of the ``count`` x 3 ``out`` = completions, completions fixed by rotating 180 degrees, and by 90
    degrees (the last two only for a constellation fixed by that rotation); see
    :mod:`.constellations_abi` for the buffers. The caller owns every buffer, so the compiled code
    allocates nothing (it runs without numba's runtime: see :func:`compile_c_function`).
    """
    table = carray(table_at, (count, 5))
    out = carray(out_at, (count, 3))
    states = carray(states_at, (n, BATCH, 4))  # constant inner shape: offsets are shifts
    scratch = carray(scratch_at, (SCRATCH_ROWS, 2 * n + 2))
    rows, blocked, gaps, board, sizes = scratch[0], scratch[1], scratch[2], scratch[3], scratch[4]
    columns, sums, diffs, orbit_rows, tried = scratch[5], scratch[6], scratch[7], scratch[8], scratch[9]
    last = n - 1
    for c in range(count):
        top = table[c, 0]
        bottom = table[c, 1]
        left = table[c, 2]
        right = table[c, 3]
        symmetry = table[c, 4]
        depth = _setup(n, top, bottom, left, right, rows, blocked, gaps)
        out[c, 0] = (_count_plain(n, depth, blocked, gaps, states, sizes) if depth > 3
                     else _count_tiny(n, depth, blocked, gaps))
        out[c, 1] = 0
        out[c, 2] = 0
        if symmetry != PLAIN:
            board[:n] = -1
            board[0] = top
            board[last] = bottom
            board[left] = 0
            board[right] = last
            out[c, 1] = _count_rotation_fixed(n, board, False, columns, sums, diffs, orbit_rows, tried)
            if symmetry == ROT90:
                out[c, 2] = _count_rotation_fixed(n, board, True, columns, sums, diffs, orbit_rows, tried)


def compile_c_function() -> Any:
    """:func:`finish_all` compiled by numba as a C function (``numba.cfunc``, not cached by numba:
    :mod:`nqueens_cp.system.machine_code` keeps its machine code). ``.inspect_llvm()`` is the optimised LLVM IR of
    its library, ``.native_name`` the function's symbol in it, ``.address`` where numba's JIT put
    it in this process."""
    return numba.cfunc(NUMBA_SIGNATURE, nogil=True)(finish_all)
