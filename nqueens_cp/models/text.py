"""The models written as text: MiniZinc (three ``alldifferent``) and pseudo-Boolean OPB.

Both state the same model as the solvers' own: the MiniZinc model is the ``cpsat`` backend's
AllDifferent model word for word (0-based rows and columns), the OPB model the CNF's lines as
linear constraints over the n² square variables (:mod:`nqueens_cp.models.geometry`). Each
function returns the whole file, deterministically.
"""

from __future__ import annotations

from nqueens_cp.core.arguments import require_instance
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import lines as board_lines
from nqueens_cp.models.geometry import square_variable
from nqueens_cp.models.reduction import reduce_instance, uses_reduction


def placed_text(instance: Instance) -> str:
    """The pre-placed queens as ``row:col`` pairs, or ``none`` (for the files' header comments)."""
    if not instance.fixed:
        return "none"
    return " ".join(f"{r}:{c}" for r, c in instance.fixed)


def blocked_text(instance: Instance) -> str:
    """The blocked squares as ``row:col`` pairs, or ``none`` (for the files' header comments)."""
    return " ".join(f"{r}:{c}" for r, c in instance.blocked) or "none"


def minizinc_text(instance: Instance) -> str:
    """A self-contained MiniZinc model of ``instance``: the instance data first, then the model."""
    require_instance(instance)
    if uses_reduction(instance):
        return _reduced_minizinc_text(instance)
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
    if uses_reduction(instance):
        return _reduced_opb_text(instance)
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


def _reduced_minizinc_text(instance: Instance) -> str:
    """The MiniZinc model over the free rows of ``instance``'s reduction (:mod:`.reduction`)."""
    reduction = reduce_instance(instance)
    n = instance.n
    open_columns: dict[int, list[int]] = {r: [] for r in reduction.rows}
    for r, c in reduction.squares:
        open_columns[r].append(c)
    m = len(reduction.rows)
    index = {r: i + 1 for i, r in enumerate(reduction.rows)}
    fixed_by_row = instance.fixed_by_row
    possible = reduction.consistent and all(open_columns.values())
    board = ", ".join(f"q[{index[r]}]" if r in index else str(fixed_by_row[r]) for r in range(n))
    return "\n".join([
        "% N-Queens as a MiniZinc model over the free rows, written by nqueens-cp (`nqueens-cp export`).",
        "% Rows and columns are 0-based, as everywhere in nqueens-cp. The pre-placed queens are propagated:",
        "% only rows without one keep a variable, whose domain is its open columns (not blocked, no column",
        "% or diagonal of a pre-placed queen). models/README.md, 'Models that shrink'.",
        f"% pre-placed queens (row:col) = {placed_text(instance)}",
        f"% blocked squares (row:col) = {blocked_text(instance)}",
        "% Run: minizinc --solver gecode FILE.mzn",
        "",
        'include "alldifferent.mzn";',
        f"int: n = {n};",
        f"int: m = {m};",
        "% the free rows",
        f"array[1..m] of int: row = [{', '.join(map(str, reduction.rows))}];",
        "% q[i] is the column of the queen on row row[i], one of its open columns",
        f"array[1..m] of var 0..{max(n - 1, 0)}: q;",
        *(f"constraint q[{index[r]}] in {{{', '.join(map(str, open_columns[r]))}}};"
          for r in reduction.rows if open_columns[r]),
        "constraint alldifferent(q);",
        "constraint alldifferent([q[i] + row[i] | i in 1..m]);",
        "constraint alldifferent([q[i] - row[i] | i in 1..m]);",
        *([] if possible else ["% pre-placed queens attack each other, or a free row has no open square",
                               "constraint false;"]),
        "",
        "solve satisfy;",
        "",
        "% the whole board, pre-placed queens included",
        f"output [show([{board}]), \"\\n\"];",
        "",
    ])


def _reduced_opb_text(instance: Instance) -> str:
    """The OPB model over the open squares of ``instance``'s reduction: variable ``x<i>`` is the
    i-th open square, row by row (the header lists them)."""
    reduction = reduce_instance(instance)
    number = {square: i + 1 for i, square in enumerate(reduction.squares)}
    constraints: list[str] = []
    for kind, squares in reduction.lines():
        terms = [f"x{number[sq]}" for sq in squares]
        if kind in ("row", "column"):
            constraints.append(" ".join(f"+1 {t}" for t in terms) + " = 1 ;" if terms else "0 >= 1 ;")
        else:
            constraints.append(" ".join(f"-1 {t}" for t in terms) + " >= -1 ;")
    if not reduction.consistent:
        constraints.append("0 >= 1 ;")
    by_row: dict[int, list[str]] = {}
    for (r, c), i in number.items():
        by_row.setdefault(r, []).append(f"x{i}=({r},{c})")
    return "\n".join([
        f"* #variable= {len(number)} #constraint= {len(constraints)}",
        "* N-Queens as pseudo-Boolean constraints (OPB) over the open squares, written by nqueens-cp",
        f"* n = {instance.n}; pre-placed queens (row:col) = {placed_text(instance)}",
        f"* blocked squares (row:col) = {blocked_text(instance)}",
        "* the pre-placed queens are propagated: one variable per open square (free row, free column, not",
        "* blocked, on no diagonal of a pre-placed queen); free rows and columns exactly one, diagonals at most one",
        *(f"* row {r}: {' '.join(names)}" for r, names in by_row.items()),
        *constraints,
    ]) + "\n"
