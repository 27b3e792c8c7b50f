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
from nqueens_cp.cli.export import FAMILY_PROBLEMS
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
    parser.add_argument("--problem", choices=FAMILY_PROBLEMS, metavar="P",
                        help="the answer is for the family model of P written by export N --problem P: SAT, "
                        "MaxSAT or PB solvers' s/v/o lines, a MIP solver's solution file (x<i> value per "
                        "line: HiGHS, Gurobi's .sol), z3's model, or the atoms clingo and MiniZinc print; the witness is printed and checked by the independent "
                        "checker, and an optimum the solver says it proved is compared with OEIS")
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


def _run_family(args: argparse.Namespace) -> int:
    """``decode N --problem P FILE``: the witness, checked; exit 0 valid, 1 invalid or none."""
    from nqueens_cp.cli import UsageError
    from nqueens_cp.cli.family import OPTIMUM_NAMES, witness_text
    from nqueens_cp.core.family_oeis import SEQUENCES
    from nqueens_cp.core.problems import Direction, FamilyAnswer, Problem
    from nqueens_cp.export.family import decode_family

    problem = Problem.named(args.problem)
    if args.fix or args.block or args.instance is not None:
        raise UsageError(f"--problem {problem.value} takes N and FILE only")
    if args.n is None or args.n < 1:
        raise UsageError(f"--problem {problem.value} needs the board size N >= 1 the model was exported for")
    n = args.n
    source = "stdin" if args.file == "-" else args.file
    decoded = decode_family(problem, n, _read(args.file), source)
    if decoded.unsatisfiable:
        print(f"UNSATISFIABLE: the solver found no {'placement' if problem.counts_placements else 'witness'} "
              f"of {problem.value} for n = {n}")
        return 1
    if decoded.witness is None or decoded.problems:
        for problem_text in decoded.problems:
            sys.stderr.write(f"invalid: {problem_text}\n")
        return 1
    answer = FamilyAnswer(problem, n, decoded.witness, decoded.value, decoded.claims_optimum)
    print(witness_text(problem, n, answer, show=True))
    if problem.counts_placements:
        print(f"valid placement of {problem.value} for n = {n}")
        return 0
    sequence = problem.sequences[0]
    published = SEQUENCES[sequence].get(n)
    known = f"; {sequence}: {published}" if published is not None else ""
    said = "the solver says optimal" if decoded.claims_optimum else "the solver does not say optimal"
    side = "at least" if problem.direction is Direction.MAXIMISE else "at most"
    print(f"valid witness of {problem.value} for n = {n}: {OPTIMUM_NAMES[problem.goal]} {side} {decoded.value} "
          f"({said}{known})")
    if decoded.claims_optimum and published is not None and published != decoded.value:
        sys.stderr.write(f"nqueens-cp: error: the solver says {decoded.value} is optimal, {sequence} publishes "
                         f"{published}\n")
        return 1
    return 0


def run(args: argparse.Namespace) -> int:
    from nqueens_cp.export.decode import board_from_literals, parse_solver_output, size_mismatch

    if args.problem is not None:
        return _run_family(args)

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
