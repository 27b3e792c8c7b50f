"""``nqueens-cp solve``: the first solution, all of them (streamed), or their count."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..backends.registry import create_backend
from .certify import add_certify_arguments, run_certified, wants_certificate
from .common import add_backend_options, add_board_arguments, backend_options, board_instance, integer
from .output import emit_solution
from .split_run import WORKERS_HELP, add_parallel_arguments, run_split, wants_split


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="find the first solution, all solutions, or their count",
        description="Solve one N-Queens instance. Default: print the first solution.",
    )
    add_board_arguments(parser)
    parser.add_argument("--backend", default="backtrack", help="backend name (default: backtrack)")
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
    add_certify_arguments(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    instance, described = board_instance(args)
    options = backend_options(args)
    if wants_certificate(args):
        options.pop("workers", None)
        return run_certified(args, instance, described, options)
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
        first = backend.first_solution(instance)
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
