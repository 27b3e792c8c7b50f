"""The part of an instance a model has to decide: free rows, free columns, open squares.

A pre-placed queen settles its row and its column and closes every square it attacks; a blocked
square is closed from the start. So before any model is built, the pre-placed queens are
propagated: what remains is the board of the *free* rows and columns (those without a pre-placed
queen) and, on it, the *open* squares (not blocked, not attacked along a diagonal by a pre-placed
queen). A model over the open squares only (one variable each; every free row and every free
column exactly one queen; every diagonal at most one) has exactly the completions of the
instance as its solutions. Its size depends on the free part, not on n: the n-Queens Completion
translation of an Excluded Diagonals instance (n = 2550 for a 10 x 10 instance, all but 10 queens
pre-placed) becomes a model over at most 100 squares, where the full model would have 6.5 million
variables. ``models/README.md`` writes this out.

Pre-placed queens that attack each other (or one on a blocked square) leave no completion: the
reduction then says so (``consistent`` is False) and models are built unsatisfiable.

When models use it (:func:`uses_reduction`): whenever the instance has blocked squares, or
pre-placed queens on at least half of its rows of a board of 16 rows or more. With a few
pre-placed queens (or on a small board) the full model is
hardly larger, and keeps its simple numbering (square (r, c) is variable r*n + c + 1); the reduced
models number the open squares 1, 2, ... row by row and say so in every export's header.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Mapping

from nqueens_cp.core.instance import Instance, Solution


@dataclass(frozen=True)
class Reduction:
    """The free part of ``instance``: see the module docstring."""

    instance: Instance
    rows: tuple[int, ...]
    cols: tuple[int, ...]
    squares: tuple[tuple[int, int], ...]
    consistent: bool

    def lines(self) -> Iterator[tuple[str, list[tuple[int, int]]]]:
        """Every line a model constrains, with its open squares in order: each free ``row`` and
        ``column`` (exactly one queen; possibly no open square, which no board satisfies), and each
        ``up`` (row + col constant) and ``down`` (row - col constant) diagonal with two or more open
        squares (at most one queen)."""
        by_row: dict[int, list[tuple[int, int]]] = {r: [] for r in self.rows}
        by_col: dict[int, list[tuple[int, int]]] = {c: [] for c in self.cols}
        ups: dict[int, list[tuple[int, int]]] = {}
        downs: dict[int, list[tuple[int, int]]] = {}
        for square in self.squares:
            r, c = square
            by_row[r].append(square)
            by_col[c].append(square)
            ups.setdefault(r + c, []).append(square)
            downs.setdefault(r - c, []).append(square)
        for r in self.rows:
            yield "row", by_row[r]
        for c in self.cols:
            yield "column", sorted(by_col[c])
        for key in sorted(ups):
            if len(ups[key]) > 1:
                yield "up", sorted(ups[key])
        for key in sorted(downs):
            if len(downs[key]) > 1:
                yield "down", sorted(downs[key])

    def board(self, placed: Mapping[int, int]) -> Solution:
        """The whole board: the pre-placed queens plus ``placed`` (free row -> column)."""
        columns = dict(self.instance.fixed)
        columns.update(placed)
        return tuple(columns[row] for row in range(self.instance.n))


#: Boards smaller than this keep the full model whatever their pre-placed queens (it is small anyway).
REDUCE_FROM_N = 16


def uses_reduction(instance: Instance) -> bool:
    """Whether models of ``instance`` are built over its reduction (see the module docstring)."""
    if instance.blocked:
        return True
    return instance.n >= REDUCE_FROM_N and 2 * len(instance.fixed) >= instance.n


def model_rows(instance: Instance) -> int:
    """The rows a model of ``instance`` has: its free rows when models use its reduction
    (:func:`uses_reduction`), else all of them."""
    return instance.n - len(instance.fixed) if uses_reduction(instance) else instance.n


def reduce_instance(instance: Instance) -> Reduction:
    """Propagate the pre-placed queens and blocked squares of ``instance`` (see the module docstring)."""
    n = instance.n
    fixed = instance.fixed
    taken_rows = {r for r, _ in fixed}
    taken_cols = {c for _, c in fixed}
    sums = {r + c for r, c in fixed}
    diffs = {r - c for r, c in fixed}
    consistent = instance.fixed_are_consistent()
    rows = tuple(r for r in range(n) if r not in taken_rows)
    cols = tuple(c for c in range(n) if c not in taken_cols)
    blocked = set(instance.blocked)
    squares = tuple(
        (r, c) for r in rows for c in cols if r + c not in sums and r - c not in diffs and (r, c) not in blocked
    )
    return Reduction(instance, rows, cols, squares, consistent)
