"""The Boolean CP-SAT model: one 0-1 variable per square, for first solutions on large boards.

``x[r][c]`` is true when a queen stands on (r, c). Each row and each column holds exactly one
queen (``AddExactlyOne``), each diagonal of two or more squares at most one (``AddAtMostOne``);
a pre-placed queen fixes its square to 1. The column of row ``r`` is the linear expression
``sum(c * x[r][c])``, which is what the backend reads back, so the same solver code serves both
models.

Why a second model: with the three-AllDifferent model CP-SAT on this 2-core machine finds no
first solution for n = 500 within 60 s, whatever the parameters (see the report). On the Boolean
model, CP-SAT's local search (``use_ls_only``: feasibility jump, the ``localsearch`` strategy)
finds one for n = 1000 in well under a minute, the way min-conflicts repair does. The price:
n² variables instead of n, and local search can neither enumerate nor prove "no solution".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .errors import NQueensError
from .instance import Instance
from .symmetry_breaking import add_cpsat_lex_leader

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

    from .backends.cpsat import CpSatModel


def build_cpsat_boolean_model(instance: Instance, unique: bool = False) -> CpSatModel:
    """The Boolean model of ``instance`` (built, not solved); ``unique`` adds the lex-leader constraints.

    With ``unique``, integer row variables ``q[r] == sum(c * x[r][c])`` are added so that the
    same lex-leader constraints as in the AllDifferent model apply.
    """
    from ortools.sat.python import cp_model

    from .backends.cpsat import CpSatModel

    n = instance.n
    model = cp_model.CpModel()
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        model.add_exactly_one(x[r])
    for c in range(n):
        model.add_exactly_one([x[r][c] for r in range(n)])
    for s in range(2 * n - 1):  # up diagonals, r + c == s
        line = [x[r][s - r] for r in range(max(0, s - n + 1), min(n, s + 1))]
        if len(line) > 1:
            model.add_at_most_one(line)
    for d in range(-(n - 1), n):  # down diagonals, r - c == d
        line = [x[r][r - d] for r in range(max(0, d), min(n, n + d))]
        if len(line) > 1:
            model.add_at_most_one(line)
    for row, col in instance.fixed:
        model.add(x[row][col] == 1)
    columns = [cp_model.LinearExpr.weighted_sum(x[r], list(range(n))) for r in range(n)]
    if unique:
        if instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        queens = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
        for q, column in zip(queens, columns, strict=True):
            model.add(q == column)
        add_cpsat_lex_leader(model, queens)
        return CpSatModel(model, tuple(queens))
    # The backend only reads ``queens`` through ``solver.value``, which takes linear expressions too.
    return CpSatModel(model, cast("tuple[cp_model.IntVar, ...]", tuple(columns)))
