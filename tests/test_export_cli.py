"""`nqueens-cp export` and `nqueens-cp decode` in real subprocesses, and the solver-output reader."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from nqueens_cp.cli.output import draw_queens
from nqueens_cp.core.errors import ModelFileError
from nqueens_cp.core.instance import Instance
from nqueens_cp.export.decode import board_from_literals, parse_solver_output
from nqueens_cp.export.writers import export_model
from nqueens_cp.models.encodings import ENCODINGS

REPO = Path(__file__).resolve().parents[1]
SOLUTION_8 = (0, 4, 7, 5, 2, 6, 1, 3)


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def cli(*args: str, stdin: str | None = None, cwd: Path = REPO) -> Run:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "nqueens_cp", *args], input=stdin, capture_output=True,
                          text=True, timeout=120, env=env, cwd=cwd)
    return Run(done.returncode, done.stdout, done.stderr)


def literals_of(solution: tuple[int, ...]) -> list[int]:
    n = len(solution)
    return [(r * n + c + 1) * (1 if solution[r] == c else -1) for r in range(n) for c in range(n)]


def test_parse_competition_output_with_several_v_lines() -> None:
    lits = literals_of(SOLUTION_8)
    text = "c cadical\ns SATISFIABLE\n" + "v " + " ".join(map(str, lits[:30])) + "\n"
    text += "v " + " ".join(map(str, [*lits[30:], 65, -66])) + " 0\n"
    answer = parse_solver_output(text)
    assert answer.status == "SATISFIABLE"
    assert answer.literals == (*lits, 65, -66)
    assert board_from_literals(Instance(8), answer.literals).solution == SOLUTION_8


def test_parse_minisat_result_file_and_bare_model_and_pb_literals() -> None:
    lits = literals_of(SOLUTION_8)
    minisat = "SAT\n" + " ".join(map(str, lits)) + " 0"
    assert parse_solver_output(minisat).literals == parse_solver_output(" ".join(map(str, lits))).literals
    assert parse_solver_output(minisat).status == "SATISFIABLE"
    assert parse_solver_output(" ".join(map(str, lits))).status is None
    pb = "s SATISFIABLE\nv " + " ".join(f"-x{-v}" if v < 0 else f"x{v}" for v in lits) + "\n"
    assert parse_solver_output(pb).literals == tuple(lits)
    assert parse_solver_output("UNSAT\n").status == "UNSATISFIABLE"
    assert parse_solver_output("s UNSATISFIABLE\n").literals == ()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no solver status and no model"),
        ("c only a comment\n", "no solver status and no model"),
        ("s SATISFIABLE\nv 1 two 0\n", "'two' is not a literal"),
        ("s MAYBE\n", "unknown status"),
        ("1 -2 3 -1 0\n", "variable 1 is given both true and false"),
        ("s UNSATISFIABLE\nv 1 0\n", "UNSATISFIABLE but also gives a model"),
        ("p cnf 3 2\n1 2 0\n", r"this is a DIMACS CNF \(p cnf 3 2 \.\.\.\), not a solver's answer"),
    ],
)
def test_parse_rejects_what_is_not_a_solver_answer(text: str, message: str) -> None:
    with pytest.raises(ModelFileError, match=message):
        parse_solver_output(text)


def test_board_reports_rows_without_or_with_several_queens() -> None:
    board = board_from_literals(Instance(4), [2, 3, 8, 13])
    assert board.solution is None
    assert board.problems == ("row 0 has 2 queens (columns 1, 2)", "row 2 has no queen")
    assert draw_queens(board.n, board.queens).splitlines()[0] == ". Q Q ."


def test_export_stdout_equals_output_file(tmp_path: Path) -> None:
    out = tmp_path / "q.cnf"
    to_file = cli("export", "6", "--format", "dimacs", "--encoding", "ladder", "--fix", "0:1", "-o", str(out))
    assert to_file.returncode == 0 and to_file.stdout == "" and to_file.stderr == ""
    to_stdout = cli("export", "6", "--format", "dimacs", "--encoding", "ladder", "--fix", "0:1")
    assert to_stdout.returncode == 0
    assert out.read_text() == to_stdout.stdout == export_model(Instance(6, [(0, 1)]), "dimacs", "ladder")


@pytest.mark.parametrize("fmt", ["cpsat", "minizinc", "opb"])
def test_export_other_formats(fmt: str) -> None:
    run = cli("export", "5", "--format", fmt)
    assert run.returncode == 0
    assert run.stdout == export_model(Instance(5), fmt)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export", "4", "--format", "opb", "--encoding", "pairwise"], "--encoding applies to --format dimacs only"),
        (["export", "4", "--format", "dimacs", "--fix", "4:0"], "--fix 4:0 is off the 4x4 board"),
        (["export", "4", "--format", "xml"], "invalid choice: 'xml'"),
        (["export", "4", "--format", "dimacs", "--encoding", "native"], "invalid choice: 'native'"),
        (["export", "4"], "export needs --format FMT (or --completion)"),
        (["export", "4", "--format", "opb", "-o", "/nonexistent-dir/q.opb"], "cannot write /nonexistent-dir/q.opb"),
    ],
)
def test_export_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    run = cli(*args)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("nqueens-cp: error: ")
    assert message in run.stderr
    assert "Traceback" not in run.stderr


def test_decode_valid_model(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_text("s SATISFIABLE\nv " + " ".join(map(str, literals_of(SOLUTION_8))) + " 0\n")
    run = cli("decode", "8", str(answer))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "0 4 7 5 2 6 1 3"
    assert lines[1] == "Q . . . . . . ."
    assert lines[-1] == "valid solution of n=8"


def test_decode_from_stdin_with_fixed_queen() -> None:
    run = cli("decode", "8", "-", "--fix", "1:4", stdin="SAT\n" + " ".join(map(str, literals_of(SOLUTION_8))))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "valid solution of n=8 fixed=1:4"


def test_decode_invalid_board_exits_1_with_the_problems(tmp_path: Path) -> None:
    attacked = (0, 1, 2, 3, 4, 5, 6, 7)
    answer = tmp_path / "answer.txt"
    answer.write_text(" ".join(map(str, literals_of(attacked))) + " 0\n")
    run = cli("decode", "8", str(answer))
    assert run.returncode == 1
    assert "invalid: rows 0 and 1 share a diagonal" in run.stderr
    wrong_fix = cli("decode", "8", "-", "--fix", "0:3", stdin=" ".join(map(str, literals_of(SOLUTION_8))))
    assert wrong_fix.returncode == 1
    assert "invalid: row 0: pre-placed queen at column 3, solution has 0" in wrong_fix.stderr
    missing = cli("decode", "4", "-", stdin="s SATISFIABLE\nv 2 8 9 0\n")
    assert missing.returncode == 1
    assert "invalid: row 3 has no queen" in missing.stderr


def test_decode_unsatisfiable_exits_1() -> None:
    run = cli("decode", "3", "-", stdin="s UNSATISFIABLE\n")
    assert run.returncode == 1
    assert run.stdout == "UNSATISFIABLE: the solver found no board for n=3\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "cannot read"), ("garbage here\n", "is not a literal"), ("s SATISFIABLE\n", "no model"),
     ("", "no solver status and no model")],
)
def test_decode_unreadable_is_one_line_exit_2(tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "answer.txt"
    if content is not None:
        path.write_text(content)
    run = cli("decode", "8", str(path))
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("nqueens-cp: error: ")
    assert message in run.stderr


def test_decode_an_answer_for_another_board_size_says_the_sizes_disagree() -> None:
    """An 8 x 8 model's answer decoded as n = 9 (fewer variables than squares), and a 9 x 9 one as
    n = 8 (its 81 variables solve the 9 x 9 board): one line, exit 2, not a board called invalid."""
    smaller = cli("decode", "9", "-", stdin="s SATISFIABLE\nv " + " ".join(map(str, literals_of(SOLUTION_8))) + " 0\n")
    assert (smaller.returncode, smaller.stdout) == (2, "")
    assert smaller.stderr == ("nqueens-cp: error: stdin: the model has 64 variables, fewer than the 81 squares of the "
                              "board of n = 9: the sizes disagree; it reads as an answer for n = 8\n")
    larger = cli("decode", "8", "-", stdin=" ".join(map(str, literals_of((0, 2, 5, 7, 1, 3, 8, 6, 4)))) + " 0\n")
    assert (larger.returncode, larger.stdout) == (2, "")
    assert larger.stderr == ("nqueens-cp: error: stdin: the model's 81 variables are the squares of the board of "
                             "n = 9, not 8: the sizes disagree\n")


def model_of(n: int, encoding: str) -> list[int]:
    """A SAT solver's complete model of the exported ``encoding`` CNF of the n x n board."""
    from pysat.solvers import Solver

    from nqueens_cp.models.cnf import build_cnf

    with Solver(name="minisat22", bootstrap_with=build_cnf(Instance(n), encoding).cnf.clauses) as solver:
        assert solver.solve()
        model = solver.get_model()
        assert model is not None
        return list(model)


