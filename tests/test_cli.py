"""The command line, through a real subprocess."""

from __future__ import annotations

import json

import pytest

from nqueens_cp import Instance
from nqueens_cp.core.checker import is_valid_solution

from .conftest import run_cli

BACKENDS = ["backtrack", "bitboard", "cpsat", "sat"]


@pytest.mark.parametrize("backend", BACKENDS)
def test_count_8(backend: str) -> None:
    result = run_cli("solve", "8", "--backend", backend, "--count")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "92"


@pytest.mark.parametrize("backend", BACKENDS)
def test_all_8_lists_92_distinct_valid_solutions(backend: str) -> None:
    result = run_cli("solve", "8", "--backend", backend, "--all")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    solutions = {tuple(map(int, line.split())) for line in lines}
    assert len(lines) == len(solutions) == 92
    assert all(is_valid_solution(Instance(8), s) for s in solutions)


def test_first_solution_default_and_show() -> None:
    result = run_cli("solve", "6", "--show")
    assert result.returncode == 0
    first, *board = result.stdout.strip().splitlines()
    solution = tuple(map(int, first.split()))
    assert is_valid_solution(Instance(6), solution)
    assert [row.split().index("Q") for row in board] == list(solution)


def test_jsonl_limit_and_fix() -> None:
    result = run_cli("solve", "8", "--all", "--limit", "3", "--format", "jsonl", "--fix", "0:2", "--backend", "sat")
    assert result.returncode == 0, result.stderr
    rows = [tuple(json.loads(line)) for line in result.stdout.splitlines()]
    assert len(rows) == 3 and all(r[0] == 2 and is_valid_solution(Instance(8, {0: 2}), r) for r in rows)


def test_backend_options_reach_the_backend() -> None:
    result = run_cli("solve", "7", "--count", "--backend", "sat", "--encoding", "ladder", "--solver", "g4")
    assert (result.returncode, result.stdout.strip()) == (0, "40")
    result = run_cli("solve", "7", "--count", "--backend", "cpsat", "--time-limit", "60")
    assert (result.returncode, result.stdout.strip()) == (0, "40")
    result = run_cli("solve", "7", "--backend", "cpsat", "--search-workers", "2", "--time-limit", "60")
    assert result.returncode == 0 and is_valid_solution(Instance(7), tuple(map(int, result.stdout.split())))


def test_no_solution_exits_1_with_a_message() -> None:
    result = run_cli("solve", "3")
    assert result.returncode == 1 and result.stdout == "" and "no solution" in result.stderr
    result = run_cli("solve", "8", "--fix", "0:0", "--fix", "1:1", "--count")
    assert (result.returncode, result.stdout.strip()) == (0, "0")


def test_zero_board_has_the_empty_solution() -> None:
    result = run_cli("solve", "0", "--count")
    assert result.stdout.strip() == "1"


def test_backends_lists_each_backend_and_the_sat_choices() -> None:
    result = run_cli("backends")
    assert result.returncode == 0
    for name in BACKENDS:
        assert f"{name}: available" in result.stdout
    assert "seqcounter" in result.stdout and "kmtotalizer" in result.stdout and "minisat22" in result.stdout


def test_help_answers_without_importing_solver_packages() -> None:
    import subprocess
    import sys

    from .conftest import REPO

    probe = (
        "import sys\n"
        "from nqueens_cp.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = [m for m in ('ortools', 'pysat', 'numba', 'matplotlib', 'dask', 'clingo', 'highspy', 'z3', 'exact') if m in sys.modules]\n"
        "print('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO)
    assert "usage: nqueens-cp" in done.stdout
    assert "HEAVY []" in done.stdout, done.stdout


def test_a_command_loads_its_own_module_alone() -> None:
    import subprocess
    import sys

    from .conftest import REPO

    probe = (
        "import sys\n"
        "from nqueens_cp.cli import COMMANDS, main\n"
        "assert main(['solve', '6', '--count']) == 0\n"
        "print('LOADED', sorted(c for c in COMMANDS if f'nqueens_cp.cli.{c}' in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO)
    assert done.stdout.split("\n")[:2] == ["4", "LOADED ['solve']"], done


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "-3"], "N must be >= 0"),
        (["solve", "abc"], "N must be an integer"),
        (["solve", "8", "--backend", "nope"], "unknown backend"),
        (["solve", "8", "--backend", "sat", "--encoding", "nope"], "unknown value 'nope'"),
        (["solve", "8", "--backend", "sat", "--solver", "nope"], "unknown solver"),
        (["solve", "8", "--backend", "sat", "--solver", "kissat404"], "cannot enumerate"),
        (["solve", "8", "--backend", "backtrack", "--encoding", "pairwise"], "has no option"),
        (["solve", "8", "--fix", "3"], "--fix takes ROW:COL"),
        (["solve", "8", "--fix", "a:b"], "--fix takes ROW:COL"),
        (["solve", "8", "--fix", "8:0"], "off the 8x8 board"),
        (["solve", "8", "--fix", "0:1", "--fix", "0:2"], "two queens given for row 0"),
        (["solve", "8", "--limit", "-1", "--all"], "limit must be >= 0"),
        (["solve", "8", "--unique", "--fix", "0:1", "--count"], "pre-placed"),
        (["solve", "8", "--count", "--backend", "cpsat", "--workers", "0"], "--workers must be >= 1"),
        (["solve", "8", "--backend", "cpsat", "--search-workers", "0"], "--search-workers must be >= 1"),
        (["solve", "8", "--backend", "cpsat", "--workers", "2"], "--workers needs --count or --all"),
        (["solve", "8", "--backend", "bitboard", "--search-workers", "2"], "search_workers"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], needle: str) -> None:
    result = run_cli(*args)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert needle in result.stderr
