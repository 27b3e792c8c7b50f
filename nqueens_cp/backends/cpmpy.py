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

import importlib.metadata
import importlib.util
import itertools
import re
import shutil
import subprocess
import warnings
from functools import cache
from typing import Any, ClassVar, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import RowModelBackend
from nqueens_cp.core.errors import BackendOptionError, SearchStoppedError, SolverError, did_you_mean
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.models.cpmpy_model import build_cpmpy_family_model, build_cpmpy_model
from nqueens_cp.models.rows import row_model
from nqueens_cp.system.interrupts import in_child, native_call, python_signal_handlers_back
from nqueens_cp.system.processes import prepare_highspy

#: The solvers CPMpy can hand the model to (CPMpy's order): the Python modules each needs, and the
#: distribution whose version CPMpy requires (at least that version), as CPMpy's own checks ask. The
#: licensed ones (gurobi, cpo, cplex, hexaly) are listed when their package is found; CPMpy checks the
#: licence when one is used.
SOLVER_PACKAGES: dict[str, tuple[tuple[str, ...], tuple[str, str] | None]] = {
    "ortools": (("ortools",), None), "z3": (("z3",), None), "minizinc": (("minizinc",), None),
    "gcs": (("gcspy",), ("gcspy", "0.1.8")), "gurobi": (("gurobipy",), None),
    "pysat": (("pysat",), ("python-sat", "0")), "pysdd": (("pysdd",), None),
    "exact": (("exact",), ("exact", "2.1.0")), "choco": (("pychoco",), ("pychoco", "0.2.1")),
    "pumpkin": (("pumpkin_solver",), ("pumpkin-solver", "0.3.0")), "cpo": (("docplex",), None),
    "cplex": (("docplex", "cplex"), None), "pindakaas": (("pindakaas",), None), "highs": (("highspy",), None),
    "hexaly": (("hexaly",), None), "rc2": (("pysat",), ("python-sat", "0")), "scip": (("pyscipopt",), None),
}
KNOWN_SOLVERS: tuple[str, ...] = tuple(SOLVER_PACKAGES)
#: The CPMpy solvers whose search keeps the GIL until it returns (measured: Ctrl-C during a Choco
#: search through CPMpy was not seen by Python for as long as the search ran).
GIL_HOLDING_SOLVERS = frozenset({"choco", "exact"})
#: The oldest MiniZinc program CPMpy drives (``CPM_minizinc.required_version``).
MINIZINC_REQUIRED = (2, 8, 2)


def _version_tuple(text: str) -> tuple[int, ...]:
    """The leading numbers of a version text: ``"2.1.0rc1"`` -> ``(2, 1, 0)``."""
    numbers: list[int] = []
    for part in text.split("."):
        digits = "".join(itertools.takewhile(str.isdigit, part))
        if not digits:
            break
        numbers.append(int(digits))
    return tuple(numbers)


