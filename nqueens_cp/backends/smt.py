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
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import SolverError
from nqueens_cp.core.instance import Instance, Solution
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
    )
    build = staticmethod(build_smt_model)
    estimate = staticmethod(smt_memory)
    formulation_option = "model"
    larger = ("int", "use option model=bool")



    def _solver(self, model: SmtModel, task: str) -> z3.Solver:
        import z3

        logic = self.options["logic"]
        if logic == "auto":
            logic = AUTO_LOGIC[(model.kind, task)]
        solver = z3.Solver() if logic == "default" else z3.SolverFor(logic)
        try:
            with native_call():  # z3 reads the model in one call
                solver.from_string(model.body)
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
