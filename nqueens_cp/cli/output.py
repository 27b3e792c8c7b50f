"""Printing solutions: one line each (columns, or a JSON array), and boards drawn as text."""

from __future__ import annotations

import json
from typing import Iterable, TextIO

from ..instance import Solution


def format_solution(solution: Solution, output_format: str) -> str:
    """One solution as a line: columns separated by spaces, or a JSON array."""
    if output_format == "jsonl":
        return json.dumps(list(solution))
    return " ".join(map(str, solution))


def draw_queens(n: int, queens: Iterable[tuple[int, int]]) -> str:
    """The n x n board as rows of ``Q`` (a queen) and ``.``."""
    placed = set(queens)
    return "\n".join(" ".join("Q" if (r, c) in placed else "." for c in range(n)) for r in range(n))


def draw_board(solution: Solution) -> str:
    """A solution's board as rows of ``Q`` and ``.``."""
    return draw_queens(len(solution), enumerate(solution))


def emit_solution(solution: Solution, out: TextIO, *, output_format: str = "text", show: bool = False) -> None:
    """Write ``solution`` as a line, and its board under it with ``show`` (text format only)."""
    out.write(format_solution(solution, output_format) + "\n")
    if show and output_format == "text":
        out.write(draw_board(solution) + "\n\n")
