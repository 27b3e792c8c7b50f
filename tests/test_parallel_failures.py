"""A failing sub-problem is retried a bounded number of times, then reported; never a partial count."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_cp import A000170, Instance
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.core.errors import SubProblemError
from nqueens_cp.parallel import ParallelConfig, SplitRun, split_instance

from .conftest import REPO

FLAKY_CLI = (
    "import sys\n"
    "from nqueens_cp.backends.framework.registry import register_backend\n"
    "register_backend('flaky', 'tests.parallel_backends:FlakyBackend')\n"
    "from nqueens_cp.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


@pytest.fixture
def flaky() -> Iterator[str]:
    register_backend("flaky", "tests.parallel_backends:FlakyBackend")
    yield "flaky"
    unregister_backend("flaky")


def attempts(state: Path) -> int:
    return len(list(state.iterdir()))


# A failure that ends the process (``exit``) cannot be survived in-process (workers = 1).
@pytest.mark.parametrize(("workers", "mode", "executor"),
                         [(1, "raise", None), (2, "raise", None), (2, "exit", None), (2, "raise", "threads")])
def test_failures_are_retried_and_the_count_is_exact(
    flaky: str, tmp_path: Path, workers: int, mode: str, executor: str | None
) -> None:
    # A dying worker takes the pool's other running task down with it (charged one attempt too), so
    # that mode targets a single sub-problem: the others are charged at most twice, below the limit.
    depth = 2 if mode == "raise" else 1
    messages: list[str] = []
    options = {"state_dir": str(tmp_path), "failures": 2, "column": 1, "mode": mode}
    config = ParallelConfig(split_depth=depth, workers=workers, executor=executor)
    run = SplitRun(Instance(8), flaky, options, config=config, notify=messages.append)
    assert run.count().count == A000170[8]
    targeted = [s for s in split_instance(Instance(8), depth).subproblems if s.prefix[0] == 1]
    assert attempts(tmp_path) == 3 * len(targeted)  # two failures and a success each
    assert len(messages) >= 2 * len(targeted)
    assert all("retrying" in m for m in messages)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sub_problem_that_keeps_failing_is_reported(flaky: str, tmp_path: Path, workers: int) -> None:
    options = {"state_dir": str(tmp_path), "failures": 99, "column": 2}
    run = SplitRun(Instance(8), flaky, options,
                   config=ParallelConfig(split_depth=1, workers=workers, max_attempts=3))
    with pytest.raises(SubProblemError, match=r"#2 \(row 0 = 2\).*failed 3 time\(s\).*deliberate failure 3"):
        run.count()
    assert attempts(tmp_path) == 3


def test_enumeration_stops_instead_of_missing_a_part(flaky: str, tmp_path: Path) -> None:
    options = {"state_dir": str(tmp_path), "failures": 99, "column": 0}
    run = SplitRun(Instance(8), flaky, options, enumerate=True, config=ParallelConfig(split_depth=1, max_attempts=2))
    with pytest.raises(SubProblemError):
        list(run.solutions())


def test_cli_reports_the_failure_with_status_1_and_keeps_the_checkpoint(tmp_path: Path) -> None:
    state = tmp_path / "state"
    state.mkdir()
    checkpoint = tmp_path / "c.sqlite"
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def solve(failures: int) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", FLAKY_CLI, "solve", "8", "--count", "--backend", "flaky",
                   "-O", f"state_dir={state}", "-O", f"failures={failures}", "-O", "column=3",
                   "--workers", "2", "--split-depth", "1", "--retries", "1", "--checkpoint", str(checkpoint)]
        return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)

    failed = solve(failures=2)
    assert failed.returncode == 1 and failed.stdout == ""
    assert "retrying (attempt 2 of 2)" in failed.stderr
    last = failed.stderr.strip().splitlines()[-1]
    assert last.startswith("nqueens-cp: error: sub-problem #3 (row 0 = 3)") and "no result reported" in last
    connection = sqlite3.connect(checkpoint)
    kept = {i for (i,) in connection.execute("SELECT idx FROM results")}
    connection.close()
    assert 3 not in kept
    # The third attempt at the failing sub-problem succeeds: the rerun finishes from the checkpoint.
    rerun = solve(failures=2)
    assert (rerun.returncode, rerun.stdout.strip()) == (0, "92"), rerun.stderr
