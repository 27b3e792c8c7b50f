"""Solver packages (ASP, MIP, SMT, PB, CPMpy and the solvers behind it, the counters, CP-SAT, SAT) are
imported only by the backend that solves with them, not at start-up nor by listing the backends; which
of these backends the default comparison runs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO

SOLVER_PACKAGES = ("clingo", "highspy", "z3", "exact", "cpmpy", "pychoco", "pycsp3", "ortools", "pysat", "pyganak",
                   "pyapproxmc", "dd", "minizinc", "numba")


@pytest.mark.parametrize("argv", [[], ["backends"], ["solve", "8", "--backend", "backtrack"], ["export", "8", "--format", "asp"],
                                  ["export", "8", "--format", "lp"], ["export", "8", "--format", "smt2"]],
                         ids=lambda argv: " ".join(argv) or "start-up")
def test_listing_exporting_and_other_backends_import_no_solver_package(argv: list[str]) -> None:
    probe = (
        "import sys, io, contextlib\n"
        "from nqueens_cp.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    try:\n        main({argv!r})\n    except SystemExit:\n        pass\n"
        f"print('LOADED', [m for m in {SOLVER_PACKAGES!r} if m in sys.modules])\n"
        "print(out.getvalue())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert "LOADED []" in done.stdout, (done.stdout, done.stderr)
    if argv == ["backends"]:  # the listing names the solvers found: CPMpy's are found, not imported
        assert "choices: ortools" in done.stdout or "cpmpy: unavailable" in done.stdout, done.stdout


def test_the_default_comparison_takes_asp_and_leaves_the_per_solution_enumerators_to_be_named() -> None:
    from nqueens_cp.harness.configs import (
        LEFT_OUT_OF_DEFAULT,
        default_configuration_texts,
        parse_configurations,
    )

    texts = default_configuration_texts()
    assert "asp" in texts and not set(LEFT_OUT_OF_DEFAULT) & set(texts)
    assert [c.label for c in parse_configurations(["pb", "smt", "mip"])] == ["pb", "smt", "mip"]
