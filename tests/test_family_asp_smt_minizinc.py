"""The family through ASP (clingo), SMT (z3) and MiniZinc (Gecode): each proved optimum is the OEIS
term and CP-SAT's, a placement is found exactly where one exists, the counts are the published
ones, and a time limit answers the best witness found, not proved. ``solve_family`` puts every
witness through the independent checker before it returns."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.cli import main
from nqueens_cp.core.errors import BackendOptionError, SearchStoppedError
from nqueens_cp.core.family_checker import witness_problems
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.problems import Direction, Problem

from .conftest import require_backend, run_cli

BACKENDS = ["asp", "smt", "minizinc"]
OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]


def published(problem: Problem, n: int) -> int:
    return SEQUENCES[problem.sequences[0]][n]


@pytest.fixture(scope="module")
def cpsat_optima() -> dict[tuple[Problem, int], int | None]:
    require_backend("cpsat")
    cpsat = create_backend("cpsat")
    return {(problem, n): cpsat.solve_family(problem, n).value for problem in OPTIMISATION for n in range(1, 6)}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_each_optimum_is_the_published_term_and_cpsats(backend: str, problem: Problem,
                                                       cpsat_optima: dict[tuple[Problem, int], int | None]) -> None:
    require_backend(backend)
    solver = create_backend(backend)
    for n in range(1, 6):
        answer = solver.solve_family(problem, n)
        assert answer.proved and answer.value == published(problem, n) == cpsat_optima[(problem, n)], (n, answer)
        assert answer.witness is not None and witness_problems(problem, n, answer.witness) == []


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 9)), (Problem.SUPERQUEENS, range(7, 11))],
                         ids=["toroidal", "superqueens"])
def test_a_placement_exactly_where_one_exists(backend: str, problem: Problem, sizes: range) -> None:
    require_backend(backend)
    solver = create_backend(backend)
    for n in sizes:
        answer = solver.solve_family(problem, n)
        assert answer.proved and (answer.witness is not None) == (published(problem, n) > 0), (n, answer)


@pytest.mark.parametrize("backend", ["asp", "smt", pytest.param("minizinc", marks=pytest.mark.slow)])
@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 12)), (Problem.SUPERQUEENS, range(1, 12))],
                         ids=["toroidal", "superqueens"])
def test_the_counts_are_the_published_ones(backend: str, problem: Problem, sizes: range) -> None:
    require_backend(backend)
    solver = create_backend(backend)
    assert [solver.count_family(problem, n) for n in sizes] == [published(problem, n) for n in sizes]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("problem", "n", "seconds"), [
    (Problem.PEACEABLE, 10, 1), pytest.param(Problem.DOMINATION, 13, 3, marks=pytest.mark.slow)],
    ids=["peaceable", "domination"])
def test_a_time_limit_answers_the_best_found_not_proved(backend: str, problem: Problem, n: int, seconds: int) -> None:
    require_backend(backend)
    answer = create_backend(backend, time_limit=seconds).solve_family(problem, n)  # its witness checked on the way
    assert not answer.proved and answer.witness is not None and answer.value is not None
    better = answer.value >= published(problem, n) if problem.direction is Direction.MINIMISE \
        else answer.value <= published(problem, n)
    assert better, answer  # no witness beats the published optimum


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_time_limit_stops_an_enumeration_and_a_count(backend: str) -> None:
    """Toroidal n = 19 has 820,496 placements, minutes of work for each of these: a 1-s limit ends
    ``--all`` with exit 3, the placements written so far checked, and stops a count likewise."""
    require_backend(backend)
    listed = run_cli("solve", "19", "--problem", "toroidal", "--all", "--backend", backend, "--timeout", "1",
                     timeout=60)
    assert listed.returncode == 3, listed
    assert f"{backend} reached its time limit of 1 s" in listed.stderr and "are not all" in listed.stderr
    assert listed.stderr.count("\n") == 1
    placements = [tuple(map(int, line.split())) for line in listed.stdout.splitlines()]
    assert len(set(placements)) == len(placements)
    assert all(witness_problems(Problem.TOROIDAL, 19, p) == [] for p in placements)
    with pytest.raises(SearchStoppedError, match="time limit of 1 s"):
        create_backend(backend, time_limit=1).count_family(Problem.TOROIDAL, 19)


@pytest.mark.parametrize("backend", BACKENDS)
def test_the_classic_searches_refuse_a_time_limit(backend: str) -> None:
    require_backend(backend)
    with pytest.raises(BackendOptionError, match="time_limit bounds a family problem's search"):
        create_backend(backend, time_limit=5).count(Instance(6))


def test_smt_optimises_both_ways() -> None:
    require_backend("smt")
    for optimiser in ("iterate", "optimize"):
        solver = create_backend("smt", optimiser=optimiser)
        for problem in OPTIMISATION:
            answer = solver.solve_family(problem, 5)
            assert answer.proved and answer.value == published(problem, 5), (optimiser, answer)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_model_over_the_memory_budget_is_refused_in_one_line(backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    require_backend(backend)
    assert main(["solve", "40", "--problem", "domination", "--backend", backend, "--time-limit", "5",
                 "--max-model-mb", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "over the 1 MB limit (--max-model-mb)" in err and "Traceback" not in err
