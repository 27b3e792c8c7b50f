"""``sets``: row-by-row backtracking with the used columns and diagonals kept in three sets."""

from __future__ import annotations

from typing import Iterator

from nqueens_cp.backends import Backend
from nqueens_cp.core.instance import Instance, Solution


class SetsBackend(Backend):
    name = "sets"
    summary = ("row-by-row backtracking over sets of used columns and diagonals"
               " (an example from another package)")

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        n, fixed = instance.n, instance.fixed_by_row
        columns: list[int] = []

        def place(row: int, used: set[int], up: set[int], down: set[int]) -> Iterator[Solution]:
            if row == n:
                yield tuple(columns)
                return
            for col in [fixed[row]] if row in fixed else range(n):
                if col in used or row + col in up or row - col in down:
                    continue
                columns.append(col)
                yield from place(row + 1, used | {col}, up | {row + col}, down | {row - col})
                columns.pop()

        return place(0, set(), set(), set())
