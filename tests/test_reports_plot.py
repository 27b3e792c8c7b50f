"""The report's plots stay readable with many series: every series its own style, the legend on the figure."""

from __future__ import annotations

import struct

import pytest

from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.reports.plot import cactus_figure, figure_png, runtime_figure, series_styles
from nqueens_cp.reports.scores import VIRTUAL_BEST

from .test_reports_scores import OK, made


def many(count: int) -> ComparisonResults:
    """Results of ``count`` configurations with long labels, each answering n = 4..6."""
    configs = tuple(f"sat:encoding=family{i}" for i in range(count))
    return made([(c, n, OK, 0.01 * (i + 1) * n) for i, c in enumerate(configs) for n in (4, 5, 6)], configs=configs)


@pytest.mark.parametrize("count", [14, 30, 120])
def test_no_two_series_share_a_colour_and_a_marker(count: int) -> None:
    names = [f"config{i}" for i in range(count)]
    styles = series_styles(names)
    assert len({(styles[n].colour, styles[n].marker) for n in names}) == count
    assert (styles[VIRTUAL_BEST].colour, styles[VIRTUAL_BEST].marker) not in {(styles[n].colour, styles[n].marker) for n in names}


def png_size(png: bytes) -> tuple[int, int]:
    """Width and height of a PNG image, from its header."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.mark.parametrize("draw", [runtime_figure, cactus_figure], ids=["runtime", "cactus"])
@pytest.mark.parametrize("count", [3, 30, 70])
def test_the_legend_lies_within_the_saved_figure(draw: object, count: int) -> None:
    figure = draw(many(count))  # type: ignore[operator]
    png = figure_png(figure)
    assert png is not None
    width, height = png_size(png)
    legend = figure.axes[0].get_legend()
    box = legend.get_window_extent(figure.canvas.get_renderer())
    assert len(legend.get_texts()) == count + (draw is cactus_figure)  # every series named
    assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height, (box.bounds, width, height)
    plot_area = figure.axes[0].get_window_extent()
    assert plot_area.width > width / 3  # the plot keeps room beside the legend
