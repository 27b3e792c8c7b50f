"""The report's plots, as PNG or inline SVG: the runtime plot (median wall time against n), the
cactus plot (instances solved against time) and the scatter plot (two configurations instance by
instance, log-log).

Every series has its own style, from one table (:data:`COLOURS`, :data:`MARKERS`,
:func:`series_styles`): the i-th configuration of a report gets the i-th colour and the i-th
marker, so up to 20 series differ by both; past 20 the colours come round again, each time with
the markers shifted by one and another line style, so no two series share a colour and a marker
(up to 400). The virtual best is always the black dashed line. A legend beside the plot takes as
many columns as it needs to stay on the figure, and the figure widens by what the columns take.
Times are on a log scale (they span decades). matplotlib is imported only here, only when a plot
is drawn, and through its Agg canvas (no pyplot, no display), so it works headless and leaves no
global state behind.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass
from typing import Any, Sequence

from nqueens_cp.harness.results import ComparisonResults, RunStatus
from nqueens_cp.reports.scores import VIRTUAL_BEST, Scores, compute_scores, ranked
from nqueens_cp.reports.summary import labels, sizes, table_of_cells

#: Twenty colours that stay apart (matplotlib's tab10, then the lighter tab20 shades), in order.
COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#aec7e8", "#ffbb78", "#98df8a", "#ff9896", "#c5b0d5", "#c49c94", "#f7b6d2", "#393b79", "#dbdb8d", "#9edae5",
)
#: Twenty markers, in order (filled shapes first: they read best at small sizes).
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "p", "h", "*", "8", "d", "H", "1", "2", "3", "4", "+")
#: The line styles of the rounds of colours: the first 20 series solid, the next 20 dashed, ...
LINESTYLES = ("-", "--", "-.", ":")
#: The figure size of every plot (inches at :data:`DPI`): readable at the HTML page's width.
SIZE = (9.0, 5.5)
DPI = 110


@dataclass(frozen=True)
class Style:
    """How one series is drawn."""

    colour: str
    marker: str
    linestyle: str = "-"


#: The virtual best: black, dashed, no marker of the configurations'.
VIRTUAL_BEST_STYLE = Style("#000000", "", "--")


def series_styles(names: Sequence[str]) -> dict[str, Style]:
    """A distinct style for each of ``names`` (in order), and :data:`VIRTUAL_BEST_STYLE` for the virtual best:
    the i-th name gets colour i and marker i of each round of 20, the markers shifted by the round, so
    no two of the first 400 names share both a colour and a marker."""
    styles = {name: _style(i) for i, name in enumerate(names)}
    styles[VIRTUAL_BEST] = VIRTUAL_BEST_STYLE
    return styles


def _style(index: int) -> Style:
    round_, place = divmod(index, len(COLOURS))
    return Style(COLOURS[place], MARKERS[(place + round_) % len(MARKERS)], LINESTYLES[round_ % len(LINESTYLES)])


def figure_png(figure: Any) -> bytes | None:
    """A matplotlib figure as PNG bytes (None for None: a plot with nothing to draw)."""
    if figure is None:
        return None
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", metadata={"Software": "nqueens-cp"})
    return buffer.getvalue()


def figure_svg(figure: Any) -> str | None:
    """A matplotlib figure as an ``<svg>`` element to put inline in a page, no XML prolog (None for
    None: a plot with nothing to draw)."""
    if figure is None:
        return None
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg"):]


def _new_figure(size: tuple[float, float] = SIZE) -> tuple[Any, Any]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, dpi=DPI)
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _finish(figure: Any, axes: Any, outside: bool = True) -> Any:
    axes.grid(True, which="major", alpha=0.4)
    axes.grid(True, which="minor", alpha=0.15)
    if not outside:
        axes.legend(fontsize=8, loc="lower right")
        figure.tight_layout()
        return figure
    width, height = figure.get_size_inches()
    entries = len(axes.get_legend_handles_labels()[0])
    column_width = 0.0
    for columns in range(1, max(entries, 1) + 1):
        legend = axes.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), ncols=columns)
        figure.set_size_inches(width + (columns - 1) * column_width, height)
        with warnings.catch_warnings():  # a legend too tall for one column: the next try has more
            warnings.filterwarnings("ignore", "Tight layout not applied", UserWarning)
            figure.tight_layout()
        box = legend.get_window_extent(figure.canvas.get_renderer())
        column_width = column_width or box.width / figure.dpi
        if _inside(box, figure.bbox):
            break
    return figure


def _inside(box: Any, frame: Any, slack: float = 1.0) -> bool:
    """Whether ``box`` lies within ``frame`` (display units, ``slack`` pixels of rounding allowed)."""
    return bool(box.x0 >= frame.x0 - slack and box.y0 >= frame.y0 - slack
                and box.x1 <= frame.x1 + slack and box.y1 <= frame.y1 + slack)


#: Longest task title a plot's title shows in full (a longer one is cut: the report has it whole).
TITLE_CHARS = 60


def _title(results: ComparisonResults, what: str) -> str:
    title = results.task.title
    title = title if len(title) <= TITLE_CHARS else title[: TITLE_CHARS - 3].rstrip() + "..."
    return f"{what}: {title}" + ("" if results.complete else " (incomplete)")


# -- the runtime plot ------------------------------------------------------------------------


def runtime_figure(results: ComparisonResults) -> Any:
    """Median wall time against n per configuration (log scale), timeouts marked x at the limit;
    None when no run answered."""
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
    figure, axes = _new_figure()
    styles = series_styles(labels(results))
    limit = results.settings.timeout
    for config, xs, ys, timeouts in series:
        style = styles[config]
        axes.plot(xs, ys, marker=style.marker, markersize=5, color=style.colour, linestyle=style.linestyle,
                  label=config)
        if timeouts:
            axes.plot(timeouts, [limit] * len(timeouts), linestyle="none", marker="x", color=style.colour)
    axes.set_yscale("log")
    axes.set_xlabel("n (board size)")
    axes.set_ylabel("median wall time (s, log scale)")
    axes.set_title(_title(results, "nqueens-cp"))
    axes.set_xticks(sizes(results))
    if any(t for _, _, _, t in series):
        axes.axhline(limit, color="grey", linestyle=":", linewidth=1)
        axes.annotate(f"timeout ({limit:g} s): x", (0.01, 0.97), xycoords="axes fraction", va="top", fontsize=8)
    return _finish(figure, axes)


def runtime_plot_png(results: ComparisonResults) -> bytes | None:
    """The runtime plot as PNG bytes, or None when no run answered (nothing to draw)."""
    return figure_png(runtime_figure(results))


def runtime_plot_svg(results: ComparisonResults) -> str | None:
    """The runtime plot as inline ``<svg>``, or None (nothing to draw)."""
    return figure_svg(runtime_figure(results))


# -- the cactus plot -------------------------------------------------------------------------


def cactus_figure(results: ComparisonResults, scores: Scores | None = None) -> Any:
    """Instances solved (x) against the time needed to solve that many (y, log scale): for each
    configuration its solved instances' times in increasing order, cumulated by count, and the
    virtual best; None when no instance was solved."""
    scores = scores or compute_scores(results)
    if not scores.virtual_best.solved:
        return None
    figure, axes = _new_figure()
    styles = series_styles(scores.configs)
    for name in [*(s.config for s in ranked(scores)), VIRTUAL_BEST]:
        times = scores.solved_times(name)
        if not times:
            continue
        style = styles[name]
        xs = list(range(1, len(times) + 1))
        axes.plot(xs, [max(t, 1e-6) for t in times], color=style.colour, marker=style.marker or None,
                  markersize=4, linestyle=style.linestyle, linewidth=2 if name == VIRTUAL_BEST else 1.2,
                  label=f"{name} ({len(times)})", markevery=max(1, len(xs) // 12))
    axes.set_yscale("log")
    axes.axhline(scores.timeout, color="grey", linestyle=":", linewidth=1)
    axes.set_xlim(0, len(scores.instances) + 0.5)
    axes.set_xlabel(f"instances solved (of {len(scores.instances)})")
    axes.set_ylabel("wall time per instance (s, log scale)")
    axes.set_title(_title(results, "cactus plot"), fontsize=10)
    return _finish(figure, axes)


# -- the scatter plot ------------------------------------------------------------------------


def default_scatter_pair(results: ComparisonResults, scores: Scores | None = None) -> tuple[str, str] | None:
    """The pair a report draws without ``--scatter``: the baseline (else the first configuration)
    against the best-ranked other one; None with fewer than two configurations."""
    scores = scores or compute_scores(results)
    if len(scores.configs) < 2:
        return None
    first = results.settings.baseline if results.settings.baseline in scores.configs else scores.configs[0]
    other = next(s.config for s in ranked(scores) if s.config != first)
    return first, other


def scatter_figure(results: ComparisonResults, x: str, y: str, scores: Scores | None = None) -> Any:
    """Wall time of ``x`` (horizontal) against ``y`` (vertical) on each instance, log-log; an
    unsolved instance sits on the border (at twice the time limit, past the dotted limit), the
    diagonal is drawn; None when neither solved anything. ``KeyError`` for an unknown label."""
    scores = scores or compute_scores(results)
    for name in (x, y):
        if name not in scores.configs:
            raise KeyError(name)
    limit = scores.timeout
    border = 2 * limit
    points = []
    for key in scores.instances:
        a, b = scores.outcomes[(x, key)], scores.outcomes[(y, key)]
        if not a.solved and not b.solved:
            continue
        points.append((max(a.wall or 0.0, 1e-6) if a.solved else border,
                       max(b.wall or 0.0, 1e-6) if b.solved else border, a.solved and b.solved))
    both_unsolved = len(scores.instances) - len(points)
    if not points:
        return None
    figure, axes = _new_figure((6.5, 6.0))
    low = min(min(p[0], p[1]) for p in points) / 2
    styles = series_styles(scores.configs)
    solved = [p for p in points if p[2]]
    border_points = [p for p in points if not p[2]]
    if solved:
        axes.scatter([p[0] for p in solved], [p[1] for p in solved], s=22, color=styles[x].colour,
                     marker=styles[x].marker, label="solved by both", zorder=3)
    if border_points:
        axes.scatter([p[0] for p in border_points], [p[1] for p in border_points], s=30, color="#d62728", marker="x",
                     label="unsolved by one (on the border)", zorder=3)
    axes.plot([low, border * 1.2], [low, border * 1.2], color="grey", linewidth=1, label="same time")
    for line in (axes.axvline, axes.axhline):
        line(limit, color="grey", linestyle=":", linewidth=1)
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlim(low, border * 1.2)
    axes.set_ylim(low, border * 1.2)
    axes.set_aspect("equal")
    axes.set_xlabel(f"{x}: wall time (s, log scale)")
    axes.set_ylabel(f"{y}: wall time (s, log scale)")
    note = f"; {both_unsolved} solved by neither, not drawn" if both_unsolved else ""
    axes.set_title(f"{x} against {y}, per instance (timeout {limit:g} s{note})", fontsize=10)
    return _finish(figure, axes, outside=False)


# -- the three together ----------------------------------------------------------------------


@dataclass(frozen=True)
class ReportFigures:
    """The figures of one report (None where there is nothing to draw) and the scatter plot's pair."""

    runtime: Any
    cactus: Any
    scatter: Any
    pair: tuple[str, str] | None


def report_figures(results: ComparisonResults, scatter: tuple[str, str] | None = None) -> ReportFigures:
    """The runtime, cactus and scatter figures of ``results``, the scores computed once; ``scatter``:
    the scatter plot's two configurations (default :func:`default_scatter_pair`)."""
    scores = compute_scores(results)
    pair = scatter or default_scatter_pair(results, scores)
    return ReportFigures(runtime_figure(results), cactus_figure(results, scores),
                         scatter_figure(results, *pair, scores) if pair else None, pair)
