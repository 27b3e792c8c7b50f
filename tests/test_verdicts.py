"""A verdict says only what was checked: ``compare`` gives it per board size, and a size that no
configuration answered is NO ANSWER (its own exit status), never a PASS."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.cli import EXIT_STOPPED, main
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import SIZE_FAIL, SIZE_NO_ANSWER, SIZE_PASS, ComparisonResults, size_ranges
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.reports.live import size_line

from .harness_backends import registered


@pytest.fixture(autouse=True)
def broken_backends() -> Iterator[None]:
    with registered():
        yield


def compare(backends: str, ns: tuple[int, ...], timeout: float = 1.5) -> ComparisonResults:
    request = ComparisonRequest(AllSolutions(), parse_configurations(backends.split(",")), ns, 1, timeout,
                                100_000, None, "cmd")
    return run_comparison(request)


def test_size_ranges() -> None:
    assert size_ranges([4, 5, 6, 8, 10, 11]) == "4..6, 8, 10..11"
    assert size_ranges([14]) == "14"


def test_a_size_no_configuration_answered_is_no_answer_not_pass() -> None:
    # the readable row search answers n = 4 and 5 at once, is killed at 14, and skipped at 15
    results = compare("backtrack", (4, 5, 14, 15), timeout=1.0)
    assert [(v.n, v.verdict) for v in results.size_verdicts()] == [
        (4, SIZE_PASS), (5, SIZE_PASS), (14, SIZE_NO_ANSWER), (15, SIZE_NO_ANSWER)]
    assert results.size_verdict(14).reason == "every configuration timed out"
    assert results.outcome == SIZE_NO_ANSWER
    assert results.verdict_line() == (
        "NO ANSWER for n = 14: every configuration timed out; "
        "NO ANSWER for n = 15: every configuration was skipped; PASS for n = 4..5")
    assert "; NO ANSWER: every configuration timed out" in size_line(results, 14)
    assert "PASS" not in size_line(results, 14)


def test_a_size_one_configuration_answered_passes_and_a_failure_comes_first() -> None:
    results = compare("backtrack,test-hangs,test-drops", (2, 5), timeout=4.0)  # n = 2: no solution, no drop
    assert {r.config: r.status for r in results.runs if r.n == 5}["test-hangs"] != "ok"
    assert [(v.n, v.verdict) for v in results.size_verdicts()] == [(2, SIZE_PASS), (5, SIZE_FAIL)]
    assert results.outcome == SIZE_FAIL
    assert results.verdict_line() == "FAIL for n = 5; PASS for n = 2"


def test_compare_says_no_answer_and_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["compare", "--n", "4,14", "--backends", "backtrack", "--timeout", "1", "--repeat", "1",
                   "--out", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert status == EXIT_STOPPED == 3
    assert "RESULT: NO ANSWER for n = 14: every configuration timed out; PASS for n = 4 - " in captured.out
    assert "RESULT: PASS" not in captured.out
    assert "n=14: no answer (A000170 365596), 1 runs; NO ANSWER: every configuration timed out" in captured.err
    # the saved comparison says the same when it is re-rendered
    assert main(["report", str(tmp_path / "out" / "results.json")]) == EXIT_STOPPED
    assert "RESULT: NO ANSWER for n = 14" in capsys.readouterr().out


def test_the_exit_statuses_are_in_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("compare", "report"):
        assert main([command, "--help"]) == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "Exit status: 0:" in text and "3: nothing" in text and "no answer" in text


def test_a_backend_stopped_at_its_own_time_limit_is_a_timeout_not_a_failure() -> None:
    results = compare("cpsat:time_limit=0", (10,), timeout=60.0)
    (run,) = results.runs
    assert run.status == "timeout" and run.reason.startswith("stopped at its bound: cpsat reached its time limit")
    assert not results.failures and results.outcome == SIZE_NO_ANSWER
