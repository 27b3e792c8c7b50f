"""Blocked squares (and models that shrink with pre-placed queens) in every backend, export and command."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from nqueens_cp import Instance, create_backend, is_valid_solution
from nqueens_cp.export.decode import board_from_literals, parse_solver_output
from nqueens_cp.export.writers import export_model
from nqueens_cp.instances.excluded_diagonals import to_completion
from nqueens_cp.instances.files import read_excluded_diagonals, read_instance
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.reduction import uses_reduction

from .conftest import STARTS_A_PROGRAM_PER_SOLVE, require_backend, run_cli
from .test_csplib import DATA, paper_answers
from .test_external_solvers import minizinc_with_gecode, tool, with_extra_clauses

#: Backends that start a program per solve (6 s for MiniZinc): with the slow tests.
SLOW_BLOCKED = frozenset({"minizinc"})

BLOCKED_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("backtrack", {"search": "rows"}),
    ("backtrack", {"search": "firstfail"}),
    ("bitboard", {}),
    ("bitboard", {"kernel": "python"}),
    ("bitboard", {"search": "lines"}),
    ("cpsat", {}),
    ("cpsat", {"model": "boolean"}),
    ("sat", {}),
    ("sat", {"encoding": "seqcounter"}),
    ("minizinc", {}),
    ("asp", {}),
    ("asp", {"formulation": "pairwise"}),
    ("pb", {}),
    ("smt", {}),
    ("smt", {"model": "int"}),
]


def random_instances(seed: int, count: int, largest: int) -> list[Instance]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randrange(1, largest + 1)
        blocked = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(0, 2 * n))]
        fixed = {rng.randrange(n): rng.randrange(n) for _ in range(rng.randrange(0, n + 1))}
        out.append(Instance(n, fixed, blocked))
    return out


@pytest.mark.parametrize(("name", "options"), [
    pytest.param(*config, marks=[pytest.mark.slow] if config[0] in SLOW_BLOCKED else []) for config in BLOCKED_CONFIGS
], ids=lambda v: str(v))
def test_every_backend_finds_exactly_the_solutions_with_blocked_squares(name: str, options: dict[str, Any]) -> None:
    require_backend(name)
    backend = create_backend(name, **options)
    for instance in random_instances(3, 12 if name in STARTS_A_PROGRAM_PER_SOLVE else 40, 6):
        brute = {p for p in itertools.permutations(range(instance.n)) if is_valid_solution(instance, p)}
        found = list(backend.solutions(instance))
        assert len(found) == len(brute) and set(found) == brute, instance
        assert backend.count(instance) == len(brute)
        first = backend.first_solution(instance)
        assert (first is None) == (not brute) and (first is None or first in brute)


def test_unique_with_blocked_squares_is_refused_in_one_line() -> None:
    run = run_cli("solve", "8", "--block", "0:0", "--unique", "--backend", "bitboard")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "blocked squares" in run.stderr


@pytest.mark.parametrize(("name", "options"), [("sat", {}), ("cpsat", {}), ("cpsat", {"model": "boolean"}),
                                               ("backtrack", {})], ids=lambda v: str(v))
def test_both_forms_give_the_papers_answers(name: str, options: dict[str, Any]) -> None:
    """Excluded Diagonals and its completion translation (n in the thousands), through a backend."""
    backend = create_backend(name, **options)
    cases = [(10, 3, 102), (10, 8, 778), (11, 8, 494), (12, 5, 619)]
    answers = paper_answers()
    for n, d, ident in cases:
        problem = read_excluded_diagonals(DATA / f"diag-{n}-4-{ident}.param").first(d)
        translation = to_completion(problem)
        direct = backend.first_solution(problem.instance())
        completed = backend.first_solution(translation.instance)
        assert (direct is not None) == (completed is not None) == answers[(n, d, ident)]
        if completed is not None:
            assert is_valid_solution(translation.instance, completed)
            assert is_valid_solution(problem.instance(), translation.to_original(completed))


def test_translated_instances_shrink() -> None:
    big = read_instance(DATA / "completion-10-4-778-3.param")
    assert uses_reduction(big) and not uses_reduction(Instance(8, {0: 0, 1: 2, 2: 4, 3: 6}))
    assert uses_reduction(Instance(16, {r: (2 * r) % 17 for r in range(8)}))
    for name, options in (("sat", {}), ("cpsat", {}), ("cpsat", {"model": "boolean"})):
        size = create_backend(name, **options).model_size(big)
        assert size is not None and size.variables <= 100 + 400  # open squares (+ auxiliaries), not 2540²


def test_decode_reads_a_reduced_model() -> None:
    instance = Instance(8, {0: 0, 1: 4, 2: 7, 3: 5}, [(5, 0)])
    built = build_cnf(instance, "seqcounter")
    solution = create_backend("sat").first_solution(instance)
    assert solution is not None
    literals = [built.queen(r, c) for r, c in enumerate(solution) if (r, c) not in instance.fixed]
    board = board_from_literals(instance, literals)
    assert board.solution == solution


def test_solve_instance_from_the_command_line(tmp_path: Path) -> None:
    param = str(DATA / "diag-10-4-102.param")
    ok = run_cli("solve", "--instance", param, "--diagonals", "3", "--backend", "sat")
    board = tuple(int(c) for c in ok.stdout.split())
    assert ok.returncode == 0 and is_valid_solution(read_instance(param, 3), board)
    none = run_cli("solve", "--instance", str(DATA / "diag-11-4-494.param"), "--diagonals", "8")
    assert none.returncode == 1 and none.stderr == f"no solution for {DATA / 'diag-11-4-494.param'} (n=11, 8 diagonals)\n"
    blocked = run_cli("solve", "4", "--block", "0:1", "--all")
    assert blocked.returncode == 0 and blocked.stdout == "2 0 3 1\n"
    on_blocked = run_cli("solve", "8", "--fix", "0:0", "--block", "0:0")
    assert on_blocked.returncode == 1 and "no solution" in on_blocked.stderr
    completion = tmp_path / "c.param"
    written = run_cli("export", "--instance", param, "--diagonals", "3", "--completion", "-o", str(completion))
    assert written.returncode == 0
    solved = run_cli("solve", "--instance", str(completion), "--backend", "cpsat")
    assert solved.returncode == 0 and len(solved.stdout.split()) == read_instance(completion).n


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["solve"], "give the board size N or --instance FILE"),
        (["solve", "8", "--instance", str(DATA / "diag-10-4-102.param")], "not both"),
        (["solve", "--instance", str(DATA / "diag-10-4-102.param"), "--diagonals", "99"], "diag-10-4-102.param:2:"),
        (["solve", "8", "--diagonals", "2"], "--diagonals applies to --instance"),
        (["solve", "8", "--block", "8:0"], "--block 8:0 is off the 8x8 board"),
        (["solve", "8", "--block", "x"], "--block takes ROW:COL"),
        (["solve", "--instance", "/nonexistent.param"], "/nonexistent.param: no such file"),
        (["solve", "--instance", str(DATA / "completion-10-4-778-3.param"), "--diagonals", "1"],
         "--diagonals applies to Excluded Diagonals files"),
        (["export", "8", "--completion"], "--completion translates"),
        (["export", "--instance", str(DATA / "diag-10-4-102.param")], "needs --format"),
        (["solve", "--instance", str(DATA / "diag-10-4-102.param"), "--count", "--workers", "2"],
         "split runs do not take blocked squares"),
    ],
)
def test_bad_board_input_is_one_line(argv: list[str], fragment: str) -> None:
    run = run_cli(*argv)
    assert run.returncode == 2, run
    assert run.stderr.count("\n") == 1 and fragment in run.stderr and "Traceback" not in run.stderr


def test_a_malformed_instance_file_gives_file_line_and_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.param"
    bad.write_text("letting n = 4\nletting init = [[0, 1],\n [9, 9]]\n")
    run = run_cli("solve", "--instance", str(bad))
    assert run.returncode == 2 and run.stderr == f"nqueens-cp: error: {bad}:3: init queen [9, 9] is off the 4x4 board\n"


BLOCKED_EXPORT_CASES = [
    read_instance(DATA / "diag-10-4-102.param", 3),
    Instance(16, dict(enumerate((7, 4, 10, 1, 15, 9, 3, 8)))),  # 4 completions
    Instance(7, blocked=[(0, 0), (3, 3), (6, 6)]),
    read_instance(DATA / "diag-11-4-494.param", 8),  # no solution (the paper's answer)
]


@pytest.mark.external
@pytest.mark.parametrize("instance", BLOCKED_EXPORT_CASES, ids=str)
def test_external_solvers_on_reduced_exports(instance: Instance, tmp_path: Path) -> None:
    """cadical on the DIMACS, minisat+ on the OPB, Gecode on the MiniZinc of instances with blocked squares
    or many pre-placed queens: every board they give is a solution, and they enumerate the same set."""
    expected = set(create_backend("bitboard", search="lines").solutions(instance))
    built = build_cnf(instance, "seqcounter")
    dimacs = export_model(instance, "dimacs")
    found: set[tuple[int, ...]] = set()
    blocking: list[list[int]] = []
    while True:
        cnf = tmp_path / "q.cnf"
        cnf.write_text(with_extra_clauses(dimacs, blocking))
        done = subprocess.run([tool("cadical"), "-q", str(cnf)], capture_output=True, text=True, timeout=120)
        answer = parse_solver_output(done.stdout, str(cnf))
        if answer.status == "UNSATISFIABLE":
            break
        board = board_from_literals(instance, answer.literals)
        assert board.solution is not None and is_valid_solution(instance, board.solution)
        found.add(board.solution)
        blocking.append([-built.queen(r, c) for r, c in enumerate(board.solution) if (r, c) not in instance.fixed])
        assert len(found) <= 500
    assert found == expected
    model = tmp_path / "q.mzn"
    model.write_text(export_model(instance, "minizinc"))
    done = subprocess.run([minizinc_with_gecode(), "--solver", "gecode", "--all-solutions", str(model)],
                          capture_output=True, text=True, timeout=600)
    boards = {tuple(int(v) for v in re.findall(r"-?\d+", line)) for line in done.stdout.splitlines()
              if line.startswith("[")}
    assert boards == expected
    opb = tmp_path / "q.opb"
    opb.write_text(export_model(instance, "opb"))
    done = subprocess.run([tool("minisat+"), str(opb)], capture_output=True, text=True, timeout=120)
    answer = parse_solver_output("\n".join(line for line in done.stdout.splitlines() if not line.startswith("c")))
    if expected:
        board = board_from_literals(instance, answer.literals)
        assert board.solution in expected
    else:
        assert answer.status == "UNSATISFIABLE"
