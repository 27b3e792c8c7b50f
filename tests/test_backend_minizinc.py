"""The ``minizinc`` backend beyond the shared contract: solvers, availability, streaming, the harness."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from nqueens_cp import BackendOptionError, Instance, create_backend
from nqueens_cp.backends.minizinc import MiniZincBackend, installed_solvers

from .conftest import require_backend, run_cli


@pytest.fixture(autouse=True)
def needs_minizinc() -> None:
    require_backend("minizinc")


def test_gecode_is_the_default_and_the_solvers_are_found() -> None:
    assert "gecode" in installed_solvers()
    assert create_backend("minizinc").options["solver"] == "gecode"
    with pytest.raises(BackendOptionError, match=r"choose from .*gecode"):
        create_backend("minizinc", solver="no-such-solver")
    listing = run_cli("backends")
    section = listing.stdout.split("minizinc:")[1]
    assert section.startswith(" available")
    solvers = installed_solvers()  # the solvers found here: inline when few, else on a choices line
    shown = f"--solver {'|'.join(solvers)} (default gecode)" if len(solvers) <= 4 else f"choices: {', '.join(solvers)}"
    assert shown in section


def test_solutions_are_streamed_and_an_early_stop_stops_the_solver() -> None:
    backend = create_backend("minizinc")
    children_before = set(os.listdir("/proc"))
    stream = backend.solutions(Instance(16))  # 14.7 million solutions: only a stream gets a first one quickly
    first = next(stream)
    assert len(first) == 16
    stream.close()  # type: ignore[attr-defined]
    left = [pid for pid in set(os.listdir("/proc")) - children_before
            if pid.isdigit() and "fzn-gecode" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")]
    assert not left, "the solver process outlived the stream"


def test_pre_placed_queens_and_model_size() -> None:
    backend = create_backend("minizinc")
    fixed = Instance(8, {0: 0})
    solutions = list(backend.solutions(fixed))
    assert len(solutions) == 4 and all(s[0] == 0 for s in solutions)
    size = backend.model_size(fixed)
    assert (size.variables, size.constraints) == (8, 4)


def test_without_the_program_the_backend_says_how_to_install_it() -> None:
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}  # the venv's python, no minizinc
    listing = run_cli("backends", env=env)
    line = next(line for line in listing.stdout.splitlines() if line.startswith("minizinc:"))
    assert "unavailable" in line and "apt-get install minizinc flatzinc" in line
    done = run_cli("solve", "8", "--backend", "minizinc", env=env)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "minizinc program" in done.stderr
    assert MiniZincBackend.unavailable_reason() is None  # here, with the program on the PATH


@pytest.mark.slow  # 8-11 s: the default run stays under 8 minutes (CI runs it with -m slow)
def test_the_harness_compares_minizinc_with_the_others(tmp_path: Path) -> None:
    done = run_cli("compare", "--n", "4-8", "--backends", "bitboard,minizinc,cpsat", "--repeat", "1",
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert "RESULT: PASS" in done.stdout and "minizinc" in done.stdout
