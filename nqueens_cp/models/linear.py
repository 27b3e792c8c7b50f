"""A 0-1 linear model: binary variables and rows ``lower <= Σ coefficient·x <= upper``.

The pseudo-Boolean model (:mod:`.pb`, solved by Exact) and the 0-1 integer program (:mod:`.mip`,
solved by HiGHS and written as LP or MPS) are both this, built on the line model (:mod:`.lines`):
the variables are its squares, numbered ``1 .. len(squares)`` (``r*n + c + 1`` on a full board),
then any auxiliaries of the lex-leader rows. They differ only in how a non-default formulation
writes the lines; the rest (the default formulation, the pre-placed queens, the lex-leader
clauses) is built here once.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.lex_leader import lex_leader_clauses
from nqueens_cp.models.lines import LineModel, build_line_model


@dataclass(frozen=True)
class LinearRow:
    """``lower <= Σ coefficient·x_variable <= upper`` (None: no bound on that side); ``name`` as in
    an LP or MPS file."""

    name: str
    #: ``(coefficient, variable)`` pairs, variables numbered from 1.
    terms: tuple[tuple[int, int], ...]
    lower: int | None = None
    upper: int | None = None

    def allows(self, total: int) -> bool:
        """Whether ``total`` lies within the row's bounds (``allows(0)``: a row without terms holds)."""
        return (self.lower is None or self.lower <= total) and (self.upper is None or total <= self.upper)


@dataclass(frozen=True)
class LinearModel:
    """A built 0-1 linear model: its variables ``1 .. variables`` (the squares first), its rows."""

    lines: LineModel
    variables: int
    rows: tuple[LinearRow, ...]
    formulation: str

    @property
    def square_variables(self) -> range:
        """The variables of the squares (``1 .. len(lines.squares)``); any others are auxiliary."""
        return range(1, len(self.lines.squares) + 1)

    def size(self, unit: str = "constraints") -> ModelSize:
        """Variables and rows (``unit`` names the rows as the solver's users call them)."""
        return ModelSize(self.variables, len(self.rows), unit)


def line_row(name: str, line: tuple[int, ...], lower: int | None, upper: int | None) -> LinearRow:
    """``lower <= Σ x <= upper`` over the squares of ``line`` (indices into the line model's squares)."""
    return LinearRow(name, tuple((1, square + 1) for square in line), lower, upper)


def pair_rows(name: str, line: tuple[int, ...]) -> list[LinearRow]:
    """``x_a + x_b <= 1`` for each pair of squares on ``line``, named ``<name>_<a>_<b>``."""
    return [line_row(f"{name}_{a}_{b}", (a, b), None, 1) for a, b in combinations(line, 2)]


def named_lines(model: LineModel) -> tuple[list[tuple[str, tuple[int, ...]]], list[tuple[str, tuple[int, ...]]]]:
    """The exactly-one lines and the at-most-one lines of ``model``, each with its row name
    (``row(3)`` -> ``row_3``, ``down(-2)`` -> ``down_m2``: names LP and MPS readers accept)."""
    names = [name.replace("(", "_").replace(")", "").replace("-", "m") for name in model.names]
    exactly = list(zip(names, model.exactly_one, strict=False))
    at_most = list(zip(names[len(model.exactly_one):], model.at_most_one, strict=True))
    return exactly, at_most


def clique_rows(model: LineModel) -> list[LinearRow]:
    """The default formulation: ``Σ x = 1`` on every row and column, ``Σ x <= 1`` on every diagonal."""
    exactly, at_most = named_lines(model)
    return [*(line_row(name, line, 1, 1) for name, line in exactly),
            *(line_row(name, line, None, 1) for name, line in at_most)]


def pairwise_rows(model: LineModel, *, clauses: bool) -> list[LinearRow]:
    """The weak formulation, by pairs of squares: ``x_a + x_b <= 1`` for each pair on a diagonal,
    ``Σ x = 1`` on every row and column; with ``clauses`` (the pairwise CNF as rows) ``Σ x >= 1``
    on rows and columns instead, and a pair row for each of their pairs too."""
    exactly, at_most = named_lines(model)
    paired = (*exactly, *at_most) if clauses else at_most
    return [*(line_row(name, line, 1, None if clauses else 1) for name, line in exactly),
            *(row for name, line in paired for row in pair_rows(name, line))]


def clause_row(name: str, clause: list[int]) -> LinearRow:
    """The clause ``l1 ∨ … ∨ lk`` (signed variables) as ``Σ_{pos} x − Σ_{neg} x >= 1 − #neg``."""
    negatives = sum(1 for lit in clause if lit < 0)
    return LinearRow(name, tuple((1 if lit > 0 else -1, abs(lit)) for lit in clause), lower=1 - negatives)


def build_linear_model(instance: Instance, formulation: str, unique: bool, *, clauses: bool) -> LinearModel:
    """The linear model of ``instance``: the rows of its lines (:func:`clique_rows` for the
    formulation ``lines``, :func:`pairwise_rows` with ``clauses`` for the other), a row ``x = 1``
    per pre-placed queen, the unsatisfiable row ``0 >= 1`` when they attack each other, and with
    ``unique`` the lex-leader clauses as rows over auxiliary variables."""
    model = build_line_model(instance, unique)
    line_rows = clique_rows(model) if formulation == "lines" else pairwise_rows(model, clauses=clauses)
    rows = [*line_rows, *(line_row(f"fixed_{square}", (square,), 1, 1) for square in model.forced)]
    if not model.consistent:
        rows.append(LinearRow("attacking_preplaced", (), 1, None))
    variables = len(model.squares)
    if unique and instance.n > 1:
        variables, lex_clauses = lex_leader_clauses(instance.n)
        rows += [clause_row(f"lex_{k}", clause) for k, clause in enumerate(lex_clauses)]
    return LinearModel(model, variables, tuple(rows), formulation)
