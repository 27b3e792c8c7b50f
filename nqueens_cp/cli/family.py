"""``nqueens-cp solve N --problem P``: a problem of the N-Queens family (:mod:`nqueens_cp.core.problems`).

For an optimisation problem it prints the optimum on the first line and its witness under it (the
queens' squares as ``row,col``; a colouring as n rows of colours; the two armies as ``white:`` and
``black:`` lines), with ``--show`` the board drawn, with ``--format jsonl`` one JSON object. The
witness is checked by the independent checker before anything is written, a proved optimum is
compared with its OEIS term, and an optimum the search did not prove (a ``--time-limit`` reached)
is printed as the best found, with exit status 3. A placement problem (toroidal, superqueens) prints
its first placement like ``solve``, with ``--count`` the number of placements, or with ``--all``
every placement streamed (``--unique``: one per symmetry class; ``--limit K``: K at most), each
checked and none repeated, their number checked against OEIS.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, cast

from nqueens_cp.backends.framework.defaults import default_family_backend
from nqueens_cp.backends.framework.registry import backend_class, backend_names, create_backend
from nqueens_cp.cli import EXIT_STOPPED, UsageError
from nqueens_cp.cli.certify import cnf_path, wants_certificate
from nqueens_cp.cli.common import backend_options
from nqueens_cp.cli.output import refuse_large_show
from nqueens_cp.core.errors import InvalidWitnessError
from nqueens_cp.core.family_oeis import A051224, A053994, SEQUENCES
from nqueens_cp.core.problems import Armies, Colouring, FamilyAnswer, Goal, Problem, Square

#: What ``solve`` takes with ``--problem`` other than ``queens``, and what it refuses.
REFUSED_FLAGS = {"fix": "--fix", "block": "--block", "instance": "--instance", "workers": "--workers"}

#: What the optimum is called in the line on stderr.
OPTIMUM_NAMES = {
    Goal.DOMINATE: "domination number",
    Goal.DOMINATE_INDEPENDENT: "independent domination number",
    Goal.COLOUR: "chromatic number",
    Goal.PEACEABLE: "largest peaceable armies",
}


def _refuse_classic_flags(args: argparse.Namespace, problem: Problem) -> None:
    given = [flag for dest, flag in REFUSED_FLAGS.items() if getattr(args, dest, None) not in (None, False, [])]
    if given:
        raise UsageError(f"{given[0]} is for the classic problem; --problem {problem.value} takes N, "
                         "--backend, --count or --all (placements), --show, --format and the backend's options")
    for flag, given_flag in (("--count", args.count), ("--all", args.all)):
        if given_flag and not problem.counts_placements:
            raise UsageError(f"{flag} is for placements; --problem {problem.value} asks for an optimum: leave it out")
    if args.limit is not None and not args.all:
        raise UsageError(f"--limit stops --all after K placements: give --all with it (--problem {problem.value})")
    if args.unique and not problem.counts_placements:
        raise UsageError(f"--unique counts placements up to symmetry; --problem {problem.value} asks for an optimum: "
                         "leave it out")
    if args.unique and not (args.count or args.all):
        raise UsageError(f"--unique counts or enumerates placements up to symmetry: give --count or --all with it "
                         f"(--problem {problem.value})")
    if wants_certificate(args):
        if problem.counts_placements:
            raise UsageError(f"--certify covers the optima of the family; --problem {problem.value} places pieces")
        if args.backend not in (None, "sat"):
            raise UsageError(f"--certify needs --backend sat (its iterated SAT search writes the proof), not {args.backend}")
        args.backend = "sat"


def _backend(args: argparse.Namespace, problem: Problem) -> Any:
    name = args.backend or default_family_backend(problem, args.n, count=args.count or args.all)
    if args.all and problem not in backend_class(name).family_enumerations:
        takers = [other for other in backend_names() if problem in backend_class(other).family_enumerations]
        raise UsageError(f"backend {name} does not enumerate placements of {problem.value}; use --backend "
                         + " or ".join(takers))
    if args.count and args.unique and problem not in backend_class(name).family_class_counts:
        takers = [other for other in backend_names() if problem in backend_class(other).family_class_counts]
        raise UsageError(f"backend {name} does not count classes of {problem.value}; use --backend " + " or ".join(takers))
    if problem not in backend_class(name).family and not (
            (args.count and problem in backend_class(name).family_counts) or args.all):
        takers = [other for other in backend_names() if problem in backend_class(other).family]
        raise UsageError(f"backend {name} does not take --problem {problem.value}; use --backend "
                         + " or ".join(takers))
    args.backend = name
    return create_backend(name, memory_budget_mb=args.max_model_mb, **backend_options(args))


def run_family(args: argparse.Namespace) -> int:
    """``solve`` for a problem of the family; returns the exit status."""
    problem = Problem.named(args.problem)
    _refuse_classic_flags(args, problem)
    n = args.n
    if n is None or n < 1:
        raise UsageError(f"--problem {problem.value} needs a board size N >= 1")
    refuse_large_show(args.show, n)
    backend = _backend(args, problem)
    if args.all:
        return _all_placements(args, backend, problem, n)
    if args.count and args.unique:
        return _count_classes(backend, problem, n)
    if args.count:
        sequence = problem.sequences[0]
        return _print_count(backend.name, backend.count_family(problem, n), f"placements of {problem.value} for n = {n}",
                            sequence, SEQUENCES[sequence].get(n))
    if wants_certificate(args):
        return _certified(args, backend, problem, n)
    try:
        answer: FamilyAnswer = backend.solve_family(problem, n)  # its witness checked by the independent checker
    except InvalidWitnessError as error:  # nothing of it is written
        sys.stderr.write(f"nqueens-cp: error: {error}\n")
        return 1
    return _report(args, problem, n, answer)


def _certified(args: argparse.Namespace, backend: Any, problem: Problem, n: int) -> int:
    """``--certify``: the optimum by iterated SAT (whatever option ``optimiser`` says: RC2's cores come
    with no proof), printed only when its certificate checks."""
    from nqueens_cp.core.errors import CertificationError
    from nqueens_cp.system.atomic import atomic_write_all

    try:
        answer, certificate = backend.certified_family(problem, n)
    except CertificationError as error:
        sys.stderr.write(f"nqueens-cp: error: certification failed: {error}\n")
        return 1
    status = _report(args, problem, n, answer)
    if status == 0:
        if args.proof is not None:
            atomic_write_all({args.proof: certificate.proof_text, cnf_path(args.proof): certificate.cnf_text})
            sys.stderr.write(f"kept: {args.proof} (DRUP proof), {cnf_path(args.proof)} (DIMACS CNF)\n")
        sys.stderr.write(certificate.summary() + "\n")
    return status


def _all_placements(args: argparse.Namespace, backend: Any, problem: Problem, n: int) -> int:
    """``--all``: every placement (one per symmetry class with ``--unique``) streamed, each checked
    twice before it is written: by the independent checker inside ``family_solutions`` and here by
    :class:`~nqueens_cp.cli.checked.AnswerCheck` with the same checker, which also refuses a repeat.
    Without ``--limit`` the number written must be the published one (exit status 1 if not)."""
    from nqueens_cp.cli.checked import AnswerCheck, InvalidAnswerError
    from nqueens_cp.cli.output import emit_solution
    from nqueens_cp.core.errors import SearchStoppedError
    from nqueens_cp.core.family_checker import placement_problems
    from nqueens_cp.core.instance import Instance

    if args.limit == 0:
        sys.stderr.write("nqueens-cp: --limit 0 asks for zero boards: nothing searched or written\n")
        return 0
    described = f"{problem.value} on the {n} x {n} board"

    def board_problem(board: tuple[int, ...]) -> str | None:
        problems = placement_problems(problem.rules, n, board)
        return problems[0] if problems else None

    check = AnswerCheck(Instance(n), backend.name, described, board_problem=board_problem,
                        ordered=backend.lexicographic_family_solutions(problem) and not args.unique)
    out = sys.stdout
    written = 0
    try:
        for board in check.boards(backend.family_solutions(problem, n, limit=args.limit, unique=args.unique)):
            emit_solution(board, out, output_format=args.format, show=args.show)
            written += 1
        out.flush()
        check.finish()
    except (InvalidAnswerError, InvalidWitnessError) as error:  # the board at fault is not written
        out.flush()
        sys.stderr.write(f"nqueens-cp: error: {error}\n")
        return 1
    except SearchStoppedError as stop:
        out.flush()
        sys.stderr.write(f"nqueens-cp: stopped: {stop}; the {written} placement(s) written are not all\n")
        return EXIT_STOPPED
    finally:
        check.close()
    if args.limit is None:
        sequence, published = (_published_classes(problem, n) if args.unique
                               else (problem.sequences[0], SEQUENCES[problem.sequences[0]].get(n)))
        if published is not None and written != published:
            sys.stderr.write(f"nqueens-cp: error: {backend.name} wrote {written} placements of {described}, "
                             f"{sequence} publishes {published}: the backend is wrong\n")
            return 1
    if written == 0:
        sys.stderr.write(f"no placement of {described}\n")
        return 1
    return 0


def _published_classes(problem: Problem, n: int) -> tuple[str, int | None]:
    """The sequence of the classes of ``problem``'s placements and its term for the n x n board."""
    if problem is Problem.TOROIDAL:  # A053994 is indexed by k for the odd side 2k + 1
        return "A053994", A053994.get(n // 2) if n % 2 else None
    return "A051224", A051224.get(n)


def _count_classes(backend: Any, problem: Problem, n: int) -> int:
    """``--count --unique``: the placements up to the problem's symmetries, checked against OEIS."""
    sequence, published = _published_classes(problem, n)
    return _print_count(backend.name, backend.count_family_classes(problem, n),
                        f"classes of placements of {problem.value} for n = {n}", sequence, published)


def _print_count(backend: str, count: int, what: str, sequence: str, published: int | None) -> int:
    """Print ``count`` (of ``what``) unless it differs from the term ``sequence`` publishes, which is
    an error; returns the exit status."""
    if published is not None and published != count:
        sys.stderr.write(f"nqueens-cp: error: {backend} counted {count} {what}, {sequence} publishes {published}\n")
        return 1
    print(count)
    return 0


def _report(args: argparse.Namespace, problem: Problem, n: int, answer: FamilyAnswer) -> int:
    if answer.witness is None:
        what = "no placement" if problem.counts_placements else "no witness"
        sys.stderr.write(f"{what} of {problem.value} for n = {n}\n" if answer.proved
                         else f"nqueens-cp: {args.backend} stopped before it found a witness of {problem.value}\n")
        return 1 if answer.proved else EXIT_STOPPED
    published = SEQUENCES[problem.sequences[0]].get(n) if not problem.counts_placements else None
    if answer.proved and published is not None and published != answer.value:
        sys.stderr.write(f"nqueens-cp: error: {args.backend} proved {answer.value} optimal for {problem.value}, "
                         f"n = {n}; {problem.sequences[0]} publishes {published}\n")
        return 1
    if args.format == "jsonl":
        print(json.dumps({"problem": problem.value, "n": n, "value": answer.value, "proved": answer.proved,
                          "bound": answer.bound, "witness": _plain(problem, answer)}))
    else:
        print(witness_text(problem, n, answer, show=args.show))
    if not problem.counts_placements:
        bound = "" if answer.bound is None else f" (bound {answer.bound})"  # a solver may report none
        status = "proved optimal" if answer.proved else f"the best found, not proved optimal{bound}"
        known = f"; {problem.sequences[0]}: {published}" if published is not None else ""
        sys.stderr.write(f"{OPTIMUM_NAMES[problem.goal]} of the {n} x {n} board: {answer.value}, {status}{known}\n")
    return 0 if answer.proved else EXIT_STOPPED


def _squares(squares: frozenset[Square]) -> str:
    return " ".join(f"{r},{c}" for r, c in sorted(squares))


def _plain(problem: Problem, answer: FamilyAnswer) -> Any:
    witness = answer.witness
    if problem.goal is Goal.PEACEABLE:
        white, black = cast(Armies, witness)
        return {"white": sorted(white), "black": sorted(black)}
    if problem.goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        return sorted(cast("frozenset[Square]", witness))
    return witness


def witness_text(problem: Problem, n: int, answer: FamilyAnswer, *, show: bool) -> str:
    """What ``solve --problem`` prints of ``answer``: its value and witness, the board with ``show``."""
    witness = answer.witness
    goal = problem.goal
    if goal is Goal.PLACE:
        columns = cast("tuple[int, ...]", witness)
        lines = [" ".join(map(str, columns))]
        marks = dict.fromkeys(enumerate(columns), "Q")
    elif goal is Goal.COLOUR:
        grid = cast(Colouring, witness)
        return "\n".join([str(answer.value), *(" ".join(f"{colour:>2}" for colour in row) for row in grid)])
    elif goal is Goal.PEACEABLE:
        white, black = cast(Armies, witness)
        lines = [str(answer.value), f"white: {_squares(white)}", f"black: {_squares(black)}"]
        marks = {**dict.fromkeys(white, "W"), **dict.fromkeys(black, "B")}
    else:
        queens = cast("frozenset[Square]", witness)
        lines = [str(answer.value), _squares(queens)]
        marks = dict.fromkeys(queens, "Q")
    if show:
        lines += ["", *(" ".join(marks.get((r, c), ".") for c in range(n)) for r in range(n))]
    return "\n".join(lines)
