"""A solver that crashes its process (a real SIGSEGV) in a worker of ``compare`` or of a split
run: recorded, the rest goes on, and the summary names it. And Ctrl-C during any command: the
partial results are kept and no child process is left behind."""

from __future__ import annotations

import concurrent.futures
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import pytest

from nqueens_cp import A000170, Instance
from nqueens_cp.core.errors import SubProblemError
from nqueens_cp.parallel import ParallelConfig, ProcessPoolTaskExecutor, SplitRun

from .conftest import REPO, load_file
from .reliability_backends import CLI_WITH_TEST_BACKENDS, registered

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


@pytest.fixture
def segfaulting() -> Iterator[str]:
    with registered("segfaulting") as registered_name:
        yield registered_name


def test_a_segfault_in_a_compare_worker(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "compare", "--n", "5-6", "--repeat", "1", "--backends",
         "bitboard,segfaulting:column=-1,backtrack", "--out", "rep"],
        cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1] == (
        "nqueens-cp: 2 check(s) failed (segfaulting:column=-1 n=5-6 (run)): see the Failures section")
    assert "killed by SIGSEGV" in done.stdout and "RESULT: FAIL" in done.stdout
    runs = json.loads((tmp_path / "rep" / "results.json").read_text())["runs"]
    assert {(r["config"], r["status"]) for r in runs} == {
        ("bitboard", "ok"), ("backtrack", "ok"), ("segfaulting:column=-1", "error")}


