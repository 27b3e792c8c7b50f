"""Split counts over batches of start constellations: exact totals and classes, every executor,
checkpoints that resume, and a real Dask cluster that loses a worker mid-run."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nqueens_cp import A000170, Instance
from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.core.oeis import A002562
from nqueens_cp.parallel import ParallelConfig, ProcessPoolTaskExecutor, SplitRun
from nqueens_cp.parallel.checkpoint import read_header
from nqueens_cp.parallel.planning import PER_THREAD, default_batches
from nqueens_cp.parallel.split import split_constellations
from nqueens_cp.searches.constellations import constellations

from .conftest import REPO, run_cli


@pytest.mark.parametrize("n", [4, 5, 8, 11])
@pytest.mark.parametrize("batches", [1, 3, 16])
def test_batches_add_up_to_the_total_and_the_classes(n: int, batches: int) -> None:
    config = ParallelConfig(split_depth=None)
    run = SplitRun(Instance(n), "bitboard", config=config)
    plan = split_constellations(Instance(n), batches)
    backend = BitboardBackend()
    parts = [backend.count_constellation_batch(n, sub.index, batches) for sub in plan.subproblems]
    assert plan.total_count((index, part.total) for index, part in enumerate(parts)) == A000170[n]
    assert sum(part.classes for part in parts) == A002562[n]
    result = run.count()
    assert result.count == A000170[n]
    assert run.plan is not None and run.plan.batches == default_batches(len(constellations(n)), 1)
    unique = SplitRun(Instance(n), "bitboard", unique=True).count()
    assert unique.count == A002562[n]


def test_rows_are_split_when_asked_or_not_a_plain_count() -> None:
    by_rows = SplitRun(Instance(9), "bitboard", config=ParallelConfig(split_depth=2))
    assert by_rows.count().count == A000170[9] and by_rows.plan is not None and by_rows.plan.batches == 0
    fixed = SplitRun(Instance(9, {0: 1}), "bitboard")
    fixed.count()
    assert fixed.plan is not None and fixed.plan.batches == 0
    other = SplitRun(Instance(9), "backtrack")
    assert other.count().count == A000170[9] and other.plan is not None and other.plan.batches == 0


def test_threads_of_this_process_get_more_batches_than_workers() -> None:
    threads = SplitRun(Instance(14), "bitboard", config=ParallelConfig(workers=2))
    assert threads.count().count == A000170[14]
    assert threads.run_plan.executor == "threads"
    assert threads.plan.batches == default_batches(len(constellations(14)), 2, per_worker=PER_THREAD) == 128
    pool = SplitRun(Instance(14), "bitboard", config=ParallelConfig(workers=2, executor="processes"))
    assert pool.count().count == A000170[14]
    assert pool.plan is not None and pool.plan.batches == 32


def test_default_batches() -> None:
    assert default_batches(len(constellations(16)), 2) == 32
    assert default_batches(len(constellations(16)), 64) == 1024
    assert default_batches(len(constellations(6)), 8) == len(constellations(6))
    assert default_batches(0, 2) == 1


def test_process_pool_counts_totals_and_classes() -> None:
    with ProcessPoolTaskExecutor(2) as pool:
        for unique, expected in ((False, A000170[13]), (True, A002562[13])):
            run = SplitRun(Instance(13), "bitboard", unique=unique, executor=pool)
            results = list(run.subproblem_results())
            assert run.plan is not None and len(results) == run.plan.batches == 32
            assert len({solved.result.worker for solved in results}) == 2
            assert run.plan.total_count(((s.subproblem.index, s.result.count) for s in results),
                                        weighted=not unique) == expected


def test_interrupted_checkpoint_resumes_exactly(tmp_path: Path) -> None:
    path = tmp_path / "n12.sqlite"
    first = SplitRun(Instance(12), "bitboard", config=ParallelConfig(checkpoint=path))
    stream = first.subproblem_results()
    done = [next(stream) for _ in range(5)]
    stream.close()  # stops the run: 5 batches are committed
    header = read_header(path)
    assert header is not None and header["split"] == "constellations" and header["batches"] == 16
    resumed = SplitRun(Instance(12), "bitboard", config=ParallelConfig(checkpoint=path, workers=2))
    result = resumed.count()
    assert result.count == A000170[12] and result.resumed == len(done) == 5
    assert result.subproblems == 16  # the checkpoint's batches, not 32 for two workers


def test_cli_counts_with_workers_and_checkpoint(tmp_path: Path) -> None:
    path = str(tmp_path / "c.sqlite")
    for extra in ([], ["--checkpoint", path], ["--checkpoint", path]):
        done = run_cli("solve", "12", "--count", "--backend", "bitboard", "--workers", "2", *extra)
        assert (done.returncode, done.stdout.strip()) == (0, str(A000170[12])), done.stderr
    unique = run_cli("solve", "12", "--count", "--unique", "--backend", "bitboard", "--workers", "2")
    assert unique.stdout.strip() == str(A002562[12])


def test_cli_batches_flag(tmp_path: Path) -> None:
    path = str(tmp_path / "b.sqlite")
    done = run_cli("solve", "11", "--count", "--backend", "bitboard", "--batches", "5", "--checkpoint", path)
    assert (done.returncode, done.stdout.strip()) == (0, str(A000170[11])), done.stderr
    header = read_header(path)
    assert header is not None and header["batches"] == header["subproblems"] == 5
    other = run_cli("solve", "11", "--count", "--backend", "bitboard", "--batches", "6", "--checkpoint", path)
    assert other.returncode == 2 and "batches" in other.stderr
    for args in (["--all", "--batches", "3"], ["--batches", "3"], ["--count", "--batches", "0"]):
        refused = run_cli("solve", "8", "--backend", "bitboard", *args)
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr


def test_local_dask_cluster_counts_constellation_batches() -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    from nqueens_cp.parallel import DaskExecutor

    with DaskExecutor(workers=2) as cluster:
        run = SplitRun(Instance(12), "bitboard", config=ParallelConfig(executor="dask"), executor=cluster)
        assert run.count().count == A000170[12]
        assert run.plan is not None and run.plan.batches == 32


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.mark.slow
def test_real_dask_cluster_survives_losing_a_worker(tmp_path: Path) -> None:
    """``dask scheduler`` and two ``dask worker`` processes on localhost; one worker is killed while
    the count runs, and the count is still exact."""
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        pytest.fail("the dask command is missing (pip install 'nqueens-cp[dask]')")
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    logs = tmp_path / "logs"
    logs.mkdir()
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, *args: str) -> subprocess.Popen[bytes]:
        with open(logs / f"{name}.log", "wb") as log:
            process = subprocess.Popen([dask, *args], cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT,
                                       start_new_session=True)
        processes.append(process)
        return process

    try:
        start("scheduler", "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard")
        workers = [
            start(f"worker{i}", "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny",
                  "--no-dashboard", "--host", "127.0.0.1")
            for i in range(2)
        ]
        command = [sys.executable, "-m", "nqueens_cp", "solve", "15", "--count", "--backend", "bitboard",
                   "-O", "kernel=python", "--scheduler", address, "--checkpoint", str(tmp_path / "c.sqlite")]
        run = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        path = tmp_path / "c.sqlite"
        while time.monotonic() < deadline and run.poll() is None:
            header = read_header(path) if path.exists() else None
            if header is not None:
                break
            time.sleep(0.2)
        time.sleep(2)  # both workers busy with batches
        assert run.poll() is None, "the count finished before a worker could be killed"
        os.killpg(workers[0].pid, signal.SIGKILL)
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err.decode()
        assert out.decode().strip() == str(A000170[15])
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)
