"""N-Queens as a 0-1 integer program (a :class:`~.linear.LinearModel`), and written as LP or MPS.

Binary ``x_i`` per square of the line model (:mod:`.lines`; ``x<r*n + c + 1>`` is square ``(r, c)``
of a full board), no objective (a feasibility problem: ``minimize 0``). Two formulations:

* ``lines`` (the default, the textbook model): ``Σ x = 1`` on every row and column, ``Σ x <= 1``
  on every diagonal. Each row is a clique of the conflict graph, so its LP relaxation is tight
  per line and HiGHS's presolve and cuts see the structure.
* ``pairwise``: ``Σ x = 1`` on rows and columns, and ``x_a + x_b <= 1`` for each pair on a
  diagonal, the weak edge formulation (its LP optimum can set every diagonal square to 1/2):
  measured, to show what the clique rows buy.

Enumeration is by no-good cuts (``Σ_{i in S} x_i <= |S| − 1`` for each board S found, one MIP
solve per solution), so the ``mip`` backend bounds how far it goes. With ``unique``, the lex-leader
clauses of :func:`~nqueens_cp.models.lex_leader.lex_leader_clauses` become rows
``Σ_pos x − Σ_neg x >= 1 − #neg`` over binary auxiliaries.
"""

from __future__ import annotations

from nqueens_cp.core.arguments import require_choice
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, line_lengths, pairs_on
from nqueens_cp.models.linear import LinearModel, build_linear_model
from nqueens_cp.models.reduction import model_rows
from nqueens_cp.models.text import blocked_text, placed_text

#: The MIP formulations, the default first.
FORMULATIONS: tuple[str, ...] = ("lines", "pairwise")


def build_mip_model(instance: Instance, formulation: str = "lines", unique: bool = False) -> LinearModel:
    """The 0-1 program of ``instance`` (see the module docstring)."""
    require_choice(formulation, FORMULATIONS, "MIP formulation")
    return build_linear_model(instance, formulation, unique, clauses=False)


def _header(instance: Instance, comment: str) -> list[str]:
    return [
        f"{comment} N-Queens as a 0-1 integer program, written by nqueens-cp (`nqueens-cp export N --format lp|mps`)",
        f"{comment} n = {instance.n}; pre-placed queens (row:col) = {placed_text(instance)}",
        f"{comment} blocked squares (row:col) = {blocked_text(instance)}",
        f"{comment} x<i> = 1 when a queen stands on square i (full board: x<r*{instance.n} + c + 1> is (r, c), 0-based;"
        " a reduced board numbers its open squares row by row)",
        f"{comment} rows and columns: exactly one; diagonals: at most one. Run: highs FILE",
    ]


def lp_text(instance: Instance, formulation: str = "lines") -> str:
    """The program in CPLEX LP format (read by HiGHS, CPLEX, Gurobi, SCIP, CBC, GLPK)."""
    model = build_mip_model(instance, formulation)
    out = [*(f"\\{line[1:]}" for line in _header(instance, "\\")), "Minimize", " obj: 0 x1" if model.variables else " obj:",
           "Subject To"]
    for row in model.rows:
        terms = " ".join(f"{'+' if c > 0 else '-'} {abs(c)} x{v}" if abs(c) != 1 else f"{'+' if c > 0 else '-'} x{v}"
                         for c, v in row.terms) or "0 x1"
        if row.lower == row.upper:
            out.append(f" {row.name}: {terms} = {row.lower}")
        else:
            if row.lower is not None:
                out.append(f" {row.name}{'_lo' if row.upper is not None else ''}: {terms} >= {row.lower}")
            if row.upper is not None:
                out.append(f" {row.name}: {terms} <= {row.upper}")
    out.append("Binary")
    out += [f" x{v}" for v in range(1, model.variables + 1)]
    out += ["End", ""]
    return "\n".join(out)


def mps_text(instance: Instance, formulation: str = "lines") -> str:
    """The program in free MPS format (one matrix entry per line)."""
    model = build_mip_model(instance, formulation)
    out = [*(f"*{line[1:]}" for line in _header(instance, "*")), "NAME nqueens", "ROWS", " N obj"]
    senses = []
    for row in model.rows:
        sense = "E" if row.lower == row.upper else ("L" if row.lower is None else "G")
        if sense != "E" and row.lower is not None and row.upper is not None:
            raise ValueError(f"row {row.name} has two bounds")  # never built: every row has one side
        senses.append(sense)
        out.append(f" {sense} {row.name}")
    entries: dict[int, list[tuple[str, int]]] = {v: [] for v in range(1, model.variables + 1)}
    for row in model.rows:
        for c, v in row.terms:
            entries[v].append((row.name, c))
    out.append("COLUMNS")  # binaries by their BV bounds below, no integer markers needed
    for v in range(1, model.variables + 1):
        out += [f" x{v} {name} {c}" for name, c in entries[v]] or [f" x{v} obj 0"]
    out.append("RHS")
    for row, sense in zip(model.rows, senses, strict=True):
        value = row.upper if sense in ("E", "L") else row.lower
        if value != 0:
            out.append(f" RHS {row.name} {value}")
    out.append("BOUNDS")
    out += [f" BV BND x{v}" for v in range(1, model.variables + 1)]
    out += ["ENDATA", ""]
    return "\n".join(out)


#: Bytes one nonzero of the 0-1 program costs in HiGHS with the Python-side arrays (peak memory
#: over start-up for a first solution: 470 B at n = 256 with ``lines``, 1000 B at n = 64 with
#: ``pairwise``; the larger is taken).
BYTES_PER_MIP_NONZERO = 1000


def mip_memory(instance: Instance, formulation: str) -> ModelEstimate:
    """The 0-1 program of ``instance`` in HiGHS: its nonzeros (one per square per line, or two per pair)."""
    n = model_rows(instance)
    lengths = line_lengths(n)
    if formulation == "pairwise":
        pairs = pairs_on(lengths[2 * n:])
        nonzeros, rows = 2 * n * n + 2 * pairs, 2 * n + pairs
    else:
        nonzeros, rows = sum(lengths), len(lengths)
    return ModelEstimate(f"{formulation} 0-1 program of n = {instance.n}", ModelSize(n * n, rows, "rows"),
                         nonzeros * BYTES_PER_MIP_NONZERO / MEGABYTE)
