"""Exporting the models (DIMACS, CP-SAT text, MiniZinc, OPB, ASP) and reading solver answers back.

The models themselves, and their sizes, are in :mod:`nqueens_cp.models`.

>>> from nqueens_cp import Instance
>>> from nqueens_cp.export import export_model
>>> export_model(Instance(4), "opb").splitlines()[0]
'* #variable= 16 #constraint= 18'
"""

from __future__ import annotations

from nqueens_cp.export.decode import Board, SolverAnswer, board_from_literals, parse_solver_output
from nqueens_cp.export.writers import (
    FORMAT_SUFFIXES,
    FORMATS,
    asp_text,
    cpsat_text,
    dimacs_text,
    export_model,
    minizinc_text,
    opb_text,
    write_text_atomic,
)

__all__ = [
    "FORMATS",
    "FORMAT_SUFFIXES",
    "Board",
    "SolverAnswer",
    "asp_text",
    "board_from_literals",
    "cpsat_text",
    "dimacs_text",
    "export_model",
    "minizinc_text",
    "opb_text",
    "parse_solver_output",
    "write_text_atomic",
]
