"""Compiled (numba) kernels for the ``bitboard`` backend.

This module imports numba and numpy at import time, so only import it where a compiled kernel
is actually used (``bitboard.py`` imports it lazily). Every kernel is compiled with
``cache=True``: the machine code lands in ``__pycache__`` (or numba's user cache directory when
that is not writable) and later processes load it instead of compiling again.

All board masks and counters are int64: bit ``c`` of a mask stands for column ``c``, so boards
up to ``MAX_N`` = 32 columns fit with room to spare for the one-bit shifts; the counts of every
board in OEIS A000170 (n <= 27, about 2.3e17) fit in an int64.

Three kinds of kernel:

* **The full symmetry group** (``iter_unique_solutions``): the Somers / Takaken search.
  A solution class under the 8 symmetries of the square has 8, 4 or 2 members (1 only for n = 1).
  The search visits, for every class, a small region that contains exactly one chosen member:

  - *corner* boards, queen of row 0 in column 0. Such a class never has a symmetric member, so
    each one found counts 8. The reflection in the main diagonal maps corner boards to corner
    boards; it is removed by ``bound1``: the queen of row 1 is in column ``bound1`` and no row
    above ``bound1`` may use column 1.
  - *inner* boards, queen of row 0 in column ``bound1`` with ``1 <= bound1 < (n - 1) / 2``
    (the left half: the mirror image has it in the right half). No queen may stand on the board's
    left or right edge in the rows above ``bound1`` nor in the rows below ``bound2 = n-1-bound1``
    (``sidemask``/``lastmask``): a queen there would mean a rotation of the board has its first
    queen nearer the corner, and that rotation is the member the search keeps. What pruning cannot
    decide, ``_check_class`` does on the finished board: it compares the board with its rotations
    by 90, 180 and 270 degrees, rejects it when a rotation is smaller, and reports its class size.

  One pass gives both numbers: the classes (OEIS A002562) and ``8*c8 + 4*c4 + 2*c2`` solutions
  (OEIS A000170).
* **Plain search** with a per-row mask of allowed columns (``count_masked``, ``iter_solutions``),
  for boards with pre-placed queens (no symmetry is exact there) and for counts with a limit.

Two drivers run these searches, ``_masked_search`` and ``_symmetric_search``; each counts when it
is given an output array of zero rows and otherwise enumerates in batches: resumable
explicit-stack searches that fill a fixed-size array with up to ``batch_size`` solutions, keep
their whole search state in small arrays, and return; Python turns each batch into tuples and
calls again, so memory stays bounded however many solutions there are. The depth-first step
itself (take the lowest free square, work out the next row's attacks) is written once, in the
inlined helpers ``_take`` and ``_push``.
"""

from __future__ import annotations

from typing import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from nqueens_cp.core.instance import Queens, Solution
from nqueens_cp.core.symmetry import INVERSE, MIRROR, REVERSE
from nqueens_cp.searches.bitboard import COMPILED_MAX_N as MAX_N
from nqueens_cp.system.compiled import compiled, inline

#: Solutions returned per call to an enumeration kernel, unless the caller chooses otherwise.
DEFAULT_BATCH_SIZE = 8192

Int64Array = npt.NDArray[np.int64]


# De Bruijn sequence 0x077CB531 and its table: the index of the single set bit of a 32-bit word.
_DEBRUIJN = 0x077CB531
_DEBRUIJN_INDEX = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)


@compiled
def _column_of(bit: int) -> int:
    """The column of a one-bit mask (``bit`` < 2**32)."""
    return int(_DEBRUIJN_INDEX[((bit * _DEBRUIJN) & 0xFFFFFFFF) >> 27])


# -- counting with the symmetry group ---------------------------------------------------------


@compiled
def _check_class(board: Int64Array, n: int, bound1: int, bound2: int, endbit: int) -> int:
    """For a finished inner board (row masks in ``board``): 0 if a rotation of it is smaller, so
    another member of its class is the one counted; otherwise the size of its class (2, 4 or 8).

    A port of Takaken's ``Check``: boards are compared row by row as integers, the rotated board
    being built on the fly; a rotation equal to the board means a symmetric (smaller) class.
    """
    last = n - 1
    topbit = 1 << last
    # Rotation by 90 degrees: only possible to be <= board when row bound2 holds bit 0.
    if board[bound2] == 1:
        own = 1
        ptn = 2
        while own <= last:
            bit = 1
            you = last
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you -= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn <<= 1
        if own > last:
            return 2
    # Rotation by 180 degrees.
    if board[last] == endbit:
        own = 1
        you = last - 1
        while own <= last:
            bit = 1
            ptn = topbit
            while ptn != board[you] and board[own] >= bit:
                bit <<= 1
                ptn >>= 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            you -= 1
        if own > last:
            return 4
    # Rotation by 270 degrees.
    if board[bound1] == topbit:
        own = 1
        ptn = topbit >> 1
        while own <= last:
            bit = 1
            you = 0
            while board[you] != ptn and board[own] >= bit:
                bit <<= 1
                you += 1
            if board[own] > bit:
                return 0
            if board[own] < bit:
                break
            own += 1
            ptn >>= 1
    return 8


