"""``compare --certify``: counts and "no solution" answers certified, or marked as not."""

from __future__ import annotations

import json
from pathlib import Path

from nqueens_cp import Instance
from nqueens_cp.harness.certification import certificate_checks
from nqueens_cp.harness.results import FAIL, NOT_RUN, PASS, RunRecord, RunStatus
from nqueens_cp.harness.runner import RunResult
from nqueens_cp.harness.tasks import AllSolutions, FirstSolution

from .conftest import run_cli


def answered(config: str, instance: Instance, count: int) -> RunResult:
    return RunResult(RunRecord(config, instance.n, 0, RunStatus.ANSWERED, count=count), instance)


def test_a_count_that_differs_from_the_certified_one_fails_by_configuration() -> None:
    six = Instance(6)
    checks = certificate_checks(AllSolutions(), [answered("good", six, 4), answered("bad", six, 3)], 60)
    assert [(c.status, c.config) for c in checks] == [(FAIL, "bad")]
    assert checks[0].summary.startswith("count 3, but certified: 4 solutions, each checked, and no other")


def test_no_solution_certified_and_a_wrong_no_refused() -> None:
    three, four = Instance(3), Instance(4)
    ok = certificate_checks(FirstSolution(), [answered("sat", three, 0)], 60)
    assert [c.status for c in ok] == [PASS] and "no solution: certified: no solution" in ok[0].summary
    wrong = certificate_checks(FirstSolution(), [answered("liar", four, 0)], 60)
    assert [(c.status, c.config) for c in wrong] == [(FAIL, "liar")] and "a solution exists" in wrong[0].summary
    assert certificate_checks(FirstSolution(), [answered("sat", four, 1)], 60) == []  # a board: checked as such


def test_a_certification_that_does_not_finish_is_not_run() -> None:
    checks = certificate_checks(AllSolutions(), [answered("sat", Instance(13), 73712)], 0.05)
    assert [c.status for c in checks] == [NOT_RUN] and "did not finish within 0.05 s" in checks[0].summary


def test_compare_marks_each_answer_certified(tmp_path: Path) -> None:
    out = tmp_path / "cmp"
    result = run_cli("compare", "--n", "3-4", "--backends", "sat,bitboard", "--repeat", "1", "--timeout", "60",
                     "--certify", "--out", str(out), "--format", "github")
    assert result.returncode == 0, result.stderr
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "| certified " in report and "| 3   | 0         | exact      | yes " in report
    checks = json.loads((out / "results.json").read_text(encoding="utf-8"))["checks"]
    assert sorted(c["n"] for c in checks if c["name"] == "certificate" and c["status"] == "pass") == [3, 4]
