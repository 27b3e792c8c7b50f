"""Boards drawn as SVG: one function for the HTML report, the docs site and a Jupyter notebook.

:func:`board_svg` draws an n x n board: a checkerboard, the queens of a solution as dark discs,
an instance's pre-placed queens as red discs ringed in white (they are given, not found), its
blocked squares crossed out on grey, and optionally some lines (a row, a column or a diagonal) or
squares shaded, as the docs' model pages use them to show which squares one constraint covers.
For the N-Queens family it also draws a colouring (each square filled with its colour, its number
written on it) and a second army of queens (white discs ringed in black, beside the dark ones).

Nothing of the package is imported here, so every module may draw (``Instance._repr_svg_``
does); :mod:`nqueens_cp.core.display` has the objects a notebook shows.
"""

from __future__ import annotations

from html import escape
from typing import Iterable, Literal, Sequence, TypeAlias, cast

#: Boards larger than this get a plain background (the squares would be a pixel each) and bigger discs.
LARGE_BOARD = 64
#: Width and height of a drawn board, in CSS pixels, unless told otherwise.
BOARD_PIXELS = 160

#: A line of the board to shade: ``("row", r)``, ``("col", c)``, ``("sum", r + c)`` or ``("difference", r - c)``.
Line: TypeAlias = tuple[Literal["row", "col", "sum", "difference"], int]

_LIGHT, _DARK = "#f0d9b5", "#b58863"
_QUEEN, _FIXED, _BLOCKED, _SHADE = "#1a1a1a", "#c0392b", "#8a8a8a", "#3f51b5"


def colour_fill(colour: int) -> str:
    """The fill of colour number ``colour`` in a drawn colouring: hues spread by the golden angle, so
    neighbouring numbers look apart however many colours there are."""
    return f"hsl({round(colour * 137.508) % 360}, 65%, 72%)"


def line_squares(n: int, line: Line) -> list[tuple[int, int]]:
    """The squares ``(row, col)`` of ``line`` on the n x n board (none when it misses the board)."""
    kind, value = line
    if kind == "row":
        return [(value, c) for c in range(n)] if 0 <= value < n else []
    if kind == "col":
        return [(r, value) for r in range(n)] if 0 <= value < n else []
    if kind == "sum":
        return [(r, value - r) for r in range(n) if 0 <= value - r < n]
    if kind == "difference":
        return [(r, r - value) for r in range(n) if 0 <= r - value < n]
    raise ValueError(f"a line is 'row', 'col', 'sum' or 'difference', not {kind!r}")


