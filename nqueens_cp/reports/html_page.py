"""The self-contained HTML report: one file that opens anywhere, offline.

Everything is inside the page: the tables, the runtime, cactus and scatter plots as inline SVG (no ``runtime.png``
next to it is needed), the environment, the verdict at the top, and a gallery of boards drawn as
SVG: every fundamental solution (one per symmetry class) of one small n, and the first solution
of the largest n compared. No script, no stylesheet or font from elsewhere.

The boards of the gallery are not stored in the saved results (runs keep fingerprints, not
solutions), and this package solves nothing: they are solved in a step before rendering, outside
``reports/`` (:func:`nqueens_cp.harness.gallery.solve_gallery`, called by ``compare`` and
``report``), checked by the independent checker there, and handed to :func:`build_html_report`.
"""

from __future__ import annotations

from typing import Sequence

from ..harness.gallery import LARGEST_DRAWN, Gallery
from ..harness.results import ComparisonResults
from ..instance import Solution
from .document import Block, Figure, Heading, Paragraph
from .plot import cactus_figure, default_scatter_pair, figure_svg, runtime_figure, scatter_figure
from .render import render_html
from .scores import compute_scores
from .tables import build_report

#: Boards larger than this get a plain background (the squares would be a pixel each) and bigger discs.
LARGE_BOARD = 64
#: Width and height of a drawn board, in CSS pixels.
BOARD_PIXELS = 160
LARGE_BOARD_PIXELS = 480


def board_svg(solution: Solution, *, pixels: int = BOARD_PIXELS, title: str = "") -> str:
    """An ``<svg>`` of the board of ``solution``: a checkerboard, one dark disc per queen.

    The picture is drawn in board units (one square = 1) and scaled by the ``viewBox``, so a
    1024 x 1024 board costs one checkerboard pattern plus one circle per queen.
    """
    n = len(solution)
    label = title or f"n={n}: " + " ".join(map(str, solution))
    # On a large board a square is a pixel or two: the discs are drawn bigger than a square so they show.
    radius = 0.38 if n <= LARGE_BOARD else round(n / 250, 2)
    queens = "".join(f'<circle cx="{col + 0.5}" cy="{row + 0.5}" r="{radius}"/>' for row, col in enumerate(solution))
    pattern_id = f"squares{n}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{pixels}" height="{pixels}" viewBox="0 0 {n} {n}" '
        f'shape-rendering="crispEdges" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<defs><pattern id="{pattern_id}" width="2" height="2" patternUnits="userSpaceOnUse">'
        '<rect width="2" height="2" fill="#f0d9b5"/><rect x="1" width="1" height="1" fill="#b58863"/>'
        '<rect y="1" width="1" height="1" fill="#b58863"/></pattern></defs>'
        f'<rect width="{n}" height="{n}" fill="{"url(#" + pattern_id + ")" if n <= LARGE_BOARD else "#f0d9b5"}"/>'
        f'<g fill="#1a1a1a" class="queens">{queens}</g></svg>'
    )


def gallery(boards: Gallery) -> list[Block]:
    """The gallery section: the fundamental solutions of one small n, the first solution of the largest n."""
    small = boards.small
    blocks: list[Block] = [
        Heading("Gallery of boards"),
        Paragraph(f"The {len(boards.fundamental)} fundamental solutions of n = {small} (one per class of the "
                  "square's 8 symmetries, each the smallest of its images), solved again by the backtrack "
                  "backend and checked by the independent checker."),
    ]
    blocks += [Figure(board_svg(s), " ".join(map(str, s))) for s in boards.fundamental]
    largest = boards.largest
    if largest is None:
        return blocks
    if largest > LARGEST_DRAWN:
        blocks.append(Paragraph(f"n = {largest} is not drawn (larger than {LARGEST_DRAWN})."))
        return blocks
    if boards.first is None:
        blocks.append(Paragraph(f"n = {largest} has no solution to draw."))
        return blocks
    blocks.append(Paragraph(f"A first solution of the largest board compared, n = {largest} "
                            "(first-fail search, checked by the independent checker)."))
    blocks.append(Figure(board_svg(boards.first, pixels=LARGE_BOARD_PIXELS, title=f"a solution of n={largest}"),
                         f"n = {largest}"))
    return blocks


def build_html_report(
    results: ComparisonResults, boards: Gallery, *, files: Sequence[str] = (), scatter: tuple[str, str] | None = None,
) -> str:
    """The self-contained HTML page of ``results``, with the gallery of ``boards`` and every plot
    inline (``scatter``: the two configurations of the scatter plot; default: the report's pair)."""
    scores = compute_scores(results)
    pair = scatter or default_scatter_pair(results, scores)
    runtime, cactus = runtime_figure(results), cactus_figure(results, scores)
    scattered = scatter_figure(results, *pair, scores) if pair else None
    plot = Figure(figure_svg(runtime), "median wall time against n per configuration, log scale") if runtime else None
    cactus_block = Figure(figure_svg(cactus), "instances solved against time, every configuration and the virtual "
                          "best") if cactus else None
    scatter_block = (Figure(figure_svg(scattered), f"{pair[0]} against {pair[1]}, wall time per instance, log-log")
                     if scattered is not None and pair else None)
    return render_html(build_report(results, plot=plot, files=files, gallery=gallery(boards), cactus=cactus_block,
                                    scatter=scatter_block))
