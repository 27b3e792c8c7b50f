"""``asp``: answer set programming with clingo, on the logic program of :mod:`nqueens_cp.models.asp`.

The program (facts for the board's lines, a choice per square, a cardinality constraint per
line) is grounded once by gringo and solved by clasp; every answer set is one board. Solutions
stream from clingo's solve handle (``yield_``): closing the iterator early cancels the search. A
full count asks clasp for the number of models it enumerated without handing each to Python.
``--unique`` adds the lex-leader rules of the model, so clasp itself keeps one board per class.

clasp runs with ``--configuration=crafty`` by default: measured (``benchmarks/bench_paradigms.py
--asp-configurations``) it counts n = 12 about 5 times faster than clasp's default ``auto``
(its restarts and nogood deletion suit structured problems such as this) and finds n = 256 as
fast; ``frumpy`` counts as fast but is 10 times slower on a first solution of n = 256.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import SolverError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.asp import FORMULATIONS, AspProgram, asp_memory, asp_program
from nqueens_cp.system.interrupts import native_call

if TYPE_CHECKING:
    import clingo

#: clasp's preset configurations (``clingo --help``), the default first.
CONFIGURATIONS = ("crafty", "auto", "frumpy", "jumpy", "tweety", "trendy", "handy")


class AspBackend(ModelledBackend[AspProgram]):
    supports_blocked = True
    name = "asp"
    summary = "answer set programming (clingo): a choice per square, a cardinality constraint per line"
    requires = ("clingo",)
    option_specs = (
        OptionSpec("formulation", str, "lines",
                   "lines: a cardinality constraint per line; pairwise: integrity constraints on pairs of squares",
                   choices=FORMULATIONS),
        OptionSpec("configuration", str, "crafty", "clasp's preset configuration (--configuration)",
                   choices=CONFIGURATIONS),
    )
    build = staticmethod(asp_program)
    estimate = staticmethod(asp_memory)
    larger = ("pairwise", "use option formulation=lines (a cardinality constraint per line, O(n²) ground)")



    def _control(self, program: AspProgram, models: int) -> clingo.Control:
        """A grounded clingo control for ``program``, asked for ``models`` answer sets (0: all)."""
        import clingo

        messages: list[str] = []
        control = clingo.Control(
            [f"--models={models}", f"--configuration={self.options['configuration']}"],
            logger=lambda _code, message: messages.append(message),
        )
        try:
            with native_call():  # parsing and grounding cannot be stopped: the signal ends the process
                control.add("base", [], program.text)
                control.ground([("base", [])])
        except RuntimeError as error:  # a syntax or grounding error: the message says which
            raise SolverError(f"clingo could not ground the program: {' '.join(messages) or error}") from error
        return control

    @staticmethod
    def _decode(program: AspProgram, symbols: Any) -> Solution:
        cols = [-1] * program.lines.n
        for row, col in program.lines.settled:
            cols[row] = col
        for symbol in symbols:
            row, col = (argument.number for argument in symbol.arguments)
            cols[row] = col
        return tuple(cols)

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, limit, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, limit, unique=True)

    def _first_solution(self, instance: Instance) -> Solution | None:
        return next(self._enumerate(instance, 1, unique=False), None)

    def _enumerate(self, instance: Instance, limit: int | None, *, unique: bool) -> Iterator[Solution]:
        program = self._model(instance, unique)
        control = self._control(program, limit or 0)
        with control.solve(yield_=True) as handle:
            models = iter(handle)
            while True:
                with native_call():  # see _count
                    model = next(models, None)
                if model is None:
                    break
                yield self._decode(program, model.symbols(shown=True))
            result = handle.get()
        if result.interrupted:
            raise SolverError("clingo was interrupted before the search ended")

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """clasp counts the answer sets itself; no board is handed to Python."""
        program = self._model(instance, unique)
        control = self._control(program, limit or 0)
        # No stop through clingo's interrupt: the search would end in clingo's statistics callback,
        # where Python's handler then raises and clingo aborts the process (seen). It ends at once.
        with native_call():
            result = control.solve()
        if result.interrupted or (limit is None and not result.exhausted):
            raise SolverError("clingo stopped before enumerating every answer set")
        return int(control.statistics["summary"]["models"]["enumerated"])
