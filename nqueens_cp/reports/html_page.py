"""The self-contained HTML report: one file that opens anywhere, offline.

Everything is inside the page: the tables, the runtime, cactus and scatter plots as inline SVG (no
``runtime.png`` next to it is needed), the environment, the verdict at the top, and a gallery of
boards drawn by :func:`nqueens_cp.board.board_svg`: every fundamental solution (one per symmetry
class) of one small n, and the first solution of the largest n compared. No script, no stylesheet
or font from elsewhere.

The boards of the gallery are not stored in the saved results (runs keep fingerprints, not
solutions), and this package solves nothing: they are solved in a step before rendering, outside
``reports/`` (:func:`nqueens_cp.harness.gallery.solve_gallery`, called by ``compare`` and
``report``), checked by the independent checker there, and handed to :func:`build_html_report`.
"""

from __future__ import annotations

from typing import Sequence

from ..board import board_svg
from ..harness.gallery import LARGEST_DRAWN, Gallery
from ..harness.results import ComparisonResults
from .document import Block, Figure, Heading, Paragraph
from .plot import cactus_figure, default_scatter_pair, figure_svg, runtime_figure, scatter_figure
from .render import render_html
from .scores import compute_scores
from .tables import build_report

#: Width and height of the board of the largest n, in CSS pixels.
LARGE_BOARD_PIXELS = 480


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
