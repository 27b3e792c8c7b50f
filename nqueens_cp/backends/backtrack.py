"""``backtrack``: the readable reference search.

Queens are placed one row at a time. Three boolean arrays record which columns and which
diagonals are taken, so each conflict check is O(1): the squares of one "up" diagonal share
``row + col`` and those of one "down" diagonal share ``row - col`` (offset by n - 1 to index
from 0). A pre-placed queen's row offers only its column.
"""

from __future__ import annotations

from typing import Iterator

from ..instance import Instance, Solution
from .base import Backend


class BacktrackBackend(Backend):
    name = "backtrack"
    summary = "recursive backtracking, one row at a time, O(1) conflict checks (readable reference)"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        n = instance.n
        if n == 0:
            return iter([()])
        pre_placed = instance.placements
        last = n - 1
        column_taken = [False] * n
        up_taken = [False] * (2 * n - 1)  # indexed by row + col
        down_taken = [False] * (2 * n - 1)  # indexed by row - col + n - 1
        placed = [0] * n
        # The columns each row may try, built once: all of them, or the pre-placed one.
        every_column = tuple(range(n))
        candidates = [(pre_placed[row],) if row in pre_placed else every_column for row in range(n)]

        def place(row: int) -> Iterator[Solution]:
            for col in candidates[row]:
                up, down = row + col, row - col + last
                if column_taken[col] or up_taken[up] or down_taken[down]:
                    continue
                placed[row] = col
                if row == last:  # the board is full: no need to go one level deeper
                    yield tuple(placed)
                    continue
                column_taken[col] = up_taken[up] = down_taken[down] = True
                yield from place(row + 1)
                column_taken[col] = up_taken[up] = down_taken[down] = False

        return place(0)
