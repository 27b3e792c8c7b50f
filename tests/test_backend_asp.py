"""The ``asp`` backend and its logic program beyond the shared contract: both formulations, the
lex-leader rules, the exported ``.lp`` read back by clingo, the bound, the command line."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from nqueens_cp import Instance, create_backend, is_valid_solution
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.symmetry import canonical
from nqueens_cp.export.writers import export_model
from nqueens_cp.models.asp import FORMULATIONS, asp_program
from nqueens_cp.models.lines import build_line_model, line_model_size
from nqueens_cp.testing.backend_contract import reference_solutions

from .conftest import run_cli


def clingo_solutions(path: Path, n: int, settled: dict[int, int] | None = None) -> set[tuple[int, ...]]:
    """Every answer set of the program in ``path``, loaded by clingo's own reader, as boards."""
    import clingo

    control = clingo.Control(["0"])
    control.load(str(path))
    control.ground([("base", [])])
    boards = set()
    with control.solve(yield_=True) as handle:
        for model in handle:
            cols = dict(settled or {})
            for symbol in model.symbols(shown=True):
                row, col = (argument.number for argument in symbol.arguments)
                cols[row] = col
            boards.add(tuple(cols[r] for r in range(n)))
    return boards


@pytest.mark.parametrize("instance", [Instance(6), Instance(8), Instance(8, {0: 2, 5: 1}),
                                      Instance(7, {1: 3}, [(0, 0), (4, 4), (6, 2)])], ids=str)
def test_the_exported_program_read_back_by_clingo_gives_the_solution_set(instance: Instance, tmp_path: Path) -> None:
    path = tmp_path / "queens.asp.lp"
    path.write_text(export_model(instance, "asp"))
    settled = dict(build_line_model(instance).settled)
    assert clingo_solutions(path, instance.n, settled) == reference_solutions(instance)


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_both_formulations_count_and_enumerate_exactly(formulation: str) -> None:
    backend = create_backend("asp", formulation=formulation)
    for n in range(1, 10):
        assert backend.count(Instance(n)) == A000170[n]
    assert set(backend.solutions(Instance(9))) == reference_solutions(Instance(9))


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_the_lex_leader_rules_keep_the_canonical_board_of_each_class(formulation: str) -> None:
    backend = create_backend("asp", formulation=formulation)
    for n in range(1, 10):
        got = list(backend.solutions(Instance(n), unique=True))
        assert len(got) == A002562[n] == backend.count(Instance(n), unique=True)
        assert set(got) == {canonical(s) for s in reference_solutions(Instance(n))}


def test_blocked_squares_and_pre_placed_queens_against_brute_force() -> None:
    backend = create_backend("asp")
    for instance in [Instance(6, {}, [(0, 1), (2, 2)]), Instance(6, {0: 1}, [(3, 0)]), Instance(5, {0: 0, 1: 1}),
                     Instance(4, {}, [(0, 0), (0, 1), (0, 2), (0, 3)])]:
        brute = {p for p in itertools.permutations(range(instance.n)) if is_valid_solution(instance, p)}
        assert set(backend.solutions(instance)) == brute, instance
        assert backend.count(instance) == len(brute)


def test_the_program_size_is_the_line_model_size() -> None:
    for n in range(2, 12):
        for fixed in ({}, {0: n - 1}):
            program = asp_program(Instance(n, fixed))
            rows = program.text.splitlines()
            constraints = sum(row.startswith(("exactly(", "atmost(", "fixed(")) for row in rows)
            squares = {row.split(".")[0] for row in rows if row.startswith("exactly(row(")}
            expected = line_model_size(n, len(fixed))
            assert constraints == expected.constraints == program.size().constraints
            assert len(squares) == n and program.size().variables == expected.variables == n * n


def test_a_program_too_large_is_refused_in_one_line_before_it_is_built() -> None:
    run = run_cli("solve", "60", "--backend", "asp", "-O", "formulation=pairwise", "--max-model-mb", "10")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "use -O formulation=lines" in run.stderr


def test_the_command_line_counts_and_lists_the_backend() -> None:
    run = run_cli("solve", "8", "--backend", "asp", "--count", "--unique")
    assert run.returncode == 0, run.stderr
    assert "12" in run.stdout
    listing = run_cli("backends").stdout.split("asp:")[1]
    assert listing.startswith(" available") and "-O formulation=lines|pairwise" in listing
