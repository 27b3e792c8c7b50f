"""The exported files: well-formed, decodable, deterministic, and solving to exactly the toolkit's solution set."""

from __future__ import annotations

import itertools
import os
import re
import stat
from pathlib import Path

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.export.decode import board_from_literals
from nqueens_cp.export.writers import (
    FORMATS,
    cpsat_text,
    dimacs_text,
    export_model,
    minizinc_text,
    opb_text,
    write_text_atomic,
)
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.encodings import ENCODINGS

INSTANCES = [Instance(6), Instance(8, [(0, 0)]), Instance(7, [(1, 3), (4, 0)]), Instance(4, [(0, 0)])]


def toolkit_set(instance: Instance) -> set[Solution]:
    return set(create_backend("backtrack").solutions(instance))


def parse_dimacs(text: str) -> tuple[int, list[list[int]], list[str]]:
    """Variables, clauses and comment lines of a DIMACS CNF, checking the header against the body."""
    comments, clauses, header = [], [], None
    for line in text.splitlines():
        if line.startswith("c"):
            assert header is None, "comments come before the header"
            comments.append(line)
        elif line.startswith("p cnf "):
            header = tuple(map(int, line.split()[2:]))
        else:
            numbers = list(map(int, line.split()))
            assert numbers[-1] == 0 and 0 not in numbers[:-1]
            clauses.append(numbers[:-1])
    assert header is not None
    variables, count = header
    assert count == len(clauses)
    assert all(0 < abs(lit) <= variables for clause in clauses for lit in clause)
    return variables, clauses, comments


def enumerate_cnf(n: int, clauses: list[list[int]]) -> set[Solution]:
    from pysat.solvers import Solver

    found: set[Solution] = set()
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            queens = [lit for lit in model if 0 < lit <= n * n]
            board = board_from_literals(Instance(n), queens)
            assert board.solution is not None and board.solution not in found
            found.add(board.solution)
            solver.add_clause([-lit for lit in queens])
    return found


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("instance", INSTANCES, ids=str)
def test_dimacs_solves_to_the_toolkit_set(encoding: str, instance: Instance) -> None:
    variables, clauses, _ = parse_dimacs(dimacs_text(instance, encoding))
    assert variables == build_cnf(instance, encoding).cnf.nv
    assert enumerate_cnf(instance.n, clauses) == toolkit_set(instance)


def test_dimacs_comments_are_a_decoding_key() -> None:
    instance = Instance(5, [(2, 3)])
    text = dimacs_text(instance, "totalizer")
    variables, clauses, comments = parse_dimacs(text)
    built = build_cnf(instance, "totalizer")
    assert "c n = 5" in comments
    assert "c encoding = totalizer (pysat.card.CardEnc, bound 1)" in comments
    assert "c pre-placed queens (row:col, 0-based) = 2:3" in comments
    assert "c square (r, c), 0-based, is variable r*5 + c + 1: variables 1..25" in comments
    assert f"c variables 26..{variables} are auxiliary variables of the totalizer encoding" in comments
    assert "c decode a model: nqueens-cp decode 5 MODEL_FILE --fix 2:3" in comments
    rows = [line for line in comments if re.match(r"c row \d+:", line)]
    assert len(rows) == 5
    for r, line in enumerate(rows):
        assert [int(v) for v in line.split(":")[1].split()] == [built.queen(r, c) for c in range(5)]
        assert [int(v) for v in line.split(":")[1].split()] == [r * 5 + c + 1 for c in range(5)]
    assert clauses == built.cnf.clauses


def test_pairwise_has_no_auxiliary_variables_line() -> None:
    text = dimacs_text(Instance(4), "pairwise")
    assert "auxiliary variables of" not in text
    assert "c variables = 16 (16 squares + 0 auxiliary)" in text


@pytest.mark.parametrize("instance", [*INSTANCES, Instance(8), Instance(3), Instance(1), Instance(0)], ids=str)
def test_cpsat_text_loads_back_and_enumerates_the_toolkit_set(instance: Instance) -> None:
    from ortools.sat.python import cp_model

    text = cpsat_text(instance)
    model = cp_model.CpModel()
    model.Proto().parse_text_format(text)
    proto = model.Proto()
    assert [v.name for v in proto.variables] == [f"q{i}" for i in range(instance.n)]
    assert len(proto.constraints) == 3 + len(instance.fixed)
    found: set[Solution] = set()

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            found.add(tuple(int(self.value(model.get_int_var_from_proto_index(i))) for i in range(instance.n)))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False  # keep Python's Ctrl-C handler for later tests
    solver.solve(model, Collect())
    assert found == toolkit_set(instance)


def test_cpsat_text_is_standard_protobuf_text() -> None:
    """The file parses with google.protobuf's own text_format into OR-Tools' CpModelProto message too."""
    from google.protobuf import text_format

    cp_model_pb2 = pytest.importorskip("ortools.sat.cp_model_pb2")
    instance = Instance(8, [(2, 4)])
    message = text_format.Parse(cpsat_text(instance), cp_model_pb2.CpModelProto())
    assert len(message.variables) == 8
    assert [c.WhichOneof("constraint") for c in message.constraints] == ["all_diff"] * 3 + ["linear"]
    offsets = [[e.offset for e in c.all_diff.exprs] for c in message.constraints[:3]]
    assert offsets == [[0] * 8, list(range(8)), [-i for i in range(8)]]
    assert list(message.constraints[3].linear.vars) == [2]
    assert list(message.constraints[3].linear.domain) == [4, 4]


