"""The ``sat`` backend's searches of the N-Queens family, on the CNF of :mod:`nqueens_cp.models.family_cnf`.

- A placement (toroidal queens, superqueens) is one SAT call; a count enumerates, each placement
  blocked on the square variables alone (the auxiliaries cannot bring one back).
- An optimum is found two ways (option ``optimiser``):

  ``rc2``       MaxSAT: the rows as hard clauses, a soft unit clause per objective term (the WCNF
                ``export --format wcnf`` writes), solved by PySAT's RC2 (core-guided: it raises a
                lower bound on the cost until the hard clauses and the cheapest soft ones are
                satisfiable; its first witness is optimal);
  ``iterated``  iterated SAT: a first witness, then "the objective is better than the best found"
                as a cardinality constraint (the ``encoding`` option: a ``pysat.card`` encoding
                that takes bounds above 1; the default ``pairwise`` writes at most one only and
                stands for the totalizer here), added to the same incremental solver, until the
                solver says UNSAT: the last witness is optimal, and the last call's DRUP proof
                (``with_proof``) is the certificate of "nothing better"
                (:mod:`nqueens_cp.proofs.family`).

Each search runs under a :class:`Stopper`: at the time limit (a timer) it interrupts the running
SAT call (PySAT's ``solve_limited`` with ``expect_interrupt``) where the solver can be interrupted,
and it keeps and reports the best witness and bound found so far, for a caller that stops waiting
(the backend runs the search in a forked child: :meth:`~nqueens_cp.backends.sat.SatBackend._family_search`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Generator

from nqueens_cp.core.cardinality import CardinalityPart
from nqueens_cp.core.errors import SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.problems import Direction, Witness
from nqueens_cp.models.family import FamilyModel
from nqueens_cp.models.family_cnf import (
    FamilyCnf,
    family_cnf,
    objective_bound,
    soft_literals,
)
from nqueens_cp.system.interrupts import raise_if_interruption

#: The ways the backend finds an optimum (see the module docstring).
OPTIMISERS: tuple[str, ...] = ("rc2", "iterated")
#: The bound encodings whose auxiliary variables each count "at least t" of some of the bound's
#: literals, as the certificate reads them (:mod:`nqueens_cp.proofs.family`): a sorting network's
#: wires and the modulo totalizers' digits are other functions, and their clauses are refused.
CERTIFIED_BOUND_ENCODINGS: tuple[str, ...] = ("totalizer", "seqcounter")
#: The objective bound's encoding when the backend's ``encoding`` option has no bound above 1.
DEFAULT_BOUND_ENCODING = "totalizer"


class Stopper:
    """Interrupts the SAT call running under it when the time limit passes or :meth:`stop` is called
    (from any thread); afterwards every call it runs returns at once as stopped. CaDiCaL and
    Lingeling cannot be interrupted inside a call (PySAT has no interrupt for them): a caller waiting
    elsewhere stops at the time limit and takes what was reported (:attr:`best`, :attr:`bound`)."""

    def __init__(self, time_limit: float | None, report: Callable[[object], None] | None = None) -> None:
        self._lock = threading.Lock()
        self._running: Any = None
        self.stopped = False
        #: The best answer found so far, and the bound RC2 has proved, for a caller that stops waiting.
        self.best: SatFamilyResult | None = None
        self.bound: int | None = None
        self._report = report
        self.started = time.perf_counter()
        self._timer = None if time_limit is None else threading.Timer(time_limit, self.stop)
        if self._timer is not None:
            self._timer.daemon = True
            self._timer.start()

    def stop(self) -> None:
        """Interrupt the running call, and any later one."""
        with self._lock:
            self.stopped = True
            if self._running is not None:
                with contextlib.suppress(NotImplementedError):  # CaDiCaL, Lingeling: the call runs to its end
                    self._running.interrupt()

    def found(self, best: SatFamilyResult) -> None:
        """A better answer (not proved yet), kept and reported."""
        self.best = best
        if self._report is not None:
            self._report(best)

    def proved_bound(self, bound: int) -> None:
        """A bound proved on the optimum, kept and reported."""
        self.bound = bound
        if self._report is not None:
            self._report(bound)

    def heard(self, item: object) -> None:
        """What a search elsewhere reported (:meth:`found`, :meth:`proved_bound`), kept here."""
        if isinstance(item, SatFamilyResult):
            self.best = item
        elif isinstance(item, int):
            self.bound = item

    def cancel(self) -> None:
        """The search is over: no timer fires."""
        if self._timer is not None:
            self._timer.cancel()

    def call(self, solver: Any, compute: Any) -> Any:
        """``compute()`` (a solve call of ``solver``, which has ``interrupt``), None when stopped
        before or during it; PySAT's report of a Ctrl-C raised as ``KeyboardInterrupt``."""
        with self._lock:
            if self.stopped:
                return None
            self._running = solver
        try:
            result = compute()
        except Exception as error:
            raise_if_interruption(error)
            raise
        finally:
            with self._lock:
                self._running = None
        if self.stopped:
            return None
        return result

    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def _solve(stopper: Stopper, solver: Any) -> bool | None:
    """One SAT call: True, False, or None when stopped."""
    if not _interruptible(solver):
        return stopper.call(solver, solver.solve)  # type: ignore[no-any-return]
    result = stopper.call(solver, lambda: solver.solve_limited(expect_interrupt=True))
    if result is not None and solver.get_status() is None:
        return None
    return result if result is None else bool(result)


