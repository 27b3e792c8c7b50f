"""The N-Queens instance (board size, pre-placed queens, blocked squares) and the solution types
(:data:`Solution`, and :class:`Queens`, the solution that draws itself).

Blocked squares come from the Excluded Diagonals problem of CSPLib problem 079 (Gent, Jefferson,
Nightingale, "Complexity of n-Queens Completion", JAIR 2017): no queen may stand on them. An
excluded diagonal is shorthand for its squares (:func:`diagonal_squares`).
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Iterable, Literal, Mapping, TypeAlias, cast

from nqueens_cp.core.errors import InvalidInstanceError

#: The largest board accepted: columns fit in int32. Each backend takes boards up to its own
#: ``max_n`` (the complete searches and models 100,000; local search and the constructions this,
#: as memory allows, estimated before anything is built).
MAX_N = 2**31 - 1

#: A solution: ``sol[row] == col``, 0-based, one entry per row.
Solution: TypeAlias = tuple[int, ...]


class Queens(tuple[int, ...]):
    """A solution as a backend's :meth:`~nqueens_cp.backends.Backend.first_solution` and
    :meth:`~nqueens_cp.backends.Backend.solutions` give it: a tuple of column indices
    (``queens[row] == col``) that draws its board in a notebook (``_repr_svg_``, as
    :class:`Instance` does). It is the tuple in every other way: equal to it, hashed, printed and
    sliced as it is (no attribute is added: ``__slots__`` is empty).

    >>> Queens((1, 3, 0, 2)) == (1, 3, 0, 2), Queens((1, 3, 0, 2))
    (True, (1, 3, 0, 2))
    """

    __slots__ = ()

    def _repr_svg_(self) -> str:
        """The board of this solution drawn as SVG, shown by Jupyter (:func:`nqueens_cp.core.board.board_svg`)."""
        from nqueens_cp.core.board import board_svg

        return board_svg(self, n=len(self), title=f"n={len(self)}: {tuple(self)}" if len(self) <= 16 else f"n={len(self)}")

#: Pre-placed queens as given by a caller: a mapping row -> column or (row, column) pairs.
FixedQueens: TypeAlias = Mapping[int, int] | Iterable[tuple[int, int]]

#: The two kinds of diagonal: ``"sum"`` (squares with row + col = value) and ``"difference"``
#: (squares with row - col = value).
DiagonalKind: TypeAlias = Literal["sum", "difference"]

#: Squares above this many are summarised by their count in ``str(instance)``.
_LISTED_BLOCKED = 8


def _as_int(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise InvalidInstanceError(f"{what} must be an integer, not {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInstanceError(f"{what} must be an integer, not {value!r}") from None


def _square(pair: object, size: int, what: str, where: str) -> tuple[int, int]:
    """``pair`` as a (row, col) square on the size x size board, or an ``InvalidInstanceError``."""
    try:
        raw_row, raw_col = cast("tuple[object, object]", pair)
    except (TypeError, ValueError):
        raise InvalidInstanceError(f"{what} must be a (row, col) pair, not {pair!r}") from None
    row, col = _as_int(raw_row, "row"), _as_int(raw_col, "column")
    if not (0 <= row < size and 0 <= col < size):
        raise InvalidInstanceError(f"{where} row {row}, column {col} is off the {size}x{size} board")
    return row, col


@dataclass(frozen=True)
class Instance:
    """An n x n board with optional pre-placed queens and blocked squares.

    ``fixed`` holds the pre-placed queens (the N-Queens completion problem) as ``(row, col)`` pairs
    sorted by row; the constructor accepts a mapping ``{row: col}`` or any iterable of pairs.
    ``blocked`` holds the squares no queen may stand on, sorted and without repeats. Pre-placed
    queens that attack each other, or a pre-placed queen on a blocked square, are valid input:
    such an instance simply has no solution.
    """

    n: int
    fixed: tuple[tuple[int, int], ...] = field(default=())
    blocked: tuple[tuple[int, int], ...] = field(default=())

    def __init__(
        self, n: object, fixed: FixedQueens | None = None, blocked: Iterable[tuple[int, int]] | None = None
    ) -> None:
        size = _as_int(n, "n")
        if size < 0:
            raise InvalidInstanceError(f"n must be >= 0, got {size}")
        if size > MAX_N:
            raise InvalidInstanceError(f"n must be <= {MAX_N}, got {size}")
        pairs = fixed.items() if isinstance(fixed, Mapping) else (fixed or ())
        if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
            raise InvalidInstanceError(
                f"fixed must be a mapping row -> column or (row, col) pairs, not {pairs!r}"
            )
        by_row: dict[int, int] = {}
        for pair in pairs:
            row, col = _square(pair, size, "a pre-placed queen", "queen at")
            if row in by_row:
                raise InvalidInstanceError(f"two queens given for row {row} (columns {by_row[row]} and {col})")
            by_row[row] = col
        squares: set[tuple[int, int]] = set()
        for square in blocked or ():
            squares.add(_square(square, size, "a blocked square", "blocked square at"))
        object.__setattr__(self, "n", size)
        object.__setattr__(self, "fixed", tuple(sorted(by_row.items())))
        object.__setattr__(self, "blocked", tuple(sorted(squares)))

    @property
    def fixed_by_row(self) -> dict[int, int]:
        """The pre-placed queens (``fixed``) as a fresh dict row -> column."""
        return dict(self.fixed)

    def with_fixed(self, more: FixedQueens) -> Instance:
        """This instance with more pre-placed queens (used to split it into sub-problems)."""
        extra = more.items() if isinstance(more, Mapping) else more
        return Instance(self.n, [*self.fixed, *extra], self.blocked)

    def with_blocked(self, more: Iterable[tuple[int, int]]) -> Instance:
        """This instance with more blocked squares."""
        return Instance(self.n, self.fixed, [*self.blocked, *more])

    def fixed_are_consistent(self) -> bool:
        """Whether no two pre-placed queens attack each other and none stands on a blocked square."""
        cols = [c for _, c in self.fixed]
        ups = [r + c for r, c in self.fixed]
        downs = [r - c for r, c in self.fixed]
        on_blocked = bool(set(self.fixed) & set(self.blocked))
        return not on_blocked and all(len(set(line)) == len(line) for line in (cols, ups, downs))

    def allowed_columns(self, row: int) -> list[int]:
        """The columns of ``row`` a queen may take: the pre-placed one, or every unblocked one."""
        pinned = self.fixed_by_row.get(row)
        if pinned is not None:
            return [] if (row, pinned) in self.blocked else [pinned]
        blocked = {c for r, c in self.blocked if r == row}
        return [c for c in range(self.n) if c not in blocked]

    def _repr_svg_(self) -> str:
        """The board drawn as SVG, shown by Jupyter (:func:`nqueens_cp.core.board.board_svg`)."""
        from nqueens_cp.core.board import board_svg

        return board_svg(n=self.n, fixed=self.fixed, blocked=self.blocked, title=str(self))

    def __str__(self) -> str:
        parts = [f"n={self.n}"]
        if self.fixed:
            parts.append("fixed=" + ",".join(f"{r}:{c}" for r, c in self.fixed))
        if len(self.blocked) > _LISTED_BLOCKED:
            parts.append(f"blocked={len(self.blocked)} squares")
        elif self.blocked:
            parts.append("blocked=" + ",".join(f"{r}:{c}" for r, c in self.blocked))
        return " ".join(parts)


def diagonal_squares(n: int, kind: DiagonalKind, value: int) -> tuple[tuple[int, int], ...]:
    """The squares of one diagonal of the n x n board, by row: ``row + col == value`` for a
    ``"sum"`` diagonal, ``row - col == value`` for a ``"difference"`` one. A diagonal that misses
    the board is an error (``InvalidInstanceError``)."""
    if kind == "sum":
        squares = tuple((row, value - row) for row in range(n) if 0 <= value - row < n)
    elif kind == "difference":
        squares = tuple((row, row - value) for row in range(n) if 0 <= row - value < n)
    else:
        raise InvalidInstanceError(f"a diagonal is 'sum' or 'difference', not {kind!r}")
    if not squares:
        sign = "+" if kind == "sum" else "-"
        raise InvalidInstanceError(f"the diagonal row {sign} col = {value} is off the {n}x{n} board")
    return squares
