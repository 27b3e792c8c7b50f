"""Runs in worker processes and their cross-validation: broken, hanging and dying backends are caught."""

from __future__ import annotations

import faulthandler
import os
import signal
import sys
import threading
import time
from typing import Callable, Iterator

import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import FAIL, NOT_RUN, PASS, Check, ComparisonResults
from nqueens_cp.harness.runner import Runner, RunRequest, plan, run_plan
from nqueens_cp.harness.tasks import AllSolutions, FirstSolution, Task

from .harness_backends import DroppingBackend, correct, registered


@pytest.fixture(autouse=True)
def broken_backends() -> Iterator[None]:
    with registered():
        yield


def compare(
    backends: str, ns: tuple[int, ...], *, repeat: int = 1, timeout: float = 20.0, store_limit: int = 100_000,
    task: Task | None = None, on_progress: Callable[[int, int, RunRequest], None] | None = None,
) -> ComparisonResults:
    configurations = parse_configurations(backends.split(","))
    request = ComparisonRequest(
        task=task or AllSolutions(), configurations=configurations, ns=ns, repeat=repeat, timeout=timeout,
        store_limit=store_limit, baseline=configurations[0].label, command="test",
    )
    return run_comparison(request, on_progress=on_progress)


def failed(results: ComparisonResults, config: str) -> list[Check]:
    return [c for c in results.failures if c.config == config]


def statuses(results: ComparisonResults, config: str) -> dict[tuple[int, int], str]:
    return {(r.n, r.repetition): r.status for r in results.runs if r.config == config}


def test_correct_backends_pass_every_check() -> None:
    results = compare("backtrack,bitboard", (4, 5, 6, 8), repeat=2)
    assert results.complete and results.passed
    assert not results.not_run
    assert {r.count for r in results.runs if r.n == 8} == {92}
    names = {c.name for c in results.checks}
    assert {"validity", "duplicates", "count", "set", "reference"} <= names
    fingerprints = {r.fingerprint for r in results.runs if r.n == 8}
    assert len(fingerprints) == 1
    assert all(r.wall_time is not None and r.wall_time >= 0 for r in results.runs)
    assert all(r.cpu_time is not None and r.peak_rss_kb for r in results.runs)


def test_a_dropped_solution_is_named() -> None:
    results = compare("bitboard,test-drops", (6, 8))
    dropped = DroppingBackend.dropped(Instance(8))
    bad = failed(results, "test-drops")
    assert {c.name for c in bad} == {"count", "set"}
    set_check = next(c for c in bad if c.name == "set" and c.n == 8)
    assert "1 missing, 0 extra" in set_check.summary
    assert str(dropped) in " ".join(set_check.evidence)
    assert not failed(results, "bitboard")


def test_an_invalid_board_is_named() -> None:
    results = compare("bitboard,test-invalid", (6,))
    bad = {c.name: c for c in failed(results, "test-invalid")}
    assert set(bad) == {"validity", "set"}  # the count is right: only the board is wrong
    assert "(0, 0, 0, 0, 0, 0)" in bad["validity"].evidence[0]
    assert "share column 0" in bad["validity"].evidence[0]
    assert "1 missing, 1 extra" in bad["set"].summary
    assert str(correct(Instance(6))[-1]) in " ".join(bad["set"].evidence)


def test_a_duplicate_is_named() -> None:
    results = compare("bitboard,test-duplicate", (8,))
    bad = {c.name: c for c in failed(results, "test-duplicate")}
    assert set(bad) == {"duplicates", "set"}  # 92 boards, but one twice and one missing
    first, second = correct(Instance(8))[:2]
    assert str(first) in bad["duplicates"].evidence[0]
    assert str(second) in " ".join(bad["set"].evidence)


def test_beyond_the_store_limit_sets_are_compared_by_fingerprint() -> None:
    results = compare("backtrack,bitboard,test-drops,test-duplicate", (8,), store_limit=10)
    assert all(r.truncated for r in results.runs)
    assert next(c for c in results.checks if c.name == "set" and c.config == "backtrack").status == PASS
    for broken in ("test-drops", "test-duplicate"):
        set_check = next(c for c in failed(results, broken) if c.name == "set")
        assert "fingerprint" in set_check.summary
    reference = next(c for c in results.checks if c.name == "reference")
    assert reference.status == PASS and "92:" in reference.summary


def test_a_hanging_run_is_cut_and_larger_sizes_skipped() -> None:
    results = compare("bitboard,test-hangs", (4, 5, 6), repeat=2, timeout=1.5)
    assert statuses(results, "test-hangs") == {
        (4, 0): "timeout", (4, 1): "skipped", (5, 0): "skipped", (5, 1): "skipped", (6, 0): "skipped",
        (6, 1): "skipped",
    }
    assert set(statuses(results, "bitboard").values()) == {"ok"}
    assert results.passed  # a timeout is not a failure ...
    not_run = [c for c in results.not_run if c.config == "test-hangs"]
    assert not_run and all(c.name == "run" for c in not_run)  # ... but it says what was not checked
    # With only one configuration left answering, its sets had nothing to be compared with: said so.
    assert any(c.name == "set" and c.status == NOT_RUN for c in results.checks if c.config == "bitboard")