def _interruptible(solver: Any) -> bool:
    """Whether PySAT can interrupt ``solver``'s calls (not CaDiCaL's or Lingeling's)."""
    name = type(getattr(solver, "solver", solver)).__name__.lower()
    return not name.startswith(("cadical", "lingeling"))


def _prefer(solver: Any, model: FamilyModel) -> None:
    """Make the solver try the objective's good side first (no queens, every army queen), so the
    iterated search's first witness is a good one (domination n = 9: 8 queens, not 81)."""
    assert model.objective is not None
    maximise = model.objective.direction is Direction.MAXIMISE
    with contextlib.suppress(NotImplementedError):  # CaDiCaL 1.0.3 takes no phases
        solver.set_phases([v if maximise else -v for _, v in model.objective.terms])


def _true(model: list[int]) -> set[int]:
    return {literal for literal in model if literal > 0}


@dataclass(frozen=True)
class SatFamilyResult:
    """What a family search found: the witness (None: none), its value, whether it was proved optimal
    (a placement problem: proved that there is none), the bound proved when it was not, and when the
    witness was found (seconds from the search's start)."""

    witness: Witness | None
    value: int | None
    proved: bool
    bound: int | None = None
    found_at: float | None = None


def best_so_far(stopper: Stopper) -> SatFamilyResult:
    """What a search stopped at its time limit answers: its best witness, not proved, or none and
    the bound RC2 proved."""
    if stopper.best is not None:
        return stopper.best
    return SatFamilyResult(None, None, False, stopper.bound)


def _objective(model: FamilyModel, true: set[int]) -> int:
    """The model's objective where the variables ``true`` are (a witness's value is the checker's:
    the colouring model of n = 1 leaves its one colour's flag free)."""
    assert model.objective is not None
    return sum(1 for _, v in model.objective.terms if v in true)


def first_placement(model: FamilyModel, solver_name: str, stopper: Stopper) -> SatFamilyResult:
    """A placement of ``model`` (a placement problem), or none, proved."""
    from pysat.solvers import Solver

    cnf = family_cnf(model)
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as solver:
        status = _solve(stopper, solver)
        if status is None:
            return SatFamilyResult(None, None, False)
        if not status:
            return SatFamilyResult(None, None, True)
        true = _true(solver.get_model())
    witness = model.decode(lambda v: v in true)
    return SatFamilyResult(witness, model.n, True, found_at=stopper.elapsed())


def placements(model: FamilyModel, solver_name: str, stopper: Stopper) -> Generator[Witness, None, bool]:
    """Each placement of ``model`` (a placement problem), streamed: one SAT call per placement, which
    is then blocked on the model's variables; returns False when stopped first (True: every one found)."""
    from pysat.solvers import Solver

    cnf = family_cnf(model)
    with Solver(name=solver_name, bootstrap_with=cnf.clauses) as solver:
        while (status := _solve(stopper, solver)):
            true = _true(solver.get_model())
            yield model.decode(true.__contains__)
            solver.add_clause([-v for v in true if v <= model.variables])
    return status is not None


