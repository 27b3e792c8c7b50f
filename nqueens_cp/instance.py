"""The N-Queens instance (board size plus optional pre-placed queens) and the solution type."""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Iterable, Mapping, TypeAlias

from .errors import InvalidInstanceError

#: The largest board accepted: well beyond what any backend here can solve (about n = 1000 for a
#: first solution), small enough that sizes derived from ``n`` stay machine integers.
MAX_N = 100_000

#: A solution: ``sol[row] == col``, 0-based, one entry per row.
Solution: TypeAlias = tuple[int, ...]

#: Pre-placed queens as given by a caller: a mapping row -> column or (row, column) pairs.
PlacementLike: TypeAlias = Mapping[int, int] | Iterable[tuple[int, int]]


def _as_int(value: object, what: str) -> int:
    if isinstance(value, bool):
        raise InvalidInstanceError(f"{what} must be an integer, not {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise InvalidInstanceError(f"{what} must be an integer, not {value!r}") from None


@dataclass(frozen=True)
class Instance:
    """An n x n board with optional pre-placed queens (the N-Queens completion problem).

    ``fixed`` holds the pre-placed queens as ``(row, col)`` pairs sorted by row; the constructor
    accepts a mapping ``{row: col}`` or any iterable of pairs. Pre-placed queens that attack each
    other are valid input: such an instance simply has no solution.
    """

    n: int
    fixed: tuple[tuple[int, int], ...] = field(default=())

    def __init__(self, n: object, fixed: PlacementLike | None = None) -> None:
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
            try:
                raw_row, raw_col = pair
            except (TypeError, ValueError):
                raise InvalidInstanceError(f"a pre-placed queen must be a (row, col) pair, not {pair!r}") from None
            row, col = _as_int(raw_row, "row"), _as_int(raw_col, "column")
            if not (0 <= row < size and 0 <= col < size):
                raise InvalidInstanceError(f"queen at row {row}, column {col} is off the {size}x{size} board")
            if row in by_row:
                raise InvalidInstanceError(f"two queens given for row {row} (columns {by_row[row]} and {col})")
            by_row[row] = col
        object.__setattr__(self, "n", size)
        object.__setattr__(self, "fixed", tuple(sorted(by_row.items())))

    @property
    def placements(self) -> dict[int, int]:
        """The pre-placed queens as a fresh dict row -> column."""
        return dict(self.fixed)

    def with_fixed(self, more: PlacementLike) -> Instance:
        """This instance with more pre-placed queens (used to split it into sub-problems)."""
        extra = more.items() if isinstance(more, Mapping) else more
        return Instance(self.n, [*self.fixed, *extra])

    def fixed_are_consistent(self) -> bool:
        """Whether no two pre-placed queens attack each other."""
        cols = [c for _, c in self.fixed]
        ups = [r + c for r, c in self.fixed]
        downs = [r - c for r, c in self.fixed]
        return all(len(set(line)) == len(line) for line in (cols, ups, downs))

    def __str__(self) -> str:
        if not self.fixed:
            return f"n={self.n}"
        return f"n={self.n} fixed=" + ",".join(f"{r}:{c}" for r, c in self.fixed)
