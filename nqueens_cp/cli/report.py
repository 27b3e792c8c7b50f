"""``nqueens-cp report``: re-render a saved comparison (results.json) without running anything.

Exit status: 0, or 1 when the saved comparison recorded failures (as ``compare`` did), 2 when
the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_parser(subparsers: Any) -> None:
    from ..reports.render import FORMATS

    parser = subparsers.add_parser(
        "report",
        help="re-render a saved comparison (results.json) in any format",
        description="Render the report of a saved comparison to stdout, without running anything.",
    )
    parser.add_argument("results", metavar="RESULTS.json", help="results.json written by nqueens-cp compare")
    parser.add_argument("--format", choices=FORMATS, default="github", help="report format (default github)")
    parser.add_argument("--plot", metavar="PNG", help="also draw the runtime plot to this file")
    parser.add_argument("--force", action="store_true", help="overwrite an existing --plot file")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..atomic import atomic_write
    from ..errors import OutputExistsError, ResultsFileError
    from ..harness.results import ComparisonResults
    from ..reports.render import render
    from ..reports.tables import build_report

    path = Path(args.results)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ResultsFileError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise ResultsFileError(f"{path} is not a text file") from None
    try:
        results = ComparisonResults.from_json(text)
    except ResultsFileError as error:
        raise ResultsFileError(f"{path}: {error}") from None
    plot = None
    if args.plot is not None:
        from ..reports.plot import runtime_plot_png

        target = Path(args.plot)
        if target.exists() and not args.force:
            raise OutputExistsError(f"{target} exists already (use --force to overwrite)")
        png = runtime_plot_png(results)
        if png is not None:
            atomic_write(target, png)
            plot = str(target)
    sys.stdout.write(render(build_report(results, plot=plot), args.format))
    return 1 if results.failures else 0
