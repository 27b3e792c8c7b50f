"""The files a comparison writes, atomically as a set: every file is staged in full before any is
renamed into place, so a full disk or a read-only directory leaves the previous set intact."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from nqueens_cp.core.errors import OutputError, OutputExistsError
from nqueens_cp.harness.gallery import Gallery
from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.reports.render import EXTENSIONS, render
from nqueens_cp.reports.tables import build_report
from nqueens_cp.system.atomic import atomic_write_all


@dataclass(frozen=True)
class OutputFiles:
    """Where a comparison's outputs go: the report, the raw results as JSON and CSV, and the plots."""

    directory: Path
    report: Path
    json: Path
    csv: Path
    plot: Path
    cactus: Path
    scatter: Path

    @classmethod
    def in_directory(cls, directory: str | Path, fmt: str) -> OutputFiles:
        """The standard names in ``directory``: report.<ext>, results.json, results.csv, runtime.png,
        cactus.png, scatter.png."""
        base = Path(directory)
        return cls(base, base / f"report.{EXTENSIONS[fmt]}", base / "results.json", base / "results.csv",
                   base / "runtime.png", base / "cactus.png", base / "scatter.png")

    def all(self) -> tuple[Path, ...]:
        """Every output path."""
        return (self.report, self.json, self.csv, self.plot, self.cactus, self.scatter)

    def earlier(self) -> tuple[Path, ...]:
        """The files of an earlier comparison in the directory, of any report format: those of its
        outputs that are not empty (an empty file is a shell redirect's, not a report)."""
        reports = [self.directory / f"report.{ext}" for ext in dict.fromkeys(EXTENSIONS.values())]
        candidates = dict.fromkeys([self.report, *reports, self.json, self.csv, self.plot])
        return tuple(path for path in candidates if path.is_file() and path.stat().st_size > 0)

    def refuse_to_overwrite(self) -> None:
        """``OutputExistsError`` if the directory holds an earlier comparison (:meth:`earlier`)."""
        existing = self.earlier()
        if existing:
            raise OutputExistsError(f"{existing[0]} exists already (use --force to replace the earlier "
                                    "comparison whole, or another --out)")

    def remove_earlier(self, earlier: tuple[Path, ...]) -> None:
        """Remove the files of ``earlier`` (:meth:`earlier` before this run) that this run did not
        write: a report of another format must not sit beside the new one."""
        for path in earlier:
            if path not in self.all():
                path.unlink(missing_ok=True)

    def prepare(self) -> None:
        """Create the directory (before anything runs, so a bad ``--out`` fails early)."""
        if self.directory.exists() and not self.directory.is_dir():
            raise OutputError(f"--out {self.directory} is not a directory")
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise OutputError(f"cannot create {self.directory}: {error.strerror or error}") from None

    def write_data(self, results: ComparisonResults) -> None:
        """The raw results (JSON and CSV): used for checkpoints while the comparison runs."""
        self.directory.mkdir(parents=True, exist_ok=True)
        atomic_write_all({self.json: results.to_json(), self.csv: results.to_csv()})

    def render(
        self, results: ComparisonResults, fmt: str, boards: Gallery | None = None,
        scatter: tuple[str, str] | None = None,
    ) -> tuple[str, dict[Path, bytes]]:
        """The report as text in ``fmt`` and the plots to write beside it (runtime, cactus, scatter:
        those with something to draw); ``boards``: the gallery of the HTML page (needed for
        ``html``); ``scatter``: the two configurations of the scatter plot (default
        :func:`~.plot.default_scatter_pair`)."""
        from nqueens_cp.reports.plot import figure_png, report_figures

        drawn = report_figures(results, scatter)
        figures = {self.plot: drawn.runtime, self.cactus: drawn.cactus, self.scatter: drawn.scatter}
        pngs = {path: png for path, figure in figures.items() if (png := figure_png(figure)) is not None}
        names = [self.report.name, self.json.name, self.csv.name] + [path.name for path in pngs]
        if fmt == "html":  # one self-contained page: the plots inline, the gallery of boards
            from nqueens_cp.reports.html_page import build_html_report

            if boards is None:
                raise ValueError("an HTML report needs the gallery's boards (harness.gallery.solve_gallery)")
            text = build_html_report(results, boards, files=names, figures=drawn)
        else:
            shown = {path: path.name if path in pngs else None for path in figures}
            text = render(build_report(results, plot=shown[self.plot], cactus=shown[self.cactus],
                                       scatter=shown[self.scatter], files=names), fmt)
        return text, pngs

    def write_all(
        self, results: ComparisonResults, fmt: str, rendered: tuple[str, dict[Path, bytes]] | None = None,
        boards: Gallery | None = None,
    ) -> str:
        """Every output, as one atomic set (see the module docstring); returns the rendered report.

        ``rendered`` is :meth:`render`'s result when the caller has it already, else ``boards``
        is handed to it.
        """
        text, pngs = rendered if rendered is not None else self.render(results, fmt, boards)
        self.directory.mkdir(parents=True, exist_ok=True)
        files: dict[str | os.PathLike[str], str | bytes] = {self.json: results.to_json(), self.csv: results.to_csv()}
        for path, png in pngs.items():
            files[path] = png
        files[self.report] = text
        atomic_write_all(files)
        for plot in (self.plot, self.cactus, self.scatter):
            if plot not in pngs and plot.exists():
                plot.unlink()  # a stale plot of an earlier run must not sit next to this report
        return text
