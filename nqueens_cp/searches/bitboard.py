"""Backtracking on bit masks, in pure Python (the readable version of the compiled kernel).

Bit ``c`` of ``columns`` is set when column ``c`` holds a queen. ``left`` and ``right`` hold the
squares of the current row attacked along the two diagonals; moving down one row shifts them by
one bit. The free squares of a row are ``row_mask & ~(columns | left | right)``, where the row's
mask holds the columns it may use at all (every column, or a pre-placed queen's, less blocked
squares); the lowest free
bit is taken with ``free & -free``. :mod:`nqueens_cp.searches.bitboard_kernel` compiles the same
search with numba.
"""

from __future__ import annotations

from typing import Iterator

from nqueens_cp.core.instance import Instance, Solution

#: The largest board the compiled kernels (bitboard_kernel, constellations_numba) accept: a mask of
#: n bits, shifted once, fits in int64. Kept here, in a module without numba, so that choosing a
#: kernel does not import it.
COMPILED_MAX_N = 32


def row_masks(instance: Instance) -> list[int]:
    """Per row, the columns a queen may take there: all of them, or the pre-placed one, less the
    blocked squares."""
    full = (1 << instance.n) - 1
    masks = [full] * instance.n
    for row, col in instance.fixed:
        masks[row] = 1 << col
    for row, col in instance.blocked:
        masks[row] &= ~(1 << col)
    return masks


def bitboard_solutions(instance: Instance) -> Iterator[Solution]:
    """Every solution of ``instance`` in lexicographic order: an explicit stack of
    (row, free bits left, columns, left, right)."""
    n = instance.n
    if n == 0:
        yield ()
        return
    full = (1 << n) - 1
    masks = row_masks(instance)
    cols: list[int] = [0] * n
    stack = [(0, masks[0], 0, 0, 0)]
    while stack:
        row, free, columns, left, right = stack.pop()
        if not free:
            continue
        bit = free & -free
        stack.append((row, free ^ bit, columns, left, right))
        cols[row] = bit.bit_length() - 1
        if row == n - 1:
            yield tuple(cols)
            continue
        next_columns = columns | bit
        next_left = ((left | bit) << 1) & full
        next_right = (right | bit) >> 1
        next_free = masks[row + 1] & ~(next_columns | next_left | next_right)
        stack.append((row + 1, next_free, next_columns, next_left, next_right))


def bitboard_count(instance: Instance) -> int:
    """The number of solutions: a depth-first count that counts the free squares of the last row."""
    n = instance.n
    if n == 0:
        return 1
    full = (1 << n) - 1
    masks = row_masks(instance)
    last = n - 1
    total = 0
    stack = [(0, 0, 0, 0)]  # (row, columns, left, right)
    while stack:
        row, columns, left, right = stack.pop()
        free = masks[row] & ~(columns | left | right)
        if row == last:
            total += free.bit_count()
            continue
        while free:
            bit = free & -free
            free ^= bit
            stack.append((row + 1, columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1))
    return total
