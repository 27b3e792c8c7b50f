"""Checkpoints: results committed one by one, runs resumed exactly, foreign files refused."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_cp import A000170, A002562, Instance, create_backend
from nqueens_cp.core.errors import CheckpointError
from nqueens_cp.parallel import CheckpointStore, ParallelConfig, SplitRun, SubResult, split_instance
from nqueens_cp.parallel.checkpoint import read_header

from .conftest import REPO, run_cli

#: Runs the CLI with the test-only ``sleepy`` backend registered (workers import it by reference).
SLEEPY_CLI = (
    "import sys\n"
    "from nqueens_cp.backends.framework.registry import register_backend\n"
    "register_backend('sleepy', 'tests.parallel_backends:SleepyBackend')\n"
    "from nqueens_cp.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


@pytest.fixture
def sleepy() -> Iterator[str]:
    from nqueens_cp.backends.framework.registry import register_backend, unregister_backend

    register_backend("sleepy", "tests.parallel_backends:SleepyBackend")
    yield "sleepy"
    unregister_backend("sleepy")


def rows(path: Path) -> dict[int, tuple[int, str]]:
    """``idx -> (count, worker)`` of the results committed to a checkpoint (read-only)."""
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {i: (c, w) for i, c, w in connection.execute("SELECT idx, count, worker FROM results")}
    finally:
        connection.close()


def test_interrupted_count_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "run.sqlite"
    config = ParallelConfig(split_depth=2, checkpoint=path)
    first = SplitRun(Instance(9), "bitboard", config=config)
    results = first.subproblem_results()
    taken = [next(results) for _ in range(7)]
    results.close()  # stop mid-run, as an interrupted run would
    assert sorted(rows(path)) == sorted(s.subproblem.index for s in taken)
    total = len(split_instance(Instance(9), 2))
    again = SplitRun(Instance(9), "bitboard", config=ParallelConfig(checkpoint=path))  # depth from the file
    result = again.count()
    assert (result.count, result.resumed, result.subproblems, result.depth) == (A000170[9], 7, total, 2)
    assert len(rows(path)) == total
    finished = SplitRun(Instance(9), "bitboard", config=config).count()  # everything already there
    assert (finished.count, finished.resumed) == (A000170[9], total)


@pytest.mark.parametrize("unique", [False, True])
def test_interrupted_enumeration_resumes_to_the_same_set(tmp_path: Path, unique: bool) -> None:
    path = tmp_path / "all.sqlite"
    config = ParallelConfig(split_depth=2, checkpoint=path)
    first = SplitRun(Instance(8), "backtrack", enumerate=True, unique=unique, config=config)
    results = first.subproblem_results()
    early = [s for _ in range(5) for s in next(results).solutions]
    results.close()
    resumed = list(SplitRun(Instance(8), "backtrack", enumerate=True, unique=unique, config=config).solutions())
    assert set(early) <= set(resumed)
    expected = set(create_backend("backtrack").solutions(Instance(8), unique=unique))
    assert len(resumed) == len(set(resumed)) == (A002562[8] if unique else A000170[8])
    assert set(resumed) == expected


def test_a_checkpoint_for_another_run_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    SplitRun(Instance(8), "bitboard", config=ParallelConfig(split_depth=2, checkpoint=path)).count()
    others = [
        (Instance(9), "bitboard", {}, 2, False),
        (Instance(8, {0: 1}), "bitboard", {}, 2, False),
        (Instance(8), "backtrack", {}, 2, False),
        (Instance(8), "sat", {"encoding": "pairwise"}, 2, False),
        (Instance(8), "bitboard", {}, 3, False),
        (Instance(8), "bitboard", {}, 2, True),
    ]
    for instance, backend, options, depth, enumerate_ in others:
        run = SplitRun(instance, backend, options, enumerate=enumerate_,
                       config=ParallelConfig(split_depth=depth, checkpoint=path))
        with pytest.raises(CheckpointError, match="made for another run"):
            run.count() if not enumerate_ else list(run.solutions())
    assert SplitRun(Instance(8), "bitboard", config=ParallelConfig(checkpoint=path)).count().count == 92
    assert read_header(path) is not None and read_header(tmp_path / "absent.sqlite") is None


def test_a_checkpoint_still_being_created_reads_as_none_and_a_foreign_database_is_refused(tmp_path: Path) -> None:
    """A run polling the file another run has just created (no schema yet) is not told it is foreign
    (the Dask test met that race once); an SQLite file with tables of its own is refused."""
    import sqlite3

    fresh = tmp_path / "fresh.sqlite"
    sqlite3.connect(fresh).execute("PRAGMA user_version = 1").connection.commit()  # a file, no table
    assert fresh.stat().st_size > 0 and read_header(fresh) is None
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(CheckpointError, match="not an nqueens-cp checkpoint"):
        read_header(foreign)


def test_other_files_and_double_results_are_refused(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text " * 10)
    with pytest.raises(CheckpointError, match="not an nqueens-cp checkpoint"):
        SplitRun(Instance(6), "bitboard", config=ParallelConfig(split_depth=1, checkpoint=junk)).count()
    path = tmp_path / "c.sqlite"
    plan = split_instance(Instance(6), 1)
    store = CheckpointStore(path, {"n": 6})
    store.record(plan.subproblems[0], SubResult(0, 3, None, 0.1, "here"))
    with pytest.raises(CheckpointError, match="already in"):
        store.record(plan.subproblems[0], SubResult(0, 3, None, 0.1, "there"))
    store.close()
    with pytest.raises(CheckpointError):
        CheckpointStore(path, {"n": 7})


def test_cli_refuses_a_foreign_checkpoint_with_status_2(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    made = run_cli("solve", "8", "--count", "--backend", "backtrack", "--split-depth", "2", "--checkpoint", path)
    assert (made.returncode, made.stdout.strip()) == (0, "92")
    refused = run_cli("solve", "8", "--count", "--backend", "bitboard", "--checkpoint", path)
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr.startswith("nqueens-cp: error: checkpoint") and "backend" in refused.stderr
    assert len(refused.stderr.splitlines()) == 1


@pytest.mark.slow  # 7 s; resume is tested by default in test_reliability_counts
def test_sigkill_mid_run_then_resume_gives_the_exact_count(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite"
    command = [sys.executable, "-c", SLEEPY_CLI, "solve", "10", "--count", "--backend", "sleepy",
               "-O", "delay=0.15", "--workers", "2", "--split-depth", "2", "--checkpoint", str(path)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    total = len(split_instance(Instance(10), 2))
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if path.exists():
                try:
                    if len(rows(path)) >= 6:
                        break
                except sqlite3.Error:
                    pass  # the table is still being created
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGKILL)  # the run and its workers, without warning
    finally:
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    before = rows(path)
    assert 6 <= len(before) < total, "the run was not killed part way"
    resumed = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip() == str(A000170[10])
    after = rows(path)
    assert len(after) == total
    assert all(after[i] == before[i] for i in before), "a committed sub-problem was computed again"


def test_sleepy_backend_counts_like_bitboard(sleepy: str) -> None:
    assert create_backend(sleepy, delay=0).count(Instance(7)) == 40
