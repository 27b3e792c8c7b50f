"""Counts that cannot be silently wrong: checksummed checkpoint rows, the OEIS check of a split
run's total, ``verify`` (two backends per sub-problem), and one run per checkpoint file."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from nqueens_cp import A000170, A002562, Instance
from nqueens_cp.core.errors import CheckpointLockedError, NQueensError, WrongCountError
from nqueens_cp.parallel import CheckpointStore, ParallelConfig, SplitRun, split_instance
from nqueens_cp.parallel.checkpoint import header_digest, row_checksum

from .conftest import REPO
from .reliability_backends import CLI_WITH_TEST_BACKENDS, registered


@pytest.fixture
def miscounting() -> Iterator[str]:
    with registered("miscounting") as registered_name:
        yield registered_name


def _edit_count(path: Path, index: int, delta: int, *, forge: bool) -> None:
    """Add ``delta`` to one row's count; with ``forge``, also give it a matching checksum."""
    db = sqlite3.connect(path)
    try:
        header = {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM run")}
        prefix, count, blob, seconds, worker = db.execute(
            "SELECT prefix, count, solutions, seconds, worker FROM results WHERE idx = ?", (index,)
        ).fetchone()
        checksum = row_checksum(header_digest(header), index, prefix, count + delta, blob, seconds, worker)
        with db:
            db.execute("UPDATE results SET count = ? WHERE idx = ?", (count + delta, index))
            if forge:
                db.execute("UPDATE results SET checksum = ? WHERE idx = ?", (checksum, index))
    finally:
        db.close()


def _finished_checkpoint(path: Path, n: int = 11, depth: int = 2) -> None:
    config = ParallelConfig(split_depth=depth, checkpoint=path)
    assert SplitRun(Instance(n), "bitboard", config=config).count().count == A000170[n]


def test_an_edited_row_is_recomputed_and_said_so(tmp_path: Path) -> None:
    path = tmp_path / "n11.sqlite"
    _finished_checkpoint(path)
    _edit_count(path, 3, +1, forge=False)  # the example: one sub-problem's count plus one
    messages: list[str] = []
    run = SplitRun(Instance(11), "bitboard", config=ParallelConfig(checkpoint=path), notify=messages.append)
    result = run.count()
    assert result.count == A000170[11] == 2680
    assert result.resumed == len(split_instance(Instance(11), 2)) - 1
    assert len(messages) == 1 and "sub-problem #3" in messages[0] and "checksum" in messages[0]
    again = SplitRun(Instance(11), "bitboard", config=ParallelConfig(checkpoint=path), notify=messages.append)
    assert again.count().count == 2680 and len(messages) == 1  # the recomputed row is sound


def test_every_damaged_field_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "all.sqlite"
    config = ParallelConfig(split_depth=2, checkpoint=path)
    assert len(list(SplitRun(Instance(8), "bitboard", enumerate=True, config=config).solutions())) == 92
    db = sqlite3.connect(path)
    with db:
        db.execute("UPDATE results SET prefix = '9,9' WHERE idx = 0")
        db.execute("UPDATE results SET solutions = X'00' WHERE idx = 1")
        db.execute("UPDATE results SET worker = 'elsewhere' WHERE idx = 2")
        db.execute("UPDATE results SET count = 'many' WHERE idx = 4")
    db.close()
    messages: list[str] = []
    resumed = list(SplitRun(Instance(8), "bitboard", enumerate=True, config=config, notify=messages.append)
                   .solutions())
    assert len(resumed) == len(set(resumed)) == 92
    assert [m.split("sub-problem ")[1].split(" ")[0] for m in messages] == ["#0", "#1", "#2", "#4"]


def test_a_forged_row_is_caught_by_the_oeis_check(tmp_path: Path) -> None:
    path = tmp_path / "n11.sqlite"
    _finished_checkpoint(path)
    _edit_count(path, 5, +1, forge=True)  # checksum made to match: only the total can tell
    label = split_instance(Instance(11), 2).subproblems[5].label()
    with pytest.raises(WrongCountError) as caught:
        SplitRun(Instance(11), "bitboard", config=ParallelConfig(checkpoint=path)).count()
    message = str(caught.value)
    assert "2682" in message and "A000170(11) = 2680" in message
    assert f"{label} counted" in message and message.count("counted") == 1
    assert f"removed from {path}" in message  # and so computed anew by the same command:
    assert SplitRun(Instance(11), "bitboard", config=ParallelConfig(checkpoint=path)).count().count == 2680


def test_a_wrong_backend_fails_the_oeis_check_with_its_sub_problems(miscounting: str) -> None:
    plan = split_instance(Instance(9), 2)
    wrong = [sub.label() for sub in plan.subproblems if sub.prefix[0] == 0]
    with pytest.raises(WrongCountError) as caught:
        SplitRun(Instance(9), miscounting, config=ParallelConfig(split_depth=2)).count()
    assert all(f"{label} counted" in str(caught.value) for label in wrong)
    # unique counts are checked against A002562; enumeration against A000170 as well
    assert SplitRun(Instance(9), "bitboard", unique=True, config=ParallelConfig(split_depth=2)).count().count \
        == A002562[9]


def test_verify_counts_every_sub_problem_twice(miscounting: str, tmp_path: Path) -> None:
    path = tmp_path / "v.sqlite"
    config = ParallelConfig(split_depth=2, verify=True, checkpoint=path)
    run = SplitRun(Instance(10), "bitboard", config=config)
    assert run.count().count == A000170[10]
    verifier = json.loads(dict(sqlite3.connect(path).execute("SELECT key, value FROM run"))["verify"])
    assert verifier.startswith("bitboard:") and "kernel=python" in verifier.split(":")  # the other kernel
    plan = split_instance(Instance(12), 2)
    with pytest.raises(WrongCountError, match=r"verify: sub-problem #\d+ \(rows 0-1 = 0,\d+\) of n=12"):
        SplitRun(Instance(12), miscounting, config=ParallelConfig(split_depth=2, verify=True, workers=2)).count()
    assert len(plan) > 2
    with pytest.raises(NQueensError, match="the backend being checked"):
        SplitRun(Instance(8), "bitboard", config=ParallelConfig(split_depth=1, verify=True, verify_with="bitboard"))
    checked = SplitRun(Instance(8), "sat", enumerate=True, unique=True,
                       config=ParallelConfig(split_depth=1, verify=True, verify_with="backtrack"))
    assert len(list(checked.solutions())) == A002562[8]


def test_verify_keeps_the_constellation_split_and_recounts_each_batch_by_rows(tmp_path: Path) -> None:
    """A constellation count stays split by constellations under ``verify``; each batch is counted
    again by the row search of every constellation (no constellation finishing code), so a wrong
    batch is caught, and a total off OEIS is recounted the same way to name the wrong batch."""
    path = tmp_path / "v.sqlite"
    run = SplitRun(Instance(11), "bitboard", config=ParallelConfig(verify=True, checkpoint=path))
    assert run.count().count == A000170[11] and run.plan.batches > 0
    assert SplitRun(Instance(11), "bitboard", unique=True, config=ParallelConfig(verify=True, batches=5)).count().count \
        == A002562[11]
    verifier = json.loads(dict(sqlite3.connect(path).execute("SELECT key, value FROM run"))["verify"])
    assert verifier.startswith("bitboard:") and "kernel=compiled" in verifier.split(":")
    with registered("miscounting-batches") as name:
        with pytest.raises(WrongCountError, match=r"verify: sub-problem #0 \(constellation batch 1 of 4\) of n=10: "
                           r"miscounting-batches:\S+ counted 193, the row search of miscounting-batches:\S+ counted 192"):
            SplitRun(Instance(10), name, config=ParallelConfig(verify=True, batches=4)).count()
        with pytest.raises(WrongCountError, match=r"wrong sub-problem\(s\): #0 \(constellation batch 1 of 4\) counted "
                           r"193, the row search of \S+ counts 192; no result reported$"):
            SplitRun(Instance(10), name, config=ParallelConfig(batches=4)).count()


def test_a_locked_checkpoint_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    first = CheckpointStore(path, {"n": 6})
    try:
        with pytest.raises(CheckpointLockedError, match="locked"):
            CheckpointStore(path, {"n": 6})
    finally:
        first.close()
    CheckpointStore(path, {"n": 6}).close()  # free again once the first is closed


def test_two_processes_resuming_one_checkpoint(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    command = [sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "solve", "10", "--count", "--backend", "sleepy",
               "-O", "delay=0.05", "--split-depth", "2", "--checkpoint", str(path)]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    first = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:  # wait until the first run is under way
            try:
                if sqlite3.connect(f"file:{path}?mode=ro", uri=True).execute(
                        "SELECT COUNT(*) FROM results").fetchone()[0] >= 2:
                    break
            except sqlite3.Error:
                pass
            time.sleep(0.05)
        second = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
        out, err = first.communicate(timeout=120)
    finally:
        first.kill()
        first.wait()
    assert first.returncode is not None
    assert second.returncode == 2 and second.stdout == ""
    assert len(second.stderr.splitlines()) == 1 and "locked" in second.stderr, second.stderr
    assert (first.returncode, out.strip()) == (0, str(A000170[10])), err


def test_cli_wrong_total_is_exit_1_naming_the_sub_problems(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "solve", "8", "--count", "--backend", "miscounting",
                           "--split-depth", "2"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 1 and done.stdout == ""
    assert "differs from OEIS A000170(8) = 92" in done.stderr and "(rows 0-1 = 0," in done.stderr
    assert "Traceback" not in done.stderr


def test_cli_verify(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}

    def solve(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", CLI_WITH_TEST_BACKENDS, "solve", *args], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=120)

    fine = solve("10", "--count", "--backend", "bitboard", "--verify", "--workers", "2")
    assert (fine.returncode, fine.stdout.strip(), fine.stderr) == (0, "724", "")
    caught = solve("10", "--count", "--backend", "miscounting", "--verify-with", "backtrack", "--split-depth", "1")
    assert caught.returncode == 1 and caught.stdout == ""
    assert caught.stderr.splitlines() == [
        "nqueens-cp: error: verify: sub-problem #0 (row 0 = 0) of n=10: miscounting:batch_size=8192:column=0:"
        "kernel=compiled:search=rows counted 65, backtrack:search=auto:seed=0 counted 64; no result reported"]
    assert solve("10", "--verify").returncode == 2  # a split flag: needs --count or --all


@pytest.mark.parametrize("unique", [False, True])
def test_a_plain_count_is_checked_against_oeis_too(
    miscounting: str, unique: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    from nqueens_cp.cli import main

    flags = ["--unique"] if unique else []
    status = main(["solve", "8", "--count", "--backend", miscounting, "-O", "column=-1", *flags])
    captured = capsys.readouterr()
    name, expected = ("A002562", A002562[8]) if unique else ("A000170", A000170[8])
    assert (status, captured.out) == (1, "")
    assert captured.err == (f"nqueens-cp: error: the count {expected + 1} of n=8 differs from OEIS {name}(8) = "
                            f"{expected}: the backend is wrong; no result reported\n")
    # where nothing is published (pre-placed queens, --limit) the count is the backend's alone
    assert main(["solve", "8", "--count", "--backend", miscounting, "-O", "column=-1", "--fix", "0:0"]) == 0
    assert main(["solve", "8", "--count", "--backend", miscounting, "-O", "column=-1", "--limit", "5"]) == 0
    assert capsys.readouterr().out.split() == ["5", "6"]  # 4 + 1 with queen 0:0; min(92, 5) + 1


def test_the_solutions_of_a_plain_all_are_counted_against_oeis(capsys: pytest.CaptureFixture[str]) -> None:
    from nqueens_cp.cli import main

    from .harness_backends import registered as harness_registered

    with harness_registered():
        status = main(["solve", "8", "--all", "--backend", "test-drops"])
    captured = capsys.readouterr()
    assert status == 1 and len(captured.out.splitlines()) == 91  # what was written stays written
    assert captured.err == ("nqueens-cp: error: 91 solutions of n=8 written, but OEIS A000170(8) = 92: the "
                            "backend is wrong\n")
