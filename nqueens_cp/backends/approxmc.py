"""``approxmc``: approximate model counting of the board's CNF with ApproxMC (via ``pyapproxmc``).

ApproxMC (Chakraborty, Meel and Vardi, CP 2013 and IJCAI 2016; version 4 by Soos, Gocht and Meel,
CAV 2020) adds random XOR constraints (hashes) until a cell of the solution space holds a few
dozen solutions, counts that cell with CryptoMiniSat, and multiplies back. Its answer ``e`` is
*probably approximately correct*: with probability at least ``1 - delta``,
``c / (1 + epsilon) <= e <= c * (1 + epsilon)`` for the true count ``c``. The defaults are
ApproxMC's own (``epsilon = 0.8``, ``delta = 0.2``); a smaller tolerance costs more solver calls
(about ``1/epsilon²`` solutions per cell, ``log(1/delta)`` repetitions). The count is projected on the
queen variables (the sampling set), for every encoding, as for ``ganak``; ``unique`` counts the
lex-leader CNF.

The seed is fixed (``-O seed=``), so a count is reproducible. ``tests/test_backends_contract.py``
checks the counts of n = 5..9 against OEIS A000170 within the stated bound, with the default
tolerance and with ``epsilon=0.3, delta=0.05``; ApproxMC 4.4.0 counts 1 for the CNFs with 2 models
(n = 4, a 5 x 5 completion), outside its bound, which those tests keep as expected failures.
"""

from __future__ import annotations

from typing import ClassVar

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.counting import ENCODING_OPTION, CnfCountingBackend
from nqueens_cp.models.cnf import QueensCnf
from nqueens_cp.system.interrupts import in_child


class ApproxMcBackend(CnfCountingBackend):
    """The CNF counted by ApproxMC within (epsilon, delta), projected on the queen variables."""

    name: ClassVar[str] = "approxmc"
    summary: ClassVar[str] = ("approximate model count of the CNF by ApproxMC (pyapproxmc), within (1 + epsilon) "
                              "with probability 1 - delta; counts only")
    requires: ClassVar[tuple[str, ...]] = ("pyapproxmc", "pysat")
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("epsilon", float, 0.8, "tolerance: the count is within a factor 1 + epsilon", minimum=0.01),
        OptionSpec("delta", float, 0.2, "confidence: the bound holds with probability 1 - delta", minimum=0.001),
        OptionSpec("seed", int, 1, "random seed of the hash functions", minimum=0),
        ENCODING_OPTION,
    )

    def __init__(self, *, memory_budget_mb: float | None = None, **options: object) -> None:
        super().__init__(memory_budget_mb=memory_budget_mb, **options)
        if self.options["delta"] >= 1:
            from nqueens_cp.core.errors import BackendOptionError

            raise BackendOptionError(f"option delta: must be < 1, got {self.options['delta']!r}")

    @property
    def count_tolerance(self) -> float:
        return float(self.options["epsilon"])

    def _count_models(self, built: QueensCnf, queens: list[int]) -> int:
        import pyapproxmc

        counter = pyapproxmc.Counter(seed=self.options["seed"], epsilon=self.options["epsilon"],
                                     delta=self.options["delta"])
        counter.add_clauses(built.cnf.clauses)
        # ApproxMC holds the GIL until it is done: a signal could not stop it in this process
        cell, hashes = in_child(lambda: counter.count(queens))
        return int(cell) << int(hashes)  # cell count times 2^hashes