def count_placements(model: FamilyModel, solver_name: str, stopper: Stopper) -> int | None:
    """The placements of :func:`placements`; None when stopped first."""
    search = placements(model, solver_name, stopper)
    found = 0
    while True:
        try:
            next(search)
        except StopIteration as end:
            return found if end.value else None
        found += 1


def rc2_optimum(model: FamilyModel, solver_name: str, stopper: Stopper) -> SatFamilyResult:
    """The optimum of ``model`` by RC2 on its WCNF (hard rows, soft objective units); stopped first,
    no witness and the lower bound on the cost RC2 had proved (as a bound on the objective)."""
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    assert model.objective is not None
    cnf = family_cnf(model)
    wcnf = WCNF()
    for clause in cnf.clauses:
        wcnf.append(list(clause))
    soft = soft_literals(model.objective)
    for literal in soft:
        wcnf.append([literal], weight=1)
    maximise = model.objective.direction is Direction.MAXIMISE

    class ReportingRC2(RC2):  # type: ignore[misc]
        """RC2 reporting the bound each core proves (the cost it makes unavoidable)."""

        def process_core(self) -> None:
            super().process_core()
            stopper.proved_bound(len(soft) - self.cost if maximise else self.cost)

    with ReportingRC2(wcnf, solver=solver_name) as rc2:
        found = stopper.call(rc2, lambda: rc2.compute(expect_interrupt=_interruptible(rc2.oracle)))
        if found is None:
            if not stopper.stopped:  # no model: the hard clauses are unsatisfiable
                return SatFamilyResult(None, None, True)
            return SatFamilyResult(None, None, False, stopper.bound)
        true = _true(found)
    witness = model.decode(lambda v: v in true)
    return SatFamilyResult(witness, witness_value(model.problem, witness), True, found_at=stopper.elapsed())


@dataclass(frozen=True)
class Refutation:
    """The formula of the last, unsatisfiable call of the iterated search and its DRUP proof: the
    rows' clauses and every objective bound added, each a part saying what it encodes."""

    variables: int
    clauses: tuple[tuple[int, ...], ...]
    parts: tuple[CardinalityPart, ...]
    proof: str
    #: The colouring model's palette (0 for the other problems).
    colours: int


def bound_encoding(encoding: str) -> str:
    """The objective bound's encoding for the backend's ``encoding`` option (see the module docstring)."""
    return DEFAULT_BOUND_ENCODING if encoding == "pairwise" else encoding


def iterated_optimum(model: FamilyModel, solver_name: str, encoding: str, stopper: Stopper, *,
                     proof: bool = False) -> tuple[SatFamilyResult, Refutation | None]:
    """The optimum of ``model`` by iterated SAT (see the module docstring), and with ``proof`` the
    refutation of "better than the optimum" (None when the search did not prove it)."""
    from pysat.solvers import Solver

    objective = model.objective
    assert objective is not None
    maximise = objective.direction is Direction.MAXIMISE
    cnf: FamilyCnf = family_cnf(model)
    clauses, parts, top = list(cnf.clauses), list(cnf.parts), cnf.variables
    best: SatFamilyResult | None = None
    with Solver(name=solver_name, bootstrap_with=clauses, with_proof=proof) as solver:
        _prefer(solver, model)
        while True:
            status = _solve(stopper, solver)
            if status is None:
                if best is None:
                    return SatFamilyResult(None, None, False), None
                return SatFamilyResult(best.witness, best.value, False, None, best.found_at), None
            if not status:
                break
            true = _true(solver.get_model())
            witness = model.decode(true.__contains__)
            best = SatFamilyResult(witness, witness_value(model.problem, witness), True, found_at=stopper.elapsed())
            stopper.found(SatFamilyResult(witness, best.value, False, None, best.found_at))
            value = _objective(model, true)
            bound = value + 1 if maximise else value - 1
            part, added, top = objective_bound(objective, bound, top, bound_encoding(encoding), len(clauses))
            clauses += added
            parts.append(part)
            solver.append_formula(added)
        lines = solver.get_proof() if proof else None
    if proof and lines is None:
        raise SolverError(f"solver {solver_name} returned no proof")
    refutation = None if lines is None else Refutation(top, tuple(clauses), tuple(parts),
                                                       "".join(line + "\n" for line in lines), model.colours)
    if best is None:
        return SatFamilyResult(None, None, True), refutation
    return best, refutation
