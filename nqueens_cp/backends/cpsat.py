"""``cpsat``: OR-Tools CP-SAT on the models of :mod:`nqueens_cp.models.cpsat`.

The backend only chooses a model (``model=alldiff`` or ``boolean``) and a strategy, then solves:
a first solution with one ``solve`` call (CP-SAT's portfolio when ``search_workers`` > 1), every
solution with ``enumerate_all_solutions`` through a callback that only records each board
(:mod:`~nqueens_cp.backends.cpsat_callbacks`), from a solver thread, so the solutions stream lazily to the caller. ``strategy=auto`` (the
default) enumerates and counts with ``tuned`` and looks for a first solution with ``first``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterator, cast

from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.backends.framework.limits import answering_backends, family_estimate, is_empty
from nqueens_cp.core.errors import BackendOptionError, ModelTooLargeError, SearchStoppedError, SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import Direction, FamilyAnswer, Goal, Problem
from nqueens_cp.models.cpsat import (
    CPSAT_MAX_N,
    STRATEGIES,
    CpSatModel,
    CpSatStrategy,
    build_cpsat_boolean_model,
    build_cpsat_model,
    cpsat_memory,
    resolve_strategy,
)
from nqueens_cp.models.family import FamilyModel, build_family_model, modular_colouring
from nqueens_cp.models.geometry import ModelEstimate, ModelSize
from nqueens_cp.models.reduction import model_rows
from nqueens_cp.system.interrupts import HandOff, native_call

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

_DONE = object()


class CpSatBackend(Backend):
    supports_blocked = True
    name = "cpsat"
    summary = "OR-Tools CP-SAT: q[i] per row, AllDifferent on q[i], q[i]+i, q[i]-i (or one Boolean per square)"
    requires = ("ortools",)
    option_specs = (
        OptionSpec("search_workers", int, 1,
                   "CP-SAT search workers for a first solution (enumeration always uses 1)", minimum=1),
        OptionSpec("time_limit", float, None, "time limit in seconds (None: no limit)", minimum=0),
        OptionSpec("cuts", bool, True, "the family model's cuts: the square's symmetry broken by three half-count "
                   "rows and Spencer's bound for the dominations, the white army's halves for the armies"
                   "; and the colouring refuted with n colours first"),
        OptionSpec(
            "strategy", str, "auto",
            "parameter set: tuned (enumeration), first (first solution), plain (CP-SAT defaults), "
            "localsearch (model=boolean, first solution only); auto: tuned or first by the task",
            choices=("auto", *STRATEGIES),
        ),
        OptionSpec(
            "model", str, "alldiff", "alldiff: q[i] per row, 3 AllDifferent; boolean: one 0-1 variable per "
            "square (for large n, with strategy=localsearch)", choices=("alldiff", "boolean"),
        ),
    )
    #: Every problem of the family: a 0-1 model (:mod:`nqueens_cp.models.family`), optimised by CP-SAT.
    family = frozenset(Problem) - {Problem.QUEENS}
    #: The placement problems, counted by enumeration with one worker.
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerates them, streamed from the solution callback.
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})

    # -- model and parameters ----------------------------------------------------------------

    def _strategy(self, task: str) -> CpSatStrategy:
        name = self.options["strategy"]
        if name == "localsearch" and task == "enumerate":
            raise BackendOptionError("strategy localsearch finds one solution only: it cannot enumerate or count")
        return resolve_strategy(name, task)

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return self._estimate(instance, self._strategy("first"))

    def reach(self, first: bool) -> int | None:
        return CPSAT_MAX_N if self.options["model"] == "alldiff" else None

    def _estimate(self, instance: Instance, strategy: CpSatStrategy) -> ModelEstimate:
        """The memory of the model built for ``instance`` and searched with ``strategy``."""
        rows, model, median = model_rows(instance), self.options["model"], strategy.encodes_every_value
        answering = answering_backends(rows, empty=is_empty(instance))
        if model == "boolean":
            instead = f"use option model=alldiff or {answering}"
        elif median:
            instead = 'use option strategy=tuned (smallest column first, O(n) memory) or backend "localsearch"'
        else:
            instead = f"use {answering}"
        return replace(cpsat_memory(rows, model, median_branching=median), instead=instead)

    def _build(self, instance: Instance, strategy: CpSatStrategy, unique: bool = False) -> CpSatModel:
        if self.options["model"] == "alldiff" and instance.n > CPSAT_MAX_N:
            raise ModelTooLargeError(
                f"cpsat: a row's domain of n = {instance.n} columns is too large for CP-SAT (it fully encodes fewer "
                f"than 100,000 values; n <= {CPSAT_MAX_N}); use {answering_backends(instance.n)}"
            )
        self.check_fits(self._estimate(instance, strategy), "cpsat")
        build = build_cpsat_boolean_model if self.options["model"] == "boolean" else build_cpsat_model
        built = build(instance, unique=unique)
        built.branch(strategy.branching)
        return built

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return self._build(instance, CpSatStrategy(), unique).size()

    def _solver(self, strategy: CpSatStrategy, *, enumerate_all: bool) -> cp_model.CpSolver:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        params = solver.parameters
        # CP-SAT installs its own SIGINT handler and leaves SIGINT at the C default afterwards, so
        # Ctrl-C would kill the whole process instead of raising KeyboardInterrupt. Keep Python's.
        params.catch_sigint_signal = False
        strategy.configure(solver)
        if enumerate_all:
            # CP-SAT enumerates exactly only with one worker; parallel enumeration splits the
            # instance into sub-problems instead (see the scale-out commands).
            params.enumerate_all_solutions = True
            params.num_workers = 1
        else:
            params.num_workers = self.options["search_workers"]
        if self.options["time_limit"] is not None:
            params.max_time_in_seconds = self.options["time_limit"]
        return solver

    # -- solving -----------------------------------------------------------------------------

    def _first_solution(self, instance: Instance) -> Solution | None:
        from ortools.sat.python import cp_model

        strategy = self._strategy("first")
        built = self._build(instance, strategy)
        solver = self._solver(strategy, enumerate_all=False)
        with native_call(stop=solver.stop_search):  # Ctrl-C stops the search, not only the process
            status = solver.solve(built.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return tuple(int(solver.value(q)) for q in built.queens)
        if status != cp_model.INFEASIBLE:
            self._raise_stopped(solver, status, "before it found a solution or proved there is none")
            raise SolverError(f"cpsat stopped without an answer ({solver.status_name(status)})")
        return None

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, unique=True)

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """A full count runs the search with a counting callback: no board is built or handed over."""
        if limit is not None or unique:
            return super()._count(instance, limit, unique)
        strategy = self._strategy("enumerate")
        built = self._build(instance, strategy)
        solver = self._solver(strategy, enumerate_all=True)
        from nqueens_cp.backends.cpsat_callbacks import SolutionCounter

        counter = SolutionCounter()
        with native_call(stop=solver.stop_search):
            status = solver.solve(built.model, counter)
        self._check_complete(solver, status)
        return int(counter.found)

    def _check_complete(self, solver: cp_model.CpSolver, status: Any) -> None:
        """Raise ``SearchStoppedError`` (the time limit) or ``SolverError`` unless an enumeration
        ended with every solution seen."""
        from ortools.sat.python import cp_model

        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            self._raise_stopped(solver, status, "before it enumerated every solution")
            raise SolverError(f"cpsat stopped before enumerating every solution ({solver.status_name(status)})")

    def _raise_stopped(self, solver: cp_model.CpSolver, status: Any, when: str) -> None:
        """Raise ``SearchStoppedError`` when a search without an answer stopped at the time limit."""
        from ortools.sat.python import cp_model

        limit = self.options["time_limit"]
        if limit is not None and status in (cp_model.FEASIBLE, cp_model.UNKNOWN):
            raise SearchStoppedError(
                f"cpsat reached its time limit of {limit:g} s {when} ({solver.status_name(status)})")

    def _enumerate(self, instance: Instance, *, unique: bool) -> Iterator[Solution]:
        strategy = self._strategy("enumerate")
        built = self._build(instance, strategy, unique)
        return self._stream(built.model, built.queens, self._solver(strategy, enumerate_all=True))

    def _stream(self, model: cp_model.CpModel, variables: tuple[Any, ...], solver: cp_model.CpSolver) -> Iterator[Solution]:
        """Every solution of ``model`` (the values of ``variables``), streamed from the search's
        thread as the callback finds them; closing the iterator stops the search."""
        from nqueens_cp.backends.cpsat_callbacks import SolutionRecorder

        found = HandOff(4096)
        outcome: dict[str, Any] = {}

        def search() -> None:
            try:
                outcome["status"] = solver.solve(model, SolutionRecorder(variables, found.put))
            except BaseException as error:  # handed to the consumer, re-raised there
                outcome["error"] = error
            found.put(_DONE)

        thread = threading.Thread(target=search, name="cpsat-search", daemon=True)
        thread.start()
        try:
            while (item := found.get()) is not _DONE:
                yield item
        finally:
            found.leave()
            thread.join()
        if "error" in outcome:
            raise SolverError(f"cpsat failed: {outcome['error']}") from outcome["error"]
        self._check_complete(solver, outcome["status"])

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The family model translated as it is: a Boolean per variable, a linear constraint per
        row, the objective minimised or maximised; CP-SAT's portfolio (``search_workers``) solves."""
        from ortools.sat.python import cp_model

        from nqueens_cp.backends.cpsat_callbacks import ImprovementClock

        start = time.monotonic()
        lower = None
        if problem.goal is Goal.COLOUR and self.options["cuts"] and n > 1:
            answer, refuted = self._colour_with_n(problem, n)
            if answer is not None:
                return answer
            lower = n + 1 if refuted else n  # a row's n squares are a clique
        cp, x, model = self._family_model(problem, n)
        if lower is not None and model.objective is not None:
            cp.add(cp_model.LinearExpr.weighted_sum([x[v] for _, v in model.objective.terms],
                                                    [c for c, _ in model.objective.terms]) >= lower)
        if lower is not None:  # the cuts' colouring: a witness of the palette's size at hand from the start
            self._hint_colouring(cp, x, model)
        solver = self._solver(CpSatStrategy(), enumerate_all=False)
        if self.options["time_limit"] is not None:
            solver.parameters.max_time_in_seconds = max(0.0, self.options["time_limit"] - (time.monotonic() - start))
        clock = ImprovementClock()  # when the last improvement came: the time to the best witness
        with native_call(stop=solver.stop_search):
            status = solver.solve(cp, clock)
        # -- the answer
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            witness = model.decode(lambda v: bool(solver.value(x[v])))
            proved = status == cp_model.OPTIMAL
            bound = None if proved or model.objective is None else round(solver.best_objective_bound)
            return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved, bound, clock.last)
        if status == cp_model.INFEASIBLE:
            return FamilyAnswer(problem, n, None, None, True)
        if lower is not None and status == cp_model.UNKNOWN:  # out of time before its hint was taken up
            witness = tuple(tuple(row) for row in modular_colouring(n, model.colours))
            return FamilyAnswer(problem, n, witness, witness_value(problem, witness), False, lower)
        self._raise_stopped(solver, status, "before it found a witness")
        raise SolverError(f"cpsat stopped without an answer ({solver.status_name(status)})")

    @staticmethod
    def _hint_colouring(cp: cp_model.CpModel, x: list[Any], model: FamilyModel) -> None:
        """Hint the :func:`~nqueens_cp.models.family.modular_colouring` of the model's palette."""
        for r, row in enumerate(modular_colouring(model.n, model.colours)):
            for c, colour in enumerate(row):
                for k in range(model.colours):
                    cp.add_hint(x[model.colour_variable(r, c, k)], k == colour)
        for k in range(model.colours):
            cp.add_hint(x[model.used_variable(k)], True)

    def _colour_with_n(self, problem: Problem, n: int) -> tuple[FamilyAnswer | None, bool]:
        """The colouring's first step: an n-colouring (then n is the optimum: a row is a clique of
        n squares), or None, and whether CP-SAT refuted one (not: it ran out of time). With exactly n colours
        each row and column holds every colour once, an exact cover of the board by n disjoint
        placements, which CP-SAT refutes in 0.14 s for n = 8 (62.6 s with the palette's rows only).
        When n is prime to 6 the colouring (c + 2r) mod n is CP-SAT's hint. Half the time limit at most."""
        from ortools.sat.python import cp_model

        model = build_family_model(problem, n, colours=n)
        cp, x = self._translate(model)
        if n % 6 in (1, 5):
            self._hint_colouring(cp, x, model)
        solver = self._solver(CpSatStrategy(), enumerate_all=False)
        if self.options["time_limit"] is not None:  # half the time: the optimisation's witness needs the rest
            solver.parameters.max_time_in_seconds = self.options["time_limit"] / 2
        with native_call(stop=solver.stop_search):
            status = solver.solve(cp)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            witness = model.decode(lambda v: bool(solver.value(x[v])))
            return FamilyAnswer(problem, n, witness, witness_value(problem, witness), True), False
        return None, status == cp_model.INFEASIBLE

    def _count_family(self, problem: Problem, n: int) -> int:
        """Every placement enumerated by one worker with a counting callback."""
        from nqueens_cp.backends.cpsat_callbacks import SolutionCounter

        cp, _, _ = self._family_model(problem, n)
        solver = self._solver(CpSatStrategy(), enumerate_all=True)
        counter = SolutionCounter()
        with native_call(stop=solver.stop_search):
            status = solver.solve(cp, counter)
        self._check_complete(solver, status)
        return int(counter.found)

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Every placement enumerated by one worker, each handed over by the solution callback
        (the squares' values, decoded here) as it is found."""
        cp, x, model = self._family_model(problem, n)
        stream = self._stream(cp, tuple(x[1:]), self._solver(CpSatStrategy(), enumerate_all=True))
        try:
            for values in stream:
                true = {v for v, value in enumerate(values, 1) if value}
                yield cast(Solution, model.decode(true.__contains__))
        finally:
            stream.close()  # type: ignore[attr-defined]

    def _family_model(self, problem: Problem, n: int) -> tuple[cp_model.CpModel, list[Any], FamilyModel]:
        """The CP-SAT model of the family ``problem``: its Booleans (``x[v]``, from 1) and the built model."""
        self.check_fits(family_estimate(problem, n))
        model = build_family_model(problem, n, self.options["cuts"])
        cp, x = self._translate(model)
        return cp, x, model

    @staticmethod
    def _translate(model: FamilyModel) -> tuple[cp_model.CpModel, list[Any]]:
        """The family model as a CP-SAT model: a Boolean per variable (``x[v]``, from 1), a linear
        constraint per row, the objective."""
        from ortools.sat.python import cp_model

        # -- variables
        cp = cp_model.CpModel()
        x: list[Any] = [None, *(cp.new_bool_var(f"x{v}") for v in range(1, model.variables + 1))]  # from 1
        # -- constraints
        big = model.variables + 1
        for row in model.rows:
            expr = cp_model.LinearExpr.weighted_sum([x[v] for _, v in row.terms], [c for c, _ in row.terms])
            cp.add_linear_constraint(expr, -big if row.lower is None else row.lower, big if row.upper is None else row.upper)
        if model.objective is not None:
            objective = cp_model.LinearExpr.weighted_sum([x[v] for _, v in model.objective.terms],
                                                         [c for c, _ in model.objective.terms])
            if model.objective.direction is Direction.MINIMISE:
                cp.minimize(objective)
            else:
                cp.maximize(objective)
        return cp, x
