"""The models written as text: MiniZinc (three ``alldifferent``) and pseudo-Boolean OPB.

Both state the same model as the solvers' own: the MiniZinc model is the ``cpsat`` backend's
AllDifferent model word for word (0-based rows and columns), the OPB model the CNF's lines as
linear constraints over the n² square variables (:mod:`nqueens_cp.models.geometry`). Each
function returns the whole file, deterministically.
"""

from __future__ import annotations

from ..arguments import require_instance
from ..instance import Instance
from .geometry import lines as board_lines
from .geometry import square_variable


def placed_text(instance: Instance) -> str:
    """The pre-placed queens as ``row:col`` pairs, or ``none`` (for the files' header comments)."""
    if not instance.fixed:
        return "none"
    return " ".join(f"{r}:{c}" for r, c in instance.fixed)


def minizinc_text(instance: Instance) -> str:
    """A self-contained MiniZinc model of ``instance``: the instance data first, then the model."""
    require_instance(instance)
    n = instance.n
    k = len(instance.fixed)
    if k:
        rows = " | ".join(f"{r}, {c}" for r, c in instance.fixed)
        fixed = f"array[1..{k}, 1..2] of int: fixed = [| {rows} |];"
    else:
        fixed = "array[1..0, 1..2] of int: fixed = array2d(1..0, 1..2, []);"
    return "\n".join([
        "% N-Queens as a MiniZinc model, written by nqueens-cp (`nqueens-cp export N --format minizinc`).",
        "% Rows and columns are 0-based, as everywhere in nqueens-cp.",
        "% Run: minizinc --solver gecode --all-solutions FILE.mzn",
        "",
        "% ---- instance data",
        f"int: n = {n};",
        "% pre-placed queens, one (row, col) pair per line of the array",
        f"int: k = {k};",
        fixed,
        "",
        "% ---- model",
        'include "alldifferent.mzn";',
        "",
        "% q[i] is the column of the queen on row i",
        "array[0..n-1] of var 0..n-1: q;",
        "",
        "% no two queens share a column",
        "constraint alldifferent(q);",
        "% no two queens share an up diagonal (row + col constant)",
        "constraint alldifferent([q[i] + i | i in 0..n-1]);",
        "% no two queens share a down diagonal (row - col constant)",
        "constraint alldifferent([q[i] - i | i in 0..n-1]);",
        "% the pre-placed queens",
        "constraint forall(j in 1..k)(q[fixed[j, 1]] = fixed[j, 2]);",
        "",
        "solve satisfy;",
        "",
        "output [show(q), \"\\n\"];",
        "",
    ])


def opb_text(instance: Instance) -> str:
    """The pseudo-Boolean (OPB, PB-competition format) model of ``instance`` over the n² square variables.

    Rows are ``= 1``; columns and diagonals of length >= 2 are "at most one", written in the
    competition's ``>=`` form as ``-x_a -x_b ... >= -1``; pre-placed queens are ``+1 x = 1``.
    """
    require_instance(instance)
    n = instance.n

    def var(r: int, c: int) -> str:
        return f"x{square_variable(n, r, c)}"

    families: dict[str, list[str]] = {"row": [], "column": [], "up": [], "down": []}
    for kind, squares in board_lines(n):
        if kind == "row":
            families[kind].append(" ".join(f"+1 {var(r, c)}" for r, c in squares) + " = 1 ;")
        elif len(squares) > 1:
            families[kind].append(" ".join(f"-1 {var(r, c)}" for r, c in squares) + " >= -1 ;")
    placed = [f"+1 {var(r, c)} = 1 ;" for r, c in instance.fixed]
    count = sum(map(len, families.values())) + len(placed)
    lines = [
        f"* #variable= {n * n} #constraint= {count}",
        "* N-Queens as pseudo-Boolean constraints (OPB), written by nqueens-cp",
        f"* n = {n}; pre-placed queens (row:col, 0-based) = {placed_text(instance)}",
        f"* x(r*{n} + c + 1) is true when a queen stands on square (r, c), 0-based",
        "* rows: exactly one queen each",
        *families["row"],
        "* columns: at most one queen each (-sum >= -1)",
        *families["column"],
        "* up diagonals (row + col constant), length >= 2: at most one",
        *families["up"],
        "* down diagonals (row - col constant), length >= 2: at most one",
        *families["down"],
    ]
    if placed:
        lines += ["* pre-placed queens", *placed]
    return "\n".join(lines) + "\n"
