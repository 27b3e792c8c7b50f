"""Dask distributed: a round trip through a local cluster of two worker processes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.core.errors import SubProblemError
from nqueens_cp.parallel import DaskExecutor, ParallelConfig, SplitRun

from .conftest import run_cli

pytest.importorskip("distributed", reason="the dask extra is not installed")


@pytest.fixture(scope="module")
def cluster() -> Iterator[DaskExecutor]:
    with DaskExecutor(workers=2) as executor:
        yield executor


def test_local_cluster_has_two_worker_processes(cluster: DaskExecutor) -> None:
    assert cluster.capacity == 2
    workers = cluster.client.scheduler_info()["workers"]
    assert len(workers) == 2


@pytest.mark.parametrize("backend", ["bitboard", "cpsat"])
def test_count_and_enumeration_round_trip(cluster: DaskExecutor, backend: str) -> None:
    config = ParallelConfig(executor="dask", split_depth=2)
    assert SplitRun(Instance(9), backend, config=config, executor=cluster).count().count == A000170[9]
    run = SplitRun(Instance(7), backend, enumerate=True, config=config, executor=cluster)
    solutions = list(run.solutions())
    assert len(solutions) == 40 and set(solutions) == set(create_backend("backtrack").solutions(Instance(7)))
    workers = {solved.result.worker for solved in
               SplitRun(Instance(9), backend, config=config, executor=cluster).subproblem_results()}
    assert len(workers) >= 1 and all(":" in w for w in workers)


def test_failures_on_dask_are_retried_then_reported(cluster: DaskExecutor, tmp_path: Path) -> None:
    register_backend("flaky", "tests.parallel_backends:FlakyBackend")
    try:
        retried = {"state_dir": str(tmp_path / "a"), "failures": 1, "column": 0}
        (tmp_path / "a").mkdir()
        run = SplitRun(Instance(8), "flaky", retried, config=ParallelConfig(executor="dask", split_depth=1),
                       executor=cluster)
        assert run.count().count == 92
        hopeless = {"state_dir": str(tmp_path / "b"), "failures": 9, "column": 0}
        (tmp_path / "b").mkdir()
        run = SplitRun(Instance(8), "flaky", hopeless,
                       config=ParallelConfig(executor="dask", split_depth=1, max_attempts=2), executor=cluster)
        with pytest.raises(SubProblemError, match="failed 2 time"):
            run.count()
    finally:
        unregister_backend("flaky")


@pytest.mark.slow  # 5.5 s; the cluster's counts are tested by default
def test_cli_with_a_local_dask_cluster() -> None:
    result = run_cli("solve", "9", "--count", "--backend", "bitboard", "--executor", "dask", "--split-depth", "2")
    assert (result.returncode, result.stdout.strip()) == (0, "352"), result.stderr


def test_cli_connects_to_a_running_scheduler(cluster: DaskExecutor) -> None:
    address = cluster.scheduler_address
    assert address.startswith("tcp://")
    result = run_cli("solve", "8", "--all", "--backend", "bitboard", "--scheduler", address)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(set(lines)) == 92


@pytest.mark.slow  # waits out the client's 20 s connection timeout
def test_cli_reports_an_unreachable_scheduler() -> None:
    result = run_cli("solve", "8", "--count", "--scheduler", "tcp://127.0.0.1:9", timeout=120)
    assert result.returncode == 2 and result.stderr.startswith("nqueens-cp: error: cannot reach the Dask scheduler")
