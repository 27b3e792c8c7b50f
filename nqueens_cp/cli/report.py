"""``nqueens-cp report``: re-render a saved comparison (results.json), or compare two of them.

``report RESULTS.json`` renders one saved comparison; ``report --merge A.json B.json ...`` joins
several into one report (``nqueens_cp.harness.merge``); ``report --compare BASE.json NEW.json``
says per configuration and board size whether NEW is faster, slower or not significantly
different (``nqueens_cp.reports.two_runs``).

Exit status: see :data:`EXIT_STATUSES`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from nqueens_cp.cli import EXIT_STOPPED

#: What each exit status of ``report`` means (in its help, and so in the CLI reference).
EXIT_STATUSES = (
    "0: the saved comparison passed (with --compare: nothing significantly slower than --fail-slower); "
    "1: the saved comparison recorded a failed check, as compare did (with --compare: a difference in "
    "validation, or something significantly slower by more than --fail-slower PCT per cent); "
    "2: a file cannot be read or the two runs are not comparable (different tasks); "
    f"{EXIT_STOPPED}: nothing failed, but some board size of the saved comparison got no answer (as compare did)"
)


def add_parser(subparsers: Any) -> None:
    from nqueens_cp.cli.common import number
    from nqueens_cp.reports.render import FORMATS

    parser = subparsers.add_parser(
        "report",
        help="re-render a saved comparison (results.json) in any format, merge several, or compare two",
        description="Render the report of a saved comparison to stdout, without running anything; with "
        "--merge A.json B.json ..., one report of several; with "
        "--compare BASE.json NEW.json, say per configuration and n whether NEW is faster or slower than BASE.",
        epilog=f"Exit status: {EXIT_STATUSES}.",
    )
    parser.add_argument("results", nargs="?", metavar="RESULTS.json", help="results.json written by nqueens-cp compare")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS.json",
                        help="join several saved comparisons of one task and timeout (other days, other machines) "
                        "into one report; each run keeps its file's environment")
    parser.add_argument("--scatter", nargs=2, metavar=("A", "B"),
                        help="the two configurations of the scatter plot (default: the baseline and the "
                        "configuration that solved the most)")
    parser.add_argument("--plots", metavar="DIR",
                        help="write runtime.png, cactus.png and scatter.png to DIR and show them in the report "
                        "(html shows them inline without it)")
    parser.add_argument("--compare", nargs=2, metavar=("BASE.json", "NEW.json"),
                        help="compare two saved comparisons: ratio of medians, Mann-Whitney U test, geometric means")
    parser.add_argument("--fail-slower", type=number("--fail-slower"), metavar="PCT",
                        help="with --compare: exit status 1 when a configuration is significantly slower by more "
                        "than PCT per cent at some n")
    parser.add_argument("--alpha", type=number("--alpha"), default=None,
                        help="with --compare: significance level of the test (default 0.05)")
    parser.add_argument("--format", choices=FORMATS, default="github", help="report format (default github)")
    parser.add_argument("--plot", metavar="PNG", help="also draw the runtime plot to this file")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --plot or --plots file")
    parser.set_defaults(run=run)


def load_results(name: str) -> Any:
    """The ``ComparisonResults`` saved in file ``name``; ``ResultsFileError`` naming the file otherwise."""
    from nqueens_cp.core.errors import ResultsFileError
    from nqueens_cp.harness.results import ComparisonResults

    path = Path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ResultsFileError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ResultsFileError(f"{path} is not a text file") from None
    try:
        return ComparisonResults.from_json(text)
    except ResultsFileError as error:
        raise ResultsFileError(f"{path}: {error}") from None


def run(args: argparse.Namespace) -> int:
    from nqueens_cp.cli import UsageError

    if sum(x is not None for x in (args.results, args.compare, args.merge)) != 1:
        raise UsageError("give one of RESULTS.json, --merge A.json B.json ... or --compare BASE.json NEW.json")
    if args.merge is not None and len(args.merge) < 2:
        raise UsageError("--merge needs at least two results files")
    if args.compare is None and args.fail_slower is not None:
        raise UsageError("--fail-slower applies to --compare only")
    if args.alpha is None:
        from nqueens_cp.reports.two_runs import DEFAULT_ALPHA

        args.alpha = DEFAULT_ALPHA
    if not args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, got {args.alpha:g}")
    if args.compare is not None:
        if args.plot is not None or args.plots is not None or args.scatter is not None:
            raise UsageError("--plot, --plots and --scatter do not apply to --compare")
        return _run_compare(args)
    return _run_single(args)


def _run_single(args: argparse.Namespace) -> int:
    from nqueens_cp.cli import UsageError
    from nqueens_cp.core.errors import OutputExistsError
    from nqueens_cp.reports.render import render
    from nqueens_cp.reports.tables import build_report
    from nqueens_cp.system.atomic import atomic_write

    if args.merge is not None:
        from nqueens_cp.harness.merge import merge_results

        results = merge_results([(name, load_results(name)) for name in args.merge])
    else:
        results = load_results(args.results)
    scatter: tuple[str, str] | None = None
    if args.scatter is not None:
        known = [c.label for c in results.configurations]
        for label in args.scatter:
            if label not in known:
                raise UsageError(f"--scatter {label!r} is not one of the configurations ({', '.join(known)})")
        scatter = (args.scatter[0], args.scatter[1])
    plot = None
    if args.plot is not None:
        from nqueens_cp.reports.plot import runtime_plot_png

        target = Path(args.plot)
        if target.exists() and not args.force:
            raise OutputExistsError(f"{target} exists already (use --force to overwrite)")
        png = runtime_plot_png(results)
        if png is not None:
            atomic_write(target, png)
            plot = str(target)
    shown: dict[str, str | None] = {"runtime": plot, "cactus": None, "scatter": None}
    if args.plots is not None and args.format != "html":
        shown.update(_write_plots(Path(args.plots), results, scatter, force=args.force))
    if args.format == "html":
        from nqueens_cp.harness.gallery import solve_gallery
        from nqueens_cp.reports.html_page import build_html_report
        from nqueens_cp.reports.summary import sizes

        sys.stdout.write(build_html_report(results, solve_gallery(sizes(results)), scatter=scatter))
    else:
        sys.stdout.write(render(build_report(results, plot=shown["runtime"], cactus=shown["cactus"],
                                             scatter=shown["scatter"]), args.format))
    from nqueens_cp.harness.results import SIZE_NO_ANSWER

    if results.failures:
        return 1
    return EXIT_STOPPED if results.outcome == SIZE_NO_ANSWER else 0


def _write_plots(directory: Path, results: Any, scatter: tuple[str, str] | None, *, force: bool) -> dict[str, str]:
    """runtime.png, cactus.png and scatter.png (those with something to draw) in ``directory``: name -> path."""
    from nqueens_cp.core.errors import OutputError, OutputExistsError
    from nqueens_cp.reports.plot import figure_png, report_figures
    from nqueens_cp.system.atomic import atomic_write_all

    drawn = report_figures(results, scatter)
    pngs = {name: png for name, figure in (("runtime", drawn.runtime), ("cactus", drawn.cactus),
                                           ("scatter", drawn.scatter)) if (png := figure_png(figure)) is not None}
    paths = {name: directory / f"{name}.png" for name in pngs}
    existing = [path for path in paths.values() if path.exists()]
    if existing and not force:
        raise OutputExistsError(f"{existing[0]} exists already (use --force to overwrite)")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write_all({path: pngs[name] for name, path in paths.items()})
    except OSError as error:
        raise OutputError(f"cannot write the plots to {directory}: {error.strerror or error}") from None
    return {name: str(path) for name, path in paths.items()}


def _run_compare(args: argparse.Namespace) -> int:
    from nqueens_cp.reports.render import render
    from nqueens_cp.reports.two_runs import build_comparison_report, compare_runs

    base_name, new_name = args.compare
    base, new = load_results(base_name), load_results(new_name)
    comparison = compare_runs(base, new, base_name=base_name, new_name=new_name, alpha=args.alpha)
    sys.stdout.write(render(build_comparison_report(comparison, fail_slower=args.fail_slower), args.format))
    for line in comparison.validation:
        sys.stderr.write(f"nqueens-cp: {line}\n")
    power = comparison.power_note()
    if power is not None:  # said whether or not --fail-slower is given: no verdict can be significant
        sys.stderr.write(f"nqueens-cp: warning: {power}\n")
    if args.fail_slower is not None:
        regressions = comparison.slower_than(args.fail_slower)
        if regressions:
            worst = max(regressions, key=lambda c: c.ratio or 0.0)
            sys.stderr.write(
                f"nqueens-cp: {len(regressions)} significantly slower by more than {args.fail_slower:g}% "
                f"(worst: {worst.config} at n={worst.n}, {worst.ratio:.2f}x)\n"
            )
            return 1
    return 1 if comparison.validation else 0
