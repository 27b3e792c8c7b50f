"""``backtrack``: the hand-written searches, readable Python (:mod:`nqueens_cp.searches`).

``search=rows`` is the reference search (rows in order, columns left to right,
:mod:`~nqueens_cp.searches.rows`); ``search=firstfail`` the first-fail search (most constrained
row first, middle-out columns, forward checking, :mod:`~nqueens_cp.searches.firstfail`). The
default, ``auto``, counts and enumerates with ``rows`` and looks for a first solution with
``firstfail``, which answers for boards of thousands of rows where row order does not get past 30.
"""

from __future__ import annotations

from typing import Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.row_order import RowOrderBackend
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import is_canonical
from nqueens_cp.searches.firstfail import firstfail_first, firstfail_solutions
from nqueens_cp.searches.rows import row_solutions


class BacktrackBackend(RowOrderBackend):
    name = "backtrack"
    summary = "readable backtracking: rows in order (the reference), or first-fail for a first solution"
    supports_blocked = True
    option_specs = (
        OptionSpec(
            "search", str, "auto",
            "rows: rows in order, columns left to right; firstfail: most constrained row first, "
            "middle-out columns, forward checking; auto: firstfail for a first solution, rows otherwise",
            choices=("auto", "rows", "firstfail"),
        ),
        OptionSpec("seed", int, 0, "firstfail: seed of the restarts' tie-breaks (first solution only)", minimum=0),
    )
    row_order_label = "backtrack (option search=rows)"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, None)

    def _first_solution(self, instance: Instance) -> Solution | None:
        self._refuse_row_order_first(instance)
        if self._searches_rows():
            return super()._first_solution(instance)
        return firstfail_first(instance, seed=self.options["seed"])

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        # The representative is <= its mirror image, so its row-0 column is at most (n-1)//2:
        # the search skips the other half of row 0, then keeps the canonical solutions.
        half = (instance.n - 1) // 2
        return (sol for sol in self._search(instance, half) if is_canonical(sol))

    def _search(self, instance: Instance, first_row_max: int | None) -> Iterator[Solution]:
        if self.options["search"] == "firstfail":
            return firstfail_solutions(instance, first_row_max=first_row_max)
        return row_solutions(instance, first_row_max=first_row_max)
