"""The ``smt`` backend (z3) and its SMT-LIB models beyond the shared contract: both models, the
lex-leader clauses, the exported ``.smt2`` read back by z3's own parser, the bound, the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

from nqueens_cp import Instance, NQueensError, create_backend
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.symmetry import canonical
from nqueens_cp.export.writers import export_model
from nqueens_cp.models.sizes import line_size
from nqueens_cp.models.smt import MODELS, build_smt_model
from nqueens_cp.testing.backend_contract import (
    CHECKS,
    check_first_solutions,
    check_unique_counts,
    reference_solutions,
)

from .conftest import run_cli


def z3_solutions(path: Path, kind: str, instance: Instance) -> set[tuple[int, ...]]:
    """Every solution of an exported ``.smt2`` file, parsed by z3 (``parse_smt2_file``), as boards."""
    import z3

    solver = z3.Solver()
    solver.add(z3.parse_smt2_file(str(path)))
    built = build_smt_model(instance, kind)  # only for the names and the squares of the variables
    variables = [z3.Int(name) if kind == "int" else z3.Bool(name) for name in built.names]
    boards = set()
    while solver.check() == z3.sat:
        model = solver.model()
        values = {name: (model.eval(v, model_completion=True).as_long() if kind == "int"
                         else z3.is_true(model.eval(v, model_completion=True)))
                  for name, v in zip(built.names, variables, strict=True)}
        boards.add(built.decode(values))
        solver.add(z3.Or([v != model.eval(v, model_completion=True) for v in variables]))
    return boards


@pytest.mark.parametrize("kind", MODELS)
@pytest.mark.parametrize("instance", [Instance(6), Instance(8, {0: 2, 5: 1}), Instance(7, {1: 3}, [(0, 0), (6, 2)])],
                         ids=str)
def test_the_exported_smt2_read_back_by_z3_gives_the_solution_set(kind: str, instance: Instance, tmp_path: Path) -> None:
    path = tmp_path / "queens.smt2"
    path.write_text(export_model(instance, "smt2" if kind == "bool" else "smt2-int"))
    assert z3_solutions(path, kind, instance) == reference_solutions(instance)


def test_the_boolean_model_counts_and_enumerates_exactly() -> None:
    backend = create_backend("smt")
    for n in range(1, 9):
        assert backend.count(Instance(n)) == A000170[n]
    assert set(backend.solutions(Instance(9))) == reference_solutions(Instance(9))
    for n in range(1, 9):
        got = list(backend.solutions(Instance(n), unique=True))
        assert len(got) == A002562[n] and set(got) == {canonical(s) for s in reference_solutions(Instance(n))}


@pytest.mark.slow
@pytest.mark.parametrize("check", [c for c in CHECKS if c is not check_unique_counts], ids=lambda c: c.__name__)
def test_the_integer_model_keeps_the_contract(check: object) -> None:
    backend = create_backend("smt", model="int")
    if check is check_first_solutions:  # z3's distinct, pairwise inside: n = 20..29 took a minute of CI
        check_first_solutions(backend, range(0, 20))
    else:
        check(backend)  # type: ignore[operator]


def test_the_integer_model_refuses_unique_and_enumerates() -> None:
    backend = create_backend("smt", model="int")
    with pytest.raises(NQueensError, match="model=bool"):
        backend.count(Instance(6), unique=True)
    assert set(backend.solutions(Instance(7))) == reference_solutions(Instance(7))


def test_model_sizes() -> None:
    for n in range(2, 12):
        for fixed in ({}, {0: n - 1}):
            assert build_smt_model(Instance(n, fixed)).size().constraints == line_size(n, len(fixed)).constraints
            assert build_smt_model(Instance(n, fixed), "int").size().constraints == n + 3 + len(fixed)


def test_a_model_too_large_is_refused_in_one_line_before_it_is_built() -> None:
    run = run_cli("solve", "60", "--backend", "smt", "-O", "model=int", "--max-model-mb", "10")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "use -O model=bool" in run.stderr


def test_the_command_line_counts_and_lists_the_backend() -> None:
    run = run_cli("solve", "8", "--backend", "smt", "--count")
    assert run.returncode == 0, run.stderr
    assert "92" in run.stdout
    listing = run_cli("backends").stdout.split("\nsmt:")[1]
    assert listing.startswith(" available") and "-O model=bool|int" in listing