def parse_opb(text: str) -> tuple[int, list[tuple[list[tuple[int, int]], str, int]]]:
    lines = text.splitlines()
    header = re.fullmatch(r"\* #variable= (\d+) #constraint= (\d+)", lines[0])
    assert header is not None
    constraints = []
    for line in lines[1:]:
        if line.startswith("*"):
            continue
        body, op, rhs = re.fullmatch(r"(.*) (>=|=) (-?\d+) ;", line).groups()  # type: ignore[union-attr]
        tokens = body.split()
        terms = [(int(tokens[i]), int(tokens[i + 1][1:])) for i in range(0, len(tokens), 2)]
        constraints.append((terms, op, int(rhs)))
    assert len(constraints) == int(header.group(2))
    return int(header.group(1)), constraints


def opb_holds(constraints: list[tuple[list[tuple[int, int]], str, int]], true_vars: set[int]) -> bool:
    for terms, op, rhs in constraints:
        total = sum(coeff for coeff, var in terms if var in true_vars)
        if (op == "=" and total != rhs) or (op == ">=" and total < rhs):
            return False
    return True


@pytest.mark.parametrize("instance", [Instance(4), Instance(4, [(0, 1)]), Instance(3)], ids=str)
def test_opb_models_exactly_the_solutions_by_brute_force(instance: Instance) -> None:
    n = instance.n
    variables, constraints = parse_opb(opb_text(instance))
    assert variables == n * n
    models = set()
    for bits in itertools.product((0, 1), repeat=n * n):
        true_vars = {i + 1 for i, bit in enumerate(bits) if bit}
        if opb_holds(constraints, true_vars):
            board = board_from_literals(instance, sorted(true_vars))
            assert board.solution is not None
            models.add(board.solution)
    assert models == toolkit_set(instance)


def test_opb_accepts_solutions_and_rejects_attacks_n8() -> None:
    instance = Instance(8)
    _, constraints = parse_opb(opb_text(instance))
    for solution in toolkit_set(instance):
        assert opb_holds(constraints, {r * 8 + c + 1 for r, c in enumerate(solution)})
    for cols in itertools.islice(itertools.permutations(range(8)), 0, 2000):
        assert opb_holds(constraints, {r * 8 + c + 1 for r, c in enumerate(cols)}) == is_valid_solution(
            instance, cols)


def test_minizinc_text_carries_model_and_data() -> None:
    text = minizinc_text(Instance(8, [(0, 3), (5, 1)]))
    assert "int: n = 8;" in text
    assert "int: k = 2;" in text
    assert "array[1..2, 1..2] of int: fixed = [| 0, 3 | 5, 1 |];" in text
    for constraint in ("alldifferent(q);", "alldifferent([q[i] + i | i in 0..n-1]);",
                       "alldifferent([q[i] - i | i in 0..n-1]);",
                       "forall(j in 1..k)(q[fixed[j, 1]] = fixed[j, 2]);"):
        assert f"constraint {constraint}" in text
    assert "array2d(1..0, 1..2, [])" in minizinc_text(Instance(8))


#: Every format's export of one instance, printed by a fresh interpreter as JSON.
_EXPORT_ALL = (
    "import json\n"
    "from nqueens_cp import Instance\n"
    "from nqueens_cp.export import FORMATS, export_model\n"
    "print(json.dumps({f: export_model(Instance(7, [(3, 3)]), f) for f in FORMATS}))\n"
)


def test_exports_are_deterministic() -> None:
    """The same file from separate processes with different hash seeds (set and dict order, ids
    made while building), and from this one."""
    import json
    import os
    import subprocess
    import sys

    here = {fmt: export_model(Instance(7, [(3, 3)]), fmt) for fmt in FORMATS}
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _EXPORT_ALL], capture_output=True, text=True, env=env,
                              timeout=120, check=True)
        assert json.loads(done.stdout) == here, f"PYTHONHASHSEED={seed}"
    assert all(text.endswith("\n") for text in here.values())


def test_export_model_rejects_bad_format_and_stray_encoding() -> None:
    with pytest.raises(BackendOptionError, match="unknown format"):
        export_model(Instance(4), "xml")
    with pytest.raises(BackendOptionError, match="dimacs only"):
        export_model(Instance(4), "opb", "pairwise")
    with pytest.raises(BackendOptionError, match="unknown encoding"):
        export_model(Instance(4), "dimacs", "native")
    assert export_model(Instance(4), "dimacs") == dimacs_text(Instance(4), "seqcounter")


def test_write_text_atomic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "model.cnf"
    write_text_atomic(target, "first\n")
    assert target.read_text() == "first\n"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk on fire"):
        write_text_atomic(target, "second\n")
    assert target.read_text() == "first\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.cnf"]
