"""``localsearch``: one solution by local search, compiled with numba (:mod:`nqueens_cp.searches`).

``method=swap`` (the default) is the linear-time swap search of Sosic and Gu (1991),
``method=minconflicts`` min-conflicts (Minton et al., 1992): see
:mod:`~nqueens_cp.searches.localsearch_kernel`. It finds one solution, honouring pre-placed
queens (their rows never move) and blocked squares; it neither counts nor enumerates (refused with
one line). It proves nothing: when its bound (``restarts`` starts of ``max_steps`` repair steps,
``time_limit`` seconds) is reached it raises :class:`~nqueens_cp.core.errors.SearchBoundError`, "no
completion found within the bound"; only what is certain without search (pre-placed queens that
attack each other, a fully blocked row, n = 2 or 3) is answered "no solution". Boards up to
``MAX_N`` rows, as memory allows: the arrays are estimated before they are made.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.columns import ArrayAnswerBackend
from nqueens_cp.backends.framework.limits import linear_estimate
from nqueens_cp.core.errors import BackendUnavailableError, SearchBoundError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import ModelEstimate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Array bytes per row of each method (kept equal to ``searches.localsearch.BYTES_PER_ROW``;
#: repeated so that the estimate imports neither numpy nor numba).
BYTES_PER_ROW = {"swap": 18, "minconflicts": 20}


class LocalSearchBackend(ArrayAnswerBackend):
    name = "localsearch"
    summary = "local search for one solution (Sosic-Gu swaps, or min-conflicts), compiled with numba"
    supports_blocked = True
    option_specs = (
        OptionSpec(
            "method", str, "swap",
            "swap: Sosic and Gu's linear-time search on a permutation (diagonal collisions repaired by "
            "swaps); minconflicts: Minton et al.'s min-conflicts (a queen moves within its row, O(n) a step)",
            choices=("swap", "minconflicts"),
        ),
        OptionSpec("seed", int, 0, "seed of the random draws: the same seed gives the same answer", minimum=0),
        OptionSpec("restarts", int, 100, "fresh starts after the first before giving up", minimum=0),
        OptionSpec("max_steps", int, 0,
                   "repair steps per start (0: 1000 + 100 n for swap, 1000 + 20 n for minconflicts)", minimum=0),
        OptionSpec("time_limit", float, 0.0, "seconds before giving up (0: no time limit)", minimum=0),
    )

    def _estimate(self, instance: Instance, *, as_tuple: bool) -> ModelEstimate:
        """The memory of the search's arrays, and of the answer's tuple when ``as_tuple``."""
        method = self.options["method"]
        return linear_estimate(f"{method} local search", instance.n, BYTES_PER_ROW[method], as_tuple=as_tuple,
                               instead="use a smaller board, or the command line, which streams the answer"
                               if as_tuple else "use a smaller board or raise the limit")

    def _first_columns(self, instance: Instance) -> npt.NDArray[np.int32] | None:
        self.check_fits(self._estimate(instance, as_tuple=False))
        try:
            from nqueens_cp.searches.localsearch import local_search
        except ImportError as error:
            raise BackendUnavailableError(f"backend localsearch needs numba and numpy ({error})") from None
        outcome = local_search(
            instance, method=self.options["method"], seed=self.options["seed"], restarts=self.options["restarts"],
            max_steps=self.options["max_steps"] or None, time_limit=self.options["time_limit"] or None,
        )
        if outcome.status == "bound":
            raise SearchBoundError(outcome.reason)
        return outcome.columns
