"""``smt``: SMT solving with z3 on the SMT-LIB text of :mod:`nqueens_cp.models.smt`.

The model is handed to z3 as SMT-LIB 2 (``Solver.from_string``, z3's own parser: exactly what
``--format smt2`` writes), which also builds large models faster than z3's Python API (n = 256:
1.5 s against 11.7 s under load). Every solution is found by a ``check`` call; the next is
excluded by a blocking clause over the decision variables (the squares, or the row integers).

The solver is chosen by the task (``logic=auto``), as measured (``benchmarks/bench_paradigms.py``):
enumeration and counting with ``QF_FD``, z3's finite-domain solver (its SAT core with native
cardinality constraints: counting n = 10 in 1.2 s against 2.9 s with the default solver), a
first solution with z3's default combined solver (n = 256 in 13 s; ``QF_FD`` gave none in 60 s).
The integer model enumerates with ``QF_LIA`` (8.5 s for n = 10; ``QF_FD`` bit-blasts it, no
faster; the default solver 16 s) and looks for a first solution with the default solver (n = 64
in 28 s; ``QF_LIA`` gave none in 60 s).

The N-Queens family: each problem is the family's 0-1 program in SMT-LIB
(:mod:`nqueens_cp.models.family_smt`). An optimum is found by iterated solving (``optimiser=iterate``):
the solver of ``logic`` finds a witness, then the objective's pseudo-Boolean bound asks for a better
one, until z3 answers unsat (the last witness is then proved optimal); or by z3's ``Optimize`` on
the whole text (``optimiser=optimize``: proved when ``check`` answers sat). ``auto`` (the default)
iterates for the peaceable armies and optimises for the others, as measured under load 4: the
armies of n = 6 in 3 s iterated against 141 s by ``Optimize``, domination of n = 8 in 25 s against 7 s. With ``time_limit``
the search stops with the best witness found, unproved. A placement is one check; its count an
enumeration with blocking clauses over the squares.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any, Iterator, cast

from nqueens_cp.backends.framework.base import FAMILY_TIME_LIMIT, OptionSpec
from nqueens_cp.backends.framework.limits import family_estimate, refuse_classic_time_limit
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import SearchStoppedError, SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import Direction, FamilyAnswer, Problem
from nqueens_cp.models.family_smt import FamilySmtModel, family_smt_model
from nqueens_cp.models.smt import MODELS, SmtModel, build_smt_model, smt_memory
from nqueens_cp.system.interrupts import native_call

if TYPE_CHECKING:
    import z3

#: What ``logic=auto`` picks, by model and task.
AUTO_LOGIC = {("bool", "enumerate"): "QF_FD", ("bool", "first"): "default",
              ("int", "enumerate"): "QF_LIA", ("int", "first"): "default"}
LOGICS = ("auto", "QF_FD", "QF_LIA", "default")


class SmtBackend(ModelledBackend[SmtModel]):
    supports_blocked = True
    name = "smt"
    summary = "SMT (z3): a Boolean per square with cardinality constraints, or Distinct on q[i], q[i]+i, q[i]-i"
    requires = ("z3",)
    option_specs = (
        OptionSpec("model", str, "bool",
                   "bool: a Boolean per square, pbeq/at-most per line; int: integers q[i] with three distinct",
                   choices=MODELS),
        OptionSpec("logic", str, "auto",
                   "z3 solver: QF_FD (finite domains, SAT core), QF_LIA, default (z3's combined solver); "
                   "auto: QF_FD (bool) or QF_LIA (int) to enumerate, default for a first solution",
                   choices=LOGICS),
        OptionSpec("optimiser", str, "auto", "a family problem's optimum: iterate (a better value asked "
                   "for after each witness, until unsat), optimize (z3's Optimize); auto: iterate for the peaceable "
                   "armies, optimize for the others", choices=("auto", "iterate", "optimize")),
        FAMILY_TIME_LIMIT,
    )
    #: Every problem of the family: its 0-1 program over Booleans, optimised by z3's Optimize.
    family = frozenset(Problem) - {Problem.QUEENS}
    #: The placement problems, counted by enumeration with blocking clauses.
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerates them, a blocking clause per placement found.
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    build = staticmethod(build_smt_model)
    estimate = staticmethod(smt_memory)
    formulation_option = "model"
    larger = ("int", "use option model=bool")



    def _solver(self, model: SmtModel, task: str) -> z3.Solver:
        logic = self.options["logic"]
        return self._read(model.body, AUTO_LOGIC[(model.kind, task)] if logic == "auto" else logic)

    def _read(self, body: str, logic: str, *, python_sigint: bool = False) -> Any:
        """A z3 solver of ``logic`` (``optimize``: z3's Optimize) that has read the SMT-LIB ``body``;
        ``python_sigint``: SIGINT goes to Python's handler, not to z3's."""
        import z3

        solver = z3.Optimize() if logic == "optimize" else z3.Solver() if logic == "default" else z3.SolverFor(logic)
        if self.options["time_limit"] is not None:
            solver.set("timeout", max(1, round(self.options["time_limit"] * 1000)))
        if python_sigint:
            # SIGINT to Python (whose watcher stops z3 by its interrupt), never to z3's own handler,
            # which would end the search as if the time limit had: the best found, not "interrupted"
            solver.set("ctrl_c", False)
        try:
            with native_call():  # z3 reads the model in one call
                solver.from_string(body)
        except z3.Z3Exception as error:
            raise SolverError(f"z3 could not read the model: {error}") from error
        return solver

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, "enumerate", unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, "enumerate", unique=True)

    def _first_solution(self, instance: Instance) -> Solution | None:
        return next(self._search(instance, "first", unique=False), None)

    def _search(self, instance: Instance, task: str, *, unique: bool) -> Iterator[Solution]:
        import z3

        refuse_classic_time_limit(self.name, self.options)
        model = self._model(instance, unique)
        solver = self._solver(model, task)
        variables: list[Any] = [z3.Int(name) if model.kind == "int" else z3.Bool(name) for name in model.names]
        while True:
            with native_call(stop=solver.ctx.interrupt):  # z3 catches SIGINT itself, not SIGTERM
                answer = solver.check()
            if answer == z3.unsat:
                return
            if answer != z3.sat:
                raise SolverError(f"z3 stopped without an answer ({solver.reason_unknown()})")
            found = solver.model()
            values: dict[str, int | bool] = {}
            for name, variable in zip(model.names, variables, strict=True):
                value = found.eval(variable, model_completion=True)
                values[name] = value.as_long() if model.kind == "int" else z3.is_true(value)
            yield model.decode(values)
            if model.kind == "int":
                solver.add(z3.Or([v != values[name] for name, v in zip(model.names, variables, strict=True)]))
            else:
                solver.add(z3.Or([z3.Not(v) for name, v in zip(model.names, variables, strict=True) if values[name]]))

    # -- the N-Queens family -----------------------------------------------------------------

    def _family_solver(self, problem: Problem, n: int, task: str) -> tuple[Any, FamilySmtModel]:
        """z3 with the family model read (z3's Optimize with its objective under ``optimiser=optimize``,
        else the rows alone in the solver ``logic`` picks for a Boolean model and ``task``), and the model."""
        self.check_fits(family_estimate(problem, n))
        built = family_smt_model(problem, n)
        optimiser = self.options["optimiser"]
        if optimiser == "auto":
            optimiser = "iterate" if problem is Problem.PEACEABLE else "optimize"
        if built.objective and optimiser == "optimize":
            return self._read(built.body, "optimize", python_sigint=True), built
        logic = self.options["logic"]
        logic = AUTO_LOGIC[("bool", task)] if logic == "auto" else logic
        return self._read(built.rows, logic, python_sigint=True), built

    def _check(self, solver: Any, deadline: float | None) -> Any:
        """One ``check``, within what is left of the time limit (z3's timeout for this call)."""
        if deadline is not None:
            solver.set("timeout", max(1, round((deadline - time.monotonic()) * 1000)))
        with native_call(stop=solver.ctx.interrupt):  # z3 catches SIGINT itself, not SIGTERM
            return solver.check()

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        import z3

        solver, built = self._family_solver(problem, n, "first")
        model, limit = built.model, self.options["time_limit"]
        deadline = None if limit is None else time.monotonic() + limit
        best: Any = None
        proved = True
        while True:
            answer = self._check(solver, deadline)
            if answer == z3.sat:
                best = solver.model()
                if model.objective is None or isinstance(solver, z3.Optimize):
                    break  # a placement, or z3's optimum
                terms = [(z3.Bool(f"x{v}"), c) for c, v in model.objective.terms]
                value = sum(c for x, c in terms if z3.is_true(best.eval(x, model_completion=True)))
                maximise = model.objective.direction is Direction.MAXIMISE
                solver.add(z3.PbGe(terms, value + 1) if maximise else z3.PbLe(terms, value - 1))
                continue
            if answer == z3.unsat:
                break  # no witness at all, or none better than the last
            reason = solver.reason_unknown()
            if limit is None or "interrupted" in reason:
                raise SolverError(f"z3 stopped without an answer ({reason})")
            if isinstance(solver, z3.Optimize):  # it keeps the best model it found
                with contextlib.suppress(z3.Z3Exception):
                    best = solver.model() if len(solver.model()) else None
            if best is None:
                raise SearchStoppedError(f"smt reached its time limit of {limit:g} s before it found a witness of "
                                         f"{problem.value} or proved there is none ({reason})")
            proved = False
            break
        if best is None:
            return FamilyAnswer(problem, n, None, None, True)
        found = best
        witness = model.decode(lambda v: z3.is_true(found.eval(z3.Bool(f"x{v}"), model_completion=True)))
        return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved)

    def _count_family(self, problem: Problem, n: int) -> int:
        """Every placement of :meth:`_family_solutions`, counted."""
        return sum(1 for _ in self._family_solutions(problem, n, None))

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Every placement found by a check, then excluded by a blocking clause over its queens."""
        import z3

        solver, built = self._family_solver(problem, n, "enumerate")
        squares = [z3.Bool(f"x{v}") for v in range(1, built.model.variables + 1)]
        seconds = self.options["time_limit"]
        deadline = None if seconds is None else time.monotonic() + seconds
        while True:
            answer = self._check(solver, deadline)
            if answer == z3.unsat:
                return
            if answer != z3.sat:
                reason = solver.reason_unknown()
                if seconds is None or "interrupted" in reason:
                    raise SolverError(f"z3 stopped before it found every placement ({reason})")
                raise SearchStoppedError(f"smt reached its time limit of {seconds:g} s before it found every "
                                         f"placement of {problem.value} ({reason})")
            found = solver.model()
            true = {v for v, x in enumerate(squares, 1) if z3.is_true(found.eval(x, model_completion=True))}
            yield cast(Solution, built.model.decode(true.__contains__))
            solver.add(z3.Or([z3.Not(squares[v - 1]) for v in true]))
