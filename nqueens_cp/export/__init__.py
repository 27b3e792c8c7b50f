"""Exporting the models (DIMACS, CP-SAT text, MiniZinc, OPB), reading solver answers back, and size formulas.

>>> from nqueens_cp import Instance
>>> from nqueens_cp.export import export_model
>>> export_model(Instance(4), "opb").splitlines()[0]
'* #variable= 16 #constraint= 18'
"""

from __future__ import annotations

from .decode import Board, SolverAnswer, board_from_literals, parse_solver_output
from .formulas import CLOSED_FORMS, Cost, Poly, atmost_one_cost, closed_form, cnf_size
from .writers import (
    FORMAT_SUFFIXES,
    FORMATS,
    cpsat_text,
    dimacs_text,
    export_model,
    minizinc_text,
    opb_text,
    write_text_atomic,
)

__all__ = [
    "CLOSED_FORMS",
    "FORMATS",
    "FORMAT_SUFFIXES",
    "Board",
    "Cost",
    "Poly",
    "SolverAnswer",
    "atmost_one_cost",
    "board_from_literals",
    "closed_form",
    "cnf_size",
    "cpsat_text",
    "dimacs_text",
    "export_model",
    "minizinc_text",
    "opb_text",
    "parse_solver_output",
    "write_text_atomic",
]
