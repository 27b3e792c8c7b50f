"""The 0-1 line model: one Boolean per square, "exactly one" or "at most one" per line of the board.

The ASP program (:mod:`.asp`), the MIP (:mod:`.mip`), the pseudo-Boolean model solved by Exact
(:mod:`.pb`) and the Boolean SMT model (:mod:`.smt`) all state the same thing: a queen variable
per square, every row and every column exactly one queen, every diagonal of two or more squares
at most one. :func:`build_line_model` builds that once, solver-free, as index lists, and each
paradigm writes it in its own language.

Rows and columns are both "exactly one" here (the MIP's textbook form, ``= 1``; with n queens in
n rows, "at most one" per column is equivalent, and the CNF and OPB models use that form). A
pre-placed queen is a *forced* square. An instance that uses the reduction
(:func:`~nqueens_cp.models.reduction.uses_reduction`: blocked squares, or many pre-placed queens)
gets the model over its open squares instead: free rows and columns exactly one, diagonals with
two or more open squares at most one, the pre-placed queens left out (``settled``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from nqueens_cp.core.arguments import require_bool, require_instance
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import require_symmetric
from nqueens_cp.models.geometry import ModelSize, Square, lines
from nqueens_cp.models.reduction import Reduction, reduce_instance, uses_reduction


@dataclass(frozen=True)
class LineModel:
    """The line model of one instance; squares are numbered by their index in ``squares``."""

    n: int
    #: The squares that have a variable, row by row (all n² of them, or the open squares).
    squares: tuple[Square, ...]
    #: Lines holding exactly one queen, as indices into ``squares``; an empty one makes the model unsatisfiable.
    exactly_one: tuple[tuple[int, ...], ...]
    #: Lines holding at most one queen (two or more squares each).
    at_most_one: tuple[tuple[int, ...], ...]
    #: The name of each line of ``exactly_one`` then ``at_most_one``: ``row(R)``, ``col(C)``,
    #: ``up(R+C)`` or ``down(R-C)``.
    names: tuple[str, ...] = ()
    #: Squares that must hold a queen (the pre-placed queens of a full model).
    forced: tuple[int, ...] = ()
    #: Pre-placed queens left out of a reduced model (their rows and columns have no variable).
    settled: tuple[Square, ...] = ()
    #: False when the pre-placed queens attack each other (a reduced model is then unsatisfiable).
    consistent: bool = True

    def decode(self, queens: Iterable[int]) -> Solution:
        """The board whose queens stand on the squares of the indices ``queens`` (plus the settled ones)."""
        cols = [-1] * self.n
        for row, col in self.settled:
            cols[row] = col
        for index in queens:
            row, col = self.squares[index]
            cols[row] = col
        return tuple(cols)

    def size(self) -> ModelSize:
        """Variables (one per square) and linear constraints (lines plus forced squares)."""
        return ModelSize(len(self.squares), len(self.exactly_one) + len(self.at_most_one) + len(self.forced))


def build_line_model(instance: Instance, unique: bool = False) -> LineModel:
    """The line model of ``instance`` (see the module docstring); ``unique`` checks that the board
    is one the lex-leader constraints the caller adds may be put on (no pre-placed queens)."""
    require_instance(instance)
    require_bool(unique, "unique")
    if unique:
        require_symmetric(instance)
    if uses_reduction(instance):
        reduction = reduce_instance(instance)
        number = {square: i for i, square in enumerate(reduction.squares)}
        exact: list[tuple[int, ...]] = []
        at_most: list[tuple[int, ...]] = []
        exact_names: list[str] = []
        at_most_names: list[str] = []
        for kind, squares in reduction.lines():
            indices = tuple(number[square] for square in squares)
            if kind in ("row", "column"):
                exact.append(indices)
                exact_names.append(_name(kind, squares, reduction, len(exact) - 1))
            else:
                at_most.append(indices)
                at_most_names.append(_name(kind, squares, reduction, 0))
        return LineModel(instance.n, reduction.squares, tuple(exact), tuple(at_most),
                         (*exact_names, *at_most_names), settled=instance.fixed, consistent=reduction.consistent)
    n = instance.n
    exact, at_most = [], []
    exact_names, at_most_names = [], []
    for kind, squares in lines(n):
        indices = tuple(r * n + c for r, c in squares)
        if kind in ("row", "column"):
            exact.append(indices)
            exact_names.append(_name(kind, squares))
        elif len(indices) > 1:
            at_most.append(indices)
            at_most_names.append(_name(kind, squares))
    squares_all = tuple((r, c) for r in range(n) for c in range(n))
    forced = tuple(r * n + c for r, c in instance.fixed)
    return LineModel(n, squares_all, tuple(exact), tuple(at_most), (*exact_names, *at_most_names), forced)


def _name(kind: str, squares: list[Square], reduction: Reduction | None = None, position: int = 0) -> str:
    """``row(R)``, ``col(C)``, ``up(R+C)`` or ``down(R-C)``; an empty free row or column of a
    reduction is named by its place among the free rows, then the free columns."""
    if not squares:
        assert reduction is not None
        rows = len(reduction.rows)
        return f"row({reduction.rows[position]})" if position < rows else f"col({reduction.cols[position - rows]})"
    r, c = squares[0]
    return {"row": f"row({r})", "column": f"col({c})", "up": f"up({r + c})", "down": f"down({r - c})"}[kind]


def line_model_size(n: int, preplaced: int = 0) -> ModelSize:
    """The size of :func:`build_line_model` of a full n x n board with ``preplaced`` queens:
    ``n²`` variables and ``2n + 2(2n - 3) + p = 6n - 6 + p`` constraints for n >= 2."""
    if n == 0:
        return ModelSize(0, preplaced)
    diagonals = 2 * (2 * n - 3) if n >= 2 else 0
    return ModelSize(n * n, 2 * n + diagonals + preplaced)
