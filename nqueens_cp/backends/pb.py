"""``pb``: pseudo-Boolean solving with Exact, in process, on the model of :mod:`nqueens_cp.models.pb`.

Exact (Devriendt's cutting-planes solver, the ``exact`` package) takes the linear constraints as
they are: one cardinality constraint per line, no clausal encoding. Every solution is found by a
``runFull`` call; the next is excluded by ``invalidateLastSol`` projected on the square
variables (a no-good over the queens only, as the ``sat`` backend does: auxiliary lex-leader
variables must not let one board come back). A full count is Exact's own ``count`` over the
square variables. ``--unique`` adds the lex-leader clauses as linear constraints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import Direction, FamilyAnswer, Problem
from nqueens_cp.models.family import build_family_model
from nqueens_cp.models.linear import LinearModel
from nqueens_cp.models.pb import FORMULATIONS, build_pb_model, pb_memory
from nqueens_cp.system.interrupts import in_child, native_call, python_signal_handlers_back

if TYPE_CHECKING:
    import exact


class PbBackend(ModelledBackend[LinearModel]):
    supports_blocked = True
    name = "pb"
    summary = "pseudo-Boolean (Exact, in process): one 0-1 variable per square, a linear constraint per line"
    requires = ("exact",)
    option_specs = (
        OptionSpec("formulation", str, "lines",
                   "lines: a cardinality constraint per line; clauses: the pairwise clauses as PB constraints",
                   choices=FORMULATIONS),
    )
    #: Every problem of the family: its 0-1 rows as linear constraints, the objective minimised.
    family = frozenset(Problem) - {Problem.QUEENS}
    build = staticmethod(build_pb_model)
    estimate = staticmethod(pb_memory)
    larger = ("clauses", "use option formulation=lines (one cardinality constraint per line)")



    @staticmethod
    def _solver(model: LinearModel) -> exact.Exact | None:
        """Exact loaded with ``model``; None when a constraint without variables fails (no solution).

        Constructing it installs Exact's own SIGINT and SIGTERM handler (see
        :mod:`nqueens_cp.system.interrupts`): callers undo that with ``python_signal_handlers_back``."""
        import exact

        solver = exact.Exact([("verbosity", "0")])
        for variable in range(1, model.variables + 1):
            solver.addVariable(f"x{variable}")
        for row in model.rows:
            if not row.terms:
                if not row.allows(0):
                    return None
                continue
            solver.addConstraint(
                [(coefficient, f"x{variable}") for coefficient, variable in row.terms],
                row.lower is not None, row.lower or 0,
                row.upper is not None, row.upper or 0,
            )
        return solver

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, unique=True)

    def _enumerate(self, instance: Instance, *, unique: bool) -> Iterator[Solution]:
        model = self._model(instance, unique)
        with python_signal_handlers_back():  # Python handles Ctrl-C between and during the solves
            solver = self._solver(model)
        if solver is None:
            return
        squares = [f"x{v}" for v in model.square_variables]
        first = True
        while True:
            with native_call(holds_gil=first):  # Exact keeps the GIL: as in the choco backend
                state = solver.runFull(False)
            first = False
            if state == "UNSAT":
                return
            if state != "SAT":
                raise SolverError(f"exact stopped without an answer ({state})")
            values = solver.getLastSolutionFor(squares)
            yield model.lines.decode(i for i, value in enumerate(values) if value)
            solver.invalidateLastSol(squares)

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """Exact's own count over the square variables (enumerating when a limit is given)."""
        if limit is not None:
            return super()._count(instance, limit, unique)
        model = self._model(instance, unique)
        # Exact's handler stays for the one long call (Ctrl-C stops it at once, as
        # "Program interrupted by user."), Python's is back after it. Under the command line the
        # count runs in a child process, Python's handlers here, so SIGTERM stays SIGTERM.
        with python_signal_handlers_back():
            solver = self._solver(model)
            if solver is None:
                return 0
            squares = [f"x{v}" for v in model.square_variables]
            # Exact holds the GIL until it is done: a signal could not stop it in this process
            state, found = in_child(lambda: solver.count(squares))
        if state not in ("SAT", "UNSAT"):
            raise SolverError(f"exact stopped before counting every solution ({state})")
        return int(found)

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The family model's rows as Exact's linear constraints, its objective minimised (negated
        to maximise); Exact proves the optimum when its search ends (in a child: it holds the GIL)."""
        model = build_family_model(problem, n)

        def run() -> tuple[str, list[int] | None]:
            import exact

            solver = exact.Exact([("verbosity", "0")])
            for variable in range(1, model.variables + 1):
                solver.addVariable(f"x{variable}")
            for row in model.rows:
                solver.addConstraint([(c, f"x{v}") for c, v in row.terms], row.lower is not None, row.lower or 0,
                                     row.upper is not None, row.upper or 0)
            if model.objective is not None:
                sign = -1 if model.objective.direction is Direction.MAXIMISE else 1
                solver.setObjective([(sign * c, f"x{v}") for c, v in model.objective.terms], True)
            state = solver.runFull(model.objective is not None, 0)
            values = solver.getLastSolutionFor([f"x{v}" for v in range(1, model.variables + 1)]) \
                if solver.hasSolution() else None
            return str(state), None if values is None else [int(value) for value in values]

        with python_signal_handlers_back():
            state, values = in_child(run)
        if state not in ("SAT", "UNSAT"):
            raise SolverError(f"exact stopped without an answer ({state})")
        if values is None:
            return FamilyAnswer(problem, n, None, None, True)
        witness = model.decode(lambda v: bool(values[v - 1]))
        return FamilyAnswer(problem, n, witness, witness_value(problem, witness), True)
