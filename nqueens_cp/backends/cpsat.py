"""``cpsat``: OR-Tools CP-SAT, one integer variable per row and three AllDifferent constraints.

``q[i]`` in ``[0, n)`` is the column of row ``i``. Columns differ: AllDifferent(q[i]); the up
diagonals differ: AllDifferent(q[i] + i); the down diagonals differ: AllDifferent(q[i] - i).
A pre-placed queen fixes its row's variable. All solutions come from CP-SAT's
``enumerate_all_solutions`` through a callback that only records each board; the solver runs in
a background thread so the solutions stream lazily to the caller.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Iterator

from ..errors import BackendOptionError, NQueensError, SolverError
from ..instance import Instance, Solution
from ..symmetry_breaking import add_cpsat_lex_leader
from .base import Backend, ModelSize, OptionSpec

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

#: Named parameter sets. ``plain`` is CP-SAT's defaults (OR-Tools' own sample configuration).
#: ``tuned`` (the default) enumerates fastest in ``benchmarks/bench_cpsat.py``: a fixed first-fail
#: search on the row variables, with SAT inprocessing, presolve, LP relaxation and symmetry
#: detection off (they cost time at every restart of the enumeration and prune nothing that
#: propagation of the three AllDifferent does not). String values name ``cp_model`` enum members;
#: ``decision_strategy`` is not a solver parameter but the (variable, value) selection given to
#: ``add_decision_strategy`` on the row variables.
STRATEGIES: dict[str, dict[str, Any]] = {
    "plain": {},
    "tuned": {
        "decision_strategy": ("CHOOSE_MIN_DOMAIN_SIZE", "SELECT_MIN_VALUE"),
        "search_branching": "FIXED_SEARCH",
        "use_sat_inprocessing": False,
        "cp_model_presolve": False,
        "linearization_level": 0,
        "symmetry_level": 0,
    },
    # first solutions on large boards, with model=boolean: CP-SAT's local search only (cannot enumerate)
    "localsearch": {"use_ls_only": True, "cp_model_presolve": False, "feasibility_jump_decay": 1.0},
}


@dataclass(frozen=True)
class CpSatModel:
    """A built CP-SAT model and its row variables (``queens[row]`` is the column of that row)."""

    model: cp_model.CpModel
    queens: tuple[cp_model.IntVar, ...]

    def size(self) -> ModelSize:
        proto = self.model.Proto()
        return ModelSize(len(proto.variables), len(proto.constraints), "constraints")


def build_cpsat_model(instance: Instance, unique: bool = False) -> CpSatModel:
    """The canonical three-AllDifferent model of ``instance`` (built, not solved).

    With ``unique``, lex-leader constraints keep one solution per symmetry class (the
    lexicographically smallest image); see :mod:`nqueens_cp.symmetry_breaking`.
    """
    from ortools.sat.python import cp_model

    n = instance.n
    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"q{row}") for row in range(n)]
    model.add_all_different(queens)
    model.add_all_different([queens[row] + row for row in range(n)])
    model.add_all_different([queens[row] - row for row in range(n)])
    for row, col in instance.fixed:
        model.add(queens[row] == col)
    if unique:
        if instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        add_cpsat_lex_leader(model, queens)
    return CpSatModel(model, tuple(queens))


_DONE = object()


class CpSatBackend(Backend):
    name = "cpsat"
    summary = "OR-Tools CP-SAT: q[i] per row, AllDifferent on q[i], q[i]+i, q[i]-i"
    requires = ("ortools",)
    option_specs = (
        OptionSpec("workers", int, 1, "CP-SAT search workers (enumeration itself always uses 1)", minimum=1),
        OptionSpec("time_limit", float, None, "time limit in seconds (None: no limit)", minimum=0),
        OptionSpec("strategy", str, "tuned", "parameter set", choices=tuple(STRATEGIES)),
        OptionSpec(
            "model", str, "alldiff", "alldiff: q[i] per row, 3 AllDifferent; boolean: one 0-1 variable per "
            "square (for large n, with strategy=localsearch)", choices=("alldiff", "boolean"),
        ),
    )

    def _build(self, instance: Instance, unique: bool = False) -> CpSatModel:
        """The model of ``instance`` with the strategy's decision strategy, if it has one."""
        from ortools.sat.python import cp_model

        if self.options["model"] == "boolean":
            from ..cpsat_boolean import build_cpsat_boolean_model

            return build_cpsat_boolean_model(instance, unique=unique)
        built = build_cpsat_model(instance, unique=unique)
        decision = STRATEGIES[self.options["strategy"]].get("decision_strategy")
        if decision is not None:
            variable_choice, value_choice = decision
            built.model.add_decision_strategy(
                built.queens, getattr(cp_model, variable_choice), getattr(cp_model, value_choice)
            )
        return built

    def model_size(self, instance: Instance) -> ModelSize:
        self.ensure_available()
        return self._build(instance).size()

    def _solver(self, *, enumerate_all: bool) -> cp_model.CpSolver:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        params = solver.parameters
        # CP-SAT installs its own SIGINT handler and leaves SIGINT at the C default afterwards, so
        # Ctrl-C would kill the whole process instead of raising KeyboardInterrupt. Keep Python's.
        params.catch_sigint_signal = False
        for key, value in STRATEGIES[self.options["strategy"]].items():
            if key != "decision_strategy":
                setattr(params, key, getattr(cp_model, value) if isinstance(value, str) else value)
        if enumerate_all:
            # CP-SAT enumerates exactly only with one worker; parallel enumeration splits the
            # instance into sub-problems instead (see the scale-out commands).
            params.enumerate_all_solutions = True
            params.num_workers = 1
        else:
            params.num_workers = self.options["workers"]
        if self.options["time_limit"] is not None:
            params.max_time_in_seconds = self.options["time_limit"]
        return solver

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, limit, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, limit, unique=True)

    def _search(self, instance: Instance, limit: int | None, *, unique: bool) -> Iterator[Solution]:
        if instance.n == 0:
            yield ()
            return
        if limit != 1:
            self._check_can_enumerate()
        built = self._build(instance, unique=unique)
        if limit == 1:
            yield from self._first(built)
        else:
            yield from self._enumerate(built)

    def _check_can_enumerate(self) -> None:
        if self.options["strategy"] == "localsearch":
            raise BackendOptionError("strategy localsearch finds one solution only: it cannot enumerate")

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        """The number of solutions; a full count runs the search with a counting callback.

        Streaming boards through a queue from a solver thread costs a tuple and a hand-over per
        solution; a full count (no ``limit``, not ``unique``) needs neither.
        """
        if limit is not None or unique or instance.n == 0:
            return super().count(instance, limit=limit, unique=unique)
        self.ensure_available()
        self._check_can_enumerate()
        from ortools.sat.python import cp_model

        solver = self._solver(enumerate_all=True)

        class Counter(cp_model.CpSolverSolutionCallback):
            """Counts solutions, nothing else."""

            def __init__(self) -> None:
                super().__init__()
                self.found = 0

            def on_solution_callback(self) -> None:
                self.found += 1

        counter = Counter()
        status = solver.solve(self._build(instance).model, counter)
        self._check_complete(solver, status)
        return counter.found

    @staticmethod
    def _check_complete(solver: cp_model.CpSolver, status: Any) -> None:
        """Raise ``SolverError`` unless an enumeration ended with every solution seen."""
        from ortools.sat.python import cp_model

        if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
            raise SolverError(
                f"cpsat stopped before enumerating every solution ({solver.status_name(status)}):"
                " the time limit was reached"
            )

    def _first(self, built: CpSatModel) -> Iterator[Solution]:
        from ortools.sat.python import cp_model

        solver = self._solver(enumerate_all=False)
        status = solver.solve(built.model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            yield tuple(int(solver.value(q)) for q in built.queens)
        elif status != cp_model.INFEASIBLE:
            raise SolverError(f"cpsat stopped without an answer ({solver.status_name(status)})")

    def _enumerate(self, built: CpSatModel) -> Iterator[Solution]:
        from ortools.sat.python import cp_model

        solver = self._solver(enumerate_all=True)
        found: queue.Queue[object] = queue.Queue(maxsize=4096)
        consumer_gone = threading.Event()
        outcome: dict[str, Any] = {}

        def hand_over(item: object) -> bool:
            while not consumer_gone.is_set():
                try:
                    found.put(item, timeout=0.05)
                    return True
                except queue.Full:
                    continue
            return False

        class Recorder(cp_model.CpSolverSolutionCallback):
            """Records each board; asks the solver to stop once nobody reads them any more."""

            def on_solution_callback(self) -> None:
                if not hand_over(tuple(int(self.value(q)) for q in built.queens)):
                    self.stop_search()

        def search() -> None:
            try:
                outcome["status"] = solver.solve(built.model, Recorder())
            except BaseException as error:  # handed to the consumer, re-raised there
                outcome["error"] = error
            hand_over(_DONE)

        thread = threading.Thread(target=search, name="cpsat-search", daemon=True)
        thread.start()
        try:
            while (item := found.get()) is not _DONE:
                yield item  # type: ignore[misc]
        finally:
            consumer_gone.set()
            thread.join()
        if "error" in outcome:
            raise SolverError(f"cpsat failed: {outcome['error']}") from outcome["error"]
        self._check_complete(solver, outcome["status"])
