"""The Boolean CP-SAT model (model=boolean) and the localsearch strategy."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError, NQueensError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.models.cpsat import build_cpsat_boolean_model
from nqueens_cp.models.lex_leader import cpsat_lex_leader_size


@pytest.mark.parametrize("n", [1, 2, 4, 5, 8])
def test_model_size(n: int) -> None:
    size = build_cpsat_boolean_model(Instance(n)).size()
    diagonals = 2 * (2 * n - 3) if n >= 2 else 0  # diagonals with at least two squares, both directions
    assert size.variables == n * n
    assert size.constraints == 2 * n + diagonals
    fixed = build_cpsat_boolean_model(Instance(n, {0: 0})).size()
    assert fixed.constraints == size.constraints + 1
    unique = build_cpsat_boolean_model(Instance(n), unique=True).size()
    extra_vars, extra_constraints = cpsat_lex_leader_size(n)
    assert unique.variables == size.variables + n + extra_vars
    assert unique.constraints == size.constraints + n + extra_constraints


@pytest.mark.parametrize("n", range(0, 9))
def test_enumeration_matches_bitboard(n: int) -> None:
    backend = create_backend("cpsat", model="boolean")
    found = list(backend.solutions(Instance(n)))
    assert len(found) == len(set(found)) == A000170[n]
    assert set(found) == set(create_backend("bitboard").solutions(Instance(n)))


@pytest.mark.parametrize("n", range(1, 9))
def test_unique_matches_the_canonical_filter(n: int) -> None:
    boolean = set(create_backend("cpsat", model="boolean").solutions(Instance(n), unique=True))
    assert len(boolean) == A002562[n]
    assert boolean == set(create_backend("bitboard").solutions(Instance(n), unique=True))


def test_pre_placed_queens() -> None:
    instance = Instance(8, {0: 2, 3: 6})
    expected = set(create_backend("bitboard").solutions(instance))
    assert set(create_backend("cpsat", model="boolean").solutions(instance)) == expected
    with pytest.raises(NQueensError):
        build_cpsat_boolean_model(instance, unique=True)


def test_localsearch_first_solutions() -> None:
    # through the command line, as a user runs it
    for n in (4, 5, 8, 31, 60):
        result = subprocess.run(
            [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--backend", "cpsat", "-O", "model=boolean",
             "-O", "strategy=localsearch", "--search-workers", "2"],
            capture_output=True, text=True, timeout=120, check=False,
        )
        assert result.returncode == 0, result.stderr
        solution = tuple(int(x) for x in result.stdout.split())
        assert is_valid_solution(Instance(n), solution), n


def test_localsearch_refuses_to_enumerate() -> None:
    backend = create_backend("cpsat", model="boolean", strategy="localsearch")
    with pytest.raises(BackendOptionError, match="cannot enumerate"):
        list(backend.solutions(Instance(6)))
    with pytest.raises(BackendOptionError):
        create_backend("cpsat", model="graph")
