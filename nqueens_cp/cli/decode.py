"""``nqueens-cp decode``: a SAT solver's answer for an exported CNF, as a board checked by the validity checker.

Reads a solver's answer for a model written by ``nqueens-cp export N --format dimacs`` (or opb): ``s``/``v``
lines, MiniSat's result file (SAT then literals), or a bare list of literals. Prints the board and checks it
with the independent checker. Exit status: 0 valid, 1 invalid or unsatisfiable, 2 unreadable, not an
answer (a CNF or OPB model given instead), or an answer for another board size.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from nqueens_cp.cli.common import add_board_arguments, board_instance
from nqueens_cp.cli.output import draw_queens
from nqueens_cp.core.checker import solution_problems
from nqueens_cp.core.errors import ModelFileError


def add_parser(subparsers: Any) -> None:
    _, _, description = (__doc__ or "").partition("\n\n")
    parser = subparsers.add_parser(
        "decode", help="read a SAT solver's model of an exported CNF and print the board, checked",
        description=" ".join(description.split()).replace("``", "`"),
    )
    add_board_arguments(parser, n_help="board size the CNF was exported for",
                        fix_help="a pre-placed queen the CNF was exported with (checked on the board)")
    parser.add_argument("file", metavar="FILE", help="the solver's output ('-' for stdin)")
    parser.set_defaults(run=run)


def _read(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        with open(path, encoding="utf-8", errors="strict") as handle:
            return handle.read()
    except OSError as error:
        raise ModelFileError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ModelFileError(f"cannot read {path}: not a text file") from None


def run(args: argparse.Namespace) -> int:
    from nqueens_cp.export.decode import board_from_literals, parse_solver_output, size_mismatch

    instance, described = board_instance(args)
    source = "stdin" if args.file == "-" else args.file
    answer = parse_solver_output(_read(args.file), source)
    if answer.status == "UNSATISFIABLE":
        print(f"UNSATISFIABLE: the solver found no board for {described}")
        return 1
    if not answer.literals:
        raise ModelFileError(f"{source}: status {answer.status} but no model")
    mismatch = size_mismatch(instance, answer.literals)
    if mismatch is not None:
        raise ModelFileError(f"{source}: {mismatch}")
    board = board_from_literals(instance, answer.literals)
    problems = list(board.problems)
    if board.solution is not None:
        print(" ".join(map(str, board.solution)))
        problems = solution_problems(instance, board.solution)
    print(draw_queens(board.n, board.queens))
    if problems:
        for problem in problems:
            sys.stderr.write(f"invalid: {problem}\n")
        return 1
    print(f"valid solution of {described}")
    return 0
