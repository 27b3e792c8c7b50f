"""The exported models handed to real solvers nobody here wrote (Debian's cadical, minisat, minizinc + Gecode,
minisat+): their solution sets must equal the toolkit's exactly.

A missing tool skips the test with the reason on a developer's machine; under CI (``CI`` set to a true value) it is a
failure (``.ci/install-external-solvers.sh`` installs them).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.export.decode import board_from_literals, parse_solver_output
from nqueens_cp.export.writers import export_model
from nqueens_cp.models.encodings import ENCODINGS

pytestmark = pytest.mark.external


def tool(name: str) -> str:
    """The path of an external solver binary; skip (a failure under CI) when it is not installed."""
    path = shutil.which(name)
    if path is None:
        missing(f"{name} is not installed (Debian: see .ci/install-external-solvers.sh)")
        raise AssertionError("unreachable")
    return path


def missing(reason: str) -> None:
    pytest.skip(reason)  # under CI a failure (tests/ci_skips.py)


def minizinc_with_gecode() -> str:
    """The minizinc binary, provided it knows a Gecode solver configuration."""
    binary = tool("minizinc")
    listed = subprocess.run([binary, "--solvers"], capture_output=True, text=True, timeout=120).stdout
    if "org.gecode.gecode" not in listed:
        missing("minizinc has no Gecode solver configuration (Debian: the flatzinc package provides it)")
    return binary


def toolkit_set(instance: Instance) -> set[Solution]:
    return set(create_backend("bitboard").solutions(instance))


def with_extra_clauses(dimacs: str, extra: list[list[int]]) -> str:
    """The DIMACS text with ``extra`` clauses appended and its ``p cnf`` header updated."""
    lines = dimacs.splitlines()
    index = next(i for i, line in enumerate(lines) if line.startswith("p cnf "))
    _, _, variables, clauses = lines[index].split()
    lines[index] = f"p cnf {variables} {int(clauses) + len(extra)}"
    lines += [" ".join(map(str, clause)) + " 0" for clause in extra]
    return "\n".join(lines) + "\n"


def run_sat_binary(solver: str, cnf: Path, out: Path) -> str:
    """Run cadical or minisat on ``cnf``; returns the text holding its answer (status and model)."""
    if Path(solver).name == "minisat":
        done = subprocess.run([solver, "-verb=0", str(cnf), str(out)], capture_output=True, text=True, timeout=300)
        assert done.returncode in (10, 20), done.stderr
        return out.read_text()
    done = subprocess.run([solver, "-q", str(cnf)], capture_output=True, text=True, timeout=300)
    assert done.returncode in (10, 20), done.stderr
    return done.stdout


def enumerate_with_binary(solver: str, instance: Instance, encoding: str, workdir: Path) -> list[Solution]:
    """Every board of the exported CNF, by calling the solver binary again with each found board blocked."""
    exported = export_model(instance, "dimacs", encoding)
    n = instance.n
    blocking: list[list[int]] = []
    found: list[Solution] = []
    while True:
        cnf = workdir / f"round{len(found)}.cnf"
        cnf.write_text(with_extra_clauses(exported, blocking))
        answer = parse_solver_output(run_sat_binary(solver, cnf, workdir / "answer.txt"), str(cnf))
        if answer.status == "UNSATISFIABLE":
            return found
        assert answer.status == "SATISFIABLE"
        board = board_from_literals(instance, answer.literals)
        assert board.solution is not None, board.problems
        found.append(board.solution)
        blocking.append([-(r * n + c + 1) for r, c in enumerate(board.solution)])
        assert len(found) <= 200, "the solver keeps returning boards: blocking is not working"


SAT_CASES = [
    ("cadical", "pairwise", Instance(6)),
    ("cadical", "seqcounter", Instance(6)),
    ("cadical", "pairwise", Instance(8)),
    ("cadical", "seqcounter", Instance(8)),
    ("cadical", "totalizer", Instance(8, [(0, 0)])),
    ("minisat", "pairwise", Instance(6)),
    ("minisat", "seqcounter", Instance(8)),
    ("minisat", "ladder", Instance(8, [(2, 5)])),
    ("cadical", "commander", Instance(8)),
    ("cadical", "product", Instance(8)),
    ("cadical", "bimander", Instance(8)),
    ("minisat", "commander", Instance(8, [(0, 0)])),
    ("minisat", "product", Instance(8, [(3, 3)])),
    ("minisat", "bimander", Instance(8, [(2, 5)])),
]


@pytest.mark.parametrize(("solver", "encoding", "instance"), SAT_CASES, ids=lambda v: str(v))
def test_sat_binary_enumerates_exactly_the_toolkit_set(
    solver: str, encoding: str, instance: Instance, tmp_path: Path
) -> None:
    found = enumerate_with_binary(tool(solver), instance, encoding, tmp_path)
    assert len(found) == len(set(found)), "a board came back twice"
    assert set(found) == toolkit_set(instance)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_cadical_every_encoding_n6(encoding: str, tmp_path: Path) -> None:
    assert set(enumerate_with_binary(tool("cadical"), Instance(6), encoding, tmp_path)) == toolkit_set(Instance(6))


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_cadical_every_encoding_n8(encoding: str, tmp_path: Path) -> None:
    assert set(enumerate_with_binary(tool("cadical"), Instance(8), encoding, tmp_path)) == toolkit_set(Instance(8))


def test_cadical_answer_decodes_through_the_cli(tmp_path: Path) -> None:
    """The documented round trip: export, run the solver, `nqueens-cp decode`."""
    import sys

    repo = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(repo)}
    cnf = tmp_path / "q.cnf"
    exported = subprocess.run([sys.executable, "-m", "nqueens_cp", "export", "8", "--format", "dimacs",
                               "--encoding", "kmtotalizer", "--fix", "3:3", "-o", str(cnf)], env=env, timeout=120)
    assert exported.returncode == 0
    answer = tmp_path / "answer.txt"
    answer.write_text(run_sat_binary(tool("cadical"), cnf, tmp_path / "unused"))
    decoded = subprocess.run([sys.executable, "-m", "nqueens_cp", "decode", "8", str(answer), "--fix", "3:3"],
                             capture_output=True, text=True, env=env, timeout=120)
    assert decoded.returncode == 0, decoded.stderr
    assert decoded.stdout.splitlines()[-1] == "valid solution of n=8 fixed=3:3"


def minizinc_all_solutions(model: Path) -> tuple[list[Solution], str]:
    done = subprocess.run([minizinc_with_gecode(), "--solver", "gecode", "--all-solutions", str(model)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    boards = [tuple(int(v) for v in re.findall(r"-?\d+", line)) for line in done.stdout.splitlines()
              if line.startswith("[")]
    return boards, done.stdout


@pytest.mark.parametrize("instance", [Instance(8), Instance(8, [(0, 0)]), Instance(8, [(1, 3), (6, 2)])], ids=str)
def test_minizinc_gecode_all_solutions_equal_the_toolkit_set(instance: Instance, tmp_path: Path) -> None:
    model = tmp_path / "queens.mzn"
    model.write_text(export_model(instance, "minizinc"))
    boards, stdout = minizinc_all_solutions(model)
    expected = toolkit_set(instance)
    assert expected, "pick instances that have solutions"
    assert stdout.rstrip().endswith("=========="), "the search did not report it was complete"
    assert len(boards) == len(set(boards))
    assert set(boards) == expected


def test_minizinc_gecode_reports_unsatisfiable(tmp_path: Path) -> None:
    model = tmp_path / "queens.mzn"
    model.write_text(export_model(Instance(8, [(0, 0), (1, 1)]), "minizinc"))
    boards, stdout = minizinc_all_solutions(model)
    assert boards == []
    assert "=====UNSATISFIABLE=====" in stdout


def test_minizinc_runs_the_committed_example_model() -> None:
    repo = Path(__file__).resolve().parents[1]
    boards, _ = minizinc_all_solutions(repo / "models" / "queens8.mzn")
    assert set(boards) == toolkit_set(Instance(8))


@pytest.mark.parametrize("instance", [Instance(6), Instance(8, [(0, 0)])], ids=str)
def test_minisat_plus_enumerates_the_opb_model(instance: Instance, tmp_path: Path) -> None:
    """The OPB export under minisat+ (a pseudo-Boolean solver), one blocking constraint per board found."""
    solver = tool("minisat+")
    base = export_model(instance, "opb").splitlines()
    header = re.fullmatch(r"\* #variable= (\d+) #constraint= (\d+)", base[0])
    assert header is not None
    n = instance.n
    blocking: list[str] = []
    found: list[Solution] = []
    while True:
        lines = [f"* #variable= {header.group(1)} #constraint= {int(header.group(2)) + len(blocking)}",
                 *base[1:], *blocking]
        opb = tmp_path / "model.opb"
        opb.write_text("\n".join(lines) + "\n")
        done = subprocess.run([solver, str(opb)], capture_output=True, text=True, timeout=300)
        answer = parse_solver_output("\n".join(line for line in done.stdout.splitlines() if line[:2] in ("s ", "v ")))
        if answer.status == "UNSATISFIABLE":
            break
        board = board_from_literals(instance, answer.literals)
        assert board.solution is not None, board.problems
        found.append(board.solution)
        blocking.append(" ".join(f"-1 x{r * n + c + 1}" for r, c in enumerate(board.solution)) + f" >= {1 - n} ;")
        assert len(found) <= 200
    assert len(found) == len(set(found))
    assert set(found) == toolkit_set(instance)
