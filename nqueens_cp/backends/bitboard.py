"""``bitboard``: backtracking on bit masks.

Bit ``c`` of ``columns`` is set when column ``c`` holds a queen. ``left`` and ``right`` hold the
squares of the current row attacked along the two diagonals; moving down one row shifts them by
one bit. The free squares of a row are ``~(columns | left | right) & full``; the lowest free
bit is taken with ``free & -free``. A pre-placed queen's row offers only its own bit.
"""

from __future__ import annotations

from typing import Iterator

from ..instance import Instance, Solution
from .base import Backend


def _row_masks(instance: Instance) -> list[int]:
    """Per row, the columns a queen may take there: all of them, or the pre-placed one."""
    full = (1 << instance.n) - 1
    masks = [full] * instance.n
    for row, col in instance.fixed:
        masks[row] = 1 << col
    return masks


class BitboardBackend(Backend):
    name = "bitboard"
    summary = "backtracking on bit masks (columns and both diagonals as integers)"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        n = instance.n
        if n == 0:
            yield ()
            return
        full = (1 << n) - 1
        row_masks = _row_masks(instance)
        cols: list[int] = [0] * n
        # Explicit stack instead of recursion: (row, remaining free bits, columns, left, right).
        stack = [(0, row_masks[0], 0, 0, 0)]
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
            next_free = row_masks[row + 1] & ~(next_columns | next_left | next_right)
            stack.append((row + 1, next_free, next_columns, next_left, next_right))

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        if unique or limit is not None:
            return super().count(instance, limit=limit, unique=unique)
        self.ensure_available()
        n = instance.n
        if n == 0:
            return 1
        full = (1 << n) - 1
        row_masks = _row_masks(instance)

        def count_from(row: int, columns: int, left: int, right: int) -> int:
            free = row_masks[row] & ~(columns | left | right)
            if row == n - 1:
                return bin(free).count("1")
            total = 0
            while free:
                bit = free & -free
                free ^= bit
                total += count_from(row + 1, columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
            return total

        return count_from(0, 0, 0, 0)