@inline
def _last_row_class(board: Int64Array, last_bit: int, n: int, corner: bool, bound1: int, bound2: int, endbit: int,
                    lastmask: int) -> int:
    """The last row's queen ``last_bit`` placed: the size of the finished board's class (8 for a
    corner board), or 0 when another member of its class is the one counted (an inner board with
    its last queen on a square ``lastmask`` forbids, or a smaller rotation)."""
    if corner:
        return 8
    if last_bit & lastmask:
        return 0
    board[n - 1] = last_bit
    return _check_class(board, n, bound1, bound2, endbit)


@compiled
def _lastmask(n: int, bound1: int) -> int:
    """Columns the last row may not use for an inner board with first queen in ``bound1``."""
    topbit = 1 << (n - 1)
    mask = topbit | 1
    for _ in range(bound1 - 1):
        mask |= (mask >> 1) | (mask << 1)
    return mask


@compiled
def _restrict(free: int, row: int, columns: int, corner: bool, bound1: int, bound2: int, sidemask: int) -> int:
    """The free squares of ``row`` minus those the symmetry pruning forbids there."""
    if corner:
        if row < bound1:
            free &= ~2
    elif row < bound1:
        free &= ~sidemask
    elif row == bound2:
        side = columns & sidemask
        if side == 0:
            return 0
        if side != sidemask:
            free &= sidemask
    return free


# -- the depth-first step, written once ----------------------------------------------------------
#
# Every search below keeps its stack in ``frames``, one column per row: the squares attacked in
# that row along the left-going diagonals (``frames[_LEFT]``), the columns taken (``frames[_DOWN]``),
# the squares attacked along the right-going diagonals (``frames[_RIGHT]``) and the free squares not
# yet tried (``frames[_AVAIL]``).
_LEFT, _DOWN, _RIGHT, _AVAIL = 0, 1, 2, 3


@inline
def _take(frames: Int64Array, row: int, full: int) -> tuple[int, int, int, int]:
    """Take the lowest untried free square of ``row``: its bit and the attacks it leaves on the next row."""
    free = frames[_AVAIL, row]
    bit = free & -free
    frames[_AVAIL, row] = free ^ bit
    left = ((frames[_LEFT, row] | bit) << 1) & full
    down = frames[_DOWN, row] | bit
    right = (frames[_RIGHT, row] | bit) >> 1
    return bit, left, down, right


@inline
def _push(frames: Int64Array, row: int, left: int, down: int, right: int, free: int) -> None:
    """Open ``row`` with these attacks and these free squares to try."""
    frames[_LEFT, row] = left
    frames[_DOWN, row] = down
    frames[_RIGHT, row] = right
    frames[_AVAIL, row] = free


# Slots of the small state array a resumable search keeps between calls.
_ROW, _STARTED, _DONE, _BOUND1, _CORNER = 0, 1, 2, 3, 4


# -- searches with per-row masks: counting and enumeration ---------------------------------------


