"""Solver packages (ASP, MIP, SMT, PB, CPMpy and the solvers behind it, the counters, CP-SAT, SAT) are
imported only by the backend that solves with them, not at start-up nor by listing the backends; which
of these backends the default comparison runs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

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


def test_the_default_comparison_runs_the_per_solution_enumerators_up_to_their_bound() -> None:
    from nqueens_cp.harness.configs import (
        DEFAULT_LARGEST_N,
        default_configuration_texts,
        default_largest_n,
        parse_configurations,
    )

    texts = default_configuration_texts()
    assert {"asp", "pb", "smt", "mip"} <= set(texts)
    bounds = default_largest_n(parse_configurations(texts))
    assert set(bounds) == set(DEFAULT_LARGEST_N) and bounds["mip"][0] == 7 and "asp" not in bounds
    # named, they run every n
    assert default_largest_n(parse_configurations(["asp"])) == {}


def test_largest_n_skips_the_larger_boards_with_the_reason(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nqueens_cp.cli import main

    out = tmp_path / "bounded"
    status = main(["compare", "--n", "4-6", "--repeat", "1", "--backends", "backtrack,pb", "--largest-n", "pb=5",
                   "--out", str(out)])
    report = capsys.readouterr().out
    assert status == 0 and "PASS for n = 4..6" in report, report
    data = json.loads((out / "results.json").read_text())
    pb = {r["n"]: r for r in data["runs"] if r["config"] == "pb"}
    assert [pb[n]["status"] for n in (4, 5, 6)] == ["ok", "ok", "skipped"]
    assert pb[6]["reason"] == "not run above n = 5: --largest-n pb=5"
    assert "--largest-n pb=5" in data["settings"]["command"]
    # a bound on a configuration not compared is refused in one line (usage error)
    assert main(["compare", "--n", "4", "--backends", "backtrack", "--largest-n", "pb=5", "--out", str(tmp_path / "x")]) == 2
    assert "--largest-n: 'pb' is not one of the configurations (backtrack)" in capsys.readouterr().err
