"""``minizinc``: classic constraint programming through MiniZinc (Gecode by default).

The model is the toolkit's MiniZinc text (``nqueens-cp export N --format minizinc``): one
variable ``q[i]`` per row and three ``alldifferent`` constraints, on the columns, ``q[i] + i``
and ``q[i] - i``, plus one equality per pre-placed queen. MiniZinc flattens it for the chosen
solver and the solver propagates the ``alldifferent`` globals itself (Gecode: bounds or domain
consistency) and enumerates by depth-first search, with no clause learning: for full
enumeration that is the right tool (see docs/choosing.md, "Classic CP, CP-SAT or SAT").

Solutions are streamed: the ``minizinc`` Python package runs the ``minizinc`` program and reads
its JSON output as the solver prints each solution; closing the iterator early stops the
solver process. The backend needs the ``minizinc`` package (a dependency of nqueens-cp) and the
``minizinc`` program with at least one solver (Debian: ``apt-get install minizinc flatzinc``).

The N-Queens family: each problem is the MiniZinc model of :mod:`nqueens_cp.models.family_minizinc`
(``solve minimize``/``maximize``), every better solution streamed (``intermediate_solutions``); the
last is proved optimal when the solver says so (its status ``OPTIMAL_SOLUTION``), and with
``time_limit`` the solver stops with the best found, unproved. A placement count streams every
solution.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import warnings
from datetime import timedelta
from functools import cache
from typing import Any, ClassVar, Iterator, cast

from nqueens_cp.backends.framework.base import FAMILY_TIME_LIMIT, Backend, ModelSize, OptionSpec
from nqueens_cp.backends.framework.limits import family_estimate, refuse_classic_time_limit
from nqueens_cp.core.errors import BackendOptionError, SearchStoppedError, SolverError, did_you_mean
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Goal, Placement, Problem, Witness, torus_shifts
from nqueens_cp.models.family_cp import cp_witness
from nqueens_cp.models.family_minizinc import family_minizinc_model
from nqueens_cp.models.reduction import reduce_instance, uses_reduction
from nqueens_cp.models.text import minizinc_text

#: How to install the ``minizinc`` program, for the messages of an unusable backend.
INSTALL_HINT = ("install the minizinc program with a solver (Debian/Ubuntu: apt-get install minizinc flatzinc; "
                "elsewhere the MiniZinc bundle)")


@cache
def installed_solvers() -> tuple[str, ...]:
    """Short names of the solvers ``minizinc --solvers-json`` finds usable (a version, not a GUI), in its order.

    Empty when the program is missing. A short name is the last part of the solver id
    (``org.gecode.gecode`` -> ``gecode``); MIP back ends whose library is missing report an
    unknown version and are left out.
    """
    program = shutil.which("minizinc")
    if program is None:
        return ()
    try:
        done = subprocess.run([program, "--solvers-json"], capture_output=True, text=True, timeout=60, check=True)
        configs = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, json.JSONDecodeError):
        return ()
    names = []
    for config in configs:
        if not isinstance(config, dict) or config.get("isGUIApplication"):
            continue
        if str(config.get("version", "")).startswith("<unknown"):
            continue
        names.append(str(config.get("id", "")).rsplit(".", 1)[-1])
    return tuple(name for name in names if name)


def _close(loop: asyncio.AbstractEventLoop, stream: Any) -> None:
    """Stop the solution stream and its solver process, then close the loop, leaving no task or process behind.

    Closing the stream early (``aclose``) would not stop the solver: the package terminates its
    process only on an exception from inside (``GeneratorExit`` passes by its handler), so the
    stream is cancelled instead, which terminates the process and waits for it.
    """
    try:
        # CancelledError: cancelled as asked; StopAsyncIteration or RuntimeError: it had finished already.
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, RuntimeError):
            loop.run_until_complete(stream.athrow(asyncio.CancelledError()))
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()


class MiniZincBackend(Backend):
    """Three ``alldifferent`` in MiniZinc, solved by a CP solver (Gecode by default), solutions streamed."""

    name: ClassVar[str] = "minizinc"
    supports_blocked = True
    summary: ClassVar[str] = "MiniZinc model (three alldifferent), solved by a classic CP solver such as Gecode"
    requires: ClassVar[tuple[str, ...]] = ("minizinc",)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("solver", str, "gecode", "MiniZinc solver (any that `minizinc --solvers` lists)"),
        FAMILY_TIME_LIMIT,
    )
    #: Every problem of the family, each a MiniZinc model (:mod:`nqueens_cp.models.family_minizinc`).
    family = frozenset(Problem) - {Problem.QUEENS}
    #: The placement problems, counted by streaming every solution.
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerates them, each solution streamed as the solver prints it.
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})

    def __init__(self, *, memory_budget_mb: float | None = None, **options: object) -> None:
        super().__init__(memory_budget_mb=memory_budget_mb, **options)
        solvers = installed_solvers()
        if solvers and self.options["solver"] not in solvers:
            raise BackendOptionError(
                f"option solver: unknown value {self.options['solver']!r}"
                f"{did_you_mean(self.options['solver'], solvers)} (choose from {', '.join(solvers)})"
            )

    @classmethod
    def unavailable_reason(cls) -> str | None:
        missing = cls.missing_packages()
        if missing:
            return "backend minizinc needs the Python package minizinc: pip install nqueens-cp (it declares it)"
        if shutil.which("minizinc") is None:
            return f"backend minizinc needs the minizinc program, not found on the PATH: {INSTALL_HINT}"
        if not installed_solvers():
            return f"backend minizinc: `minizinc --solvers` finds no usable solver: {INSTALL_HINT}"
        return None

    @classmethod
    def option_choices(cls, spec: OptionSpec) -> tuple[Any, ...] | None:
        return installed_solvers() or None if spec.name == "solver" else spec.choices

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        """The MiniZinc model: n variables, three ``alldifferent`` plus one equality per pre-placed
        queen; over the free rows only (one domain constraint each) when the model shrinks."""
        if uses_reduction(instance):
            rows = reduce_instance(instance).rows
            return ModelSize(len(rows), 3 + len(rows), "constraints")
        return ModelSize(instance.n, 3 + len(instance.fixed), "constraints")

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        refuse_classic_time_limit(self.name, self.options)
        # The model over the free rows when it shrinks (models/reduction.py): q then holds their columns.
        reduction = reduce_instance(instance) if uses_reduction(instance) else None
        arguments: dict[str, Any] = {"nr_solutions": limit} if limit is not None else {"all_solutions": True}
        for result in self._results(minizinc_text(instance), arguments):
            if result.solution is not None:
                columns = [int(column) for column in result.solution.q]
                if reduction is None:
                    yield tuple(columns)
                else:
                    yield reduction.board(dict(zip(reduction.rows, columns, strict=True)))

    def _results(self, text: str, arguments: dict[str, Any]) -> Iterator[Any]:
        """The results the solver streams for the model ``text`` run with ``arguments`` (of
        ``minizinc.Instance.solutions``): one per solution, the last with the final status."""
        import minizinc

        self.ensure_available()
        model = minizinc.Model()
        model.add_string(text)
        solver = minizinc.Solver.lookup(self.options["solver"])
        problem = minizinc.Instance(solver, model)
        loop = asyncio.new_event_loop()
        with warnings.catch_warnings():
            # Debian's Gecode package overrides global constraint files the old way: MiniZinc warns each run.
            warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
            stream = problem.solutions(**arguments)
            try:
                while True:
                    try:
                        yield loop.run_until_complete(stream.__anext__())
                    except StopAsyncIteration:
                        return
                    except minizinc.error.MiniZincError as error:
                        raise SolverError(f"minizinc ({self.options['solver']}): {error}") from None
            finally:
                _close(loop, stream)

    # -- the N-Queens family -----------------------------------------------------------------

    def _family_results(self, problem: Problem, n: int, arguments: dict[str, Any]) -> Iterator[Any]:
        """The results of the MiniZinc model of the family ``problem``, once its memory fits."""
        self.check_fits(family_estimate(problem, n))
        return self._results(family_minizinc_model(problem, n).text, arguments)

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The solver's search (branch and bound for an optimum, each better solution streamed); the
        last solution is proved optimal when the solver says so (``==========``)."""
        import minizinc

        limit = self.options["time_limit"]
        arguments: dict[str, Any] = {"intermediate_solutions": not problem.counts_placements}
        if limit is not None:
            arguments["time_limit"] = timedelta(seconds=limit)
        best: Any = None
        status = minizinc.Status.UNKNOWN
        flattening = timedelta(0)
        found_at: float | None = None
        for result in self._family_results(problem, n, arguments):
            status = result.status
            flattening = result.statistics.get("flatTime", flattening)
            if result.solution is not None:
                best = result.solution
                # MiniZinc's clock at the solution, less its flattening: from the start of the search
                elapsed = result.statistics.get("time")
                found_at = None if elapsed is None else max(0.0, (elapsed - flattening).total_seconds())
        if best is None:
            if status is minizinc.Status.UNSATISFIABLE:
                return FamilyAnswer(problem, n, None, None, True)
            if limit is None:
                raise SolverError(f"minizinc ({self.options['solver']}) stopped without an answer ({status.name})")
            raise SearchStoppedError(f"minizinc reached its time limit of {limit:g} s before it found a witness of "
                                     f"{problem.value} or proved there is none ({status.name})")
        witness = _family_witness(problem, n, best)
        proved = problem.counts_placements or status is minizinc.Status.OPTIMAL_SOLUTION
        return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved, found_at=found_at)

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Every solution, streamed (``all_solutions``); the torus's model fixes row 0's queen in
        column 0, so each stands for its n column shifts (:func:`torus_shifts`)."""
        import minizinc

        limit = self.options["time_limit"]
        arguments: dict[str, Any] = {"all_solutions": True}
        if limit is not None:
            arguments["time_limit"] = timedelta(seconds=limit)
        status = minizinc.Status.UNKNOWN
        for result in self._family_results(problem, n, arguments):
            status = result.status
            if result.solution is not None:
                placement = cast(Placement, _family_witness(problem, n, result.solution))
                yield from torus_shifts(placement, n) if problem is Problem.TOROIDAL else (placement,)
        if status not in (minizinc.Status.ALL_SOLUTIONS, minizinc.Status.UNSATISFIABLE):
            if limit is not None:
                raise SearchStoppedError(f"minizinc reached its time limit of {limit:g} s before it found every "
                                         f"placement of {problem.value} ({status.name})")
            raise SolverError(f"minizinc stopped before it found every placement ({status.name})")

    def _count_family(self, problem: Problem, n: int) -> int:
        """Every placement of :meth:`_family_solutions`, counted (the torus's with its shifts)."""
        return sum(1 for _ in self._family_solutions(problem, n, None))


def _family_witness(problem: Problem, n: int, solution: Any) -> Witness:
    """The witness of a MiniZinc solution of :func:`family_minizinc_model`'s model (its arrays)."""
    goal = problem.goal
    if goal is Goal.PLACE:
        return cp_witness(problem, n, solution.q)
    if goal is Goal.COLOUR:
        return cp_witness(problem, n, solution.c)
    if goal is Goal.PEACEABLE:
        return cp_witness(problem, n, (solution.w, solution.b))
    return cp_witness(problem, n, solution.x)