@compiled
def _masked_search(
    row_masks: Int64Array, out: Int64Array, state: Int64Array, cols: Int64Array, frames: Int64Array, limit: int
) -> int:
    """Solutions when row ``r`` may only use the columns in ``row_masks[r]``, for ``n >= 2``.

    With an ``out`` of zero rows it counts (up to ``limit`` when ``limit > 0``) and returns the
    count. Otherwise it fills ``out`` with the next solutions and returns how many; resumable, the
    search state lives in ``state``, ``cols`` and ``frames``, and ``state[_DONE]`` marks the end.
    """
    n = row_masks.shape[0]
    full = (1 << n) - 1
    last = n - 1
    capacity = out.shape[0]
    counting = capacity == 0
    found = 0
    if state[_DONE]:
        return 0
    if not state[_STARTED]:
        state[_STARTED] = 1
        state[_ROW] = 0
        _push(frames, 0, 0, 0, 0, row_masks[0] & full)
    row = state[_ROW]
    while row >= 0:
        if frames[_AVAIL, row] == 0:
            row -= 1
            continue
        bit, left, down, right = _take(frames, row, full)
        cols[row] = _column_of(bit)
        if row == last:  # enumeration only: counting stops one row earlier
            for r in range(n):
                out[found, r] = cols[r]
            found += 1
            if found == capacity:
                state[_ROW] = row
                return found
            continue
        nxt = row_masks[row + 1] & ~(left | down | right)
        if nxt == 0:
            continue
        if counting and row + 1 == last:
            # Every other column is taken: the last row has exactly one way to finish.
            found += 1
            if found == limit:
                return found
            continue
        row += 1
        _push(frames, row, left, down, right, nxt)
    state[_ROW] = -1
    state[_DONE] = 1
    return found


def _new_masked_state(n: int) -> tuple[Int64Array, Int64Array, Int64Array]:
    """Fresh ``state``, ``cols`` and ``frames`` arrays for :func:`_masked_search`."""
    return np.zeros(5, np.int64), np.zeros(n, np.int64), np.zeros((4, n), np.int64)


def count_masked(row_masks: Sequence[int], limit: int | None = None) -> int:
    """Solutions when row ``r`` may only use the columns set in ``row_masks[r]``; at most ``limit``."""
    n = len(row_masks)
    _check_size(n)
    if limit is not None and limit <= 0:
        return 0
    if n <= 1:
        return 1 if n == 0 or row_masks[0] & 1 else 0
    masks = np.asarray(row_masks, dtype=np.int64)
    return int(_masked_search(masks, np.zeros((0, n), np.int64), *_new_masked_state(n), limit or 0))


def iter_solutions(row_masks: Sequence[int], batch_size: int = DEFAULT_BATCH_SIZE) -> Iterator[Solution]:
    """Every solution when row ``r`` may only use the columns in ``row_masks[r]``, in lexicographic
    order, computed ``batch_size`` at a time by the compiled kernel (as :class:`Queens`: made
    once, as a backend gives them)."""
    for batch in iter_solution_arrays(row_masks, batch_size):
        yield from map(Queens, batch.tolist())


def iter_solution_arrays(row_masks: Sequence[int], batch_size: int = DEFAULT_BATCH_SIZE) -> Iterator[Int64Array]:
    """The solutions of :func:`iter_solutions` as arrays of at most ``batch_size`` rows (a board
    per row; each array is new)."""
    n = len(row_masks)
    _check_size(n)
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if n <= 1:
        if n == 0 or row_masks[0] & 1:
            yield np.zeros((1, n), np.int64)
        return
    masks = np.asarray(row_masks, dtype=np.int64)
    out = np.zeros((batch_size, n), np.int64)
    state, cols, frames = _new_masked_state(n)
    while not state[_DONE]:
        found = _masked_search(masks, out, state, cols, frames, 0)
        yield out[:found].copy()


# -- the search with the symmetry group: counting classes and enumerating representatives ----------


@compiled
def _write_canonical(cols: Int64Array, out: Int64Array, slot: int, inverse: Int64Array, image: Int64Array) -> None:
    """Write the lexicographically smallest of the 8 images of ``cols`` into ``out[slot]``.

    Image ``k`` is ``nqueens_cp.core.symmetry.SYMMETRIES[k]``: bit ``INVERSE`` reads the inverse
    permutation, bit ``REVERSE`` reads the rows backwards, bit ``MIRROR`` reflects the columns.
    """
    n = cols.shape[0]
    for r in range(n):
        out[slot, r] = cols[r]
        inverse[cols[r]] = r
    for transform in range(1, 8):
        base = inverse if transform & INVERSE else cols
        for r in range(n):
            c = base[n - 1 - r] if transform & REVERSE else base[r]
            image[r] = n - 1 - c if transform & MIRROR else c
        for r in range(n):
            if image[r] != out[slot, r]:
                if image[r] < out[slot, r]:
                    for s in range(n):
                        out[slot, s] = image[s]
                break