def test_decode_an_answer_of_the_default_export_for_another_size_says_the_sizes_disagree(tmp_path: Path) -> None:
    """The default export (seqcounter) of n = 8 has 270 variables, more than the 81 squares of n = 9:
    its answer decoded as n = 9 was drawn as a 9 x 9 board with rows of several queens."""
    model = tmp_path / "q8.cnf"
    assert cli("export", "8", "--format", "dimacs", "-o", str(model)).returncode == 0
    from pysat.formula import CNF
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=CNF(from_file=str(model)).clauses) as solver:
        assert solver.solve()
        answer = "s SATISFIABLE\nv " + " ".join(map(str, solver.get_model() or [])) + " 0\n"
    run = cli("decode", "9", "-", stdin=answer)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == ("nqueens-cp: error: stdin: the model's 270 variables are those of the seqcounter CNF of "
                          "n = 8, not 9: the sizes disagree\n")
    assert cli("decode", "8", "-", stdin=answer).returncode == 0


@pytest.mark.parametrize("encoding", [e.value for e in ENCODINGS if e.introduces_auxiliaries])
def test_every_encoding_with_auxiliary_variables_tells_the_size_of_its_answers(encoding: str) -> None:
    from nqueens_cp.export.decode import size_mismatch
    from nqueens_cp.models.sizes import cnf_size

    for answered, decoded in ((8, 9), (9, 8), (6, 7)):
        model = model_of(answered, encoding)
        named = " or ".join(other.value for other in ENCODINGS if other.introduces_auxiliaries
                            and cnf_size(other, answered).variables == len(model))  # 181: commander, bimander
        assert size_mismatch(Instance(decoded), model) == (
            f"the model's {len(model)} variables are those of the {named} CNF of n = {answered}, not {decoded}: "
            "the sizes disagree"), (encoding, answered, decoded)
        assert size_mismatch(Instance(answered), model) is None


@pytest.mark.parametrize(
    ("fmt", "message"),
    [("dimacs", "stdin: this is a DIMACS CNF (p cnf 64 736 ...), not a solver's answer: give it to a SAT solver first"),
     ("opb", "stdin, line 6: this is a pseudo-Boolean model (OPB), not a solver's answer: give it to a PB solver first")],
)
def test_decode_a_model_instead_of_an_answer_says_so(fmt: str, message: str) -> None:
    model = export_model(Instance(8), fmt, **({"encoding": "pairwise"} if fmt == "dimacs" else {}))
    run = cli("decode", "8", "-", stdin=model)
    assert (run.returncode, run.stdout, run.stderr) == (2, "", f"nqueens-cp: error: {message}\n")


def test_decode_binary_file_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "answer.bin"
    path.write_bytes(b"\xff\xfe\x00\x01")
    run = cli("decode", "8", str(path))
    assert run.returncode == 2
    assert "not a text file" in run.stderr


def test_help_imports_no_solver_package() -> None:
    code = ("import sys; from nqueens_cp.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('ortools', 'pysat') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          env={**os.environ, "PYTHONPATH": str(REPO)}, timeout=60)
    assert done.stdout.strip() == "[]"
