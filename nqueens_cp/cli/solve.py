"""``nqueens-cp solve``: the first solution, all of them (streamed), or their count."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..backends.registry import create_backend
from ..errors import SearchBoundError
from ..instance import Instance
from .common import add_backend_options, add_board_arguments, backend_options, board_instance, integer
from .output import emit_solution, write_columns
from .split_run import WORKERS_HELP, add_parallel_arguments, run_split, wants_split

#: From this board size on, the default first-solution search is local search (``localsearch``):
#: below it first-fail (``backtrack``) answers before numba would have loaded (benchmarks/RESULTS.md,
#: bench_localsearch.py).
LOCAL_SEARCH_FROM_N = 200

#: Boards drawn with ``--show`` at most (a drawing has n² squares).
SHOW_MAX_N = 1000


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="find the first solution, all solutions, or their count",
        description="Solve one N-Queens instance. Default: print the first solution.",
    )
    add_board_arguments(parser)
    parser.add_argument(
        "--backend", default=None,
        help=f"backend name (default: for a first solution, backtrack's first-fail search below n = "
        f"{LOCAL_SEARCH_FROM_N} and localsearch from there on; backtrack for --all, --count, --unique)",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--all", action="store_true", help="stream every solution, one per line")
    what.add_argument("--count", action="store_true", help="print the number of solutions")
    parser.add_argument("--limit", type=integer("--limit", 0), metavar="K", help="stop after K solutions")
    parser.add_argument(
        "--unique", action="store_true", help="one solution per class of the square's 8 symmetries"
    )
    parser.add_argument("--show", action="store_true", help="draw each board under its tuple")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format")
    add_backend_options(parser, workers_help=WORKERS_HELP)
    add_parallel_arguments(parser)
    parser.set_defaults(run=run)


def default_backend(instance: Instance, args: argparse.Namespace) -> str:
    """The backend ``solve`` uses without ``--backend``: local search for a first solution of a board
    of ``LOCAL_SEARCH_FROM_N`` rows or more (it may say "no completion found within the bound" where
    first-fail would prove there is none), backtrack otherwise."""
    first = not (args.count or args.all or args.unique)
    return "localsearch" if first and instance.n >= LOCAL_SEARCH_FROM_N else "backtrack"


def run(args: argparse.Namespace) -> int:
    from . import UsageError

    instance, described = board_instance(args)
    if args.show and instance.n > SHOW_MAX_N:
        raise UsageError(f"--show draws boards up to n = {SHOW_MAX_N} (n = {instance.n:,}); leave it out")
    if args.backend is None:
        args.backend = default_backend(instance, args)
    options = backend_options(args)
    if args.count or args.all:
        # --workers counts worker processes here (see split_run.WORKERS_HELP), never backend workers.
        options.pop("workers", None)
        if wants_split(args):
            return run_split(args, instance, options)
    else:
        wants_split(args)  # refuses split flags without --count/--all
    backend = create_backend(args.backend, **options)
    out = sys.stdout
    if args.count:
        print(backend.count(instance, limit=args.limit, unique=args.unique))
        return 0
    if args.all:
        solutions = backend.solutions(instance, limit=args.limit, unique=args.unique)
    elif args.limit == 0:
        solutions = iter(())
    elif args.unique:  # the first representative of a symmetry class
        solutions = backend.solutions(instance, limit=1, unique=True)
    else:
        try:
            if backend.array_answers and not args.show:  # streamed from the array: no tuple is made
                columns = backend.first_columns(instance)
                if columns is not None:
                    write_columns(columns, out, output_format=args.format)
                    return 0
                first = None
            else:
                first = backend.first_solution(instance)
        except SearchBoundError as stopped:
            sys.stderr.write(stopped.describe(described) + "\n")
            return 1
        solutions = iter(() if first is None else (first,))
    found = 0
    for solution in solutions:
        emit_solution(solution, out, output_format=args.format, show=args.show)
        found += 1
    out.flush()
    if found == 0:
        sys.stderr.write(f"no solution for {described}\n")
        return 1
    return 0
