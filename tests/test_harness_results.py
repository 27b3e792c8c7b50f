"""The data model: JSON round trip, CSV, renderers, plot and atomic files, on a small real comparison."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.core.errors import ResultsFileError
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import default_configuration_texts, parse_configurations
from nqueens_cp.harness.gallery import solve_gallery
from nqueens_cp.harness.results import CSV_COLUMNS, SCHEMA_VERSION, ComparisonResults
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.reports.files import OutputFiles
from nqueens_cp.reports.plot import runtime_plot_png
from nqueens_cp.reports.render import FORMATS, render
from nqueens_cp.reports.summary import sizes
from nqueens_cp.reports.tables import build_report
from nqueens_cp.reports.times import format_time, format_time_range
from nqueens_cp.system.atomic import atomic_write

from .harness_backends import registered


@pytest.fixture(scope="module")
def results() -> Iterator[ComparisonResults]:
    with registered():
        configurations = parse_configurations(["bitboard", "sat:encoding=pairwise", "test-duplicate", "test-hangs"])
        request = ComparisonRequest(AllSolutions(), configurations, (4, 5), 2, 4.0, 100_000, "bitboard", "cmd")
        yield run_comparison(request)


def test_json_round_trip(results: ComparisonResults) -> None:
    text = results.to_json()
    again = ComparisonResults.from_json(text)
    assert again == results
    assert again.to_json() == text
    data = json.loads(text)
    assert data["schema_version"] == SCHEMA_VERSION
    assert text == json.dumps(data, sort_keys=True, indent=1) + "\n"
    sat = next(r for r in again.runs if r.config == "sat:encoding=pairwise")
    assert sat.model_size is not None and sat.model_size.unit == "clauses"
    assert again.config("sat:encoding=pairwise").resolved == (
        ("encoding", "pairwise"), ("solver", "cadical195"), ("optimiser", "rc2"), ("time_limit", None))


def test_the_results_hold_what_the_issue_asks_for(results: ComparisonResults) -> None:
    assert {r.status for r in results.runs} == {"ok", "timeout", "skipped"}
    env = results.environment
    assert env.python and env.os and env.cpu_model and env.date
    assert dict(env.packages).keys() >= {"ortools", "python-sat", "nqueens-cp"}
    assert results.failures and {c.config for c in results.failures} == {"test-duplicate"}


def test_bad_json_is_refused(results: ComparisonResults) -> None:
    data = results.to_dict()
    for broken in (
        {**data, "schema_version": SCHEMA_VERSION + 1},
        {**data, "runs": "nope"},
        {**data, "runs": [{**data["runs"][0], "n": "8"}]},
        {k: v for k, v in data.items() if k != "settings"},
    ):
        with pytest.raises(ResultsFileError):
            ComparisonResults.from_dict(broken)


def test_csv_has_a_row_per_run(results: ComparisonResults) -> None:
    lines = results.to_csv().splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert len(lines) == 1 + len(results.runs)
    assert any(",timeout," in line for line in lines[1:])


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_renders_every_table(results: ComparisonResults, fmt: str) -> None:
    text = render(build_report(results, plot="runtime.png", files=("report", "results.json")), fmt)
    for title in ("Failures", "Not checked", "Runtime", "Speedup against bitboard", "Validation", "Model size",
                  "CPU time and memory", "Configurations", "Environment", "Reproduce"):
        assert title in text, title
    assert "test-duplicate" in text and "timeout" in text
    assert "RESULT: FAIL" in text


def test_unknown_format_is_refused(results: ComparisonResults) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        render(build_report(results), "docx")


def test_an_incomplete_comparison_says_so(results: ComparisonResults) -> None:
    partial = dataclasses.replace(results, complete=False, interruption="interrupted (Ctrl-C)")
    text = render(build_report(partial), "plain")
    assert text.splitlines()[3].startswith("*** INCOMPLETE: interrupted (Ctrl-C)")


def test_plot(results: ComparisonResults) -> None:
    png = runtime_plot_png(results)
    assert png is not None and png.startswith(b"\x89PNG")
    nothing = dataclasses.replace(results, runs=tuple(r for r in results.runs if r.status != "ok"))
    assert runtime_plot_png(nothing) is None


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "file.txt"
    atomic_write(target, "one")
    atomic_write(target, b"two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["file.txt"]


def test_output_files_write_all(results: ComparisonResults, tmp_path: Path) -> None:
    outputs = OutputFiles.in_directory(tmp_path / "deep" / "dir", "html")
    text = outputs.write_all(results, "html", boards=solve_gallery(sizes(results)))
    assert outputs.report.name == "report.html" and outputs.report.read_text() == text
    assert all(path.exists() for path in outputs.all())
    assert "<img" not in text and "<svg" in text  # the plot inline: the page stands alone
    markdown = OutputFiles.in_directory(tmp_path / "md", "github")
    assert "![" in markdown.write_all(results, "github") and markdown.plot.exists()  # other formats link the PNG


def test_time_formatting() -> None:
    assert format_time(2.5) == "2.5 s"
    assert format_time(0.0123) == "12.3 ms"
    assert format_time(0.0000456) == "45.6 us"
    assert format_time_range(0.5, 0.25, 1.5) == "500 [250-1500] ms"


def test_configurations() -> None:
    config = Configuration.parse("sat:solver=glucose4:encoding=totalizer")
    assert config.label == "sat:solver=glucose4:encoding=totalizer"
    assert dict(config.resolved) == {"encoding": "totalizer", "solver": "glucose4", "optimiser": "rc2", "time_limit": None}
    assert config.create().options["encoding"] == "totalizer"
    texts = default_configuration_texts()
    assert {"backtrack", "bitboard", "cpsat", "sat:encoding=pairwise", "sat:encoding=seqcounter"} <= set(texts)
