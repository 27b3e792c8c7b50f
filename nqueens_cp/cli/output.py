"""Printing solutions: one line each (columns, or a JSON array), and boards drawn as text."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Iterable, TextIO

from nqueens_cp.cli import UsageError
from nqueens_cp.core.instance import Solution

#: Boards drawn with ``--show`` at most (a drawing has n² squares).
SHOW_MAX_N = 1000


def refuse_large_show(show: bool, n: int) -> None:
    """Refuse ``--show`` for a board larger than :data:`SHOW_MAX_N` (a ``UsageError``)."""
    if show and n > SHOW_MAX_N:
        raise UsageError(f"--show draws boards up to n = {SHOW_MAX_N} (n = {n:,}); leave it out")

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: Columns formatted per slice when a numpy answer is streamed (a few MB of text at a time).
STREAM_SLICE = 1 << 20


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


def write_columns(columns: npt.NDArray[np.int32], out: TextIO, *, output_format: str = "text") -> None:
    """Write a solution given as a numpy array, in the format of :func:`format_solution`, slice by
    slice as bytes (a compiled formatter), with a few MB of text in memory at a time."""
    from nqueens_cp.searches.columns_text import decimal_text

    out.flush()
    binary = out.buffer if hasattr(out, "buffer") else None
    separator = b", " if output_format == "jsonl" else b" "

    def put(data: bytes) -> None:
        if binary is not None:
            binary.write(data)
        else:
            out.write(data.decode("ascii"))

    if output_format == "jsonl":
        put(b"[")
    for first in range(0, len(columns), STREAM_SLICE):
        chunk = decimal_text(columns[first:first + STREAM_SLICE], separator)
        put(chunk if first + STREAM_SLICE < len(columns) else chunk[: -len(separator)])
    put(b"]\n" if output_format == "jsonl" else b"\n")
    if binary is not None:
        binary.flush()
