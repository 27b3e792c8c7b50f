"""``cpmpy``: the row model stated once in CPMpy (:mod:`nqueens_cp.models.cpmpy_model`), solved by any
solver CPMpy supports here (``-O solver=``: OR-Tools CP-SAT by default, Choco, Exact, z3, ...).

The point is the comparison: ``cpmpy:solver=ortools`` against this project's direct CP-SAT model
(``cpsat``), ``cpmpy:solver=choco`` against the direct Choco model (``choco``): the same model, one
written once for every solver, the other for one. What the generic route costs is measured in
``benchmarks/bench_paradigms.py`` and ``docs/paradigms.md``.

Enumeration is CPMpy's ``solveAll`` (each solver's native enumeration where it has one, else
blocking clauses), which returns when it is done: the solutions are collected, then yielded; a
``limit`` is passed on as its ``solution_limit``.
"""

from __future__ import annotations

import warnings
from functools import cache
from typing import Any, ClassVar, Iterator

from ..errors import BackendOptionError
from ..instance import Instance, Solution
from ..models.cpmpy_model import build_cpmpy_model
from ..models.geometry import ModelSize
from ..models.rows import row_model
from .base import Backend, OptionSpec
from .limits import check_fits, row_model_estimate

#: Solvers CPMpy hands the model to here that enumerate (pysat needs pypblib for the sums).
KNOWN_SOLVERS: tuple[str, ...] = ("ortools", "choco", "exact", "z3", "gcs", "minizinc", "pysat", "highs", "pumpkin",
                                  "pindakaas", "cpo", "gurobi", "cplex", "scip", "hexaly", "rc2", "pysdd")


@cache
def installed_solvers() -> tuple[str, ...]:
    """The CPMpy solvers whose library is installed here (CPMpy's own check), in CPMpy's order."""
    import importlib.util

    if importlib.util.find_spec("cpmpy") is None:
        return ()
    import cpmpy as cp

    return tuple(name for name, solver in cp.SolverLookup.base_solvers() if solver.supported())


class CpmpyBackend(Backend):
    """The row model written once in CPMpy, handed to the CPMpy solver chosen."""

    name: ClassVar[str] = "cpmpy"
    summary: ClassVar[str] = "row model stated once in CPMpy, solved by a solver CPMpy supports (OR-Tools by default)"
    requires: ClassVar[tuple[str, ...]] = ("cpmpy",)
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    #: pychoco's heap reservation, when CPMpy hands the model to Choco (see the ``choco`` backend).
    reserved_address_space: ClassVar[int] = 33 * 2**30
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("solver", str, "ortools", "CPMpy solver (any that CPMpy finds installed)"),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        # Checked by name only: asking CPMpy which solvers are installed imports them all, and
        # pychoco reserves 32 GiB of address space in the process (a comparison's parent process
        # would hand that to every worker it forks, under their address-space limit).
        if self.options["solver"] not in KNOWN_SOLVERS:
            raise BackendOptionError(
                f"option solver: unknown value {self.options['solver']!r} (choose from {', '.join(KNOWN_SOLVERS)})")

    def _check_solver(self) -> None:
        """Refuse, in one line, a known CPMpy solver whose library is not installed here."""
        solvers = installed_solvers()
        if self.options["solver"] not in solvers:
            raise BackendOptionError(f"cpmpy: solver {self.options['solver']} is not installed here "
                                     f"(installed: {', '.join(solvers) or 'none'})")

    @classmethod
    def option_choices(cls, spec: OptionSpec) -> tuple[Any, ...] | None:
        return installed_solvers() or None if spec.name == "solver" else spec.choices

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return row_model(instance).size()

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        import cpmpy as cp

        check_fits(row_model_estimate(instance, "CPMpy"), backend=self.name)
        self._check_solver()
        rows = row_model(instance)
        if not rows.feasible:
            return
        if not rows.rows:
            yield rows.board(())
            return
        built = build_cpmpy_model(rows)
        solver = cp.SolverLookup.get(self.options["solver"], built.model)
        found: list[Solution] = []

        def keep() -> None:
            found.append(rows.board([int(v) for v in built.queens.value()]))

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "solver state will be invalid after this call"
            solver.solveAll(display=keep, solution_limit=limit)
        yield from found

    def _first_solution(self, instance: Instance) -> Solution | None:
        import cpmpy as cp

        check_fits(row_model_estimate(instance, "CPMpy"), backend=self.name)
        self._check_solver()
        rows = row_model(instance)
        if not rows.feasible:
            return None
        if not rows.rows:
            return rows.board(())
        built = build_cpmpy_model(rows)
        solver = cp.SolverLookup.get(self.options["solver"], built.model)
        if not solver.solve():
            return None
        return rows.board([int(v) for v in built.queens.value()])
