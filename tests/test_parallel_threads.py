"""Threads of one process as the executor of split counts by the compiled constellation kernel
(which releases the GIL); every other split keeps its process pool."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from collections import deque
from pathlib import Path

import pytest

from nqueens_cp import A000170, Instance
from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.core.oeis import A002562
from nqueens_cp.parallel import ParallelConfig, SplitRun, ThreadTaskExecutor
from nqueens_cp.parallel.tasks import SubTask

from .conftest import REPO

THIS_PROCESS = f"{socket.gethostname()}:{os.getpid()}"


def test_the_default_executor_follows_the_tasks() -> None:
    two = ParallelConfig(workers=2)
    assert two.executor_name(releases_gil=True) == "threads"
    assert two.executor_name(releases_gil=False) == "processes"
    assert ParallelConfig().executor_name(releases_gil=True) == "inline"
    assert ParallelConfig(workers=2, executor="processes").executor_name(releases_gil=True) == "processes"
    backend = BitboardBackend()
    assert backend.batch_count_releases_gil(14) and not backend.batch_count_releases_gil(13)
    assert not BitboardBackend(kernel="python").batch_count_releases_gil(14)


@pytest.mark.parametrize(("unique", "expected"), [(False, A000170[14]), (True, A002562[14])])
def test_compiled_constellation_counts_run_in_threads_of_this_process(unique: bool, expected: int) -> None:
    run = SplitRun(Instance(14), "bitboard", unique=unique, config=ParallelConfig(workers=2))
    results = list(run.subproblem_results())
    assert run.plan is not None and len(results) == run.plan.batches == 128  # 64 per thread
    assert {solved.result.worker for solved in results} == {THIS_PROCESS}
    counts = ((solved.subproblem.index, solved.result.count) for solved in results)
    assert run.plan.total_count(counts, weighted=not unique) == expected
    assert SplitRun(Instance(14), "bitboard", config=ParallelConfig(workers=2)).count().executor == "threads"


@pytest.mark.parametrize(("n", "backend", "options"), [(11, "bitboard", {}), (14, "bitboard", {"kernel": "python"}),
                                                       (8, "backtrack", {})])
def test_other_split_counts_keep_the_process_pool(n: int, backend: str, options: dict[str, str]) -> None:
    run = SplitRun(Instance(n), backend, options, config=ParallelConfig(workers=2))
    assert (run.run_plan.executor, run.run_plan.in_process) == ("processes", False)
    with run._make_executor("processes", False) as executor:  # the pool starts at its first task: nothing runs here
        assert executor.description == "process pool (2 workers)"


@pytest.mark.parametrize(("n", "backend"), [(11, "bitboard"), (8, "backtrack")])
def test_their_counts_say_they_ran_in_the_process_pool(n: int, backend: str) -> None:
    result = SplitRun(Instance(n), backend, config=ParallelConfig(workers=2)).count()
    assert (result.count, result.executor) == (A000170[n], "processes")


def test_a_run_stopped_early_leaves_the_threads_usable() -> None:
    with ThreadTaskExecutor(2) as threads:
        first = SplitRun(Instance(14), "bitboard", config=ParallelConfig(workers=2), executor=threads)
        stream = first.subproblem_results()
        taken = [next(stream) for _ in range(3)]
        stream.close()
        assert len(taken) == 3
        again = SplitRun(Instance(14), "bitboard", config=ParallelConfig(workers=2), executor=threads)
        assert again.count().count == A000170[14]


def test_a_failing_task_is_an_outcome_and_at_most_capacity_run_at_once() -> None:
    tasks = deque(
        SubTask(index=index, instance=Instance(14), backend=BitboardBackend, options=(("kernel", "compiled"),),
                batch=(index, 4) if index < 4 else (index, 0))  # batch (i, 0) is invalid: it raises
        for index in range(6)
    )
    with ThreadTaskExecutor(2) as threads:
        outcomes = []
        for outcome in threads.outcomes(tasks):
            outcomes.append(outcome)
            assert threads._in_flight <= 2 * threads.capacity  # one running and one waiting per thread
    assert sorted(o.task.index for o in outcomes) == list(range(6))
    failed = [o for o in outcomes if o.error is not None]
    assert sorted(o.task.index for o in failed) == [4, 5] and all(o.result is None for o in failed)
    assert sum(o.result.count for o in outcomes if o.result is not None) == A000170[14]


def test_a_local_dask_cluster_runs_the_compiled_kernel_in_this_process() -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    run = SplitRun(Instance(14), "bitboard", config=ParallelConfig(executor="dask", workers=2))
    results = list(run.subproblem_results())
    assert {solved.result.worker for solved in results} == {THIS_PROCESS}
    assert run.plan is not None
    assert run.plan.total_count((s.subproblem.index, s.result.count) for s in results) == A000170[14]


def committed(path: Path) -> int:
    try:
        with sqlite3.connect(path) as db:
            row = db.execute("SELECT COUNT(*) FROM results").fetchone()
    except sqlite3.Error:
        return 0
    return int(row[0])


@pytest.mark.slow
def test_ctrl_c_stops_a_threaded_count_at_once_and_keeps_its_checkpoint(tmp_path: Path) -> None:
    """The threads cannot be interrupted inside the kernel; the command ends anyway (they are
    daemons), with status 130, and the same command resumes to the exact count."""
    path = tmp_path / "n17.sqlite"
    command = [sys.executable, "-m", "nqueens_cp", "solve", "17", "--count", "--backend", "bitboard",
               "--workers", "2", "--batches", "3", "--checkpoint", str(path)]
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while committed(path) == 0 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert process.poll() is None, "the count ended before it could be interrupted"
    process.send_signal(signal.SIGINT)
    interrupted = time.monotonic()
    _, err = process.communicate(timeout=60)
    # The third batch starts when the first ends and takes seconds (2.9 on an idle machine,
    # longer on a busy one): a command that waited for it would end well after this.
    assert time.monotonic() - interrupted < 2.0
    assert process.returncode == 130 and err.strip() == "nqueens-cp: interrupted"
    kept = committed(path)
    assert 1 <= kept < 3
    resumed = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert (resumed.returncode, resumed.stdout.strip()) == (0, str(A000170[17])), resumed.stderr
