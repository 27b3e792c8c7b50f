"""``solve --certify``: answers with a checked proof (the ``sat`` backend), and ``--proof FILE``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Callable

from nqueens_cp.cli.checked import AnswerCheck, InvalidAnswerError
from nqueens_cp.cli.output import emit_solution
from nqueens_cp.cli.split_run import SPLIT_FLAGS
from nqueens_cp.core.errors import CertificationError, NQueensError
from nqueens_cp.core.instance import Instance, Solution

CERTIFY_HELP = (
    "with --backend sat: check the answer without trusting the solver. A solution is checked by "
    "the independent checker; 'no solution', and with --count/--all the end of the enumeration, "
    "come with a DRUP proof the solver writes, checked by the project's own proof checker against "
    "the CNF plus one blocking clause per solution found; each clause of the CNF over squares is "
    "checked against the rules, and every board is checked to extend to the clauses over an "
    "encoding's auxiliary variables. The verdict goes to stderr; a check that fails is an error (exit 1). "
    "A time limit bounds the search; the checks come after it. Not with --unique, --limit or a split run"
)
PROOF_HELP = (
    "with --certify (implies it): keep what was checked, for any DRUP checker (drat-trim, ...): the "
    "proof in FILE and the CNF (DIMACS, with the blocking clauses) in FILE with the suffix .cnf"
)


def add_certify_arguments(parser: argparse.ArgumentParser) -> None:
    """``--certify`` and ``--proof FILE``."""
    parser.add_argument("--certify", action="store_true", help=CERTIFY_HELP)
    parser.add_argument("--proof", metavar="FILE", type=Path, help=PROOF_HELP)


def wants_certificate(args: argparse.Namespace) -> bool:
    return bool(args.certify or args.proof is not None)


def cnf_path(proof: Path) -> Path:
    """Where ``--proof FILE`` keeps the CNF: ``FILE`` with the suffix ``.cnf``."""
    return proof.with_suffix(".cnf") if proof.suffix != ".cnf" else proof.with_name(proof.name + ".cnf")


def run_certified(
    args: argparse.Namespace, instance: Instance, described: str, options: dict[str, Any],
    matches_published: Callable[[int, Instance], bool],
) -> int:
    """``solve --certify``: the answer, its certificate checked; returns the exit status.
    ``matches_published`` compares a count with OEIS (and says so on stderr when it differs)."""
    from nqueens_cp.backends.framework.registry import create_backend
    from nqueens_cp.backends.sat import SatBackend
    from nqueens_cp.system.atomic import atomic_write_all

    if args.backend != "sat":
        raise NQueensError(f"--certify needs --backend sat (the backend whose solvers write proofs), not {args.backend}")
    if args.unique:
        raise NQueensError("--certify does not cover --unique (its lex-leader clauses forbid all but one board per symmetry class)")
    if args.limit is not None:
        raise NQueensError("--certify needs the whole answer: no --limit")
    given = [flag for dest, flag in SPLIT_FLAGS.items() if getattr(args, dest, None) is not None]
    if args.workers is not None and args.workers > 1:
        given.insert(0, "--workers")
    if given:
        raise NQueensError(f"--certify runs one solver: no {given[0]}")
    backend = create_backend("sat", memory_budget_mb=args.max_model_mb, **options)
    assert isinstance(backend, SatBackend)
    out = sys.stdout
    found: list[Solution] = []
    check = AnswerCheck(instance, backend.name, described)

    def show(solution: Solution) -> None:
        if not found:
            found.append(solution)  # the first: checked here when no certificate follows
        if not args.count:
            check.check(solution)  # before it is printed; the certificate checks every board again
            emit_solution(solution, out, output_format=args.format, show=args.show)

    started = time.perf_counter()
    try:
        certificate = backend.certified(instance, every=args.count or args.all, on_solution=show)
    except (CertificationError, InvalidAnswerError) as error:
        out.flush()
        sys.stderr.write(f"nqueens-cp: error: certification failed: {error}\n")
        return 1
    elapsed = time.perf_counter() - started
    if certificate is None:  # a first solution: a board, checked here
        from nqueens_cp.core.checker import solution_problems

        out.flush()
        problems = solution_problems(instance, found[0])
        if problems:
            sys.stderr.write(f"nqueens-cp: error: certification failed: the solution {found[0]}: {problems[0]}\n")
            return 1
        sys.stderr.write("certified: the solution passed the independent checker\n")
        return 0
    if args.count or args.all:
        out.flush()
        if not matches_published(certificate.solutions, instance):
            return 1
    if args.count:
        print(certificate.solutions)
    out.flush()
    if args.proof is not None:
        atomic_write_all({args.proof: certificate.proof_text, cnf_path(args.proof): certificate.cnf_text})
    solve_seconds = elapsed - certificate.check_seconds
    sys.stderr.write(f"{certificate.summary()}; solved in {solve_seconds:.2f} s\n")
    if args.proof is not None:
        sys.stderr.write(f"kept: {args.proof} (DRUP proof), {cnf_path(args.proof)} (DIMACS CNF)\n")
    if certificate.solutions == 0 and not args.count:
        sys.stderr.write(f"no solution for {described}\n")
        return 1
    return 0
