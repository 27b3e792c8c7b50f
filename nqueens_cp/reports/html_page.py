"""The self-contained HTML report: one file that opens anywhere, offline.

Everything is inside the page: the tables, the runtime, cactus and scatter plots as inline SVG (no
``runtime.png`` next to it is needed), the environment, the verdict at the top, and a gallery of
boards drawn by :func:`nqueens_cp.core.board.board_svg`: every fundamental solution (one per symmetry
class) of one small n, and the first solution of the largest n compared. No script, no stylesheet
or font from elsewhere.

The boards of the gallery are not stored in the saved results (runs keep fingerprints, not
solutions), and this package solves nothing: they are solved in a step before rendering, outside
``reports/`` (:func:`nqueens_cp.harness.gallery.solve_gallery`, called by ``compare`` and
``report``), checked by the independent checker there, and handed to :func:`build_html_report`.
"""

from __future__ import annotations

from typing import Any, Sequence

from nqueens_cp.core.board import board_svg
from nqueens_cp.harness.gallery import LARGEST_DRAWN, Gallery
from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.reports.document import Block, Figure, Heading, Paragraph
from nqueens_cp.reports.plot import ReportFigures, figure_svg, report_figures
from nqueens_cp.reports.render import render_html
from nqueens_cp.reports.tables import build_report

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
    figures: ReportFigures | None = None,
) -> str:
    """The self-contained HTML page of ``results``, with the gallery of ``boards`` and every plot
    inline (``scatter``: the two configurations of the scatter plot; default: the report's pair;
    ``figures``: the report's figures when the caller has drawn them already)."""
    drawn = figures or report_figures(results, scatter)

    def block(figure: Any, caption: str) -> Figure | None:
        svg = figure_svg(figure)
        return None if svg is None else Figure(svg, caption)

    plot = block(drawn.runtime, "median wall time against n per configuration, log scale")
    cactus_block = block(drawn.cactus, "instances solved against time, every configuration and the virtual best")
    scatter_block = (block(drawn.scatter, f"{drawn.pair[0]} against {drawn.pair[1]}, wall time per instance, log-log")
                     if drawn.pair else None)
    return render_html(build_report(results, plot=plot, files=files, gallery=gallery(boards), cactus=cactus_block,
                                    scatter=scatter_block))
