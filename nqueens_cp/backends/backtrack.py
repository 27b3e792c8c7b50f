"""``backtrack``: the readable reference search.

Queens are placed one row at a time. Three boolean arrays record which columns and which
diagonals are taken, so each conflict check is O(1): the squares of one "up" diagonal share
``row + col`` and those of one "down" diagonal share ``row - col`` (offset by n - 1 to index
from 0). A pre-placed queen's row offers only its column.
"""

from __future__ import annotations

import sys
from typing import Iterator

from ..firstfail import firstfail_first, firstfail_solutions
from ..instance import Instance, Solution
from ..symmetry import is_canonical
from .base import Backend, OptionSpec


class BacktrackBackend(Backend):
    name = "backtrack"
    summary = "recursive backtracking, one row at a time, O(1) conflict checks (readable reference)"
    option_specs = (
        OptionSpec(
            "search", str, "rows",
            "rows: rows in order, columns left to right; firstfail: most constrained row first, "
            "middle-out columns, forward checking (scales to n = 1024)",
            choices=("rows", "firstfail"),
        ),
        OptionSpec("seed", int, 0, "firstfail: seed of the restarts' tie-breaks (first solution only)", minimum=0),
    )

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if limit == 1 and self.options["search"] == "firstfail":
            return self._first_with_restarts(instance)
        return self._search(instance, None)

    def _first_with_restarts(self, instance: Instance) -> Iterator[Solution]:
        solution = firstfail_first(instance, seed=self.options["seed"])
        if solution is not None:
            yield solution

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        # The representative is <= its mirror image, so its row-0 column is at most (n-1)//2:
        # the search skips the other half of row 0, then keeps the canonical solutions.
        half = (instance.n - 1) // 2
        return (sol for sol in self._search(instance, half) if is_canonical(sol))

    def _search(self, instance: Instance, first_row_max: int | None) -> Iterator[Solution]:
        if self.options["search"] == "firstfail":
            return firstfail_solutions(instance, first_row_max=first_row_max)
        return self._rows(instance, first_row_max)

    def _rows(self, instance: Instance, first_row_max: int | None) -> Iterator[Solution]:
        n = instance.n
        if n == 0:
            return iter([()])
        if sys.getrecursionlimit() < n + 100:
            sys.setrecursionlimit(n + 100)  # one generator frame per row
        pre_placed = instance.placements
        last = n - 1
        column_taken = [False] * n
        up_taken = [False] * (2 * n - 1)  # indexed by row + col
        down_taken = [False] * (2 * n - 1)  # indexed by row - col + n - 1
        placed = [0] * n
        # The columns each row may try, built once: all of them, or the pre-placed one.
        every_column = tuple(range(n))
        candidates = [(pre_placed[row],) if row in pre_placed else every_column for row in range(n)]
        if first_row_max is not None and 0 not in pre_placed:
            candidates[0] = every_column[: first_row_max + 1]  # symmetry: only the left half of row 0

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
