"""No worker process outlives its split run: killed with SIGKILL, interrupted, or finished."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nqueens_cp.system.processes import is_alive

from .conftest import REPO
from .test_parallel_checkpoint import SLEEPY_CLI

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree in /proc")


def parent_of(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return int(stat.read().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def descendants(root: int) -> set[int]:
    """Every live process below ``root`` in the process tree."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            parent = parent_of(int(entry))
            if parent is not None:
                children.setdefault(parent, []).append(int(entry))
    found: set[int] = set()
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return {pid for pid in found if is_alive(pid)}


def start_split_run() -> tuple[subprocess.Popen[str], set[int]]:
    """A split count on 2 workers of a backend that sleeps in every batch; returns it once both
    workers run, with its descendants (the forkserver and the workers)."""
    command = [sys.executable, "-c", SLEEPY_CLI, "solve", "12", "--count", "--backend", "sleepy",
               "-O", "delay=5", "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        below = descendants(process.pid)
        if len(below) >= 3:  # the forkserver and two workers
            time.sleep(0.5)  # let the workers take their first batches
            return process, descendants(process.pid)
        time.sleep(0.1)
    process.kill()
    process.wait()
    pytest.fail("the split run did not start its workers within 60 s")


def wait_until_gone(pids: set[int], seconds: float) -> set[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = {pid for pid in pids if is_alive(pid)}
        if not left:
            return left
        time.sleep(0.1)
    return {pid for pid in pids if is_alive(pid)}


def test_sigkill_of_the_run_leaves_no_worker_behind() -> None:
    process, workers = start_split_run()
    try:
        os.kill(process.pid, signal.SIGKILL)  # the run alone, not its process group
        left = wait_until_gone(workers, 5)    # checked while the killed run is still a zombie
    finally:
        process.wait(timeout=30)
        for pid in workers:  # never leave anything behind, even when the test fails
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert process.returncode == -signal.SIGKILL
    assert not left, f"worker processes {sorted(left)} outlived the killed run"


def test_ctrl_c_of_the_run_leaves_no_worker_behind() -> None:
    process, workers = start_split_run()
    try:
        os.killpg(process.pid, signal.SIGINT)  # as a terminal does: the whole process group
        process.wait(timeout=30)
        left = wait_until_gone(workers, 5)
    finally:
        for pid in workers | {process.pid}:
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert process.returncode != 0
    assert not left, f"worker processes {sorted(left)} outlived the interrupted run"


def test_a_finished_run_leaves_no_worker_behind() -> None:
    command = [sys.executable, "-c", SLEEPY_CLI, "solve", "9", "--count", "--backend", "sleepy",
               "-O", "delay=0", "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, text=True)
    seen: set[int] = set()
    while process.poll() is None:
        seen |= descendants(process.pid)
        time.sleep(0.05)
    assert process.stdout is not None and process.stdout.read().strip() == "352"
    assert not wait_until_gone(seen, 5)


def test_is_alive_sees_a_zombie_as_gone() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    deadline = time.monotonic() + 10
    while is_alive(child.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not is_alive(child.pid)  # exited, not reaped yet
    child.wait()
    assert is_alive(os.getpid())


@pytest.mark.slow
def test_sigkill_of_a_run_on_a_local_dask_cluster_leaves_no_process_behind() -> None:
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    command = [sys.executable, "-m", "nqueens_cp", "solve", "15", "--count", "--backend", "bitboard",
               "-O", "kernel=python", "--executor", "dask", "--workers", "2"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    below: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and len(below) < 3:  # the two workers and their helper
            below = descendants(process.pid)
            time.sleep(0.2)
        assert len(below) >= 3, "the local cluster did not start"
        time.sleep(3)
        below = descendants(process.pid)
        os.kill(process.pid, signal.SIGKILL)
        left = wait_until_gone(below, 15)
    finally:
        process.wait(timeout=30)
        for pid in below:
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert not left, f"processes {sorted(left)} outlived the killed run"
