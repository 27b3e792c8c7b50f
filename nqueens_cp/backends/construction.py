"""``construction``: one solution of the empty board from a closed form (:mod:`nqueens_cp.searches.constructions`).

``method=evens-odds`` is Hoffman, Loessi and Moore's construction (1969), ``method=bernhardsson``
Bernhardsson's formulas (1991); both O(n) with no search, for every n (n = 2 and 3: no solution,
which is a theorem). A closed form places every queen itself, so an instance with pre-placed
queens or blocked squares is refused (use ``localsearch``); it neither counts nor enumerates.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.columns import ArrayAnswerBackend
from nqueens_cp.backends.framework.limits import linear_estimate
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import ModelEstimate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Array bytes per row: the int64 working columns and the int32 answer.
BYTES_PER_ROW = 8 + 8 + 4


class ConstructionBackend(ArrayAnswerBackend):
    name = "construction"
    summary = "one solution of the empty board from a closed form (Hoffman-Loessi-Moore, Bernhardsson), O(n)"
    #: Every queen is placed by a closed form: pre-placed queens cannot be honoured (use localsearch).
    supports_fixed = False
    option_specs = (
        OptionSpec("method", str, "evens-odds",
                   "evens-odds: Hoffman, Loessi and Moore (1969); bernhardsson: Bernhardsson (1991)",
                   choices=("evens-odds", "bernhardsson")),
    )

    def _estimate(self, instance: Instance, *, as_tuple: bool) -> ModelEstimate:
        """The memory of the construction's arrays, and of the answer's tuple when ``as_tuple``."""
        return linear_estimate(f"{self.options['method']} construction", instance.n, BYTES_PER_ROW, as_tuple=as_tuple,
                               instead="use the command line, which streams the answer" if as_tuple
                               else "use a smaller board or raise the limit")

    def _first_columns(self, instance: Instance) -> npt.NDArray[np.int32] | None:
        self.check_fits(self.memory_estimate(instance))
        from nqueens_cp.searches.constructions import construction

        return construction(instance.n, self.options["method"])
