"""``ganak``: exact model counting of the board's CNF with Ganak (via ``pyganak``), no enumeration.

Ganak (Sharma, Roy, Soos and Meel, IJCAI 2019; the 2024 version by Soos and Meel, with Arjun's
preprocessing) counts the models of a CNF by component decomposition and caching, the method of
the #SAT solvers descended from Cachet and sharpSAT. The CNF is :func:`~nqueens_cp.models.cnf.build_cnf`
with the chosen encoding; for an encoding with auxiliary variables the count is *projected* on the
queen variables (Ganak's sampling set), because an auxiliary variable can take several values for
one board (:mod:`nqueens_cp.models.model_count`), so the plain model count would overcount. With
``unique``, the lex-leader clauses of the CNF keep one board per symmetry class and Ganak counts those.

Where it stands (``benchmarks/bench_paradigms.py --counters``, ``docs/paradigms.md``): N-Queens is
a hard case for component caching (every queen constrains every row, so the formula never splits
into independent parts), and enumeration by a SAT solver or a search is far faster at every n.
"""

from __future__ import annotations

from typing import ClassVar

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.counting import ENCODING_OPTION, CnfCountingBackend
from nqueens_cp.models.cnf import QueensCnf
from nqueens_cp.system.interrupts import native_call
from nqueens_cp.system.processes import quiet_stdout


class GanakBackend(CnfCountingBackend):
    """The CNF counted exactly by Ganak, projected on the queen variables when it has auxiliaries."""

    name: ClassVar[str] = "ganak"
    summary: ClassVar[str] = "exact model count of the CNF by Ganak (pyganak), projected on the queens; counts only"
    requires: ClassVar[tuple[str, ...]] = ("pyganak", "pysat")
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        ENCODING_OPTION,
        OptionSpec("seed", int, 0, "Ganak's random seed", minimum=0),
    )

    def _count_models(self, built: QueensCnf, queens: list[int]) -> int:
        import pyganak

        counter = pyganak.Counter(seed=self.options["seed"])
        counter.add_clauses(built.cnf.clauses)
        if counter.nof_vars() < built.cnf.nv:
            counter.new_vars(built.cnf.nv - counter.nof_vars())
        if built.cnf.nv > len(queens):
            counter.set_sampling_set(queens)
        with quiet_stdout(), native_call():  # Ganak prints progress lines ("c o ...") on the process's stdout
            return int(counter.count())
