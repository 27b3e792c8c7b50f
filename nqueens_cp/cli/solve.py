"""``nqueens-cp solve``: the first solution, all of them (streamed), or their count."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any, TextIO

from nqueens_cp.backends.framework.base import Answer, count_within_tolerance
from nqueens_cp.backends.framework.defaults import DEFAULT_BACKENDS, LOCAL_SEARCH_FROM_N, default_backend
from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.cli import EXIT_INTERRUPTED, EXIT_STOPPED, EXIT_TERMINATED
from nqueens_cp.cli.certify import add_certify_arguments, run_certified, wants_certificate
from nqueens_cp.cli.checked import AnswerCheck, InvalidAnswerError
from nqueens_cp.cli.common import (
    add_backend_options,
    add_board_arguments,
    backend_name,
    backend_options,
    board_instance,
    integer,
)
from nqueens_cp.cli.long_runs import announce_count, long_run
from nqueens_cp.cli.output import emit_solution, refuse_large_show, write_columns
from nqueens_cp.cli.split_run import add_parallel_arguments, run_split, wants_split
from nqueens_cp.core.errors import SearchBoundError, SearchStoppedError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.problems import Problem

if TYPE_CHECKING:
    from nqueens_cp.backends.framework.base import Backend

#: How each question of :data:`~nqueens_cp.backends.framework.defaults.DEFAULT_BACKENDS` is asked on ``solve``.
DEFAULT_HELP = {Answer.FIRST: "the first solution", Answer.COUNT: "--count or --unique", Answer.ALL: "--all"}


#: How far each backend goes (in ``solve``'s help, and so in the CLI reference).
BOUNDS = (
    "each backend takes the boards it answers within about a minute on 2 cores, and models that fit "
    "--max-model-mb (its largest board: `nqueens-cp backends`); a larger board is refused with one line "
    "naming what answers it (exit status 2), unless a backend that has one is given --time-limit "
    "(cpsat, mip; localsearch): it then stops there, saying so."
)

#: What each exit status of ``solve`` means (in its help, and so in the CLI reference).
EXIT_STATUSES = (
    "0: answered (also --limit 0: nothing asked, nothing written); 1: no solution (no completion), a "
    "board the checker refuses (not a solution: not written; or a repeat with --all), a count that "
    "differs from the published one (OEIS) or an approximate one outside its bound, or a split run "
    f"or a solver that failed; 2: bad input (one line on stderr, nothing built); {EXIT_STOPPED}: stopped at a "
    "bound the backend was given (--time-limit) before it answered: the solutions already "
    f"written stand, the answer is not complete; {EXIT_INTERRUPTED}: interrupted (Ctrl-C); "
    f"{EXIT_TERMINATED}: terminated (SIGTERM)"
)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="find the first solution, all solutions, or their count",
        description="Solve one N-Queens instance. Default: print the first solution.",
        epilog=f"Bounds: {BOUNDS} Exit status: {EXIT_STATUSES}.",
    )
    add_board_arguments(parser)
    parser.add_argument(
        "--backend", metavar="NAME", type=backend_name,
        help="backend name (see `nqueens-cp backends`); default: the fastest for the question ("
        + "; ".join(f"{DEFAULT_HELP[q]}: {b}" for q, b in DEFAULT_BACKENDS.items())
        + f"; from n = {LOCAL_SEARCH_FROM_N} the first solution: localsearch); --backend backtrack is the "
        "readable pure-Python search",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--all", action="store_true", help="stream every solution, one per line")
    what.add_argument("--count", action="store_true", help="print the number of solutions")
    parser.add_argument("--limit", type=integer("--limit", 0), metavar="K", help="stop after K solutions")
    parser.add_argument(
        "--unique", action="store_true", help="one solution per class of the square's 8 symmetries"
    )
    parser.add_argument(
        "--problem", choices=[problem.value for problem in Problem], default=Problem.QUEENS.value,
        help="a problem of the N-Queens family (default: queens, the classic one): toroidal (diagonals wrap "
        "around), superqueens (queens that also jump as knights) — first placement, --count or --all; domination, "
        "independent-domination, colouring, peaceable — the optimum and its witness",
    )
    parser.add_argument("--show", action="store_true", help="draw each board under its tuple")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format")
    add_backend_options(parser)
    add_parallel_arguments(parser)
    add_certify_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.problem != Problem.QUEENS.value:
        from nqueens_cp.cli.family import run_family

        return run_family(args)
    instance, described = board_instance(args)
    refuse_large_show(args.show, instance.n)
    if args.backend is None:
        args.backend = "sat" if wants_certificate(args) else default_backend(question(args), instance)
    options = backend_options(args)
    if wants_certificate(args):
        return run_certified(
            args, instance, described, options,
            lambda count, board: _matches_published(count, board, False, streamed=args.all),
        )
    if question(args) is Answer.COUNT:
        announce_count(args, instance)
    if wants_split(args):  # refuses split flags without --count/--all
        return run_split(args, instance, options)
    backend = create_backend(args.backend, memory_budget_mb=args.max_model_mb, **options)
    out = sys.stdout
    if args.limit == 0:  # zero asked, zero given: not "no solution"
        sys.stderr.write(f"nqueens-cp: --limit 0 asks for zero boards: nothing searched or written (which says "
                         f"nothing of whether {described} has solutions)\n")
        return 0
    if args.count:
        with long_run(args, instance, Answer.COUNT):
            count = backend.count(instance, limit=args.limit, unique=args.unique)
        tolerance = backend.count_tolerance
        if tolerance:  # an approximate counter: checked against its own bound, and said so
            return _approximate_count(count, tolerance, backend, instance, args.unique)
        if args.limit is None and not _matches_published(count, instance, args.unique):
            return 1
        print(count)
        return 0
    check = AnswerCheck(instance, backend.name, described, ordered=backend.lexicographic_solutions(args.unique))
    try:
        return _write_boards(args, backend, instance, described, check, out)
    except InvalidAnswerError as error:  # an invalid board is not written (a repeat found at the end was)
        out.flush()
        sys.stderr.write(f"nqueens-cp: error: {error}\n")
        return 1
    finally:
        check.close()


def _write_boards(args: argparse.Namespace, backend: Backend, instance: Instance, described: str,
                  check: AnswerCheck, out: TextIO) -> int:
    """The boards ``solve`` asks for, each checked by ``check`` before it is written."""
    if args.all:
        batches = None if args.show else backend.solution_arrays(instance, limit=args.limit, unique=args.unique)
        solutions = (check.batches(batches) if batches is not None
                     else check.boards(backend.solutions(instance, limit=args.limit, unique=args.unique)))
    elif args.unique:  # the first representative of a symmetry class
        solutions = check.boards(backend.solutions(instance, limit=1, unique=True))
    else:
        try:
            if backend.array_answers and not args.show:  # streamed from the array: no tuple is made
                with long_run(args, instance, Answer.FIRST):
                    columns = backend.first_columns(instance)
                if columns is not None:
                    check.columns(columns)
                    write_columns(columns, out, output_format=args.format)
                    return 0
                first = None
            else:
                with long_run(args, instance, Answer.FIRST):
                    first = backend.first_solution(instance)
        except SearchBoundError as stopped:
            sys.stderr.write(stopped.describe(described) + "\n")
            return 1
        if first is not None:
            check.check(first)
        solutions = iter(() if first is None else (first,))
    found = 0
    try:
        for solution in solutions:
            emit_solution(solution, out, output_format=args.format, show=args.show)
            found += 1
    except SearchStoppedError as stop:  # what was written stands; the rest is not known
        out.flush()
        sys.stderr.write(f"nqueens-cp: stopped: {stop}; the {found} solution(s) written are not all\n")
        return EXIT_STOPPED
    out.flush()
    check.finish()
    if args.all and args.limit is None and not _matches_published(found, instance, args.unique, streamed=True):
        return 1
    if found == 0:
        sys.stderr.write(f"no solution for {described}\n")
        return 1
    return 0


def question(args: argparse.Namespace) -> Answer:
    """What ``solve`` is asked: ``count`` (also ``--unique`` without ``--all``), ``all`` or ``first``."""
    if args.count or (args.unique and not args.all):
        return Answer.COUNT
    return Answer.ALL if args.all else Answer.FIRST


def _matches_published(count: int, instance: Instance, unique: bool, *, streamed: bool = False) -> bool:
    """Whether ``count`` is the published count of ``instance`` (true when none is published); if
    not, says so on stderr (the backend is wrong: exit status 1 follows). ``streamed``: the count
    is that of the solutions ``--all`` has written."""
    from nqueens_cp.core.oeis import published_count

    known = published_count(instance, unique=unique)
    if known is None or count == known[0]:
        return True
    expected, name = known
    what = (f"{count} solutions of {instance} written, but" if streamed
            else f"the count {count} of {instance} differs from")
    sys.stderr.write(f"nqueens-cp: error: {what} OEIS {name}({instance.n}) = {expected}: the backend is wrong"
                     f"{'' if streamed else '; no result reported'}\n")
    return False


def _approximate_count(count: int, tolerance: float, backend: Any, instance: Instance, unique: bool) -> int:
    """Print an approximate count with its bound; when a published count lies outside the bound,
    print nothing on stdout, say on stderr what came back, and return exit status 1."""
    from nqueens_cp.core.oeis import published_count

    bound = f"within a factor {1 + tolerance:g} of the true count"
    known = published_count(instance, unique=unique)
    if known is None:
        print(count)
        sys.stderr.write(f"approximate count ({backend!r}): {bound}, with the probability it states\n")
        return 0
    expected, name = known
    if count_within_tolerance(count, expected, tolerance):
        print(count)
        sys.stderr.write(f"approximate count: {bound}; OEIS {name}({instance.n}) = {expected} is within it\n")
        return 0
    sys.stderr.write(f"nqueens-cp: error: {backend.name} returned the approximate count {count}, not {bound}: "
                     f"OEIS {name}({instance.n}) = {expected}; no result reported\n")
    return 1
