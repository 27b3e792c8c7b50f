"""``nqueens-cp export``: write an instance's model as DIMACS CNF, CP-SAT protobuf text, MiniZinc, OPB or ASP."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from nqueens_cp.cli import UsageError
from nqueens_cp.cli.common import add_board_arguments, board_instance
from nqueens_cp.core.errors import ModelFileError
from nqueens_cp.models.encodings import ENCODINGS

#: Kept here (not imported from the writers) so that ``--help`` imports nothing heavy.
FORMAT_CHOICES = ("dimacs", "cpsat", "minizinc", "opb", "xcsp3", "asp", "smt2", "smt2-int", "lp", "mps", "wcnf")
#: The problems of the family ``--problem`` takes, and the formats each is written in (a test checks
#: them against :mod:`nqueens_cp.export.family`).
FAMILY_PROBLEMS = ("toroidal", "superqueens", "domination", "independent-domination", "colouring", "peaceable")
FAMILY_FORMAT_CHOICES = ("lp", "mps", "opb", "wcnf", "dimacs", "smt2", "asp", "minizinc")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write the model as DIMACS CNF, CP-SAT text, MiniZinc, OPB, XCSP3, ASP, SMT-LIB 2, LP or MPS",
        description="Write an instance's model for other tools: dimacs (the sat backend's CNF, any encoding), "
        "cpsat (the cpsat backend's model as protobuf text), minizinc (three alldifferent), "
        "opb (pseudo-Boolean), xcsp3 (the row model as XCSP3 XML, read by ACE and Choco), asp (the asp backend's logic program, for clingo), smt2 and smt2-int (the smt backend's Boolean and integer models, for z3), lp and mps (the mip backend's 0-1 program, for HiGHS or any MIP solver). In dimacs and opb, square (r, c) is variable r*N + c + 1. "
        "With --problem P, the family's 0-1 model of P (docs/family.md): lp, mps, opb, wcnf (weighted "
        "MaxSAT, an optimisation problem), dimacs (a placement problem) or smt2 (for z3); or the paradigm's own "
        "model of P: asp (for clingo) or minizinc (for Gecode); nqueens-cp decode N --problem P "
        "reads a solver's answer back. See models/README.md.",
    )
    add_board_arguments(parser)
    parser.add_argument("--problem", choices=FAMILY_PROBLEMS, metavar="P",
                        help=f"a problem of the N-Queens family ({', '.join(FAMILY_PROBLEMS)}): its model, "
                        f"as {', '.join(FAMILY_FORMAT_CHOICES)} (wcnf for an optimum, dimacs for a placement)")
    parser.add_argument("--format", choices=FORMAT_CHOICES, help="output format (required unless --completion)")
    parser.add_argument("--completion", action="store_true",
                        help="instead of a model, write the n-Queens Completion translation of an Excluded "
                        "Diagonals --instance (CSPLib 079, the paper's construction) as an Essence' .param")
    parser.add_argument(
        "--encoding", choices=ENCODINGS, metavar="E",
        help=f"dimacs only: cardinality encoding (default seqcounter; one of {', '.join(ENCODINGS)})",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    parser.set_defaults(run=run)


def _completion_text(args: argparse.Namespace) -> str:
    """The Essence' completion .param of the Excluded Diagonals instance in ``--instance``."""
    from nqueens_cp.instances.excluded_diagonals import to_completion
    from nqueens_cp.instances.files import read_excluded_diagonals

    if args.instance is None or args.n is not None:
        raise UsageError("--completion translates an Excluded Diagonals --instance FILE (and takes no N)")
    if args.format is not None or args.encoding is not None or args.fix or args.block:
        raise UsageError("--completion writes the translated instance only: no --format, --encoding, --fix or --block")
    read = read_excluded_diagonals(args.instance)
    translation = to_completion(read.first(args.diagonals))
    big = translation.instance
    pairs = ", ".join(f"[{r}, {c}]" for r, c in big.fixed)
    return (f"$ n-Queens Completion translation of {args.instance} "
            f"({len(translation.source.diagonals)} diagonals), written by nqueens-cp\n"
            f"$ the original square (r, c) is (r + {translation.row_offset}, c) here\n"
            f"letting n = {big.n}\nletting init = [{pairs}]\n")


def _family_text(args: argparse.Namespace) -> str:
    """The family model ``--problem`` names, in ``--format``."""
    from nqueens_cp.core.problems import Problem
    from nqueens_cp.export.family import export_family_model

    problem = Problem.named(args.problem)
    others = [flag for flag, given in (("--completion", args.completion), ("--encoding", args.encoding),
                                       ("--fix", args.fix), ("--block", args.block), ("--instance", args.instance))
              if given]
    if others:
        raise UsageError(f"{others[0]} is for the classic problem; --problem {problem.value} takes N and --format")
    if args.n is None or args.n < 1:
        raise UsageError(f"--problem {problem.value} needs a board size N >= 1")
    if args.format not in FAMILY_FORMAT_CHOICES:
        raise UsageError(f"--problem {problem.value} is written as {', '.join(FAMILY_FORMAT_CHOICES)}"
                         + ("" if args.format is None else f", not {args.format}"))
    wanted = "dimacs" if problem.counts_placements else "wcnf"
    if args.format in ("dimacs", "wcnf") and args.format != wanted:
        kind = "a placement problem (no objective)" if problem.counts_placements else "an optimisation problem"
        raise UsageError(f"--problem {problem.value} is {kind}: --format {wanted}, not {args.format}")
    return export_family_model(problem, args.n, args.format)


def run(args: argparse.Namespace) -> int:
    from nqueens_cp.export.writers import export_model, write_text_atomic

    if args.problem is not None:
        text = _family_text(args)
    elif args.format == "wcnf":
        raise UsageError("--format wcnf writes a family problem's optimum as MaxSAT: give --problem P")
    elif args.completion:
        text = _completion_text(args)
    else:
        if args.format is None:
            raise UsageError("export needs --format FMT (or --completion)")
        instance, _ = board_instance(args)
        text = export_model(instance, args.format, args.encoding)
    if args.output is None or args.output == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return 0
    try:
        write_text_atomic(args.output, text)
    except OSError as error:
        raise ModelFileError(f"cannot write {args.output}: {error.strerror or error}") from None
    return 0
