"""``report --compare BASE NEW``: ratios, the rank test, verdicts, geometric means, refusals, exit statuses."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import FAIL, Check, ComparisonResults
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.reports.render import FORMATS, render
from nqueens_cp.reports.two_runs import (
    FASTER,
    NOT_SIGNIFICANT,
    SLOWER,
    IncomparableRunsError,
    build_comparison_report,
    compare_runs,
)

from .conftest import run_cli


@pytest.fixture(scope="module")
def base() -> Iterator[ComparisonResults]:
    configurations = parse_configurations(["bitboard", "backtrack"])
    request = ComparisonRequest(AllSolutions(), configurations, (5, 6), 5, 30.0, 100_000, "bitboard", "cmd")
    yield run_comparison(request)


def with_times(results: ComparisonResults, times: dict[tuple[str, int], list[float]]) -> ComparisonResults:
    """``results`` with the wall times of the given (configuration, n) cells replaced, repetition by repetition."""
    runs = []
    for run in results.runs:
        wanted = times.get((run.config, run.n))
        runs.append(dataclasses.replace(run, wall_time=wanted[run.repetition]) if wanted else run)
    return dataclasses.replace(results, runs=tuple(runs))


FIVE = [1.0, 1.1, 0.9, 1.05, 0.95]
ALL_CELLS = [("bitboard", 5), ("bitboard", 6), ("backtrack", 5), ("backtrack", 6)]


def test_same_times_are_not_significant(base: ComparisonResults) -> None:
    same = with_times(base, dict.fromkeys(ALL_CELLS, FIVE))
    comparison = compare_runs(same, same)
    assert {c.verdict for c in comparison.cells} == {NOT_SIGNIFICANT}
    assert all(c.ratio == 1.0 and c.p_value == 1.0 for c in comparison.cells)
    assert dict(comparison.geometric_means) == {"bitboard": 1.0, "backtrack": 1.0}
    assert not comparison.environment_differences and not comparison.validation


def test_slower_and_faster_are_found_and_the_geometric_mean_is_right(base: ComparisonResults) -> None:
    old = with_times(base, dict.fromkeys(ALL_CELLS, FIVE))
    new = with_times(base, {
        ("bitboard", 5): [t * 2 for t in FIVE], ("bitboard", 6): [t * 2 for t in FIVE],
        ("backtrack", 5): [t / 4 for t in FIVE], ("backtrack", 6): [1.02, 0.98, 1.0, 1.2, 0.8],
    })
    comparison = compare_runs(old, new)
    verdicts = {(c.config, c.n): c.verdict for c in comparison.cells}
    assert verdicts == {("bitboard", 5): SLOWER, ("bitboard", 6): SLOWER, ("backtrack", 5): FASTER,
                        ("backtrack", 6): NOT_SIGNIFICANT}
    slow = next(c for c in comparison.cells if c.config == "bitboard" and c.n == 5)
    assert slow.ratio == pytest.approx(2.0) and slow.p_value is not None and slow.p_value < 0.05
    means = dict(comparison.geometric_means)
    assert means["bitboard"] == pytest.approx(2.0)
    assert means["backtrack"] == pytest.approx(math.sqrt(0.25 * 1.0))
    assert {(c.config, c.n) for c in comparison.slower_than(50)} == {("bitboard", 5), ("bitboard", 6)}
    assert comparison.slower_than(150) == ()


def test_three_repetitions_cannot_be_significant_and_the_report_says_so(base: ComparisonResults) -> None:
    three = dataclasses.replace(base, runs=tuple(r for r in base.runs if r.repetition < 3))
    slow = with_times(three, {cell: [10.0, 11.0, 12.0] for cell in ALL_CELLS})
    fast = with_times(three, {cell: [1.0, 1.1, 1.2] for cell in ALL_CELLS})
    comparison = compare_runs(fast, slow)
    assert {c.verdict for c in comparison.cells} == {NOT_SIGNIFICANT}
    assert len(comparison.underpowered) == 4 and comparison.cells[0].min_p_value == pytest.approx(0.1)
    text = render(build_comparison_report(comparison), "github")
    assert "too few repetitions" in text


def test_different_tasks_are_refused(base: ComparisonResults) -> None:
    unique = dataclasses.replace(base, task=AllSolutions(unique=True).info())
    with pytest.raises(IncomparableRunsError, match="different tasks"):
        compare_runs(base, unique)


def test_every_format_renders_with_the_environment_first(base: ComparisonResults) -> None:
    other = dataclasses.replace(base, environment=dataclasses.replace(
        base.environment, python="3.99.0", packages=(("ortools", "0.0.1"),)))
    comparison = compare_runs(base, other)
    assert ("ortools", dict(base.environment.packages)["ortools"], "0.0.1") in comparison.environment_differences
    for fmt in FORMATS:
        text = render(build_comparison_report(comparison), fmt)
        assert "3.99.0" in text and "bitboard" in text and "geometric" in text.lower()
        assert text.index("3.99.0") < text.index("Runtime by configuration")


def write(path: Path, results: ComparisonResults) -> str:
    path.write_text(results.to_json(), encoding="utf-8")
    return str(path)


def test_cli_fail_slower_and_validation(tmp_path: Path, base: ComparisonResults) -> None:
    old = write(tmp_path / "old.json", with_times(base, dict.fromkeys(ALL_CELLS, FIVE)))
    slow_results = with_times(base, {cell: [t * 1.5 for t in FIVE] for cell in ALL_CELLS})
    slow = write(tmp_path / "slow.json", slow_results)

    done = run_cli("report", "--compare", old, slow, "--fail-slower", "20")
    assert done.returncode == 1, done.stderr
    assert "significantly slower by more than 20%" in done.stderr
    assert done.stdout.splitlines()[0].startswith("# nqueens-cp:")
    done = run_cli("report", "--compare", old, slow, "--fail-slower", "60", "--format", "grid")
    assert done.returncode == 0, done.stderr
    assert "+----" in done.stdout  # a grid table

    broken = dataclasses.replace(slow_results, checks=(
        *slow_results.checks, Check("count", FAIL, 5, "bitboard", "count 9, A000170 says 10")))
    bad = write(tmp_path / "bad.json", broken)
    done = run_cli("report", "--compare", old, bad)
    assert done.returncode == 1
    assert f"{bad} did NOT pass validation" in done.stdout and f"{bad} did NOT pass validation" in done.stderr
    assert f"{old} did NOT" not in done.stdout
    assert "checks FAILED in new" in done.stdout


def test_cli_refusals_are_one_line(tmp_path: Path, base: ComparisonResults) -> None:
    old = write(tmp_path / "old.json", base)
    other = write(tmp_path / "unique.json", dataclasses.replace(base, task=AllSolutions(unique=True).info()))
    for args in (
        ("report", "--compare", old, other),
        ("report", "--compare", old, str(tmp_path / "missing.json")),
        ("report", old, "--compare", old, old),
        ("report", old, "--fail-slower", "5"),
        ("report", "--compare", old, old, "--fail-slower", "-1"),
        ("report", "--compare", old, old, "--alpha", "1.5"),
    ):
        done = run_cli(*args)
        assert done.returncode == 2, args
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("nqueens-cp: error:"), done.stderr
        assert done.stdout == ""
