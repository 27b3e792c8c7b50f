"""The sat backend with the project's at-most-one encodings (commander, product, bimander):
solution sets equal to brute force for every n <= 9 (n = 9 marked slow), with and without
pre-placed queens, and the
CNF built as documented (rows: one at-least-one clause, then the at-most-one)."""

from __future__ import annotations

from functools import cache

import pytest

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.models.amo import AMO_ENCODERS
from nqueens_cp.models.cnf import build_cnf

from .test_strategies_and_defaults import brute_force as checked_permutations

ENCODINGS = sorted(AMO_ENCODERS)


@cache
def brute_force(instance: Instance) -> frozenset[tuple[int, ...]]:
    """Every column permutation the independent checker accepts (``tests/test_strategies_and_defaults.py``), once per instance."""
    return frozenset(checked_permutations(instance))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("n", [*range(0, 9), pytest.param(9, marks=pytest.mark.slow)])
def test_solution_sets_equal_brute_force(encoding: str, n: int) -> None:
    found = list(create_backend("sat", encoding=encoding).solutions(Instance(n)))
    assert len(found) == len(set(found)) == A000170[n]
    assert set(found) == brute_force(Instance(n))


@pytest.mark.parametrize("encoding", ENCODINGS)
@pytest.mark.parametrize("fixed", [{0: 0}, {2: 5}, {1: 3, 6: 2}, {0: 0, 1: 1}], ids=str)
def test_pre_placed_queens_equal_brute_force(encoding: str, fixed: dict[int, int]) -> None:
    instance = Instance(8, fixed)
    found = list(create_backend("sat", encoding=encoding).solutions(instance))
    assert len(found) == len(set(found))
    assert set(found) == brute_force(instance)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_unique_gives_the_fundamental_solutions(encoding: str) -> None:
    assert create_backend("sat", encoding=encoding).count(Instance(8), unique=True) == 12


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_rows_are_one_at_least_one_clause_then_the_at_most_one(encoding: str) -> None:
    n = 7
    built = build_cnf(Instance(n), encoding)
    row0 = [built.queen(0, c) for c in range(n)]
    assert built.cnf.clauses[0] == row0
    long_clauses = [clause for clause in built.cnf.clauses if all(lit > 0 for lit in clause) and len(clause) == n
                    and all(lit <= n * n for lit in clause)]
    assert long_clauses == [[built.queen(r, c) for c in range(n)] for r in range(n)], "one per row, none elsewhere"
