"""``nqueens-cp export``: write an instance's model as DIMACS CNF, CP-SAT protobuf text, MiniZinc or OPB."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import ModelFileError
from ..instance import Instance
from ..models.cnf import ENCODINGS
from .common import add_board_arguments, check_placements

#: Kept here (not imported from the writers) so that ``--help`` imports nothing heavy.
FORMAT_CHOICES = ("dimacs", "cpsat", "minizinc", "opb")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "export",
        help="write the model as DIMACS CNF, CP-SAT text, MiniZinc or OPB",
        description="Write an instance's model for other tools: dimacs (the sat backend's CNF, any encoding), "
        "cpsat (the cpsat backend's model as protobuf text), minizinc (three alldifferent), "
        "opb (pseudo-Boolean). In dimacs and opb, square (r, c) is variable r*N + c + 1. "
        "See models/README.md.",
    )
    add_board_arguments(parser)
    parser.add_argument("--format", required=True, choices=FORMAT_CHOICES, help="output format")
    parser.add_argument(
        "--encoding", choices=ENCODINGS, metavar="E",
        help=f"dimacs only: cardinality encoding (default seqcounter; one of {', '.join(ENCODINGS)})",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..export.writers import export_model, write_text_atomic

    instance = Instance(args.n, check_placements(args.n, args.fix))
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
