"""``sat``: the CNF of :mod:`nqueens_cp.models.cnf`, solved and enumerated by PySAT's solvers.

Enumeration blocks each board found on its queen variables alone: the clause
``¬q(0, c0) ∨ … ∨ ¬q(n-1, c_{n-1})``. Blocking on auxiliary variables too could let one board
come back with other auxiliary values.

:meth:`SatBackend.certified` runs the same search with the solver writing a DRUP proof
(``with_proof=True``) and hands the solutions and the proof to :mod:`nqueens_cp.proofs.certificate`,
which checks them without PySAT: an unsatisfiable answer or a count, certified.
"""

from __future__ import annotations

import importlib.util
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterator, TypeVar, cast

from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.backends.framework.limits import cnf_estimate, refuse_slow_optimum
from nqueens_cp.backends.sat_family import OPTIMISERS
from nqueens_cp.core.errors import BackendOptionError, SearchStoppedError, did_you_mean
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.models.cnf import DEFAULT_ENCODING, QueensCnf, build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.models.geometry import ModelEstimate, ModelSize
from nqueens_cp.system.interrupts import off_main_thread, raise_if_interruption

if TYPE_CHECKING:
    from nqueens_cp.backends.sat_family import SatFamilyResult, Stopper
    from nqueens_cp.models.family import FamilyModel
    from nqueens_cp.proofs.certificate import Certificate
    from nqueens_cp.proofs.family import OptimumCertificate

T = TypeVar("T")

#: Seconds past its time limit a family search is waited for before its process is killed.
FAMILY_STOP_GRACE = 0.5

#: PySAT solvers that take clauses after a solve call, which enumeration by blocking needs.
ENUMERATING_SOLVERS: tuple[str, ...] = (
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4",
    "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm", "maplesat",
    "mergesat3", "minicard", "minisat22", "minisatep",
)

#: Solvers refused, and why.
REFUSED_SOLVERS: dict[str, str] = {
    "kissat404": "Kissat is not incremental: it aborts the process when a blocking clause is added after solving",
    "cryptosat": "CryptoMiniSat needs the separate pycryptosat package, which python-sat does not install",
    "minisatgh": "the GitHub MiniSat build is not compiled into this python-sat",
}

#: The solver of the fastest pair measured for enumeration (``benchmarks/bench_sat.py --grid``,
#: docs/choosing.md, "Choosing the SAT encoding and solver"): CaDiCaL 1.9.5 propagates the pairwise
#: encoding's binary clauses fastest, and stays fastest as the blocking clauses pile up.
DEFAULT_SOLVER = "cadical195"

#: The solvers whose DRUP proofs (``with_proof=True``) check, also after clauses were added
#: between solve calls (``tests/test_proofs.py``). MapleSAT writes lemmas over a variable of its
#: own, which no checker can follow; MiniSat, Minicard, MinisatEP and MergeSat write no proof.
PROOF_SOLVERS: tuple[str, ...] = (
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4",
    "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm",
)

#: The most solutions a certified enumeration takes on: each one stays as a blocking clause and adds
#: some 30 proof lines, all held in memory (n = 12: 14,200 solutions, 415,417 lines, 25 s in all,
#: ``benchmarks/bench_certify.py``; n = 13, 73,712: 362 s and 1.3 GB, docs/certified.md); n = 14 refused.
MAX_CERTIFIED_SOLUTIONS = 100_000


def canonical_solver_name(name: str) -> str:
    """The PySAT solver called ``name`` (aliases such as ``g4`` or ``m22`` allowed), checked to enumerate."""
    wanted = name.strip().lower()
    if wanted in ENUMERATING_SOLVERS:
        return wanted
    if importlib.util.find_spec("pysat") is None:
        return wanted  # the backend reports the missing package when it is used
    from pysat.solvers import SolverNames

    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and wanted in aliases:
            if canonical in REFUSED_SOLVERS:
                raise BackendOptionError(f"solver {name!r} cannot enumerate: {REFUSED_SOLVERS[canonical]}")
            if canonical in ENUMERATING_SOLVERS:
                return str(canonical)
    raise BackendOptionError(
        f"unknown solver {name!r}{did_you_mean(wanted, ENUMERATING_SOLVERS)} (choose from {', '.join(ENUMERATING_SOLVERS)})"
    )



