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
from nqueens_cp.backends.framework.counting import CountingBackend
from nqueens_cp.backends.framework.limits import check_fits, cnf_estimate
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cnf import DEFAULT_ENCODING, ENCODINGS, build_cnf
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.system.interrupts import native_call
from nqueens_cp.system.processes import quiet_stdout


class GanakBackend(CountingBackend):
    """The CNF counted exactly by Ganak, projected on the queen variables when it has auxiliaries."""

    name: ClassVar[str] = "ganak"
    summary: ClassVar[str] = "exact model count of the CNF by Ganak (pyganak), projected on the queens; counts only"
    requires: ClassVar[tuple[str, ...]] = ("pyganak", "pysat")
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("encoding", str, DEFAULT_ENCODING, "cardinality encoding of the CNF", choices=ENCODINGS),
        OptionSpec("seed", int, 0, "Ganak's random seed", minimum=0),
    )

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        check_fits(cnf_estimate(instance, self.options["encoding"]), backend=self.name)
        return build_cnf(instance, self.options["encoding"], unique=unique).size()

    def _count_all(self, instance: Instance, unique: bool) -> int:
        import pyganak

        check_fits(cnf_estimate(instance, self.options["encoding"]), backend=self.name)
        built = build_cnf(instance, self.options["encoding"], unique=unique)
        counter = pyganak.Counter(seed=self.options["seed"])
        counter.add_clauses(built.cnf.clauses)
        queens = len(built.squares)
        if counter.nof_vars() < built.cnf.nv:
            counter.new_vars(built.cnf.nv - counter.nof_vars())
        if built.cnf.nv > queens:
            counter.set_sampling_set(list(range(1, len(built.squares) + 1)))
        with quiet_stdout(), native_call():  # Ganak prints progress lines ("c o ...") on the process's stdout
            return int(counter.count())
