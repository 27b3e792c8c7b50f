"""``compare --problem P``: the family's problems in the harness, each run checked and cross-checked.

Three planted backends stand for what the checks are there to catch: one claims a proof it does
not have (a dominating set of n queens, "proved optimal"), one stops before proving and says so
(the best found, with a true bound), one stops with a bound another configuration's witness beats.
They are module-level classes, so forked workers see them.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import ClassVar, Iterator

import pytest

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.cli import EXIT_STOPPED, main
from nqueens_cp.cli.compare import PROBLEM_CHOICES, SOLVER_SHARE_PERCENT
from nqueens_cp.core.family_oeis import A051906, A075458
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem, Square
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import default_family_texts, parse_configurations
from nqueens_cp.harness.family_tasks import SOLVER_TIME_SHARE, FamilyTask
from nqueens_cp.harness.results import FAIL, PASS, ComparisonResults, RunStatus
from nqueens_cp.harness.task_registry import make_task
from nqueens_cp.reports.scores import compute_scores

from .conftest import require_backend
from .harness_backends import registered


def first_row(n: int) -> frozenset[Square]:
    """n queens on row 0: every square shares a column with one of them (a dominating set, not a
    minimum one for n >= 3)."""
    return frozenset((0, c) for c in range(n))


class _Planted(Backend):
    family: ClassVar[frozenset[Problem]] = frozenset({Problem.DOMINATION})

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return iter(())


class FalseProofBackend(_Planted):
    """Claims its valid but non-minimal dominating set (row 0 full) is a proved optimum."""

    name = "test-false-proof"
    summary = "claims a proof it does not have"

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        return FamilyAnswer(problem, n, first_row(n), n, True)


class StoppedBackend(_Planted):
    """Stops before a proof: the best found (row 0 full) and the true bound 1, not proved."""

    name = "test-stopped"
    summary = "stops before it proves"

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        return FamilyAnswer(problem, n, first_row(n), n, False, 1)


class FalseBoundBackend(_Planted):
    """Stops before a proof, claiming the bound n (nothing below n queens): false for n >= 4."""

    name = "test-false-bound"
    summary = "claims a bound it did not prove"

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        return FamilyAnswer(problem, n, first_row(n), n, False, n)


PLANTED = (FalseProofBackend, StoppedBackend, FalseBoundBackend)


@pytest.fixture(autouse=True)
def planted() -> Iterator[None]:
    with registered(*PLANTED):
        yield


def compare(backends: str, problem: str, question: str, ns: tuple[int, ...], timeout: float = 30) -> ComparisonResults:
    configurations = parse_configurations(backends.split(","))
    request = ComparisonRequest(task=make_task("family", problem=problem, question=question),
                                configurations=configurations, ns=ns, repeat=1, timeout=timeout, store_limit=10,
                                baseline=configurations[0].label, command="test")
    return run_comparison(request)


def statuses(results: ComparisonResults, name: str, config: str | None = None) -> set[str]:
    return {str(c.status) for c in results.checks if c.name == name and (config is None or c.config == config)}


def test_the_cli_names_every_problem_of_the_family_and_the_share() -> None:
    assert tuple(p.value for p in Problem if p is not Problem.QUEENS) == PROBLEM_CHOICES
    assert round(100 * SOLVER_TIME_SHARE) == SOLVER_SHARE_PERCENT


def test_honest_optima_pass_and_agree_with_oeis() -> None:
    require_backend("mip")
    require_backend("cpsat")
    results = compare("cpsat,mip", "domination", "optimum", (1, 4, 5))
    assert results.outcome == "PASS", results.failures
    for run in results.runs:
        assert run.status == RunStatus.ANSWERED and run.proved and run.value == A075458[run.n], run
    assert statuses(results, "agreement") == {PASS}
    assert statuses(results, "optimum") == {PASS}
    assert statuses(results, "contradiction") == {PASS}
    assert statuses(results, "validity") == {PASS}
    cpsat = [run for run in results.runs if run.config == "cpsat"]
    assert all(run.best_at is not None and run.best_at <= (run.wall_time or 0) for run in cpsat)  # its callback's clock
    assert ComparisonResults.from_json(results.to_json()) == results


def test_a_false_proof_fails_compare(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    require_backend("mip")
    out = tmp_path / "report"
    status = main(["compare", "--problem", "domination", "--n", "4-5", "--backends", "mip,test-false-proof",
                   "--repeat", "1", "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    assert "check(s) failed" in captured.err
    data = ComparisonResults.from_json((out / "results.json").read_text())
    failed = {(c.name, c.config) for c in data.failures}
    assert {("contradiction", "test-false-proof"), ("optimum", "test-false-proof"), ("agreement", None)} <= failed
    assert not any(config == "mip" for _, config in failed)
    assert "FAIL for n = 4..5" in data.verdict_line()
    report = (out / "report.md").read_text()
    assert "## Optima" in report and "| 2 proved; proof" in report and "| 4 proved; proof" in report
    assert compute_scores(data).score("test-false-proof").unsolved_by("wrong") == 2


def test_a_bound_beaten_by_another_witness_is_a_contradiction() -> None:
    require_backend("mip")
    results = compare("mip,test-false-bound", "domination", "optimum", (5,))
    stopped = next(run for run in results.runs if run.config == "test-false-bound")
    assert stopped.status == RunStatus.TIMED_OUT and (stopped.value, stopped.bound, stopped.proved) == (5, 5, False)
    assert statuses(results, "contradiction", "test-false-bound") == {FAIL}
    assert statuses(results, "contradiction", "mip") == {PASS}


def test_runs_that_never_proved_give_no_pass(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    status = main(["compare", "--problem", "domination", "--n", "4", "--backends", "test-stopped", "--repeat", "1",
                   "--out", str(out)])
    captured = capsys.readouterr()
    assert status == EXIT_STOPPED, captured.err
    data = ComparisonResults.from_json((out / "results.json").read_text())
    assert data.outcome == "NO ANSWER"
    run = data.runs[0]
    assert (run.status, run.value, run.bound, run.proved) == (RunStatus.TIMED_OUT, 4, 1, False)
    assert "best 4, bound 1, not proved (1/1)" in (out / "report.md").read_text()
    assert compute_scores(data).score("test-stopped").solved == 0
    rows = list(csv.DictReader((out / "results.csv").read_text().splitlines()))
    assert (rows[0]["value"], rows[0]["bound"], rows[0]["proved"]) == ("4", "1", "0")


def test_placement_counts_agree_with_each_other_and_oeis() -> None:
    require_backend("cpsat")
    results = compare("bitboard,cpsat", "toroidal", "count", (1, 4, 5, 7))
    assert results.outcome == "PASS", results.failures
    assert {run.n: run.count for run in results.runs} == {n: A051906[n] for n in (1, 4, 5, 7)}
    assert statuses(results, "agreement") == {PASS}
    assert statuses(results, "count") == {PASS}


def test_first_placements_are_checked_and_compared_with_oeis() -> None:
    require_backend("cpsat")
    results = compare("bitboard,cpsat", "superqueens", "first", (9, 10))
    assert results.outcome == "PASS", results.failures
    found = {(run.n, run.count) for run in results.runs}
    assert found == {(9, 0), (10, 1)}  # A051223: none below 10
    assert statuses(results, "validity") == {PASS} and statuses(results, "answer") == {PASS}


def test_the_default_configurations_are_those_that_declare_the_problem() -> None:
    task = make_task("family", problem="domination", question="optimum")
    assert isinstance(task, FamilyTask)
    texts = default_family_texts(task)
    assert "bitboard" not in texts and "test-false-proof" in texts
    counting = default_family_texts(make_task("family", problem="toroidal", question="count"))
    assert "bitboard" in counting and "test-false-proof" not in counting


@pytest.mark.parametrize(("argv", "fragment"), [
    (["--problem", "domination", "--task", "count"], "asks for an optimum: leave out --task"),
    (["--problem", "toroidal", "--task", "complete"], "--task first, count or all"),
    (["--problem", "toroidal", "--task", "all", "--backends", "mip"], "does not enumerate placements of problem toroidal"),
    (["--problem", "domination", "--backends", "bitboard"], "does not take problem domination"),
    (["--problem", "toroidal", "--backends", "mip"], "does not count placements of problem toroidal"),
    (["--problem", "peaceable", "--unique"], "--unique is for the classic problem"),
    (["--problem", "colouring", "--n", "0-3"], "sizes >= 1"),
])
def test_bad_family_options_are_one_line(argv: list[str], fragment: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["compare", *argv, "--out", str(tmp_path / "x")])
    captured = capsys.readouterr()
    assert status == 2, captured.err
    assert captured.err.count("\n") == 1 and fragment in captured.err and "Traceback" not in captured.err


def test_the_solver_is_given_its_share_of_the_timeout(tmp_path: Path) -> None:
    require_backend("mip")
    out = tmp_path / "report"
    assert main(["compare", "--problem", "independent-domination", "--n", "4", "--backends", "mip", "--repeat", "1",
                 "--timeout", "10", "--out", str(out)]) == 0
    data = json.loads((out / "results.json").read_text())
    assert dict(map(tuple, data["task"]["parameters"]))["solver_time_share"] == SOLVER_TIME_SHARE
    assert "--problem independent-domination" in data["settings"]["command"]
