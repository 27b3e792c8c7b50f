"""The runtime plot: median wall time against n per configuration, log scale, as PNG or SVG.

matplotlib is imported only here, only when a plot is drawn, and through its Agg canvas (no
pyplot, no display), so it works headless and leaves no global state behind.
"""

from __future__ import annotations

import io
from typing import Any

from ..harness.results import ComparisonResults, RunStatus
from .summary import labels, sizes, table_of_cells


def runtime_plot_png(results: ComparisonResults) -> bytes | None:
    """The plot as PNG bytes, or None when no run answered (nothing to draw)."""
    figure = _runtime_figure(results)
    if figure is None:
        return None
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": "nqueens-cp"})
    return buffer.getvalue()


def runtime_plot_svg(results: ComparisonResults) -> str | None:
    """The plot as an ``<svg>`` element to put inline in a page (no XML prolog), or None (nothing to draw)."""
    figure = _runtime_figure(results)
    if figure is None:
        return None
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _runtime_figure(results: ComparisonResults) -> Any:
    """The matplotlib figure of the plot, or None when no run answered."""
    cells = table_of_cells(results)
    series = []
    for config in labels(results):
        points = [(n, cells[(config, n)].median_wall) for n in sizes(results) if (config, n) in cells]
        xs = [n for n, t in points if t is not None and t > 0]
        ys = [t for n, t in points if t is not None and t > 0]
        timeouts = [n for n in sizes(results) if (config, n) in cells and cells[(config, n)].outcome == RunStatus.TIMED_OUT
                    and cells[(config, n)].ok == 0]
        series.append((config, xs, ys, timeouts))
    if not any(xs for _, xs, _, _ in series):
        return None

    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(8, 5), dpi=110)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    limit = results.settings.timeout
    for config, xs, ys, timeouts in series:
        (line,) = axes.plot(xs, ys, marker="o", markersize=4, label=config)
        if timeouts:
            axes.plot(timeouts, [limit] * len(timeouts), linestyle="none", marker="x", color=line.get_color())
    axes.set_yscale("log")
    axes.set_xlabel("n (board size)")
    axes.set_ylabel("median wall time (s, log scale)")
    axes.set_title(f"nqueens-cp: {results.task.title}" + ("" if results.complete else " (incomplete)"))
    axes.set_xticks(sizes(results))
    axes.grid(True, which="major", alpha=0.4)
    axes.grid(True, which="minor", alpha=0.15)
    if any(t for _, _, _, t in series):
        axes.axhline(limit, color="grey", linestyle=":", linewidth=1)
        axes.annotate(f"timeout ({limit:g} s): x", (0.01, 0.97), xycoords="axes fraction", va="top", fontsize=8)
    axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    figure.tight_layout()
    return figure