def test_a_timed_out_run_leaves_no_program_it_started_running(
    tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nqueens_cp.system.processes import is_alive

    pid_file = tmp_path / "pid"  # type: ignore[operator]
    monkeypatch.setenv("NQUEENS_TEST_PID_FILE", str(pid_file))
    results = compare("bitboard,test-hangs-in-program", (4,), timeout=1.5)
    assert statuses(results, "test-hangs-in-program") == {(4, 0): "timeout"}
    program = int(pid_file.read_text())
    for _ in range(50):  # killed at once; allow init a moment to reap it
        if not is_alive(program):
            break
        time.sleep(0.1)
    assert not is_alive(program), "the program the worker started outlived the timeout"


@pytest.mark.parametrize(
    ("backend", "reason"),
    [
        ("test-exits", "exited with status 3"),
        ("test-crashes", "killed by SIGSEGV"),
        ("test-raises", "RuntimeError: deliberate failure after 3 solutions"),
    ],
)
def test_a_dying_run_is_an_error_and_the_rest_goes_on(backend: str, reason: str) -> None:
    was_enabled = faulthandler.is_enabled()
    faulthandler.disable()  # pytest's fault handler would print the (expected) crash of the worker
    try:
        results = compare(f"bitboard,{backend},backtrack", (5, 6))
    finally:
        if was_enabled:
            faulthandler.enable(file=sys.__stderr__)
    errors = [r for r in results.runs if r.config == backend]
    assert [r.status for r in errors] == ["error", "error"]
    assert all(reason in r.reason for r in errors)
    assert all(r.status == "ok" for r in results.runs if r.config != backend)
    assert {c.name for c in failed(results, backend)} == {"run"}
    assert not failed(results, "bitboard") and not failed(results, "backtrack")


def test_the_runner_alone() -> None:
    config = parse_configurations(["bitboard"])[0]
    runner = Runner(AllSolutions(), timeout=20, store_limit=5)
    result = runner.run(RunRequest(config, Instance(6), 0))
    assert result.record.status == "ok" and result.record.count == 4 and not result.record.truncated
    result = runner.run(RunRequest(config, Instance(8), 0))
    assert result.record.count == 92 and result.record.truncated and len(result.solutions) == 5


def test_the_plan_interleaves_configurations() -> None:
    configs = parse_configurations(["bitboard", "backtrack"])
    order = [(r.instance.n, r.repetition, r.config.label) for r in plan(AllSolutions(), configs, (5, 4), 2)]
    assert order[:4] == [(4, 0, "bitboard"), (4, 0, "backtrack"), (4, 1, "bitboard"), (4, 1, "backtrack")]
    assert len(order) == 8


def test_run_plan_reports_progress() -> None:
    configs = parse_configurations(["bitboard"])
    seen: list[int] = []
    runner = Runner(AllSolutions(), timeout=20, store_limit=100)
    list(run_plan(runner, plan(runner.task, configs, (4, 5), 1), on_start=lambda i, r: seen.append(i)))
    assert seen == [0, 1]


def test_first_solution_task() -> None:
    results = compare("backtrack,bitboard,test-silent", (4, 8), task=FirstSolution())
    assert {r.count for r in results.runs if r.config != "test-silent"} == {1}
    bad = {(c.name, c.n) for c in failed(results, "test-silent")}
    assert bad == {("count", 4), ("count", 8), ("answer", 4), ("answer", 8)}
    assert results.task.name == "first" and not results.task.exhaustive


def test_unique_task_counts_fundamental_solutions() -> None:
    results = compare("backtrack,bitboard", (8,), task=AllSolutions(unique=True))
    assert results.passed
    assert {r.count for r in results.runs} == {12}
    assert results.task.expected_label == "A002562"


class SignalWhenHanging:
    """Sends ``signum`` to this process shortly after the hanging backend's run started."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        self.timer: threading.Timer | None = None

    def __call__(self, index: int, total: int, request: RunRequest) -> None:
        if request.config.label == "test-hangs" and self.timer is None:
            self.timer = threading.Timer(0.5, os.kill, (os.getpid(), self.signum))
            self.timer.start()

    def __enter__(self) -> SignalWhenHanging:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.timer is not None:
            self.timer.join()


def test_ctrl_c_returns_what_was_done_marked_incomplete() -> None:
    # An in-process CP-SAT solve leaves SIGINT at the C default (no KeyboardInterrupt, the process
    # just dies): the comparison must re-arm Python's handler, or this test would kill pytest.
    assert create_backend("cpsat").count(Instance(5)) == 10
    with SignalWhenHanging(signal.SIGINT) as interrupt:
        results = compare("bitboard,test-hangs", (4, 5, 6), timeout=30, on_progress=interrupt)
    assert not results.complete
    assert "Ctrl-C" in results.interruption
    assert [(r.config, r.n) for r in results.runs] == [("bitboard", 4)]
    note = [c for c in results.checks if c.status == NOT_RUN and c.config is None]
    assert note and "5 of 6 planned runs were not made" in note[0].summary


def test_sigterm_also_stops_the_comparison() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with SignalWhenHanging(signal.SIGTERM) as terminate:
        results = compare("bitboard,test-hangs", (4,), timeout=30, on_progress=terminate)
    assert not results.complete and "SIGTERM" in results.interruption
    assert signal.getsignal(signal.SIGTERM) == before  # the handler is only there while runs are made


def test_check_statuses_are_known() -> None:
    results = compare("bitboard,test-drops", (5,))
    assert {c.status for c in results.checks} <= {PASS, FAIL, NOT_RUN}
