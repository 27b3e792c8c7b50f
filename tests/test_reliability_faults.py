"""Faults while writing: a full disk and a directory turned read-only mid-run, for reports,
exports, plots and checkpoints. Each time: one line on stderr (compare may add one warning line
first), exit status 2, no partial or temporary file left behind, earlier files intact.

The small file systems are tmpfs mounts (root only). Where mounting is not permitted the tests
are skipped with the reason, except under CI, where a skip is a failure (tests/ci_skips.py).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import REPO
from .reliability_backends import CLI_WITH_TEST_BACKENDS

ENV = {**os.environ, "PYTHONPATH": str(REPO)}


def _mount(directory: Path, options: str) -> None:
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(directory)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        # under CI a failure (tests/ci_skips.py): CI runs as root and must be able to
        pytest.skip(f"cannot mount a tmpfs here ({done.stderr.strip() or done.returncode})")


@pytest.fixture
def small_disk(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Path]:
    """A 64 KiB tmpfs (or the size of the test's ``disk_size`` mark), unmounted afterwards."""
    marker = request.node.get_closest_marker("disk_size")
    directory = tmp_path / "small"
    directory.mkdir()
    _mount(directory, f"size={marker.args[0] if marker else '64k'}")
    try:
        yield directory
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)


def _fill(directory: Path) -> None:
    """Use up every free byte of ``directory``'s file system."""
    descriptor = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    try:
        while True:
            os.write(descriptor, b"\0" * 4096)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def _state(directory: Path) -> dict[str, str]:
    return {str(p.relative_to(directory)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(directory.rglob("*")) if p.is_file() and p.name != "filler"}


def _cli(*args: str, cwd: Path, script: str | None = None, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", script, *args] if script else [sys.executable, "-m", "nqueens_cp", *args]
    return subprocess.run(command, cwd=cwd, env=ENV, capture_output=True, text=True, timeout=timeout)


def _messages(stderr: str) -> list[str]:
    """stderr's lines but compare's progress line per board size (``nqueens-cp: n=5: ...``)."""
    return [line for line in stderr.splitlines() if not re.match(r"nqueens-cp: n=\d+: ", line)]


def _no_temporaries(directory: Path) -> None:
    assert not [p for p in directory.rglob("*") if p.name.endswith(".tmp")], sorted(directory.rglob("*"))


def test_export_to_a_full_disk(small_disk: Path) -> None:
    assert _cli("export", "8", "--format", "dimacs", "-o", "small.cnf", cwd=small_disk).returncode == 0
    before = _state(small_disk)
    done = _cli("export", "30", "--format", "dimacs", "-o", "big.cnf", cwd=small_disk)  # about 1 MB
    assert done.returncode == 2 and done.stderr.splitlines() == [
        "nqueens-cp: error: cannot write big.cnf: No space left on device"]
    assert _state(small_disk) == before
    _no_temporaries(small_disk)


@pytest.mark.disk_size("256k")  # room for one report set and a second one being staged
@pytest.mark.slow  # 8 s
def test_compare_and_report_on_a_full_disk(small_disk: Path) -> None:
    out = small_disk / "rep"
    args = ("compare", "--n", "4-6", "--repeat", "1", "--backends", "bitboard", "--out", "rep")
    assert _cli(*args, cwd=small_disk).returncode == 0
    before = _state(out)
    assert set(before) == {"report.md", "results.json", "results.csv", "runtime.png", "cactus.png"}
    _fill(small_disk)
    done = _cli(*args, "--force", cwd=small_disk)
    assert done.returncode == 2
    lines = _messages(done.stderr)
    assert lines[-1].startswith("nqueens-cp: error: cannot write the report to rep (No space left on device)")
    assert len(lines) <= 2 and all("warning" in line for line in lines[:-1]), lines
    assert "RESULT: PASS" in done.stdout  # the report itself is not lost
    assert _state(out) == before  # the earlier set, untouched
    _no_temporaries(small_disk)
    plot = _cli("report", "rep/results.json", "--plot", "new.png", cwd=small_disk)
    assert plot.returncode == 2 and len(plot.stderr.splitlines()) == 1 and "No space left" in plot.stderr
    assert not (small_disk / "new.png").exists()
    _no_temporaries(small_disk)


def test_a_checkpoint_on_a_full_disk(small_disk: Path) -> None:
    done = _cli("solve", "8", "--all", "--split-depth", "3", "--checkpoint", "c.sqlite", cwd=small_disk)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert "checkpoint c.sqlite" in done.stderr and "full" in done.stderr


@pytest.mark.slow  # 8-11 s: the default run stays under 8 minutes (CI runs it with -m slow)
def test_the_output_directory_turns_read_only_mid_run(tmp_path: Path) -> None:
    directory = tmp_path / "ro"
    directory.mkdir()
    _mount(directory, "size=4m")
    try:
        process = subprocess.Popen(
            [sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "compare", "--n", "4-8", "--repeat", "1", "--backends",
             "bitboard,sleepy:delay=0.3", "--out", "rep"],
            cwd=directory, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        while not (directory / "rep" / "results.json").exists() and time.monotonic() < deadline:
            time.sleep(0.02)  # the first board size is done and saved
        subprocess.run(["mount", "-o", "remount,ro", str(directory)], check=True)
        out, err = process.communicate(timeout=120)
        assert process.returncode == 2, err
        lines = _messages(err)
        assert lines[-1].startswith("nqueens-cp: error: cannot write the report to rep (Read-only file system)")
        assert len(lines) <= 2, lines
        assert "RESULT:" in out
        saved = json.loads((directory / "rep" / "results.json").read_text())  # whole, and consistent
        csv_rows = (directory / "rep" / "results.csv").read_text().splitlines()
        assert len(csv_rows) == 1 + len(saved["runs"]) and saved["complete"] is False
        assert not (directory / "rep" / "report.md").exists()
        _no_temporaries(directory)
        export = _cli("export", "8", "--format", "opb", "-o", "rep/model.opb", cwd=directory)
        assert export.returncode == 2 and export.stderr.splitlines() == [
            "nqueens-cp: error: cannot write rep/model.opb: Read-only file system"]
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=False)
