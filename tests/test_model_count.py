"""The model counter of nqueens_cp.models.model_count against plain enumeration of every model."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.models.model_count import ModelCount, ModelCounter, solution_literals


def every_model(clauses: list[list[int]], variables: int, limit: int = 5000) -> int:
    """All models over variables 1..variables, one blocking clause over every variable per model found."""
    from pysat.solvers import Solver

    with Solver(name="minisat22", bootstrap_with=[*clauses, *([v, -v] for v in range(1, variables + 1))]) as solver:
        count = 0
        while solver.solve():
            count += 1
            assert count <= limit, "too many models to enumerate"
            solver.add_clause([-lit for lit in solver.get_model()[:variables]])
    return count


SMALL = [e for e in ENCODINGS if e not in ("sortnetwrk", "cardnetwrk", "totalizer")]


@pytest.mark.parametrize("encoding", SMALL)
@pytest.mark.parametrize("n", [4, 5])
def test_counter_equals_enumeration(encoding: str, n: int) -> None:
    built = build_cnf(Instance(n), encoding)
    solutions = list(create_backend("bitboard").solutions(Instance(n)))
    counted = ModelCounter(built.cnf.clauses, built.cnf.nv).total(solutions)
    assert counted.exact
    assert counted.models == every_model(built.cnf.clauses, built.cnf.nv)


@pytest.mark.parametrize("encoding", ["pairwise", "ladder", "commander"])
def test_defined_auxiliaries_give_one_model_per_solution(encoding: str) -> None:
    built = build_cnf(Instance(6), encoding)
    counter = ModelCounter(built.cnf.clauses, built.cnf.nv)
    for solution in create_backend("bitboard").solutions(Instance(6)):
        assert counter.models_per_solution(solution_literals(solution)) == ModelCount(1)


def test_a_non_solution_has_no_model() -> None:
    built = build_cnf(Instance(5), "commander")
    counter = ModelCounter(built.cnf.clauses, built.cnf.nv)
    assert counter.models_per_solution(solution_literals((0, 1, 2, 3, 4))).models == 0


def test_cap_marks_a_lower_bound() -> None:
    """seqcounter's counter on an empty diagonal has several models: with cap 1 the count is a bound."""
    built = build_cnf(Instance(5), "seqcounter")
    counted = ModelCounter(built.cnf.clauses, built.cnf.nv, cap=1).total([(0, 2, 4, 1, 3)])
    assert not counted.exact and str(counted).startswith(">= ")


def test_readme_model_counts_match_the_script_for_small_boards() -> None:
    """models/README.md's table (written by benchmarks/model_counts.py), its n = 4 and n = 5 columns recomputed."""
    from .test_model_sizes import _readme_table
    from .test_strategies_and_defaults import load_benchmark

    script = load_benchmark("model_counts")
    rows = {row[0]: row for row in _readme_table("<!-- model-counts -->")}
    assert set(ENCODINGS) <= set(rows)
    for encoding in ENCODINGS:
        for column, n in ((1, 4), (2, 5)):
            models = script.model_count(encoding, n, 100_000)[1]
            assert rows[encoding][column] == script.shown(models), (encoding, n)
        assert (rows[encoding][-1] == "yes") == (encoding in ("pairwise", "ladder", "commander")), encoding
