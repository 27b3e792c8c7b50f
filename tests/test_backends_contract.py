"""The same contract, run against every backend (and every sat encoding, and several solvers)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_cp import A000170, BackendOptionError, Instance, NQueensError, create_backend
from nqueens_cp.checker import is_valid_solution

from .conftest import CONFIGS, config_id


@cache
def reference_solutions(instance: Instance) -> frozenset[tuple[int, ...]]:
    """Solutions by a brute-force product over the allowed columns, checked by the checker alone."""
    from itertools import product

    fixed = instance.placements
    allowed = [[fixed[r]] if r in fixed else range(instance.n) for r in range(instance.n)]
    return frozenset(p for p in product(*allowed) if is_valid_solution(instance, p))


@pytest.mark.parametrize("n", range(0, 11))
def test_counts_match_oeis(backend: Any, n: int) -> None:
    assert backend.count(Instance(n)) == A000170[n]


@pytest.mark.parametrize("n", range(0, 8))
def test_solution_sets_are_exact_and_valid(backend: Any, n: int) -> None:
    solutions = list(backend.solutions(Instance(n)))
    assert all(isinstance(s, tuple) and is_valid_solution(Instance(n), s) for s in solutions)
    assert len(solutions) == len(set(solutions)), "a solution was produced twice"
    assert set(solutions) == reference_solutions(Instance(n))


@pytest.mark.parametrize("n", [8, 9])
def test_all_backends_produce_the_same_set(n: int) -> None:
    sets = {}
    for name, options in CONFIGS:
        solutions = list(create_backend(name, **options).solutions(Instance(n)))
        assert len(solutions) == len(set(solutions)) == A000170[n]
        assert all(is_valid_solution(Instance(n), s) for s in solutions)
        sets[config_id((name, options))] = frozenset(solutions)
    assert len(set(sets.values())) == 1, sorted(sets)


def test_limit_and_first(backend: Any) -> None:
    eight = Instance(8)
    limited = list(backend.solutions(eight, limit=5))
    assert len(limited) == len(set(limited)) == 5
    assert all(is_valid_solution(eight, s) for s in limited)
    assert backend.count(eight, limit=7) == 7
    assert backend.count(eight, limit=1000) == 92
    assert list(backend.solutions(eight, limit=0)) == []
    first = backend.first_solution(eight)
    assert first is not None and is_valid_solution(eight, first)
    assert backend.first_solution(Instance(3)) is None
    with pytest.raises(BackendOptionError):
        backend.solutions(eight, limit=-1)


def test_completion_edge_cases(backend: Any) -> None:
    assert backend.count(Instance(8, {0: 0, 1: 1})) == 0  # attacking pre-placed queens
    assert backend.count(Instance(8, {0: 0, 3: 0})) == 0  # same column
    full = (0, 4, 7, 5, 2, 6, 1, 3)
    assert list(backend.solutions(Instance(8, dict(enumerate(full))))) == [full]
    assert backend.count(Instance(8, dict(enumerate((0, 4, 7, 5, 2, 6, 3, 1))))) == 0


def test_unique_refuses_pre_placed_queens(backend: Any) -> None:
    with pytest.raises(NQueensError):
        backend.count(Instance(6, {0: 1}), unique=True)


def test_model_size_is_reported_or_none(backend: Any) -> None:
    size = backend.model_size(Instance(6))
    if backend.name in ("cpsat", "sat"):
        assert size is not None and size.variables >= 6 and size.constraints > 0
    else:
        assert size is None


def placements(n_max: int) -> st.SearchStrategy[Instance]:
    return st.integers(0, n_max).flatmap(
        lambda n: st.dictionaries(st.integers(0, max(n - 1, 0)), st.integers(0, max(n - 1, 0)), max_size=3).map(
            lambda fixed: Instance(n, {r: c for r, c in fixed.items() if r < n and c < n})
        )
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instance=placements(7))
def test_random_pre_placements_agree_across_backends(instance: Instance) -> None:
    expected = reference_solutions(instance)
    for name, options in CONFIGS[:6] + CONFIGS[-2:]:
        got = list(create_backend(name, **options).solutions(instance))
        assert len(got) == len(set(got)) and set(got) == expected, (name, options, instance)


def test_contract_configs_cover_every_registered_backend() -> None:
    from nqueens_cp.backends.registry import backend_names

    assert set(backend_names()) <= {name for name, _ in CONFIGS}
