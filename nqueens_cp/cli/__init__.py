"""The ``nqueens-cp`` command line. Each sub-command lives in its own module of this package.

Start-up stays fast: no solver package is imported until a backend is actually used.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn, Sequence

from ..errors import NQueensError

#: Sub-command modules under ``nqueens_cp.cli``; each defines ``add_parser(subparsers)`` and ``run(args)``.
COMMANDS: tuple[str, ...] = ("solve", "backends", "export", "decode", "compare", "report")

PROG = "nqueens-cp"


class UsageError(NQueensError):
    """Bad command-line usage (exit status 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{PROG}: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every sub-command registered."""
    from .. import __version__

    parser = OneLineParser(
        prog=PROG,
        description="Solve, cross-validate and benchmark N-Queens across backtracking, bitboards, "
        "OR-Tools CP-SAT and PySAT.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    subparsers.required = True
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 no solution or check failed, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except NQueensError as error:
        sys.stderr.write(f"{PROG}: error: {error}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return status