class SatBackend(Backend):
    supports_blocked = True
    name = "sat"
    summary = "CNF over n*n Booleans (pysat.card encodings, or commander, product, bimander), solved by PySAT"
    requires = ("pysat",)
    option_specs = (
        OptionSpec("encoding", str, DEFAULT_ENCODING, "cardinality encoding", choices=ENCODINGS),
        OptionSpec(
            "solver", str, DEFAULT_SOLVER, "PySAT solver (must accept clauses after solving; aliases allowed)",
            choices=ENUMERATING_SOLVERS, normalize=canonical_solver_name,
        ),
        OptionSpec("optimiser", str, "rc2", "a family optimum by rc2 (MaxSAT) or iterated (SAT calls under a "
                   "tightening cardinality bound, written with option encoding)", choices=OPTIMISERS),
        OptionSpec("time_limit", float, None, "time limit in seconds of a first solution's search and of a family "
                   "problem's (None: no limit; --certify checks the proof after it)", minimum=0),
    )
    #: Every problem of the family: its 0-1 model as clauses (:mod:`nqueens_cp.models.family_cnf`),
    #: an optimum by MaxSAT or iterated SAT (:mod:`nqueens_cp.backends.sat_family`).
    family = frozenset(Problem) - {Problem.QUEENS}
    #: The placement problems, counted by enumeration with blocking clauses.
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerates them, a blocking clause per placement found.
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return cnf_estimate(instance, self.options["encoding"])

    def _build(self, instance: Instance, unique: bool) -> QueensCnf:
        self.check_fits(self.memory_estimate(instance), "sat")
        return build_cnf(instance, self.options["encoding"], unique=unique)

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return self._build(instance, unique).size()

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, unique=True)

    def _first_solution(self, instance: Instance) -> Solution | None:
        """With option ``time_limit``, on the main thread: the search in a forked child, stopped at
        the limit (CaDiCaL keeps the GIL for a whole SAT call and cannot be interrupted)."""
        import threading

        from nqueens_cp.system.child_search import search_in_child

        limit = self.options["time_limit"]
        if limit is None or threading.current_thread() is not threading.main_thread():
            return super()._first_solution(instance)
        self.check_fits(self.memory_estimate(instance), "sat")
        done, found = search_in_child(lambda report: next(self._search_here(instance, False), None),
                                      lambda item: None, limit)
        if not done:
            raise SearchStoppedError(f"sat reached its time limit of {limit:g} s before it found a solution of "
                                     f"{instance}")
        return found

    def _search(self, instance: Instance, *, unique: bool) -> Iterator[Solution]:
        """The CNF is built and solved in a thread of its own, where PySAT leaves Ctrl-C to Python
        (see :func:`~nqueens_cp.system.interrupts.off_main_thread`)."""
        self.check_fits(self.memory_estimate(instance), "sat")  # refused here, at once
        return off_main_thread(lambda: self._search_here(instance, unique), "pysat-search")

    def _search_here(self, instance: Instance, unique: bool) -> Iterator[Solution]:
        from pysat.solvers import Solver

        built = self._build(instance, unique)
        with Solver(name=self.options["solver"], bootstrap_with=built.cnf.clauses) as solver:
            while _solve(solver):
                model = solver.get_model()
                queens = [lit for lit in model[: len(built.squares)] if lit > 0]
                yield built.decode(queens)
                solver.add_clause([-lit for lit in queens])


    def certified(
        self, instance: Instance, *, every: bool, on_solution: Callable[[Solution], None]
    ) -> Certificate | None:
        """Solve ``instance`` with a proof-writing solver and check the answer without PySAT.

        Each solution found goes to ``on_solution`` (the first one only, unless ``every``). The
        certificate of "these are all the solutions" (none, or every one with ``every``) is
        returned after its check; None when a first solution was asked for and found (it is a
        board the caller checks). A check that fails raises ``CertificationError``.
        """
        from pysat.solvers import Solver

        from nqueens_cp.core.errors import CertificationError
        from nqueens_cp.proofs.certificate import CnfOfBoard, certify

        self._prepare(instance, None, False)
        solver_name = self.options["solver"]
        if solver_name not in PROOF_SOLVERS:
            raise BackendOptionError(
                f"solver {solver_name} writes no checkable proof (choose from {', '.join(PROOF_SOLVERS)})"
            )
        if every:
            from nqueens_cp.core.errors import ModelTooLargeError
            from nqueens_cp.core.oeis import published_count

            known = published_count(instance, unique=False)
            if known is not None and known[0] > MAX_CERTIFIED_SOLUTIONS:
                raise ModelTooLargeError(
                    f"a certified enumeration of {instance} would hold {known[0]:,} blocking clauses and their "
                    f"proof in memory: refused above {MAX_CERTIFIED_SOLUTIONS:,} solutions (n <= 13)"
                )
        built = self._build(instance, False)
        found: list[Solution] = []
        with Solver(name=solver_name, bootstrap_with=built.cnf.clauses, with_proof=True) as solver:
            while _solve(solver):
                queens = [lit for lit in solver.get_model()[: len(built.squares)] if lit > 0]
                solution = built.decode(queens)
                found.append(solution)
                on_solution(solution)
                if not every:
                    return None
                solver.add_clause([-lit for lit in queens])
            proof = solver.get_proof()
        if proof is None:
            raise CertificationError(f"solver {solver_name} returned no proof")
        cnf = CnfOfBoard(
            instance, built.cnf.nv, tuple(tuple(clause) for clause in built.cnf.clauses), built.squares
        )
        return certify(cnf, found, "".join(line + "\n" for line in proof))


    # -- the N-Queens family -----------------------------------------------------------------

    def _family_search(self, problem: Problem, n: int, search: Callable[[FamilyModel, Stopper], T],
                       at_limit: Callable[[Stopper], T]) -> T:
        """``search(model, stopper)`` on the family model of ``problem``, under the time limit.

        On the main thread it runs in a forked child (:func:`~nqueens_cp.system.child_search.search_in_child`):
        CaDiCaL keeps the GIL for the whole of a SAT call and cannot be interrupted, so Ctrl-C,
        SIGTERM and the time limit are waited for in this process, which kills the child; at the
        time limit ``at_limit`` answers from what the child reported (its best witness, RC2's bound).
        Elsewhere it runs here, the time limit interrupting the SAT call where the solver can be."""
        import threading

        from nqueens_cp.backends.sat_family import Stopper
        from nqueens_cp.models.family import build_family_model, family_memory
        from nqueens_cp.system.child_search import search_in_child

        self.check_fits(replace(family_memory(problem, n), instead="use a smaller board"))
        model = build_family_model(problem, n)
        limit = self.options["time_limit"]
        if threading.current_thread() is not threading.main_thread():
            stopper = Stopper(limit)
            try:
                return search(model, stopper)
            finally:
                stopper.cancel()
        heard = Stopper(None)

        def run(report: Callable[[object], None]) -> T:
            stopper = Stopper(limit, report)  # a solver that can be interrupted stops at the limit itself
            try:
                return search(model, stopper)
            finally:
                stopper.cancel()

        done, answer = search_in_child(run, heard.heard, None if limit is None else limit + FAMILY_STOP_GRACE)
        return cast(T, answer) if done else at_limit(heard)

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        from nqueens_cp.backends import sat_family

        solver = self.options["solver"]
        if problem.counts_placements:
            found = self._family_search(problem, n, lambda model, stopper: sat_family.first_placement(
                model, solver, stopper), sat_family.best_so_far)
        elif self.options["optimiser"] == "rc2":
            found = self._family_search(problem, n, lambda model, stopper: sat_family.rc2_optimum(
                model, solver, stopper), sat_family.best_so_far)
        else:
            found, _ = self._family_search(problem, n, lambda model, stopper: sat_family.iterated_optimum(
                model, solver, self.options["encoding"], stopper), lambda stopper: (sat_family.best_so_far(stopper), None))
        return self._family_answer(problem, n, found)

    def _family_answer(self, problem: Problem, n: int, found: SatFamilyResult) -> FamilyAnswer:
        if found.witness is None and not found.proved:
            limit = self.options["time_limit"]
            bound = "" if found.bound is None else f" (bound {found.bound} proved)"
            raise SearchStoppedError(f"sat reached its time limit of {limit:g} s before it found a witness of "
                                     f"{problem.value}{bound}")
        return FamilyAnswer(problem, n, found.witness, found.value, found.proved, found.bound, found.found_at)

    def _count_family(self, problem: Problem, n: int) -> int:
        from nqueens_cp.backends import sat_family

        solver = self.options["solver"]
        count = self._family_search(problem, n, lambda model, stopper: sat_family.count_placements(
            model, solver, stopper), lambda stopper: None)
        if count is None:
            raise SearchStoppedError(f"sat reached its time limit of {self.options['time_limit']:g} s before it "
                                     f"counted the placements of {problem.value}")
        return count

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Each placement by a SAT call on the family's CNF, then blocked (in this process: each call
        is short; the time limit interrupts the solvers that can be)."""
        from nqueens_cp.backends import sat_family
        from nqueens_cp.models.family import build_family_model, family_memory

        self.check_fits(replace(family_memory(problem, n), instead="use a smaller board"))
        stopper = sat_family.Stopper(self.options["time_limit"])
        try:
            complete = yield from cast("Generator[Solution, None, bool]", sat_family.placements(
                build_family_model(problem, n), self.options["solver"], stopper))
        finally:
            stopper.cancel()
        if not complete:
            raise SearchStoppedError(f"sat reached its time limit of {self.options['time_limit']:g} s before it "
                                     f"enumerated the placements of {problem.value}")

    def certified_family(self, problem: Problem, n: int) -> tuple[FamilyAnswer, OptimumCertificate]:
        """The optimum of ``problem`` by iterated SAT with a proof-writing solver, and its certificate:
        the witness checked, and the DRUP proof of the last (unsatisfiable) call checked against the
        formula, every clause of which is checked to follow from the problem's rules, the bound and
        the definitions of its auxiliary variables (:mod:`nqueens_cp.proofs.family`).
        ``CertificationError`` when a check fails, ``SearchStoppedError`` when the time limit came first."""
        from nqueens_cp.backends import sat_family
        from nqueens_cp.proofs.family import certify_optimum

        if problem.counts_placements:
            raise BackendOptionError(f"--certify covers the optima of the family; {problem.value} places pieces")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise BackendOptionError(f"n must be an integer >= 1, got {n!r}")
        refuse_slow_optimum(problem, n, self.name, self.options)
        self.ensure_available()
        solver = self.options["solver"]
        if solver not in PROOF_SOLVERS:
            raise BackendOptionError(
                f"solver {solver} writes no checkable proof (choose from {', '.join(PROOF_SOLVERS)})")
        encoding = sat_family.bound_encoding(self.options["encoding"])
        if encoding not in sat_family.CERTIFIED_BOUND_ENCODINGS:
            raise BackendOptionError(
                f"--certify reads each auxiliary variable as \"at least t of its literals\": the objective's bound "
                f"takes {' or '.join(sat_family.CERTIFIED_BOUND_ENCODINGS)} (encoding {encoding}'s are not so)")
        found, refutation = self._family_search(problem, n, lambda model, stopper: sat_family.iterated_optimum(
            model, solver, self.options["encoding"], stopper, proof=True), lambda stopper: (
            sat_family.best_so_far(stopper), None))
        answer = self._family_answer(problem, n, found)
        if refutation is None or answer.witness is None:
            best = "" if answer.value is None else f" (the best found: {answer.value})"
            raise SearchStoppedError(f"sat reached its time limit of {self.options['time_limit']:g} s before it "
                                     f"proved the optimum of {problem.value} for n = {n}{best}: nothing to certify")
        certificate = certify_optimum(problem, n, answer.witness, refutation.variables, refutation.clauses,
                                      refutation.parts,
                                      refutation.proof, refutation.colours)
        return answer, certificate


def _solve(solver: Any) -> bool:
    """``solver.solve()``, with Ctrl-C raised as ``KeyboardInterrupt`` (PySAT's C extension reports
    it as its own ``pysolvers.error: Caught keyboard interrupt``: see :mod:`nqueens_cp.system.interrupts`)."""
    try:
        return bool(solver.solve())
    except Exception as error:
        raise_if_interruption(error)
        raise
