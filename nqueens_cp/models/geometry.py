"""The board's geometry, shared by every model: its lines, the numbering of squares, model sizes.

A queen on ``(row, col)`` attacks along four kinds of line: its row, its column, its up diagonal
(``row + col`` constant) and its down diagonal (``row - col`` constant). :func:`lines` lists
them once for the whole package. In every Boolean model (CNF, OPB, the Boolean CP-SAT model)
square ``(r, c)`` is variable ``square_variable(n, r, c) == r*n + c + 1``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Literal, TypeAlias

#: The four kinds of line of the board.
LineKind: TypeAlias = Literal["row", "column", "up", "down"]
Square: TypeAlias = tuple[int, int]


@dataclass(frozen=True)
class ModelSize:
    """Size of a built model: variables and constraints (``unit`` names what was counted)."""

    variables: int
    constraints: int
    unit: str = "constraints"


#: Bytes in a megabyte, as the memory estimates count them.
MEGABYTE = 2**20


@dataclass(frozen=True)
class ModelEstimate:
    """What a model will take before it is built: its size (closed forms) and the memory it needs.

    The models give ``what``, ``size`` and ``megabytes``; the backend that builds one adds ``instead``,
    what to use when it does not fit."""

    what: str
    size: ModelSize
    megabytes: float
    instead: str = ""


def line_lengths(n: int) -> list[int]:
    """The length of every line of the n x n board with two or more squares (rows, columns, diagonals)."""
    diagonals = [*range(2, n), n, *range(n - 1, 1, -1)] if n >= 2 else []
    return [n] * (2 * n) + diagonals * 2


def pairs_on(lengths: list[int]) -> int:
    """How many pairs of squares share a line, over lines of ``lengths`` (the pairwise models' size)."""
    return sum(length * (length - 1) // 2 for length in lengths)


def lines(n: int) -> Iterator[tuple[LineKind, list[Square]]]:
    """Every line of the n x n board with its kind: rows, columns, up and down diagonals.

    Squares come in row order; diagonals of one square are included (models skip them where an
    "at most one" of a single square says nothing).
    """
    for r in range(n):
        yield "row", [(r, c) for c in range(n)]
    for c in range(n):
        yield "column", [(r, c) for r in range(n)]
    for s in range(2 * n - 1):
        yield "up", [(r, s - r) for r in range(max(0, s - n + 1), min(n, s + 1))]
    for d in range(-(n - 1), n):
        yield "down", [(r, r - d) for r in range(max(0, d), min(n, n + d))]


def square_variable(n: int, row: int, col: int) -> int:
    """The 1-based variable of square ``(row, col)`` in the Boolean models: ``row*n + col + 1``."""
    return row * n + col + 1
