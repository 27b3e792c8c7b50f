"""The same contract, run against every backend (and every sat encoding, and several solvers).

The checks themselves are the importable test kit ``nqueens_cp.testing.backend_contract``, so a
backend from another package runs exactly these.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.testing.backend_contract import (
    CHECKS,
    COUNT_ONLY_CHECKS,
    check_first_solutions,
    check_model_size,
    check_unique_counts,
    reference_solutions,
)

from .conftest import CONFIGS, COUNT_CONFIGS, FIRST_ONLY_CONFIGS, config_id, require_backend, usable

#: The backends that build a model (the others are plain searches).
MODEL_BASED = frozenset({"cpsat", "sat", "minizinc", "choco", "xcsp3", "cpmpy", "ganak", "approxmc", "bdd",
                         "asp", "pb", "smt", "mip"})

#: Run by other tests already for every backend (the unique and completion tests), or slow through a solver.
#: Run by other tests already for every backend (the unique and completion tests), or slow through a solver
#: (thirty first solutions each; run for the first-solution backends below).
ELSEWHERE = (check_unique_counts, check_first_solutions)


@pytest.mark.parametrize("check", [c for c in CHECKS if c not in ELSEWHERE], ids=lambda check: check.__name__)
def test_contract(backend: Any, check: Callable[[Backend], None]) -> None:
    check(backend)


@pytest.mark.parametrize("config", FIRST_ONLY_CONFIGS, ids=config_id)
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_contract_of_first_solution_backends(config: tuple[str, dict[str, Any]], check: Callable[[Backend], None]) -> None:
    name, options = config
    check(create_backend(name, **options))


def test_model_based_backends_report_their_size(backend: Any) -> None:
    check_model_size(backend)
    size = backend.model_size(Instance(6))
    assert (size is not None) == (backend.name in MODEL_BASED)


def test_the_unique_check_of_the_kit() -> None:
    check_unique_counts(create_backend("backtrack"))


@pytest.mark.parametrize("n", [8, pytest.param(9, marks=pytest.mark.slow)])
def test_all_backends_produce_the_same_set(n: int) -> None:
    sets = {}
    for name, options in usable(CONFIGS):
        solutions = list(create_backend(name, **options).solutions(Instance(n)))
        assert len(solutions) == len(set(solutions)) == A000170[n]
        assert all(is_valid_solution(Instance(n), s) for s in solutions)
        sets[config_id((name, options))] = frozenset(solutions)
    assert len(set(sets.values())) == 1, sorted(sets)


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
    for name, options in usable(CONFIGS[:6] + CONFIGS[-2:]):
        got = list(create_backend(name, **options).solutions(instance))
        assert len(got) == len(set(got)) and set(got) == expected, (name, options, instance)


def test_contract_configs_cover_every_registered_backend() -> None:
    from nqueens_cp.backends.framework.registry import backend_names

    # mip enumerates by no-good cuts, one solve per solution: tests/test_backend_mip.py runs the kit
    # within its enumeration bound (n <= 8), with the slow tests.
    assert set(backend_names()) - {"mip"} <= {name for name, _ in CONFIGS + FIRST_ONLY_CONFIGS + COUNT_CONFIGS}


#: ApproxMC 4.4.0 (pyapproxmc) counts 1 model for the 4-queens CNF, which has 2, with every epsilon,
#: delta, seed and encoding tried, and 1 for a 5 x 5 completion with 2: answers outside its stated
#: bound, kept visible here (the count task of compare flags them the same way).
APPROXMC_WRONG_AT_2 = pytest.mark.xfail(strict=True, reason="ApproxMC 4.4.0 counts 1 for CNFs with 2 models "
                                        "(n = 4; a 5 x 5 completion)")
#: Count-only configurations whose checks run with the slow tests (Ganak takes 1 to 13 s a board
#: from n = 8; the tighter ApproxMC makes more solver calls).
SLOW_COUNTERS = ("ganak", "approxmc:epsilon=0.3:delta=0.05")


def _count_params() -> list[Any]:
    params = []
    for config in COUNT_CONFIGS:
        for check in COUNT_ONLY_CHECKS:
            marks = []
            if config[0] == "approxmc" and check.__name__ != "check_refuses_boards" and check.__name__ != "check_model_size":
                marks.append(APPROXMC_WRONG_AT_2)
            if (config_id(config).startswith(SLOW_COUNTERS) or check.__name__ == "check_count_only_completion") \
                    and check.__name__ not in ("check_refuses_boards",
                                                                                       "check_model_size"):
                marks.append(pytest.mark.slow)
            params.append(pytest.param(config, check, marks=marks, id=f"{config_id(config)}-{check.__name__}"))
    return params


@pytest.mark.parametrize(("config", "check"), _count_params())
def test_count_only_contract(config: tuple[str, dict[str, Any]], check: Callable[[Backend], None]) -> None:
    require_backend(config[0])
    check(create_backend(config[0], **config[1]))


@pytest.mark.parametrize("config", [pytest.param(c, marks=[pytest.mark.slow] if config_id(c).startswith(SLOW_COUNTERS)
                                                 else [], id=config_id(c)) for c in COUNT_CONFIGS])
def test_approximate_and_exact_counters_beyond_n_4(config: tuple[str, dict[str, Any]]) -> None:
    """Every counter, n = 5..9 (approxmc: inside its stated bound; the others: exactly)."""
    from nqueens_cp.testing.backend_contract import counts_agree

    require_backend(config[0])
    backend = create_backend(config[0], **config[1])
    top = 8 if config == ("ganak", {"encoding": "seqcounter"}) else 9
    for n in range(5, top + 1):
        assert counts_agree(backend, backend.count(Instance(n)), A000170[n]), (config, n)
