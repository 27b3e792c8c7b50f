"""nqueens-cp: one N-Queens model, solved every serious way, every answer checked.

The backends (:func:`backend_names`; ``nqueens-cp backends`` says which run here): searches
(``backtrack``, ``bitboard``), constraint programming (``cpsat``, ``minizinc``, ``choco``,
``xcsp3``, ``cpmpy``), SAT and its relatives (``sat``, ``pb``, ``smt``, ``asp``), integer
programming (``mip``), model counting (``ganak``, ``approxmc``, ``bdd``), and one solution of a
huge board (``localsearch``, ``construction``).

>>> from nqueens_cp import Instance, create_backend
>>> create_backend("bitboard").count(Instance(8))
92
"""

from __future__ import annotations

from nqueens_cp.backends import Backend, ModelSize, backend_names, create_backend
from nqueens_cp.core.board import board_svg
from nqueens_cp.core.checker import is_valid_solution, solution_problems
from nqueens_cp.core.display import BoardView, show
from nqueens_cp.core.errors import (
    BackendOptionError,
    BackendUnavailableError,
    InvalidInstanceError,
    NQueensError,
    SolverError,
    UnknownBackendError,
)
from nqueens_cp.core.instance import Instance, Queens, Solution
from nqueens_cp.core.oeis import A000170, A002562, known_count

__version__ = "0.1.0"

__all__ = [
    "A000170",
    "A002562",
    "Backend",
    "BackendOptionError",
    "BackendUnavailableError",
    "BoardView",
    "Instance",
    "InvalidInstanceError",
    "ModelSize",
    "NQueensError",
    "Queens",
    "Solution",
    "SolverError",
    "UnknownBackendError",
    "__version__",
    "backend_names",
    "board_svg",
    "create_backend",
    "is_valid_solution",
    "known_count",
    "show",
    "solution_problems",
]
