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

The N-Queens family: each problem is the program of :mod:`nqueens_cp.models.family_asp`; an
optimum is clasp's optimisation (``#minimize``/``#maximize``, every improving model handed to
Python), proved when the search ends (``OPTIMUM FOUND``); ``time_limit`` stops it with the best
model found, unproved. A placement count is clasp's count of answer sets (times n on the torus,
whose program fixes the first row's queen).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Iterator, cast

from nqueens_cp.backends.framework.base import FAMILY_TIME_LIMIT, OptionSpec
from nqueens_cp.backends.framework.limits import family_estimate, refuse_classic_time_limit
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import SearchStoppedError, SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Placement, Problem, torus_shifts
from nqueens_cp.models.asp import FORMULATIONS, AspProgram, asp_memory, asp_program
from nqueens_cp.models.family_asp import Atom, atoms_witness, family_asp_program
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
        FAMILY_TIME_LIMIT,
    )
    #: Every problem of the family, each an answer set program (:mod:`nqueens_cp.models.family_asp`).
    family = frozenset(Problem) - {Problem.QUEENS}
    #: The placement problems, counted by clasp.
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerates them, each answer set streamed as clasp finds it.
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    build = staticmethod(asp_program)
    estimate = staticmethod(asp_memory)
    larger = ("pairwise", "use option formulation=lines (a cardinality constraint per line, O(n²) ground)")



    def _control(self, text: str, models: int) -> clingo.Control:
        """A grounded clingo control for the program ``text``, asked for ``models`` answer sets (0: all;
        for an optimisation, every improving model up to the optimum)."""
        import clingo

        messages: list[str] = []
        control = clingo.Control(
            [f"--models={models}", f"--configuration={self.options['configuration']}"],
            logger=lambda _code, message: messages.append(message),
        )
        try:
            with native_call():  # parsing and grounding cannot be stopped: the signal ends the process
                control.add("base", [], text)
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
        refuse_classic_time_limit(self.name, self.options)
        program = self._model(instance, unique)
        control = self._control(program.text, limit or 0)
        for symbols in _answer_sets(control):
            yield self._decode(program, symbols)

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """clasp counts the answer sets itself; no board is handed to Python."""
        refuse_classic_time_limit(self.name, self.options)
        program = self._model(instance, unique)
        control = self._control(program.text, limit or 0)
        # No stop through clingo's interrupt: the search would end in clingo's statistics callback,
        # where Python's handler then raises and clingo aborts the process (seen). It ends at once.
        with native_call():
            result = control.solve()
        if result.interrupted or (limit is None and not result.exhausted):
            raise SolverError("clingo stopped before enumerating every answer set")
        return int(control.statistics["summary"]["models"]["enumerated"])

    # -- the N-Queens family -----------------------------------------------------------------

    def _family_control(self, problem: Problem, n: int, models: int) -> clingo.Control:
        """The grounded program of the family ``problem`` (:func:`family_asp_program`), once it fits."""
        self.check_fits(family_estimate(problem, n))
        return self._control(family_asp_program(problem, n).text, models)

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """clasp's search for an answer set (a placement) or its optimisation, every model it finds
        kept (the last is the best) with when it came; proved when the search ended by itself."""
        control = self._family_control(problem, n, 1 if problem.counts_placements else 0)
        best: list[Atom] | None = None
        found_at: float | None = None
        start = time.perf_counter()

        def keep(model: Any) -> None:
            nonlocal best, found_at
            best = [(s.name, tuple(a.number for a in s.arguments)) for s in model.symbols(shown=True)]
            found_at = time.perf_counter() - start

        limit = self.options["time_limit"]
        # No stop through clingo's interrupt (see _count): a signal ends the process at once.
        with native_call(), control.solve(on_model=keep, async_=True) as handle:
            if not handle.wait(limit):  # None: until the search ends
                handle.cancel()
            result = handle.get()
        if best is None:
            if result.unsatisfiable:
                return FamilyAnswer(problem, n, None, None, True)
            if limit is None:
                raise SolverError("clingo stopped before it found a witness or proved there is none")
            raise SearchStoppedError(f"asp reached its time limit of {limit:g} s before it found a witness of "
                                     f"{problem.value} or proved there is none")
        witness = atoms_witness(problem, n, best)
        proved = problem.counts_placements or bool(result.exhausted)
        return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved, found_at=found_at)

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Every answer set, streamed (``yield_``); the torus's program fixes the first queen in
        column 0, so each answer set stands for its n column shifts (:func:`torus_shifts`).
        ``time_limit`` stops the stream (:class:`SearchStoppedError`; what was yielded stands)."""
        for symbols in _answer_sets(self._family_control(problem, n, 0), self.options["time_limit"]):
            atoms = [(s.name, tuple(a.number for a in s.arguments)) for s in symbols]
            placement = cast(Placement, atoms_witness(problem, n, atoms))
            yield from torus_shifts(placement, n) if problem is Problem.TOROIDAL else (placement,)

    def _count_family(self, problem: Problem, n: int) -> int:
        """clasp counts the answer sets itself (the torus's: those with the first queen in column 0, times n)."""
        control = self._family_control(problem, n, 0)
        limit = self.options["time_limit"]
        with native_call(), control.solve(async_=True) as handle:  # no interrupt: see _count
            if not handle.wait(limit):  # None: until the search ends
                handle.cancel()
                raise SearchStoppedError(f"asp reached its time limit of {limit:g} s before it counted the "
                                         f"placements of {problem.value}")
            result = handle.get()
        if result.interrupted or not result.exhausted:
            raise SolverError("clingo stopped before enumerating every answer set")
        found = int(control.statistics["summary"]["models"]["enumerated"])
        return found * n if problem is Problem.TOROIDAL else found


def _answer_sets(control: clingo.Control, limit: float | None = None) -> Iterator[Any]:
    """The shown symbols of each answer set of ``control``, streamed as clasp finds them; ``limit``
    seconds after the first is asked for, the search is cancelled (:class:`SearchStoppedError`)."""
    deadline = None if limit is None else time.monotonic() + limit
    with control.solve(yield_=True, async_=True) as handle:
        while True:
            handle.resume()
            with native_call():  # no stop through clingo's interrupt (see AspBackend._count)
                ready = handle.wait(None if deadline is None else max(0.0, deadline - time.monotonic()))
            if not ready:
                handle.cancel()
                raise SearchStoppedError(f"asp reached its time limit of {limit:g} s before it enumerated every "
                                         "answer set")
            model = handle.model()
            if model is None:
                break
            yield model.symbols(shown=True)
        result = handle.get()
    if result.interrupted:
        raise SolverError("clingo was interrupted before the search ended")
