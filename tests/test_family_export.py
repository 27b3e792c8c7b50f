"""``export N --problem P`` and ``decode N FILE --problem P``: every file an outside solver reads
answers the family model, and its answer comes back through the independent checker.

The outside solvers are the installed ones: HiGHS reads the LP and MPS files, PySAT's RC2 the
WCNF, z3 the OPB, a PySAT SAT solver the DIMACS; each optimum is compared with its OEIS term.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from nqueens_cp.cli import main
from nqueens_cp.cli.export import FAMILY_FORMAT_CHOICES, FAMILY_PROBLEMS
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem
from nqueens_cp.export.family import FAMILY_FORMATS, decode_family, export_family_model, family_cnf
from nqueens_cp.models.family import build_family_model

OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]
PLACEMENT = [Problem.TOROIDAL, Problem.SUPERQUEENS]


def published(problem: Problem, n: int) -> int:
    return SEQUENCES[problem.sequences[0]][n]


def test_the_command_line_lists_what_the_writers_write() -> None:
    assert set(FAMILY_FORMATS) == set(FAMILY_FORMAT_CHOICES)
    assert tuple(p.value for p in Problem if p is not Problem.QUEENS) == FAMILY_PROBLEMS


@pytest.mark.parametrize("fmt", ["lp", "mps"])
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_highs_reads_the_lp_and_mps_files(problem: Problem, fmt: str, tmp_path: Path) -> None:
    highspy = pytest.importorskip("highspy")
    for n in range(1, 6):
        path = tmp_path / f"model.{fmt}"
        path.write_text(export_family_model(problem, n, fmt))
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
        assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
        highs.run()
        assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
        solution = tmp_path / "answer.sol"
        highs.writeSolution(str(solution), 0)
        decoded = decode_family(problem, n, solution.read_text())
        assert decoded.problems == () and decoded.claims_optimum
        assert decoded.value == published(problem, n), (problem, n)
        if problem is not Problem.COLOURING or n > 1:  # n = 1: no line binds a "colour used" variable
            assert round(highs.getInfo().objective_function_value) == decoded.value


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_rc2_reads_the_wcnf(problem: Problem) -> None:
    pytest.importorskip("pysat")
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    for n in range(1, 6):
        with RC2(WCNF(from_string=export_family_model(problem, n, "wcnf"))) as rc2:
            model = rc2.compute()
            cost = rc2.cost
        answer = f"s OPTIMUM FOUND\no {cost}\nv {' '.join(map(str, model))}\n"
        decoded = decode_family(problem, n, answer)
        assert decoded.problems == () and decoded.value == published(problem, n), (problem, n)
        if problem is Problem.PEACEABLE:
            assert cost == n * n - decoded.value  # a soft clause per white square: those left empty cost 1
        elif problem is not Problem.COLOURING or n > 1:
            assert cost == decoded.value


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_z3_reads_the_opb(problem: Problem, tmp_path: Path) -> None:
    z3 = pytest.importorskip("z3")
    for n in (3, 5):
        path = tmp_path / "model.opb"
        path.write_text(export_family_model(problem, n, "opb"))
        optimiser = z3.Optimize()
        optimiser.from_file(str(path))
        assert optimiser.check() == z3.sat
        found = optimiser.model()
        true = [d.name().removeprefix("k!") for d in found.decls() if z3.is_true(found[d])]  # z3 names x<i> k!<i>
        decoded = decode_family(problem, n, "v " + " ".join(f"x{v}" for v in true) + "\n")
        assert decoded.problems == () and decoded.value == published(problem, n), (problem, n)


@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 9)), (Problem.SUPERQUEENS, range(1, 11))],
                         ids=["toroidal", "superqueens"])
def test_the_dimacs_models_are_the_placements(problem: Problem, sizes: range) -> None:
    pytest.importorskip("pysat")
    from pysat.formula import CNF
    from pysat.solvers import Solver

    for n in sizes:
        squares = n * n
        placements = set()
        with Solver(bootstrap_with=CNF(from_string=export_family_model(problem, n, "dimacs")).clauses) as solver:
            while solver.solve():
                model = solver.get_model()
                decoded = decode_family(problem, n, "s SATISFIABLE\nv " + " ".join(map(str, model)) + " 0\n")
                assert decoded.problems == (), (problem, n, decoded.problems)
                placements.add(decoded.witness)
                solver.add_clause([-lit for lit in model if 0 < abs(lit) <= squares])
        assert len(placements) == published(problem, n), (problem, n)


@pytest.mark.parametrize(("problem", "n"), [(Problem.DOMINATION, 3), (Problem.INDEPENDENT_DOMINATION, 3),
                                            (Problem.PEACEABLE, 2), (Problem.SUPERQUEENS, 3)],
                         ids=lambda value: getattr(value, "value", str(value)))
def test_the_clauses_hold_exactly_when_the_rows_do(problem: Problem, n: int) -> None:
    """Every assignment of the model's variables: the CNF (its auxiliaries free) is satisfiable
    under it exactly when every linear row holds."""
    pytest.importorskip("pysat")
    from pysat.solvers import Solver

    model = build_family_model(problem, n)
    cnf = family_cnf(model)
    with Solver(bootstrap_with=[list(clause) for clause in cnf.clauses]) as solver:
        for values in itertools.product((False, True), repeat=model.variables):
            rows_hold = all(row.allows(sum(c for c, v in row.terms if values[v - 1])) for row in model.rows)
            assumptions = [v if values[v - 1] else -v for v in range(1, model.variables + 1)]
            assert solver.solve(assumptions=assumptions) == rows_hold, values


def test_a_maximisation_says_so_in_every_format() -> None:
    assert "Maximize" in export_family_model(Problem.PEACEABLE, 4, "lp")
    assert "OBJSENSE\n    MAX" in export_family_model(Problem.PEACEABLE, 4, "mps")
    assert "min: -1 x1" in export_family_model(Problem.PEACEABLE, 4, "opb")


def test_decode_reads_an_answer_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("pysat")
    from pysat.examples.rc2 import RC2
    from pysat.formula import WCNF

    model_file = tmp_path / "d6.wcnf"
    assert main(["export", "6", "--problem", "domination", "--format", "wcnf", "-o", str(model_file)]) == 0
    with RC2(WCNF(from_file=str(model_file))) as rc2:
        model = rc2.compute()
    answer = tmp_path / "d6.out"
    answer.write_text(f"s OPTIMUM FOUND\no {rc2.cost}\nv {' '.join(map(str, model))}\n")
    assert main(["decode", "6", str(answer), "--problem", "domination"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "3"
    assert out.splitlines()[-1] == ("valid witness of domination for n = 6: domination number at most 3 "
                                    "(the solver says optimal; A075458: 3)")


def test_decode_refuses_a_wrong_witness_and_a_wrong_optimum(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = tmp_path / "answer.out"
    answer.write_text("s SATISFIABLE\nv 1 -2 0\n")  # one queen on a 5 x 5 board dominates little
    assert main(["decode", "5", str(answer), "--problem", "domination"]) == 1
    assert "invalid: square (1, 2) is neither occupied nor attacked" in capsys.readouterr().err
    answer.write_text("s OPTIMUM FOUND\nv 1 2 3 4 5 0\n")  # row 0 full: valid, 5 queens, not the optimum 3
    assert main(["decode", "5", str(answer), "--problem", "domination"]) == 1
    assert "the solver says 5 is optimal, A075458 publishes 3" in capsys.readouterr().err
    answer.write_text("s UNSATISFIABLE\n")
    assert main(["decode", "4", str(answer), "--problem", "toroidal"]) == 1
    assert "UNSATISFIABLE" in capsys.readouterr().out


@pytest.mark.parametrize(("argv", "fragment"), [
    (["export", "5", "--problem", "domination", "--format", "dimacs"], "--format wcnf, not dimacs"),
    (["export", "5", "--problem", "toroidal", "--format", "wcnf"], "--format dimacs, not wcnf"),
    (["export", "5", "--problem", "colouring", "--format", "cpsat"], "is written as lp, mps, opb, wcnf, dimacs, smt2, asp, minizinc"),
    (["export", "5", "--problem", "colouring", "--format", "lp", "--fix", "0:0"], "--fix is for the classic"),
    (["export", "0", "--problem", "peaceable", "--format", "lp"], "N >= 1"),
    (["export", "5", "--format", "wcnf"], "give --problem P"),
    (["decode", "5", "-", "--problem", "domination", "--fix", "0:0"], "takes N and FILE only"),
])
def test_bad_family_export_options_are_one_line(argv: list[str], fragment: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_an_answer_without_a_model_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    answer = tmp_path / "answer.out"
    answer.write_text("s OPTIMUM FOUND\no 3\n")
    assert main(["decode", "5", str(answer), "--problem", "domination"]) == 2
    assert "gives no model (rc2.py prints it with -vv)" in capsys.readouterr().err
