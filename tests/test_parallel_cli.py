"""``solve`` split-run flags through a real subprocess."""

from __future__ import annotations

from pathlib import Path

import pytest

from nqueens_cp import Instance
from nqueens_cp.core.checker import is_valid_solution

from .conftest import run_cli


@pytest.mark.parametrize("backend", ["backtrack", "bitboard", "cpsat", "sat"])
def test_count_with_two_workers(backend: str) -> None:
    result = run_cli("solve", "8", "--count", "--backend", backend, "--workers", "2")
    assert (result.returncode, result.stdout.strip(), result.stderr) == (0, "92", "")


def test_all_with_workers_streams_the_same_set() -> None:
    serial = run_cli("solve", "8", "--all", "--format", "jsonl")
    split = run_cli("solve", "8", "--all", "--format", "jsonl", "--workers", "2", "--split-depth", "3")
    assert serial.returncode == split.returncode == 0, split.stderr
    lines = split.stdout.splitlines()
    assert len(lines) == len(set(lines)) == 92
    assert sorted(lines) == sorted(serial.stdout.splitlines())


def test_unique_and_pre_placed_queens() -> None:
    result = run_cli("solve", "8", "--count", "--unique", "--split-depth", "2")
    assert (result.returncode, result.stdout.strip()) == (0, "12")
    result = run_cli("solve", "8", "--all", "--fix", "1:4", "--split-depth", "2", "--workers", "2")
    assert result.returncode == 0, result.stderr
    solutions = [tuple(map(int, line.split())) for line in result.stdout.splitlines()]
    assert solutions and all(s[1] == 4 and is_valid_solution(Instance(8, {1: 4}), s) for s in solutions)
    assert len(solutions) == len(set(solutions)) == int(run_cli("solve", "8", "--count", "--fix", "1:4").stdout)


def test_no_solution_exits_1() -> None:
    result = run_cli("solve", "3", "--all", "--split-depth", "1")
    assert result.returncode == 1 and result.stdout == "" and "no solution" in result.stderr
    result = run_cli("solve", "3", "--count", "--split-depth", "1")
    assert (result.returncode, result.stdout.strip()) == (0, "0")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--split-depth", "2"], "--split-depth needs --count or --all"),
        (["--checkpoint", "x.sqlite"], "--checkpoint needs --count or --all"),
        (["--count", "--workers", "0"], "--workers must be >= 1"),
        (["--count", "--workers", "2", "--limit", "3"], "--limit cannot be combined"),
        (["--count", "--executor", "processes", "--scheduler", "tcp://h:8786"], "--scheduler is a Dask address"),
        (["--count", "--split-depth", "-1"], "--split-depth"),
        (["--workers", "2"], "--workers needs --count or --all"),
    ],
)
def test_bad_combinations_are_one_line_errors(args: list[str], message: str) -> None:
    result = run_cli("solve", "8", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("nqueens-cp: error:") and message in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_workers_are_split_run_workers_only() -> None:
    result = run_cli("solve", "8", "--backend", "cpsat", "--search-workers", "2")  # CP-SAT's own name
    assert result.returncode == 0, result.stderr
    assert is_valid_solution(Instance(8), tuple(map(int, result.stdout.split())))
    refused = run_cli("solve", "8", "--backend", "cpsat", "--workers", "2")  # no longer CP-SAT's workers
    assert (refused.returncode, refused.stdout) == (2, "")
    assert refused.stderr == "nqueens-cp: error: --workers needs --count or --all\n"
    assert run_cli("solve", "8", "--count", "--backend", "cpsat", "--workers", "1").stdout == "92\n"


def test_checkpointed_all_resumes_to_the_same_output(tmp_path: Path) -> None:
    path = str(tmp_path / "all.sqlite")
    first = run_cli("solve", "9", "--all", "--workers", "2", "--checkpoint", path)
    again = run_cli("solve", "9", "--all", "--workers", "2", "--checkpoint", path)  # all resumed
    assert first.returncode == again.returncode == 0
    assert len(first.stdout.splitlines()) == 352
    assert sorted(first.stdout.splitlines()) == sorted(again.stdout.splitlines())


def test_help_gives_each_kind_of_workers_its_own_flag() -> None:
    text = " ".join(run_cli("solve", "--help").stdout.split())
    assert "--workers W the number of parallel workers of a split run, for every backend" in text
    assert "--search-workers W cpsat: number of CP-SAT search workers" in text
    for flag in ("--executor", "--scheduler", "--split-depth", "--checkpoint", "--retries"):
        assert flag in text


def test_max_model_mb_reaches_the_process_pool_workers() -> None:
    """The budget travels with each sub-problem: a worker started by forkserver refuses the CNF of
    n = 12 (about 0.54 MB) over --max-model-mb 0.5 as this process does, instead of counting it;
    the run ends at the first refusal, with the same one line and exit status 2, no retry."""
    budget = ["--backend", "sat", "--max-model-mb", "0.5"]
    serial = run_cli("solve", "12", "--count", *budget)
    assert serial.returncode == 2 and "over the 0 MB limit (--max-model-mb)" in serial.stderr
    split = run_cli("solve", "12", "--count", *budget, "--workers", "2", "--executor", "processes",
                    "--split-depth", "1")
    assert (split.returncode, split.stdout) == (2, ""), split.stderr
    assert split.stderr.startswith("nqueens-cp: error: sat: the pairwise CNF of n = 12"), split.stderr
    assert "over the 0 MB limit (--max-model-mb)" in split.stderr and split.stderr.count("\n") == 1
    assert "retrying" not in split.stderr
