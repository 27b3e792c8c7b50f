"""N-Queens as a 0-1 integer program, built as rows of a sparse matrix, and written as LP or MPS.

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

from dataclasses import dataclass
from itertools import combinations

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, line_lengths
from nqueens_cp.models.lex_leader import lex_leader_clauses
from nqueens_cp.models.lines import LineModel, build_line_model
from nqueens_cp.models.reduction import model_rows
from nqueens_cp.models.text import blocked_text, placed_text

#: The MIP formulations, the default first.
FORMULATIONS: tuple[str, ...] = ("lines", "pairwise")

#: No upper (or lower) bound on a row.
INF = float("inf")


@dataclass(frozen=True)
class MipRow:
    """``lower <= Σ coefficient·x <= upper`` over 0-based column indices; ``name`` as in the LP/MPS file."""

    name: str
    columns: tuple[int, ...]
    coefficients: tuple[float, ...]
    lower: float
    upper: float


@dataclass(frozen=True)
class MipModel:
    """A built 0-1 program: ``columns`` binaries (the squares first), its rows."""

    lines: LineModel
    columns: int
    rows: tuple[MipRow, ...]
    formulation: str

    @property
    def square_columns(self) -> int:
        """The columns of the squares (``0 .. square_columns - 1``); any others are auxiliary."""
        return len(self.lines.squares)

    def size(self) -> ModelSize:
        return ModelSize(self.columns, len(self.rows), "rows")


def check_formulation(formulation: str) -> None:
    """Raise ``BackendOptionError`` unless ``formulation`` is one of :data:`FORMULATIONS`."""
    if formulation not in FORMULATIONS:
        raise BackendOptionError(f"unknown MIP formulation {formulation!r} (choose from {', '.join(FORMULATIONS)})")


def _row_name(name: str) -> str:
    """``row(3)`` -> ``row_3``, ``down(-2)`` -> ``down_m2``: names LP and MPS readers accept."""
    return name.replace("(", "_").replace(")", "").replace("-", "m")


def build_mip_model(instance: Instance, formulation: str = "lines", unique: bool = False) -> MipModel:
    """The 0-1 program of ``instance`` (see the module docstring)."""
    check_formulation(formulation)
    model = build_line_model(instance, unique)
    names = [_row_name(name) for name in model.names]
    rows: list[MipRow] = []
    for line, name in zip(model.exactly_one, names, strict=False):
        rows.append(MipRow(name, line, (1.0,) * len(line), 1.0, 1.0))
    for line, name in zip(model.at_most_one, names[len(model.exactly_one):], strict=True):
        if formulation == "lines":
            rows.append(MipRow(name, line, (1.0,) * len(line), -INF, 1.0))
        else:
            rows += [MipRow(f"{name}_{a}_{b}", (a, b), (1.0, 1.0), -INF, 1.0) for a, b in combinations(line, 2)]
    rows += [MipRow(f"fixed_{i}", (i,), (1.0,), 1.0, 1.0) for i in model.forced]
    if not model.consistent:
        rows.append(MipRow("attacking_preplaced", (), (), 1.0, INF))  # 0 >= 1
    columns = len(model.squares)
    if unique and instance.n > 1:
        columns, clauses = lex_leader_clauses(instance.n)
        for k, clause in enumerate(clauses):
            negatives = sum(1 for lit in clause if lit < 0)
            rows.append(MipRow(f"lex_{k}", tuple(abs(lit) - 1 for lit in clause),
                               tuple(1.0 if lit > 0 else -1.0 for lit in clause), 1.0 - negatives, INF))
    return MipModel(model, columns, tuple(rows), formulation)


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else repr(value)


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
    out = [*(f"\\{line[1:]}" for line in _header(instance, "\\")), "Minimize", " obj: 0 x1" if model.columns else " obj:",
           "Subject To"]
    for row in model.rows:
        terms = " ".join(f"{'+' if c > 0 else '-'} {_number(abs(c))} x{j + 1}" if abs(c) != 1
                         else f"{'+' if c > 0 else '-'} x{j + 1}" for j, c in zip(row.columns, row.coefficients,
                                                                                  strict=True)) or "0 x1"
        if row.lower == row.upper:
            out.append(f" {row.name}: {terms} = {_number(row.lower)}")
        else:
            if row.lower > -INF:
                out.append(f" {row.name}{'_lo' if row.upper < INF else ''}: {terms} >= {_number(row.lower)}")
            if row.upper < INF:
                out.append(f" {row.name}: {terms} <= {_number(row.upper)}")
    out.append("Binary")
    out += [f" x{j + 1}" for j in range(model.columns)]
    out += ["End", ""]
    return "\n".join(out)


def mps_text(instance: Instance, formulation: str = "lines") -> str:
    """The program in free MPS format (one matrix entry per line)."""
    model = build_mip_model(instance, formulation)
    out = [*(f"*{line[1:]}" for line in _header(instance, "*")), "NAME nqueens", "ROWS", " N obj"]
    senses = []
    for row in model.rows:
        sense = "E" if row.lower == row.upper else ("L" if row.lower == -INF else "G")
        if sense != "E" and row.lower > -INF and row.upper < INF:
            raise ValueError(f"row {row.name} has two bounds")  # never built: every row has one side
        senses.append(sense)
        out.append(f" {sense} {row.name}")
    entries: dict[int, list[tuple[str, float]]] = {j: [] for j in range(model.columns)}
    for row in model.rows:
        for j, c in zip(row.columns, row.coefficients, strict=True):
            entries[j].append((row.name, c))
    out.append("COLUMNS")  # binaries by their BV bounds below, no integer markers needed
    for j in range(model.columns):
        out += [f" x{j + 1} {name} {_number(c)}" for name, c in entries[j]] or [f" x{j + 1} obj 0"]
    out.append("RHS")
    for row, sense in zip(model.rows, senses, strict=True):
        value = row.upper if sense in ("E", "L") else row.lower
        if value != 0:
            out.append(f" RHS {row.name} {_number(value)}")
    out.append("BOUNDS")
    out += [f" BV BND x{j + 1}" for j in range(model.columns)]
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
        pairs = sum(length * (length - 1) // 2 for length in lengths[2 * n:])
        nonzeros, rows = 2 * n * n + 2 * pairs, 2 * n + pairs
    else:
        nonzeros, rows = sum(lengths), len(lengths)
    return ModelEstimate(f"{formulation} 0-1 program of n = {instance.n}", ModelSize(n * n, rows, "rows"),
                         nonzeros * BYTES_PER_MIP_NONZERO / MEGABYTE)