def board_svg(
    queens: Sequence[int] | Iterable[tuple[int, int]] = (),
    *,
    n: int | None = None,
    fixed: Iterable[tuple[int, int]] = (),
    blocked: Iterable[tuple[int, int]] = (),
    lines: Iterable[Line] = (),
    shaded: Iterable[tuple[int, int]] = (),
    colours: Sequence[Sequence[int]] | None = None,
    white: Iterable[tuple[int, int]] = (),
    pixels: int = BOARD_PIXELS,
    title: str = "",
) -> str:
    """An ``<svg>`` element of the n x n board.

    ``queens`` is a solution (``sol[row] == col``; ``n`` defaults to its length) or ``(row, col)``
    pairs (then ``n`` is required); ``fixed`` are
    pre-placed queens (drawn red, over any queen of ``queens`` on the same square), ``blocked``
    squares no queen may take (crossed out), ``lines`` rows, columns or diagonals and ``shaded``
    squares shaded blue; ``colours[row][col]`` (an int >= 0) paints the squares, one hue per colour,
    each with its number; ``white`` is a second army, drawn as white queens.
    The picture is drawn in board units (one square = 1) and scaled by the ``viewBox``, so a
    1024 x 1024 board costs one checkerboard pattern plus one circle per queen.
    """
    listed = list(queens)
    pairs: list[tuple[int, int]]
    if all(isinstance(q, int) for q in listed):
        pairs = [(row, cast(int, col)) for row, col in enumerate(listed)]
        n = len(listed) if n is None else n
    elif n is None:
        raise ValueError("board_svg: n is required when the queens are (row, col) pairs")
    else:
        pairs = [cast("tuple[int, int]", pair) for pair in listed]
    given = set(fixed)
    label = title or (f"n={n}: " + " ".join(str(c) for _, c in sorted(pairs)) if pairs else f"an {n}x{n} board")
    radius = 0.38 if n <= LARGE_BOARD else round(n / 250, 2)  # on a large board a square is a pixel or two
    pattern_id = f"squares{n}"
    background = f"url(#{pattern_id})" if n <= LARGE_BOARD else _LIGHT
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" height="{pixels}" viewBox="0 0 {max(n, 1)} '
        f'{max(n, 1)}" shape-rendering="crispEdges" role="img" aria-label="{escape(label)}">',
        f"<title>{escape(label)}</title>",
        f'<defs><pattern id="{pattern_id}" width="2" height="2" patternUnits="userSpaceOnUse">'
        f'<rect width="2" height="2" fill="{_LIGHT}"/><rect x="1" width="1" height="1" fill="{_DARK}"/>'
        f'<rect y="1" width="1" height="1" fill="{_DARK}"/></pattern></defs>',
        f'<rect width="{n}" height="{n}" fill="{background}"/>',
    ]
    if colours is not None:
        parts.append('<g class="colours">' + "".join(
            f'<rect x="{c}" y="{r}" width="1" height="1" fill="{colour_fill(colour)}"/>'
            for r, row in enumerate(colours) for c, colour in enumerate(row)) + "</g>")
        parts.append('<g class="colour-numbers" font-family="sans-serif" font-size="0.45" text-anchor="middle" '
                     'fill="#1a1a1a" shape-rendering="geometricPrecision">' + "".join(
                         f'<text x="{c + 0.5}" y="{r + 0.66}">{colour}</text>'
                         for r, row in enumerate(colours) for c, colour in enumerate(row)) + "</g>")
    marked = sorted({sq for line in lines for sq in line_squares(n, line)} | set(shaded))
    if marked:
        parts.append(f'<g fill="{_SHADE}" fill-opacity="0.45" class="lines">'
                     + "".join(f'<rect x="{c}" y="{r}" width="1" height="1"/>' for r, c in marked) + "</g>")
    crossed = sorted(set(blocked))
    if crossed:
        parts.append(
            f'<g class="blocked"><g fill="{_BLOCKED}">'
            + "".join(f'<rect x="{c}" y="{r}" width="1" height="1"/>' for r, c in crossed)
            + '</g><g stroke="#ffffff" stroke-width="0.08" shape-rendering="geometricPrecision">'
            + "".join(f'<path d="M{c + 0.25} {r + 0.25}L{c + 0.75} {r + 0.75}M{c + 0.75} {r + 0.25}L{c + 0.25} {r + 0.75}"/>'
                      for r, c in crossed)
            + "</g></g>"
        )
    found = [(r, c) for r, c in pairs if (r, c) not in given]
    if found:
        parts.append(f'<g fill="{_QUEEN}" class="queens" shape-rendering="geometricPrecision">'
                     + "".join(f'<circle cx="{c + 0.5}" cy="{r + 0.5}" r="{radius}"/>' for r, c in found) + "</g>")
    whites = sorted(set(white))
    if whites:
        parts.append(f'<g fill="#ffffff" stroke="{_QUEEN}" stroke-width="0.08" class="white-queens" '
                     'shape-rendering="geometricPrecision">'
                     + "".join(f'<circle cx="{c + 0.5}" cy="{r + 0.5}" r="{radius}"/>' for r, c in whites) + "</g>")
    if given:
        parts.append(f'<g fill="{_FIXED}" stroke="#ffffff" stroke-width="0.06" class="fixed" '
                     'shape-rendering="geometricPrecision">'
                     + "".join(f'<circle cx="{c + 0.5}" cy="{r + 0.5}" r="{radius}"/>' for r, c in sorted(given))
                     + "</g>")
    parts.append("</svg>")
    return "".join(parts)
