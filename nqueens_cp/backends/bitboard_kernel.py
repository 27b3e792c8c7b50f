"""Compiled (numba) kernels for the ``bitboard`` backend.

This module imports numba and numpy at import time, so only import it where a compiled kernel
is actually used (``bitboard.py`` imports it lazily). Every kernel is compiled with
``cache=True``: the machine code lands in ``__pycache__`` (or numba's user cache directory when
that is not writable) and later processes load it instead of compiling again.

All board masks and counters are int64: bit ``c`` of a mask stands for column ``c``, so boards
up to ``MAX_N`` = 32 columns fit with room to spare for the one-bit shifts; the counts of every
board in OEIS A000170 (n <= 27, about 2.3e17) fit in an int64.

Three kinds of kernel:

* **Counting with the full symmetry group** (``count_symmetric``): the Somers / Takaken search.
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
* **Plain counting** (``count_masked``) with a per-row mask of allowed columns, for boards with
  pre-placed queens (no symmetry is exact there) and for counts with a limit.
* **Enumeration in batches** (``iter_solutions``, ``iter_unique_solutions``): resumable
  explicit-stack searches that fill a fixed-size array with up to ``batch_size`` solutions, keep
  their whole search state in small arrays, and return; Python turns each batch into tuples and
  calls again. Memory stays bounded however many solutions there are.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from ..instance import Solution

#: The largest board the compiled kernels accept (a mask of n bits, shifted once, fits in int64).
MAX_N = 32

#: Solutions returned per call to an enumeration kernel, unless the caller chooses otherwise.
DEFAULT_BATCH_SIZE = 8192

Int64Array = npt.NDArray[np.int64]
_F = TypeVar("_F", bound=Callable[..., Any])


def _compiled(func: _F) -> _F:
    """``numba.njit(cache=True)``, typed for mypy (numba ships no type information)."""
    return cast(_F, numba.njit(cache=True, nogil=True)(func))


# De Bruijn sequence 0x077CB531 and its table: the index of the single set bit of a 32-bit word.
_DEBRUIJN = 0x077CB531
_DEBRUIJN_INDEX = np.array(
    [0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8,
     31, 27, 13, 23, 21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9],
    dtype=np.int64,
)


@_compiled
def _column_of(bit: int) -> int:
    """The column of a one-bit mask (``bit`` < 2**32)."""
    return int(_DEBRUIJN_INDEX[((bit * _DEBRUIJN) & 0xFFFFFFFF) >> 27])


# -- counting with the symmetry group ---------------------------------------------------------


@_compiled
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


@_compiled
def _lastmask(n: int, bound1: int) -> int:
    """Columns the last row may not use for an inner board with first queen in ``bound1``."""
    topbit = 1 << (n - 1)
    mask = topbit | 1
    for _ in range(bound1 - 1):
        mask |= (mask >> 1) | (mask << 1)
    return mask


@_compiled
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


@_compiled
def _count_corner(n: int, bound1: int) -> int:
    """Corner boards (row 0 in column 0, row 1 in column ``bound1``): one per class of 8."""
    last = n - 1
    full = (1 << n) - 1
    lefts = np.zeros(n, np.int64)
    downs = np.zeros(n, np.int64)
    rights = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    bit = 1 << bound1
    row = 2
    lefts[row] = ((2 | bit) << 1) & full
    downs[row] = 1 | bit
    rights[row] = bit >> 1
    free = full & ~(lefts[row] | downs[row] | rights[row])
    if row < bound1:
        free &= ~2
    avail[row] = free
    count = 0
    while row >= 2:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        left = ((lefts[row] | bit) << 1) & full
        down = downs[row] | bit
        right = (rights[row] | bit) >> 1
        nxt = full & ~(left | down | right)
        if nxt == 0:
            continue
        if row + 1 == last:
            count += 1
            continue
        row += 1
        if row < bound1:
            nxt &= ~2
        lefts[row] = left
        downs[row] = down
        rights[row] = right
        avail[row] = nxt
    return count


@_compiled
def _count_inner(n: int, bound1: int, counts: Int64Array) -> None:
    """Inner boards with row 0 in column ``bound1``: adds the classes of 8, 4, 2 to ``counts[0:3]``."""
    last = n - 1
    full = (1 << n) - 1
    topbit = 1 << last
    sidemask = topbit | 1
    bound2 = last - bound1
    endbit = topbit >> bound1
    lastmask = _lastmask(n, bound1)
    board = np.zeros(n, np.int64)
    lefts = np.zeros(n, np.int64)
    downs = np.zeros(n, np.int64)
    rights = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    bit = 1 << bound1
    board[0] = bit
    row = 1
    lefts[row] = (bit << 1) & full
    downs[row] = bit
    rights[row] = bit >> 1
    free = full & ~(lefts[row] | downs[row] | rights[row])
    avail[row] = _restrict(free, row, bit, False, bound1, bound2, sidemask)
    c8 = 0
    c4 = 0
    c2 = 0
    while row >= 1:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        board[row] = bit
        left = ((lefts[row] | bit) << 1) & full
        down = downs[row] | bit
        right = (rights[row] | bit) >> 1
        nxt = full & ~(left | down | right)
        if nxt == 0:
            continue
        if row + 1 == last:
            if (nxt & lastmask) == 0:
                board[last] = nxt
                size = _check_class(board, n, bound1, bound2, endbit)
                if size == 8:
                    c8 += 1
                elif size == 4:
                    c4 += 1
                elif size == 2:
                    c2 += 1
            continue
        row += 1
        nxt = _restrict(nxt, row, down, False, bound1, bound2, sidemask)
        lefts[row] = left
        downs[row] = down
        rights[row] = right
        avail[row] = nxt
    counts[0] += c8
    counts[1] += c4
    counts[2] += c2


@_compiled
def _symmetric_counts(n: int) -> Int64Array:
    """``[c8, c4, c2]``: the classes of each size, for n >= 4."""
    counts = np.zeros(3, np.int64)
    for bound1 in range(2, n - 1):
        counts[0] += _count_corner(n, bound1)
    bound1 = 1
    while bound1 < n - 1 - bound1:
        _count_inner(n, bound1, counts)
        bound1 += 1
    return counts


def _small_counts(n: int) -> tuple[int, int]:
    """Total and classes for n <= 3, where the corner/inner split does not apply."""
    return (1, 1) if n <= 1 else (0, 0)


def count_symmetric(n: int) -> tuple[int, int]:
    """``(total, classes)`` for the empty n x n board: OEIS A000170(n) and A002562(n), one pass."""
    _check_size(n)
    if n <= 3:
        return _small_counts(n)
    c8, c4, c2 = (int(value) for value in _symmetric_counts(n))
    return 8 * c8 + 4 * c4 + 2 * c2, c8 + c4 + c2


# -- plain counting with per-row masks ---------------------------------------------------------


@_compiled
def _count_masked(row_masks: Int64Array, limit: int) -> int:
    """Solutions when row ``r`` may use the columns in ``row_masks[r]`` (stop at ``limit`` if > 0)."""
    n = row_masks.shape[0]
    full = (1 << n) - 1
    if n == 1:
        return 1 if row_masks[0] & 1 else 0
    last = n - 1
    lefts = np.zeros(n, np.int64)
    downs = np.zeros(n, np.int64)
    rights = np.zeros(n, np.int64)
    avail = np.zeros(n, np.int64)
    avail[0] = row_masks[0] & full
    row = 0
    count = 0
    while row >= 0:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        left = ((lefts[row] | bit) << 1) & full
        down = downs[row] | bit
        right = (rights[row] | bit) >> 1
        nxt = row_masks[row + 1] & ~(left | down | right)
        if nxt == 0:
            continue
        if row + 1 == last:
            # One column is left for the last row: at most one way to finish.
            count += 1
            if count == limit:
                return count
            continue
        row += 1
        lefts[row] = left
        downs[row] = down
        rights[row] = right
        avail[row] = nxt
    return count


def count_masked(row_masks: Sequence[int], limit: int | None = None) -> int:
    """Solutions when row ``r`` may only use the columns set in ``row_masks[r]``; at most ``limit``."""
    n = len(row_masks)
    _check_size(n)
    if n == 0:
        return 1 if limit is None or limit > 0 else 0
    if limit is not None and limit <= 0:
        return 0
    return int(_count_masked(np.asarray(row_masks, dtype=np.int64), 0 if limit is None else limit))


# -- enumeration in batches --------------------------------------------------------------------

# Slots of the small state array an enumeration kernel keeps between calls.
_ROW, _STARTED, _DONE, _BOUND1, _CORNER = 0, 1, 2, 3, 4


@_compiled
def _enumerate_masked(
    row_masks: Int64Array,
    out: Int64Array,
    state: Int64Array,
    cols: Int64Array,
    lefts: Int64Array,
    downs: Int64Array,
    rights: Int64Array,
    avail: Int64Array,
) -> int:
    """Fill ``out`` with the next solutions (one row of columns each); returns how many.

    Resumable: the search state lives in ``state``, ``cols`` and the four stack arrays, so the
    next call carries on where this one stopped. ``state[_DONE]`` is set when the search is over.
    """
    n = row_masks.shape[0]
    full = (1 << n) - 1
    capacity = out.shape[0]
    found = 0
    if state[_DONE]:
        return 0
    if not state[_STARTED]:
        state[_STARTED] = 1
        state[_ROW] = 0
        lefts[0] = 0
        downs[0] = 0
        rights[0] = 0
        avail[0] = row_masks[0] & full
    row = state[_ROW]
    while row >= 0:
        free = avail[row]
        if free == 0:
            row -= 1
            continue
        bit = free & -free
        avail[row] = free ^ bit
        cols[row] = _column_of(bit)
        if row == n - 1:
            for r in range(n):
                out[found, r] = cols[r]
            found += 1
            if found == capacity:
                state[_ROW] = row
                return found
            continue
        left = ((lefts[row] | bit) << 1) & full
        down = downs[row] | bit
        right = (rights[row] | bit) >> 1
        nxt = row_masks[row + 1] & ~(left | down | right)
        if nxt == 0:
            continue
        row += 1
        lefts[row] = left
        downs[row] = down
        rights[row] = right
        avail[row] = nxt
    state[_ROW] = -1
    state[_DONE] = 1
    return found


def iter_solutions(row_masks: Sequence[int], batch_size: int = DEFAULT_BATCH_SIZE) -> Iterator[Solution]:
    """Every solution when row ``r`` may only use the columns in ``row_masks[r]``, in lexicographic
    order, computed ``batch_size`` at a time by the compiled kernel."""
    n = len(row_masks)
    _check_size(n)
    if batch_size < 1:
        raise ValueError(f"batch_size must be >= 1, got {batch_size}")
    if n == 0:
        yield ()
        return
    masks = np.asarray(row_masks, dtype=np.int64)
    out = np.zeros((batch_size, n), np.int64)
    state = np.zeros(5, np.int64)
    cols, lefts, downs, rights, avail = (np.zeros(n, np.int64) for _ in range(5))
    while not state[_DONE]:
        found = _enumerate_masked(masks, out, state, cols, lefts, downs, rights, avail)
        yield from map(tuple, out[:found].tolist())


@_compiled
def _write_canonical(cols: Int64Array, out: Int64Array, slot: int, inverse: Int64Array, image: Int64Array) -> None:
    """Write the lexicographically smallest of the 8 images of ``cols`` into ``out[slot]``."""
    n = cols.shape[0]
    for r in range(n):
        out[slot, r] = cols[r]
        inverse[cols[r]] = r
    for transform in range(1, 8):
        base = inverse if transform & 4 else cols
        for r in range(n):
            c = base[n - 1 - r] if transform & 2 else base[r]
            image[r] = n - 1 - c if transform & 1 else c
        for r in range(n):
            if image[r] != out[slot, r]:
                if image[r] < out[slot, r]:
                    for s in range(n):
                        out[slot, s] = image[s]
                break


@_compiled
def _enumerate_unique(
    n: int,
    out: Int64Array,
    state: Int64Array,
    board: Int64Array,
    lefts: Int64Array,
    downs: Int64Array,
    rights: Int64Array,
    avail: Int64Array,
    scratch: Int64Array,
) -> int:
    """Fill ``out`` with the next class representatives (canonical form); returns how many.

    The same search as the symmetric count (corner boards for ``bound1 = 2 .. n-2``, then inner
    boards for ``bound1 = 1, 2, ...``), run as resumable tasks: ``state`` records the task and the
    row reached. ``scratch`` has 3 rows of n: columns, inverse and image for canonicalisation.
    """
    last = n - 1
    full = (1 << n) - 1
    topbit = 1 << last
    sidemask = topbit | 1
    capacity = out.shape[0]
    found = 0
    if state[_DONE]:
        return 0
    cols = scratch[0]
    inverse = scratch[1]
    image = scratch[2]
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
                lefts[row] = ((2 | bit) << 1) & full
                downs[row] = 1 | bit
                rights[row] = bit >> 1
            else:
                board[0] = bit
                row = 1
                lefts[row] = (bit << 1) & full
                downs[row] = bit
                rights[row] = bit >> 1
            free = full & ~(lefts[row] | downs[row] | rights[row])
            avail[row] = _restrict(
                free, row, downs[row], state[_CORNER] == 1, bound1, last - bound1, sidemask
            )
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
            free = avail[row]
            if free == 0:
                row -= 1
                continue
            bit = free & -free
            avail[row] = free ^ bit
            board[row] = bit
            left = ((lefts[row] | bit) << 1) & full
            down = downs[row] | bit
            right = (rights[row] | bit) >> 1
            nxt = full & ~(left | down | right)
            if nxt == 0:
                continue
            if row + 1 == last:
                if corner or (nxt & lastmask) == 0:
                    board[last] = nxt
                    if corner or _check_class(board, n, bound1, bound2, endbit) != 0:
                        for r in range(n):
                            cols[r] = _column_of(board[r])
                        _write_canonical(cols, out, found, inverse, image)
                        found += 1
                        if found == capacity:
                            state[_ROW] = row
                            return found
                continue
            row += 1
            lefts[row] = left
            downs[row] = down
            rights[row] = right
            avail[row] = _restrict(nxt, row, down, corner, bound1, bound2, sidemask)
        state[_STARTED] = 0


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
    state = np.zeros(5, np.int64)
    board, lefts, downs, rights, avail = (np.zeros(n, np.int64) for _ in range(5))
    scratch = np.zeros((3, n), np.int64)
    while not state[_DONE]:
        found = _enumerate_unique(n, out, state, board, lefts, downs, rights, avail, scratch)
        yield from map(tuple, out[:found].tolist())


def _check_size(n: int) -> None:
    if not 0 <= n <= MAX_N:
        raise ValueError(f"the compiled kernel handles 0 <= n <= {MAX_N}, got {n}")