def _minizinc_program_usable() -> bool:
    """The ``minizinc`` program is on the path and at least the version CPMpy drives."""
    program = shutil.which("minizinc")
    if program is None:
        return False
    try:
        done = subprocess.run([program, "--version"], capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    found = re.search(r"version (\d+(?:\.\d+)*)", done.stdout)
    return found is not None and _version_tuple(found.group(1)) >= MINIZINC_REQUIRED


@cache
def installed_solvers() -> tuple[str, ...]:
    """The CPMpy solvers whose packages are installed here, in CPMpy's order, found without importing
    CPMpy or any solver (``importlib.util.find_spec``, ``importlib.metadata``): listing the backend
    costs milliseconds, not the second importing them all takes. ``tests/test_cpmpy.py`` checks the
    answer against CPMpy's own ``supported()``."""
    if importlib.util.find_spec("cpmpy") is None:
        return ()
    found: list[str] = []
    for name, (modules, distribution) in SOLVER_PACKAGES.items():
        if any(importlib.util.find_spec(module) is None for module in modules):
            continue
        if distribution is not None:
            try:
                version = importlib.metadata.version(distribution[0])
            except importlib.metadata.PackageNotFoundError:
                continue
            if _version_tuple(version) < _version_tuple(distribution[1]):
                continue
        if name == "minizinc" and not _minizinc_program_usable():
            continue
        found.append(name)
    return tuple(found)


class CpmpyBackend(RowModelBackend):
    """The row model written once in CPMpy, handed to the CPMpy solver chosen."""

    name: ClassVar[str] = "cpmpy"
    row_model_solver = "CPMpy"
    summary: ClassVar[str] = "row model stated once in CPMpy, solved by a solver CPMpy supports (OR-Tools by default)"
    requires: ClassVar[tuple[str, ...]] = ("cpmpy",)
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    #: pychoco's heap reservation, when CPMpy hands the model to Choco (see the ``choco`` backend).
    reserved_address_space: ClassVar[int] = 33 * 2**30
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("solver", str, "ortools", "CPMpy solver (any that CPMpy finds installed)"),
        OptionSpec("time_limit", float, None, "time limit in seconds of a first solution or a family problem "
                   "(an optimum then answers the best found; None: no limit)", minimum=0),
    )
    #: Every problem of the family, each a CP model of its own (:mod:`nqueens_cp.models.family_cp`),
    #: optimised by the chosen solver (one that CPMpy can optimise with).
    family = frozenset(Problem) - {Problem.QUEENS}

    def __init__(self, *, memory_budget_mb: float | None = None, **options: object) -> None:
        super().__init__(memory_budget_mb=memory_budget_mb, **options)
        # Checked by name only: CPMpy's own check of a solver imports its package, and
        # pychoco reserves 32 GiB of address space in the process (a comparison's parent process
        # would hand that to every worker it forks, under their address-space limit).
        if self.options["solver"] not in KNOWN_SOLVERS:
            raise BackendOptionError(
                f"option solver: unknown value {self.options['solver']!r}"
                f"{did_you_mean(self.options['solver'], KNOWN_SOLVERS)} (choose from {', '.join(KNOWN_SOLVERS)})")

    def _check_solver(self) -> None:
        """Refuse, in one line, a known CPMpy solver that CPMpy does not find usable here (CPMpy's own
        check, which imports that solver's package only)."""
        import cpmpy as cp

        chosen = self.options["solver"]
        if chosen == "highs" and importlib.util.find_spec("highspy") is not None:
            prepare_highspy()  # a forked worker's HiGHS must not wait on its parent's threads
        if not dict(cp.SolverLookup.base_solvers())[chosen].supported():
            raise BackendOptionError(f"cpmpy: solver {chosen} is not installed here "
                                     f"(installed: {', '.join(installed_solvers()) or 'none'})")

    @classmethod
    def option_choices(cls, spec: OptionSpec) -> tuple[Any, ...] | None:
        return installed_solvers() or None if spec.name == "solver" else spec.choices

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        import cpmpy as cp

        self.check_fits(self.memory_estimate(instance))
        self._check_solver()
        if self.options["time_limit"] is not None:
            raise BackendOptionError("cpmpy: option time_limit bounds a first solution or a family problem, not an "
                                     "enumeration or a count (CPMpy's solveAll would stop without saying so)")
        rows = row_model(instance)
        if not rows.feasible:
            return
        if not rows.rows:
            yield rows.board(())
            return
        built = build_cpmpy_model(rows)
        found: list[Solution] = []

        def keep() -> None:
            found.append(rows.board([int(v) for v in built.queens.value()]))

        # Some solvers take over SIGINT/SIGTERM behind Python's back (Exact, CP-SAT): undone after.
        with python_signal_handlers_back(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "solver state will be invalid after this call"
            solver = cp.SolverLookup.get(self.options["solver"], built.model)
            with self._native_call(solver):
                solver.solveAll(display=keep, solution_limit=limit, **self._signal_parameters())
        yield from found

    def _native_call(self, solver: Any) -> Any:
        """Around a call of CPMpy ``solver``: Python's handlers put back first (Exact, CP-SAT take
        them); z3, told not to catch SIGINT (:meth:`_signal_parameters`), is stopped by its
        ``interrupt``; for a solver that keeps the GIL while it searches (Choco's native image,
        Exact) a signal ends the process by itself, as no Python thread can run to stop it."""
        name = self.options["solver"]
        stop = solver.z3_solver.ctx.interrupt if name == "z3" else None
        return native_call(rearm=True, stop=stop, holds_gil=name in GIL_HOLDING_SOLVERS)

    def _time_limit(self) -> dict[str, Any]:
        """The solve call's time limit, when the option gives one."""
        return {} if self.options["time_limit"] is None else {"time_limit": self.options["time_limit"]}

    def _signal_parameters(self) -> dict[str, Any]:
        """Solver parameters that leave SIGINT to Python: CP-SAT and z3 would otherwise catch it, stop
        their search and return what they had found as if it were complete."""
        return {"ortools": {"catch_sigint_signal": False}, "z3": {"ctrl_c": False}}.get(self.options["solver"], {})

    def _first_solution(self, instance: Instance) -> Solution | None:
        import cpmpy as cp
        from cpmpy.solvers.solver_interface import ExitStatus

        self.check_fits(self.memory_estimate(instance))
        self._check_solver()
        rows = row_model(instance)
        if not rows.feasible:
            return None
        if not rows.rows:
            return rows.board(())
        built = build_cpmpy_model(rows)
        with python_signal_handlers_back():
            solver = cp.SolverLookup.get(self.options["solver"], built.model)
            with self._native_call(solver):
                if not solver.solve(**self._signal_parameters(), **self._time_limit()):
                    if solver.status().exitstatus == ExitStatus.UNKNOWN and self.options["time_limit"] is not None:
                        raise SearchStoppedError(f"cpmpy reached its time limit of {self.options['time_limit']:g} s "
                                                 "before it found a solution or proved there is none")
                    return None
        return rows.board([int(v) for v in built.queens.value()])

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The CP model of ``problem`` (:func:`~nqueens_cp.models.cpmpy_model.build_cpmpy_family_model`),
        its objective minimised or maximised by the chosen solver, within ``time_limit``: proved
        when the solver reports the optimum (or, for a placement, that there is none). A solver that
        keeps the GIL (Choco, Exact) searches in a forked child under the command line
        (:func:`~nqueens_cp.system.interrupts.in_child`), which Ctrl-C ends at once."""
        if self.options["solver"] in GIL_HOLDING_SOLVERS:
            return in_child(lambda: self._search_family(problem, n))
        return self._search_family(problem, n)

    def _search_family(self, problem: Problem, n: int) -> FamilyAnswer:
        import cpmpy as cp
        from cpmpy.exceptions import NotSupportedError
        from cpmpy.solvers.solver_interface import ExitStatus

        self._check_solver()
        built = build_cpmpy_family_model(problem, n)
        limit = self.options["time_limit"]
        parameters = self._signal_parameters() | self._time_limit()
        with python_signal_handlers_back(), warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            try:
                solver = cp.SolverLookup.get(self.options["solver"], built.model)
                with self._native_call(solver):
                    found = solver.solve(**parameters)
            except NotSupportedError as error:
                raise BackendOptionError(f"cpmpy: solver {self.options['solver']} cannot answer "
                                         f"{problem.value}: {error}") from None
        status = solver.status().exitstatus
        if found:
            witness = built.witness()
            proved = built.model.objective_ is None or status == ExitStatus.OPTIMAL
            return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved)
        if status == ExitStatus.UNSATISFIABLE:
            return FamilyAnswer(problem, n, None, None, True)
        if limit is not None:
            raise SearchStoppedError(f"cpmpy reached its time limit of {limit:g} s before it found a witness "
                                     f"of {problem.value} or proved there is none ({status.name})")
        raise SolverError(f"cpmpy stopped without an answer ({status.name})")