@compiled
def _symmetric_search(
    n: int, out: Int64Array, state: Int64Array, board: Int64Array, frames: Int64Array, scratch: Int64Array,
    counts: Int64Array,
) -> int:
    """The search over one member of every symmetry class of the empty board, for ``n >= 4``.

    Tasks in order: corner boards for ``bound1 = 2 .. n-2``, then inner boards for
    ``bound1 = 1, 2, ...`` (see the module docstring). With an ``out`` of zero rows it runs to the
    end and adds the classes of 8, 4 and 2 members to ``counts[0:3]``. Otherwise it fills ``out``
    with the next representatives (canonical form) and returns how many; resumable through
    ``state`` (task and row), ``board`` and ``frames``. ``scratch`` has 3 rows of n: columns,
    inverse and image for canonicalisation.
    """
    last = n - 1
    full = (1 << n) - 1
    topbit = 1 << last
    sidemask = topbit | 1
    capacity = out.shape[0]
    counting = capacity == 0
    found = 0
    if state[_DONE]:
        return 0
    while True:
        if not state[_STARTED]:
            # Next task: corner boards first (bound1 = 2 .. n-2), then inner boards.
            if state[_CORNER] == 0:
                state[_CORNER] = 1
                state[_BOUND1] = 2
            else:
                state[_BOUND1] += 1
            if state[_CORNER] == 1 and state[_BOUND1] > n - 2:
                state[_CORNER] = 2
                state[_BOUND1] = 1
            if state[_CORNER] == 2 and state[_BOUND1] >= last - state[_BOUND1]:
                state[_DONE] = 1
                return found
            bound1 = state[_BOUND1]
            bit = 1 << bound1
            if state[_CORNER] == 1:
                board[0] = 1
                board[1] = bit
                row = 2
                left, down, right = ((2 | bit) << 1) & full, 1 | bit, bit >> 1
            else:
                board[0] = bit
                row = 1
                left, down, right = (bit << 1) & full, bit, bit >> 1
            free = full & ~(left | down | right)
            _push(frames, row, left, down, right,
                  _restrict(free, row, down, state[_CORNER] == 1, bound1, last - bound1, sidemask))
            state[_ROW] = row
            state[_STARTED] = 1
        corner = state[_CORNER] == 1
        bound1 = state[_BOUND1]
        bound2 = last - bound1
        first_row = 2 if corner else 1
        endbit = topbit >> bound1
        lastmask = _lastmask(n, bound1)
        row = state[_ROW]
        while row >= first_row:
            if frames[_AVAIL, row] == 0:
                row -= 1
                continue
            bit, left, down, right = _take(frames, row, full)
            board[row] = bit
            nxt = full & ~(left | down | right)
            if nxt == 0:
                continue
            if row + 1 < last:
                row += 1
                _push(frames, row, left, down, right, _restrict(nxt, row, down, corner, bound1, bound2, sidemask))
                continue
            size = _last_row_class(board, nxt, n, corner, bound1, bound2, endbit, lastmask)
            if size == 0:
                continue
            if counting:
                counts[0 if size == 8 else 1 if size == 4 else 2] += 1
                continue
            board[last] = nxt
            for r in range(n):
                scratch[0, r] = _column_of(board[r])
            _write_canonical(scratch[0], out, found, scratch[1], scratch[2])
            found += 1
            if found == capacity:
                state[_ROW] = row
                return found
        state[_STARTED] = 0


def _new_symmetric_state(n: int) -> tuple[Int64Array, Int64Array, Int64Array, Int64Array]:
    """Fresh ``state``, ``board``, ``frames`` and ``scratch`` arrays for :func:`_symmetric_search`."""
    return np.zeros(5, np.int64), np.zeros(n, np.int64), np.zeros((4, n), np.int64), np.zeros((3, n), np.int64)


def iter_unique_solutions(n: int, batch_size: int = DEFAULT_BATCH_SIZE) -> Iterator[Solution]:
    """One solution per symmetry class of the empty n x n board, each in canonical form (the
    lexicographically smallest of its images), ``batch_size`` at a time. The order is the search
    order, not sorted."""
    _check_size(n)
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if n <= 3:
        if n <= 1:
            yield tuple(range(n))
        return
    out = np.zeros((batch_size, n), np.int64)
    state, board, frames, scratch = _new_symmetric_state(n)
    counts = np.zeros(3, np.int64)
    while not state[_DONE]:
        found = _symmetric_search(n, out, state, board, frames, scratch, counts)
        yield from map(tuple, out[:found].tolist())


def _check_size(n: int) -> None:
    if not 0 <= n <= MAX_N:
        raise ValueError(f"the compiled kernel handles 0 <= n <= {MAX_N}, got {n}")
