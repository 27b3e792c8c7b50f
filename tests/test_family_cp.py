"""The family in the CP solvers: Choco (``pychoco``) and CPMpy, each with its own CP model
(:mod:`nqueens_cp.models.family_cp`). Every proved optimum equals its OEIS term and CP-SAT's,
every witness passes the independent checker, a placement exists exactly where the published
count is not 0, a time limit gives the best found unproved, and Ctrl-C ends a long search."""

from __future__ import annotations

import signal
import sys

import pytest

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.registry import backend_class, create_backend
from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.family_checker import witness_problems, witness_value
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem
from nqueens_cp.models.family_cp import cp_witness

from .conftest import REPO, load_file, require_backend

CP_BACKENDS = ["choco", "cpmpy"]
OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]
#: The boards each optimum is checked on in the default run (each well under a second per backend).
SIZES = {Problem.DOMINATION: range(1, 7), Problem.INDEPENDENT_DOMINATION: range(1, 8),
         Problem.COLOURING: range(1, 8), Problem.PEACEABLE: range(1, 6)}


def _backend(name: str, time_limit: float | None = None) -> Backend:
    require_backend(name)
    return create_backend(name) if time_limit is None else create_backend(name, time_limit=str(time_limit))


def _published(problem: Problem, n: int) -> int:
    return SEQUENCES[problem.sequences[0]][n]


def test_both_declare_every_problem_of_the_family() -> None:
    for name in CP_BACKENDS:
        assert backend_class(name).family == frozenset(Problem) - {Problem.QUEENS}


@pytest.mark.parametrize("backend", CP_BACKENDS)
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_each_proved_optimum_is_the_published_term_and_cpsats(backend: str, problem: Problem) -> None:
    solver, cpsat = _backend(backend), _backend("cpsat")
    for n in SIZES[problem]:
        answer = solver.solve_family(problem, n)
        assert answer.witness is not None and witness_problems(problem, n, answer.witness) == []
        assert answer.proved and answer.value == _published(problem, n), (problem, n, answer)
        assert answer.value == witness_value(problem, answer.witness)
        assert answer.value == cpsat.solve_family(problem, n).value, (problem, n)


@pytest.mark.slow
@pytest.mark.parametrize("backend", CP_BACKENDS)
@pytest.mark.parametrize(("problem", "n"), [(Problem.DOMINATION, 7), (Problem.PEACEABLE, 6), (Problem.PEACEABLE, 7)],
                         ids=["domination-7", "peaceable-6", "peaceable-7"])
def test_the_larger_optima(backend: str, problem: Problem, n: int) -> None:
    answer = _backend(backend).solve_family(problem, n)
    assert answer.proved and answer.value == _published(problem, n)
    assert answer.witness is not None and witness_problems(problem, n, answer.witness) == []


@pytest.mark.parametrize("backend", CP_BACKENDS)
@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 14)), (Problem.SUPERQUEENS, range(1, 13))],
                         ids=["toroidal", "superqueens"])
def test_a_placement_exactly_where_the_published_count_is_not_zero(backend: str, problem: Problem,
                                                                     sizes: range) -> None:
    solver = _backend(backend)
    for n in sizes:
        answer = solver.solve_family(problem, n)
        assert answer.proved
        if _published(problem, n) == 0:
            assert (answer.witness, answer.value) == (None, None), (problem, n)
        else:
            assert answer.witness is not None and witness_problems(problem, n, answer.witness) == []
            assert answer.value == n


@pytest.mark.parametrize("backend", CP_BACKENDS)
def test_no_toroidal_placement_of_2_3_and_4(backend: str) -> None:
    solver = _backend(backend)
    for n in (2, 3, 4):
        answer = solver.solve_family(Problem.TOROIDAL, n)
        assert (answer.witness, answer.proved) == (None, True), n
    assert _backend("cpsat").solve_family(Problem.TOROIDAL, 4).witness is None  # a second solver agrees


@pytest.mark.parametrize("backend", CP_BACKENDS)
def test_a_time_limit_gives_the_best_found_unproved(backend: str) -> None:
    n = 12  # a dominating set is found at once; that none of 5 queens is needs far more than a second
    answer = _backend(backend, time_limit=0.5).solve_family(Problem.DOMINATION, n)
    assert answer.witness is not None and witness_problems(Problem.DOMINATION, n, answer.witness) == []
    assert not answer.proved and answer.value is not None and answer.value >= _published(Problem.DOMINATION, n)


@pytest.mark.parametrize("solver", ["choco", "exact", "z3"])
def test_cpmpy_hands_the_model_to_other_solvers(solver: str) -> None:
    require_backend("cpmpy")
    from nqueens_cp.backends.cpmpy import installed_solvers

    if solver not in installed_solvers():
        pytest.skip(f"CPMpy's solver {solver} is not installed")
    backend = create_backend("cpmpy", solver=solver)
    for problem, n in [(Problem.DOMINATION, 5), (Problem.COLOURING, 6), (Problem.PEACEABLE, 4), (Problem.TOROIDAL, 7)]:
        answer = backend.solve_family(problem, n)
        assert answer.proved and answer.witness is not None
        assert answer.value == (n if problem.counts_placements else _published(problem, n))


def test_cpmpy_refuses_an_optimum_of_a_solver_that_only_satisfies() -> None:
    require_backend("cpmpy")
    from nqueens_cp.backends.cpmpy import installed_solvers

    if "pysat" not in installed_solvers():
        pytest.skip("CPMpy's solver pysat is not installed")
    with pytest.raises(BackendOptionError, match="cannot answer domination"):
        create_backend("cpmpy", solver="pysat").solve_family(Problem.DOMINATION, 4)


def test_the_values_decode_into_each_witness() -> None:
    assert cp_witness(Problem.TOROIDAL, 5, [0, 2, 4, 1, 3]) == (0, 2, 4, 1, 3)
    assert cp_witness(Problem.DOMINATION, 2, [[1, 0], [0, 0]]) == frozenset({(0, 0)})
    assert cp_witness(Problem.COLOURING, 2, [[0, 1], [2, 3]]) == ((0, 1), (2, 3))
    assert cp_witness(Problem.PEACEABLE, 3, ([[1, 0, 0], [0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 1], [0, 0, 0]])) == (
        frozenset({(0, 0)}), frozenset({(1, 2)}))


BENCH = load_file(REPO / "benchmarks" / "bench_interrupt.py", "bench_interrupt")


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["choco", "cpmpy", "cpmpy:solver=choco"])
def test_ctrl_c_ends_a_long_optimisation(backend: str) -> None:
    name, *option = backend.split(":")
    require_backend(name)
    argv = [sys.executable, "-m", "nqueens_cp", "solve", "12", "--problem", "colouring", "--backend", name,
            "--time-limit", "600", *(["-O", option[0]] if option else [])]
    outcome = BENCH.interrupt(argv, signal.SIGINT, 2.5, give_up=60)
    assert outcome.running, "the search ended before it could be stopped"
    assert (outcome.status, outcome.stderr) == (130, "nqueens-cp: interrupted")
    assert outcome.latency is not None and outcome.latency < 10, outcome  # a bound for a hang, not a timing
    assert not outcome.left, f"left behind: {outcome.left}"
