"""``compare`` bounds each worker's memory: a worker over the limit is recorded as out of memory
(``oom``), larger sizes of that configuration are skipped, and the comparison goes on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import PASS
from nqueens_cp.harness.runner import default_memory_limit_mb
from nqueens_cp.harness.task_registry import make_task
from nqueens_cp.system.processes import resident_kb

from .conftest import REPO
from .reliability_backends import CLI_WITH_TEST_BACKENDS, registered


@pytest.fixture
def memoryhog() -> Iterator[str]:
    with registered("memoryhog") as registered_name:
        yield registered_name


def _compare(texts: list[str], ns: tuple[int, ...], limit: float) -> object:
    request = ComparisonRequest(
        task=make_task("all"), configurations=tuple(parse_configurations(texts)), ns=ns, repeat=1,
        timeout=60, store_limit=1000, baseline=None, command="test", memory_limit_mb=limit,
    )
    return run_comparison(request)


def test_a_worker_growing_past_the_limit_is_out_of_memory(memoryhog: str) -> None:
    # grows 16 MB at a time towards 3 GB from n = 6 on; the limit is 400 MB
    results = _compare(["bitboard", "memoryhog:megabytes=3072"], (5, 6, 7), 400)
    by_run = {(r.config, r.n): r for r in results.runs}  # type: ignore[attr-defined]
    assert by_run[("memoryhog:megabytes=3072", 5)].status == "ok"
    hog = by_run[("memoryhog:megabytes=3072", 6)]
    assert hog.status == "oom" and "over the limit of 400 MB" in hog.reason, hog.reason
    assert by_run[("memoryhog:megabytes=3072", 7)].status == "skipped"
    assert by_run[("memoryhog:megabytes=3072", 7)].reason == "out of memory at n=6"
    assert all(by_run[("bitboard", n)].status == "ok" for n in (5, 6, 7))  # the comparison went on
    assert not results.failures  # type: ignore[attr-defined]
    assert any(c.status == PASS and c.n == 7 for c in results.checks)  # type: ignore[attr-defined]


def test_the_parents_memory_is_not_counted_against_a_forked_worker(memoryhog: str) -> None:
    """A forked worker starts with its parent's resident pages: a full test run's process (or a
    notebook holding data) over the limit had every worker killed as out of memory at once."""
    import numpy as np

    ballast = np.ones(60_000_000)  # 480 MB resident in this process, over the limit of 400 MB
    results = _compare(["bitboard", "memoryhog:megabytes=3072"], (5, 6), 400)
    by_run = {(r.config, r.n): r for r in results.runs}  # type: ignore[attr-defined]
    assert [by_run[("bitboard", n)].status for n in (5, 6)] == ["ok", "ok"]
    assert by_run[("memoryhog:megabytes=3072", 5)].status == "ok"
    hog = by_run[("memoryhog:megabytes=3072", 6)]  # what it adds is still bounded
    assert hog.status == "oom" and "over the limit of 400 MB" in hog.reason, hog.reason
    del ballast


def test_a_sudden_huge_allocation_is_out_of_memory_too(memoryhog: str) -> None:
    # one 3 GB block at once: refused by the address-space backstop (2 x 300 MB + 1 GiB)
    results = _compare(["memoryhog:megabytes=3072:step=3072"], (6,), 300)
    run = results.runs[0]  # type: ignore[attr-defined]
    assert run.status == "oom" and "MemoryError" in run.reason, run.reason


@pytest.mark.slow  # 7 s; the limit itself is tested by default above
def test_the_cli_option_and_its_default(tmp_path: Path) -> None:
    assert default_memory_limit_mb() >= 256 and resident_kb(os.getpid()) is not None
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "compare", "--n", "5-7", "--repeat", "1", "--backends",
         "bitboard,memoryhog:megabytes=3072", "--memory-limit", "400", "--out", "out"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    saved = json.loads((tmp_path / "out" / "results.json").read_text())
    assert saved["settings"]["memory_limit_mb"] == 400
    assert [r["status"] for r in saved["runs"] if r["config"].startswith("memoryhog")] == ["ok", "oom", "skipped"]
    assert "--memory-limit 400" in saved["settings"]["command"]
    bad = subprocess.run([sys.executable, "-m", "nqueens_cp", "compare", "--memory-limit", "-5"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "--memory-limit" in bad.stderr


RESERVED_THEN_LIMITED = """
import mmap, threading
from nqueens_cp.system.processes import limit_address_space
# 40 GiB reserved and never touched, as pychoco's GraalVM heap is in a process that loaded it
reserved = mmap.mmap(-1, 40 * 2**30, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=0)  # PROT_NONE
limit_address_space(256 * 2**20)
thread = threading.Thread(target=lambda: None)
thread.start()
thread.join()
block = bytearray(100 * 2**20)
try:
    bytearray(2 * 2**30)
except MemoryError:
    print("backstop holds")
"""


def test_the_backstop_counts_from_what_is_mapped_already() -> None:
    """A worker forked from a process with a huge reservation still starts threads and allocates
    (the limit had been set below what was mapped: a thread start hung until the run's timeout),
    and a sudden allocation past the backstop is still refused."""
    done = subprocess.run([sys.executable, "-c", RESERVED_THEN_LIMITED], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "backstop holds"
