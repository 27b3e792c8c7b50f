"""Every script of ``examples/`` runs as a user would run it, and says what its docstring promises."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"

#: Each script, the arguments the test gives it, and lines its output must hold.
RUNS: dict[str, tuple[list[str], list[str]]] = {
    "diff_backends.py": (["7", "cpsat", "sat:encoding=ladder"],
                         ["n = 7: cpsat 40 solutions, sat:encoding=ladder 40\nonly cpsat: 0,"]),
    "cnf_outside_solver.py": (["10", "seqcounter"], ["the solver says SATISFIABLE", "(checked)"]),
    "completion.py": (["12", "4", "3"], ["instance: n=12 fixed=", "both completions checked"]),
    "split_count.py": (["10", "CHECKPOINT"], ["n = 10: 724 solutions", "read back", "A000170: 724"]),
    "custom_backend.py": (["6"], ["n = 6: 4 solutions", "same set as bitboard: True"]),
}


def run_example(script: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=300)


def test_every_example_script_is_run_here() -> None:
    assert sorted(path.name for path in EXAMPLES.glob("*.py")) == sorted(RUNS)


@pytest.mark.parametrize("script", sorted(RUNS))
def test_example_runs(script: str, tmp_path: Path) -> None:
    if script == "cnf_outside_solver.py" and not (shutil.which("cadical") or shutil.which("minisat")):
        pytest.skip("no outside SAT solver (cadical or minisat) installed")
    args, expected = RUNS[script]
    args = [str(tmp_path / "n.sqlite") if arg == "CHECKPOINT" else arg for arg in args]
    done = run_example(script, args, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    for line in expected:
        assert line in done.stdout, done.stdout
    if script == "split_count.py":  # the second run reads every sub-problem back from the checkpoint
        first, second = [line for line in done.stdout.splitlines() if line.startswith("n = 10")]
        assert "(0 read back" in first and "(0 read back" not in second


@pytest.mark.parametrize("script, args", [
    ("diff_backends.py", ["6", "backtrack", "localsearch"]),   # a backend that cannot enumerate
    ("completion.py", ["4", "9"]),                             # more queens than rows
    ("custom_backend.py", ["many"]),                           # not a board size
])
def test_bad_input_is_one_line_and_exit_status_2(script: str, args: list[str], tmp_path: Path) -> None:
    done = run_example(script, args, tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stderr.strip().splitlines()[-1].startswith(script[:-3])