@pytest.mark.slow  # 6 s; a segfault in a compare worker is tested by default
def test_a_segfault_in_a_split_run_worker(segfaulting: str, tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    messages: list[str] = []
    run = SplitRun(Instance(10), segfaulting, {"column": 0}, notify=messages.append,
                   config=ParallelConfig(workers=2, split_depth=1, checkpoint=path))
    with pytest.raises(SubProblemError, match=r"^sub-problem #0 \(row 0 = 0\) of n=10 failed 4 time\(s\) "
                       r"\(the last one alone\), last: a worker process died") as caught:
        run.count()
    assert "the 4 finished sub-problems are kept" in str(caught.value) and "more:" not in str(caught.value)
    kept = {i for (i,) in sqlite3.connect(path).execute("SELECT idx FROM results")}
    assert kept == {1, 2, 3, 4}  # the rest went on
    assert any("finishing the other sub-problems" in m for m in messages)


@pytest.mark.slow  # 6.5 s
def test_an_innocent_sub_problem_beside_a_crashing_one_is_tried_alone(segfaulting: str, tmp_path: Path) -> None:
    # One attempt each: #0 crashes while #1 (its first attempt blocks) runs beside it on the other
    # worker, so both are charged their only attempt; each is then tried once alone.
    messages: list[str] = []
    options = {"column": 0, "victim": 1, "state_dir": str(tmp_path)}
    run = SplitRun(Instance(8), segfaulting, options, notify=messages.append,
                   config=ParallelConfig(workers=2, split_depth=1, max_attempts=1, checkpoint=tmp_path / "c.sqlite"))
    with pytest.raises(SubProblemError) as caught:
        run.count()
    assert str(caught.value).startswith("sub-problem #0 (row 0 = 0) of n=8 failed 2 time(s) (the last one alone)")
    assert "#1" not in str(caught.value)  # alone, it succeeded: only the culprit is named
    kept = {i for (i,) in sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT idx FROM results")}
    assert kept == {1, 2, 3}
    assert any(m.startswith("sub-problem #1 (row 0 = 1): a worker process died") for m in messages), messages


@pytest.mark.slow  # 3.5 s
def test_a_segfault_in_a_split_run_through_the_cli(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "solve", "10", "--count", "--backend", "segfaulting", "-O", "column=0",
         "--workers", "2", "--split-depth", "1", "--checkpoint", "c.sqlite"],
        cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith("nqueens-cp: error: sub-problem #0 (row 0 = 0) of n=10")


# -- Ctrl-C ------------------------------------------------------------------------------------


#: The pids of the live processes of a session (Linux ``/proc``), as the interruption benchmark finds them.
_session_processes = load_file(REPO / "benchmarks" / "bench_interrupt.py", "bench_interrupt").session_processes


def _has_rows(path: Path) -> bool:
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            return bool(connection.execute("SELECT COUNT(*) FROM results").fetchone()[0])
        finally:
            connection.close()
    except sqlite3.Error:
        return False


def _ready(path: Path) -> bool:
    """Whether the run has saved something: a checkpoint row, or the file exists."""
    return _has_rows(path) if path.suffix == ".sqlite" else path.exists()


def _sigint_state() -> str:
    """How this (the pytest) process treats SIGINT, which the command inherits: blocked in this
    thread, and Python's handler (see ``pytest_configure`` in conftest.py)."""
    blocked = signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    return f"in pytest's process SIGINT is {'blocked' if blocked else 'not blocked'}, handler {signal.getsignal(signal.SIGINT)!r}"


def _interrupt(argv: list[str], cwd: Path, ready: Path | None, wait: float) -> tuple[int, str, str]:
    """Start ``argv`` in a new session, SIGINT its process group after ``wait`` s once ``ready``
    holds something, and check that nothing of the session is left once it has exited."""
    process = subprocess.Popen([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, *argv], cwd=cwd, env=ENV, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        time.sleep(wait)
        while ready is not None and not _ready(ready) and time.monotonic() < deadline:
            time.sleep(0.05)
        children = _session_processes(process.pid)
        os.killpg(process.pid, signal.SIGINT)
        out, err = process.communicate(timeout=60)
        left = _session_processes(process.pid)
        for _ in range(50):  # workers may take a moment to notice their parent is gone
            if not left:
                break
            time.sleep(0.1)
            left = _session_processes(process.pid)
        assert not left, f"left behind: {left} (session had {children})"
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.returncode, out, err


@pytest.mark.parametrize(
    ("argv", "ready", "wait"),
    [
        (["solve", "15", "--count", "--backend", "backtrack"], None, 1.5),
        (["solve", "14", "--count", "--backend", "sat"], None, 2.5),
        (["solve", "14", "--all", "--backend", "cpsat"], None, 2.5),
        pytest.param(["solve", "11", "--count", "--backend", "sleepy", "-O", "delay=0.2", "--workers", "2",
                      "--split-depth", "2", "--checkpoint", "c.sqlite"], "c.sqlite", 0.5, marks=pytest.mark.slow),
        (["solve", "10", "--all", "--backend", "sleepy", "-O", "delay=0.2", "--workers", "2",
          "--split-depth", "2"], None, 2.0),
        pytest.param(["compare", "--n", "4-9", "--repeat", "1", "--backends", "bitboard,sleepy:delay=0.5", "--out",
                      "rep"], "rep/results.json", 0.5, marks=pytest.mark.slow),  # and test_harness_cli's kill
        (["export", "100", "--format", "dimacs", "--encoding", "pairwise", "-o", "big.cnf"], None, 1.5),
        # Ctrl-C once the cluster runs (its first result saved), then the checkpoint resumed
        pytest.param(["solve", "11", "--count", "--backend", "sleepy", "-O", "delay=0.3", "--executor", "dask",
                      "--workers", "2", "--split-depth", "2", "--checkpoint", "c.sqlite"], "c.sqlite", 0.5,
                     marks=pytest.mark.slow),
    ],
    ids=["solve-inline", "solve-sat-in-process", "solve-cpsat-in-process", "solve-pool-checkpoint", "solve-all-pool", "compare", "export", "solve-dask"],
)
def test_ctrl_c_keeps_partial_results_and_leaves_no_child(
    tmp_path: Path, argv: list[str], ready: str | None, wait: float
) -> None:
    state = _sigint_state()
    status, out, err = _interrupt(argv, tmp_path, tmp_path / ready if ready else None, wait)
    assert status == 130, (state, out[-500:], err)
    assert "Traceback" not in err and err.splitlines()[-1].endswith(("interrupted", "the report is incomplete"))
    if "--checkpoint" in argv:
        kept = sqlite3.connect(tmp_path / "c.sqlite").execute("SELECT COUNT(*) FROM results").fetchone()[0]
        assert kept > 0
        resumed = subprocess.run([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, *argv], cwd=tmp_path, env=ENV,
                                 capture_output=True, text=True, timeout=120)
        assert resumed.stdout.strip() == str(A000170[11]), resumed.stderr
    if argv[0] == "compare":
        saved = json.loads((tmp_path / "rep" / "results.json").read_text())
        assert saved["complete"] is False and saved["runs"]
        assert "INCOMPLETE" in (tmp_path / "rep" / "report.md").read_text()
    if argv[0] == "export":
        assert not (tmp_path / "big.cnf").exists() and not list(tmp_path.glob(".big.cnf*"))
    if argv[:2] == ["solve", "10"]:
        assert all(len(line.split()) == 10 for line in out.splitlines())  # whole lines only


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "11", "--count", "--backend", "sleepy", "-O", "delay=0.2", "--workers", "2", "--split-depth", "2"],
        ["compare", "--n", "4-9", "--repeat", "1", "--backends", "sleepy:delay=0.5", "--out", "rep"],
    ],
    ids=["solve-pool", "compare"],
)
def test_no_orphan_outlives_a_kill_9_of_the_run(tmp_path: Path, argv: list[str]) -> None:
    process = subprocess.Popen([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, *argv], cwd=tmp_path, env=ENV,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while len(_session_processes(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)  # its workers are up
        assert len(_session_processes(process.pid)) >= 2
        process.kill()  # the run alone, without warning: its workers must notice by themselves
        process.wait()
        deadline = time.monotonic() + 10
        while _session_processes(process.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _session_processes(process.pid)
    finally:
        for pid in _session_processes(process.pid):
            os.kill(pid, signal.SIGKILL)


class _SynchronousPool:
    """A stand-in pool whose tasks are done as soon as they are submitted."""

    def submit(self, fn: object, task: object) -> concurrent.futures.Future[object]:
        future: concurrent.futures.Future[object] = concurrent.futures.Future()
        future.set_result(("result of", task))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


class _PoolThatBreaksOnSecondSubmit(_SynchronousPool):
    """The first task completes, the second ``submit`` finds the pool broken (a worker died after
    ``wait`` returned), as happens when a crash races a success."""

    def __init__(self) -> None:
        self.submitted = 0

    def submit(self, fn: object, task: object) -> concurrent.futures.Future[object]:
        self.submitted += 1
        if self.submitted > 1:
            raise BrokenProcessPool("a child process terminated abruptly")
        return super().submit(fn, task)


def test_a_pool_found_broken_at_submit_is_replaced_and_no_task_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    executor = ProcessPoolTaskExecutor(2)
    monkeypatch.setattr(executor, "_pool", _PoolThatBreaksOnSecondSubmit())
    monkeypatch.setattr(executor, "_new_pool", _SynchronousPool)
    tasks: deque[Any] = deque(["a", "b", "c"])
    outcomes = list(executor.outcomes(tasks))
    assert sorted((outcome.task, outcome.result, outcome.error) for outcome in outcomes) == [
        ("a", ("result of", "a"), None), ("b", ("result of", "b"), None), ("c", ("result of", "c"), None)]


@pytest.mark.parametrize("backend", ["natively-interrupted", "interrupt-wrapping"])
def test_ctrl_c_reported_by_a_library_as_its_own_error_is_an_interruption(backend: str) -> None:
    # PySAT's C extensions catch SIGINT and raise pycard.error / pysolvers.error("Caught keyboard
    # interrupt"); a library may wrap the KeyboardInterrupt of a callback. Either way: interrupted.
    done = subprocess.run([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "solve", "8", "--count", "--backend", backend],
                          env=ENV, capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "nqueens-cp: interrupted\n")


def test_is_interruption() -> None:
    import pycard
    import pysolvers

    from nqueens_cp.system.interrupts import is_interruption

    assert is_interruption(KeyboardInterrupt())
    assert is_interruption(pycard.error("Caught keyboard interrupt"))
    assert is_interruption(pysolvers.error("Caught keyboard interrupt"))
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:
            raise RuntimeError("wrapped") from stop
    except RuntimeError as wrapped:
        assert is_interruption(wrapped)
    assert not is_interruption(pycard.error("bound too large"))
    assert not is_interruption(ValueError("keyboard"))
