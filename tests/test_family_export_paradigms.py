"""``export N --problem P --format asp|minizinc|smt2``: the outside solvers' own programs read each
file (clingo, the minizinc program with Gecode, the z3 program), their printed answers come back
through ``decode --problem`` and the independent checker, and each optimum is the OEIS term."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from nqueens_cp.cli import main
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem
from nqueens_cp.export.family import decode_family, export_family_model

OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]


def published(problem: Problem, n: int) -> int:
    return SEQUENCES[problem.sequences[0]][n]


def clingo(path: Path, *arguments: str) -> str:
    pytest.importorskip("clingo")
    done = subprocess.run([sys.executable, "-m", "clingo", str(path), *arguments], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode in (0, 10, 20, 30), done.stderr  # 10, 20, 30: satisfiable, unsatisfiable, optimum
    return done.stdout


def program(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found is None:
        pytest.skip(f"the {name} program is not installed")
    return found


def run(command: list[str]) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    return done.stdout


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_clingo_reads_the_asp_programs(problem: Problem, tmp_path: Path) -> None:
    for n in range(1, 6):
        path = tmp_path / "model.asp.lp"
        path.write_text(export_family_model(problem, n, "asp"))
        decoded = decode_family(problem, n, clingo(path))
        assert decoded.problems == () and decoded.claims_optimum, (n, decoded)
        assert decoded.value == published(problem, n), (problem, n)


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_z3_reads_the_smt2_files(problem: Problem, tmp_path: Path) -> None:
    z3 = program("z3")
    for n in range(1, 6):
        path = tmp_path / "model.smt2"
        path.write_text(export_family_model(problem, n, "smt2"))
        decoded = decode_family(problem, n, run([z3, str(path)]))
        assert decoded.problems == () and decoded.claims_optimum, (n, decoded)
        assert decoded.value == published(problem, n), (problem, n)


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_gecode_reads_the_minizinc_models(problem: Problem, tmp_path: Path) -> None:
    minizinc = program("minizinc")
    for n in (1, 3, 5):
        path = tmp_path / "model.mzn"
        path.write_text(export_family_model(problem, n, "minizinc"))
        decoded = decode_family(problem, n, run([minizinc, "--solver", "gecode", str(path)]))
        assert decoded.problems == () and decoded.claims_optimum, (n, decoded)
        assert decoded.value == published(problem, n), (problem, n)


@pytest.mark.parametrize(("problem", "n"), [(Problem.TOROIDAL, 7), (Problem.TOROIDAL, 6), (Problem.SUPERQUEENS, 10)],
                         ids=["toroidal-7", "toroidal-6", "superqueens-10"])
def test_every_answer_of_a_placement_program_is_a_placement(problem: Problem, n: int, tmp_path: Path) -> None:
    """clingo's and Gecode's every answer (the torus's with the first queen in column 0: a count
    over n) and z3's one, each decoded and checked."""
    per = n if problem is Problem.TOROIDAL else 1
    asp = tmp_path / "model.asp.lp"
    asp.write_text(export_family_model(problem, n, "asp"))
    answers = ["Answer: " + answer for answer in clingo(asp, "0").split("\nAnswer: ")[1:]]
    mzn = tmp_path / "model.mzn"
    mzn.write_text(export_family_model(problem, n, "minizinc"))
    printed = run([program("minizinc"), "--solver", "gecode", "--all-solutions", str(mzn)])
    solutions = [solution + "----------\n" for solution in printed.split("----------")[:-1]]
    for found in (answers, solutions):
        assert len(found) * per == published(problem, n)
        for answer in found:
            decoded = decode_family(problem, n, answer)
            assert decoded.problems == () and decoded.witness is not None, answer
    smt = tmp_path / "model.smt2"
    smt.write_text(export_family_model(problem, n, "smt2"))
    decoded = decode_family(problem, n, run([program("z3"), str(smt)]))
    assert decoded.unsatisfiable == (published(problem, n) == 0)
    assert decoded.unsatisfiable or decoded.problems == ()


def test_decode_reads_clingos_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    model = tmp_path / "p5.asp.lp"
    assert main(["export", "5", "--problem", "peaceable", "--format", "asp", "-o", str(model)]) == 0
    answer = tmp_path / "p5.out"
    answer.write_text(clingo(model))
    assert main(["decode", "5", str(answer), "--problem", "peaceable"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "4"
    assert out.splitlines()[-1] == ("valid witness of peaceable for n = 5: largest peaceable armies at least 4 "
                                    "(the solver says optimal; A250000: 4)")
