"""The family's optimisation problems through CP-SAT and HiGHS, and ``solve --problem``: every
optimum proved equals its OEIS term, every witness is checked, a wrong one is refused."""

from __future__ import annotations

from typing import ClassVar, Iterator

import pytest

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.cli import main
from nqueens_cp.core.errors import InvalidWitnessError, NQueensError, SolverError
from nqueens_cp.core.family_checker import witness_problems
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.models.family import build_family_model, colour_bound, family_memory

from .conftest import require_backend, run_cli

OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]


@pytest.mark.parametrize("backend", ["cpsat", "mip"])
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_each_proved_optimum_is_the_published_term(backend: str, problem: Problem) -> None:
    require_backend(backend)
    from nqueens_cp.backends.framework.registry import create_backend

    solver = create_backend(backend)
    for n in range(1, 6):
        answer = solver.solve_family(problem, n)
        assert answer.proved and answer.value == SEQUENCES[problem.sequences[0]][n], (problem, n, answer)
        assert witness_problems(problem, n, answer.witness) == []


@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 12)), (Problem.SUPERQUEENS, range(1, 11))],
                         ids=["toroidal", "superqueens"])
def test_cpsat_counts_the_placements(problem: Problem, sizes: range) -> None:
    require_backend("cpsat")
    from nqueens_cp.backends.framework.registry import create_backend

    solver = create_backend("cpsat")
    assert [solver.count_family(problem, n) for n in sizes] == [SEQUENCES[problem.sequences[0]][n] for n in sizes]


def test_the_models_sizes_and_palette() -> None:
    n = 6
    assert build_family_model(Problem.TOROIDAL, n).size().constraints == 4 * n
    knights = 4 * (n - 1) * (n - 2)
    assert build_family_model(Problem.SUPERQUEENS, n).size().constraints == 6 * n - 6 + knights
    assert build_family_model(Problem.INDEPENDENT_DOMINATION, n).size().constraints == n * n + 6 * n - 6
    k = colour_bound(n)
    assert (k, build_family_model(Problem.COLOURING, n).size().constraints) == (7, n * n + k * (6 * n - 6) + k - 1 + n)
    for problem in Problem:
        if problem is not Problem.QUEENS:
            built = sum(len(row.terms) for row in build_family_model(problem, 7).rows)
            assert built <= family_memory(problem, 7).size.constraints, problem


class _WrongWitness(Backend):
    """Claims a proved domination number of 1 with a queen that dominates nothing much."""

    name = "test-wrong-witness"
    summary = "a planted wrong witness"
    family: ClassVar[frozenset[Problem]] = frozenset({Problem.DOMINATION})

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return iter(())

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        return FamilyAnswer(problem, n, frozenset({(0, 0)}), 1, True)


class _NotOptimal(_WrongWitness):
    """A valid dominating set of 6 queens on the 8 x 8 board claimed as the proved optimum (it is 5)."""

    name = "test-not-optimal"

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        queens = frozenset({(0, 2), (1, 6), (4, 1), (5, 5), (6, 1), (7, 7)})  # an optimum of 5, one queen more
        return FamilyAnswer(problem, n, queens, len(queens), True)


def test_a_wrong_witness_is_refused_naming_a_square() -> None:
    with pytest.raises(InvalidWitnessError, match=r"invalid witness of domination for n = 8: square \(1, 2\) is neither"):
        _WrongWitness().solve_family(Problem.DOMINATION, 8)
    with pytest.raises(NQueensError, match="does not take problem colouring"):
        _WrongWitness().solve_family(Problem.COLOURING, 8)


def test_the_command_line_refuses_a_proved_value_oeis_contradicts(capsys: pytest.CaptureFixture[str]) -> None:
    for backend in (_NotOptimal, _WrongWitness):
        register_backend(backend.name, backend)
    try:
        assert main(["solve", "8", "--problem", "domination", "--backend", _NotOptimal.name]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err == ("nqueens-cp: error: test-not-optimal proved 6 optimal for domination, n = 8; "
                                     "A075458 publishes 5\n")
        assert main(["solve", "8", "--problem", "domination", "--backend", _WrongWitness.name]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith("nqueens-cp: error: test-wrong-witness returned an invalid witness")
    finally:
        for backend in (_NotOptimal, _WrongWitness):
            unregister_backend(backend.name)


class _FailingSolver(Backend):
    """A solver that fails in the middle of its search."""

    name = "test-failing-solver"
    summary = "a planted solver failure"
    family: ClassVar[frozenset[Problem]] = frozenset({Problem.DOMINATION})

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        raise SolverError("the planted solver crashed")

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        raise SolverError("the planted solver crashed")


@pytest.mark.parametrize("args", [["8"], ["8", "--problem", "domination"]], ids=["classic", "family"])
def test_a_run_that_failed_is_exit_1_not_bad_input(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    register_backend(_FailingSolver.name, _FailingSolver)
    try:
        assert main(["solve", *args, "--backend", _FailingSolver.name]) == 1
    finally:
        unregister_backend(_FailingSolver.name)
    out, err = capsys.readouterr()
    assert out == "" and err == "nqueens-cp: error: the planted solver crashed\n"


def test_solve_problem_prints_the_optimum_and_its_witness() -> None:
    require_backend("mip")
    done = run_cli("solve", "5", "--problem", "domination", "--show")
    assert done.returncode == 0, done.stderr
    value, squares, blank, *board = done.stdout.splitlines()
    assert (value, blank, len(board)) == ("3", "", 5)
    queens = frozenset(tuple(map(int, square.split(","))) for square in squares.split())
    assert witness_problems(Problem.DOMINATION, 5, queens) == []
    assert sum(line.count("Q") for line in board) == 3
    assert done.stderr == "domination number of the 5 x 5 board: 3, proved optimal; A075458: 3\n"


@pytest.mark.parametrize(("args", "message"), [
    (["8", "--problem", "domination", "--all"], "--all is for placements; --problem domination asks for an optimum"),
    (["8", "--problem", "domination", "--fix", "0:0"], "--fix is for the classic problem"),
    (["5", "--problem", "colouring", "--count"], "--count is for placements; --problem colouring asks for an optimum"),
    (["7", "--problem", "toroidal", "--limit", "2"], "--limit stops --all after K placements: give --all with it"),
    (["7", "--problem", "toroidal", "--all", "--backend", "mip"], "backend mip does not enumerate placements of toroidal"),
    (["8", "--problem", "domination", "--backend", "bitboard"], "backend bitboard does not take --problem domination"),
    (["8", "--problem", "dominatoin"], "invalid choice: 'dominatoin'"),
    (["1001", "--problem", "toroidal", "--show"], "--show draws boards up to n = 1000 (n = 1,001); leave it out"),
    (["32", "--problem", "superqueens", "--backend", "bitboard"],
     "bitboard finds no placement of superqueens of n > 30 within a minute (n = 32); use --backend cpsat"),
    (["700", "--problem", "superqueens", "--backend", "cpsat"],
     "(n = 700); use --backend bitboard: it constructs one for this n"),
    (["11", "--problem", "domination", "--backend", "pb"],
     "(n = 11); it takes no time limit: use --backend cpsat or mip with --time-limit SECONDS"),
    (["602", "--problem", "superqueens", "--backend", "pb"], "pb finds no placement of superqueens of n > 512 within a "
     "minute (n = 602); no backend here finds one within a minute; give cpsat --time-limit SECONDS to try"),
    (["602", "--problem", "superqueens"],
     "(n = 602); no backend here finds one within a minute, or give it --time-limit SECONDS, at which it stops"),
    (["33", "--problem", "superqueens", "--backend", "bitboard"], "(n = 33); use --backend cpsat"),
    (["301", "--problem", "toroidal", "--backend", "cpsat"],
     "cpsat finds no toroidal placement of n > 37 within a minute (n = 301); use --backend bitboard"),
    (["18", "--problem", "toroidal", "--backend", "sat"],
     "sat proves no toroidal board of n > 12 empty of placements (n shares a factor with 6) within a minute"),
])
def test_solve_problem_refuses_in_one_line(args: list[str], message: str) -> None:
    done = run_cli("solve", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


def test_the_toroidal_construction_places_exactly_where_polya_allows() -> None:
    from math import gcd

    from nqueens_cp.core.family_oeis import A051906
    from nqueens_cp.searches.family import toroidal_placement

    for n in range(1, 120):
        placement = toroidal_placement(n)
        assert (placement is not None) == (n == 1 or gcd(n, 6) == 1), n
        if placement is not None:
            assert witness_problems(Problem.TOROIDAL, n, placement) == []
        if n in A051906:
            assert (placement is not None) == (A051906[n] > 0), n


def test_a_time_limit_lifts_the_bound_of_a_first_placement() -> None:
    """Beyond the bound a search may still be asked, with a time limit at which it stops."""
    done = run_cli("solve", "18", "--problem", "toroidal", "--backend", "cpsat", "--timeout", "1")
    assert done.returncode == 3 and "time limit of 1 s" in done.stderr and done.stderr.count("\n") == 1, done


def test_the_superqueens_construction_places_where_it_says() -> None:
    """3i mod n for n coprime to 6, that of n + 1 less its corner queen for n + 1 coprime to 6,
    nothing for the other n (2 or 3 mod 6, and every n from 2 to 9, where A051223 has none)."""
    from math import gcd

    from nqueens_cp.core.family_oeis import A051223
    from nqueens_cp.searches.family import superqueens_placement

    for n in [*range(1, 200), 100_003, 100_004]:
        placement = superqueens_placement(n)
        constructed = n == 1 or (n >= 11 and gcd(n, 6) == 1) or (n >= 10 and gcd(n + 1, 6) == 1)
        assert (placement is not None) == constructed, n
        if placement is not None:
            assert witness_problems(Problem.SUPERQUEENS, n, placement) == [], n
        if n in A051223 and A051223[n] == 0:
            assert placement is None, n


def test_a_large_placement_is_checked_in_linear_time_as_strictly_as_pair_by_pair() -> None:
    """Beyond the attack table the checker compares only pieces that share a line or stand within a
    knight's reach: on random boards with planted clashes it names what the pair-by-pair check names."""
    import random

    from nqueens_cp.core.family_checker import MAX_PROBLEMS, _attacking_pairs, placement_problems
    from nqueens_cp.core.problems import Rules

    chooser = random.Random(37)
    for _ in range(400):
        n = chooser.randint(33, 48)
        rules = Rules(toroidal=chooser.random() < 0.5, knight=chooser.random() < 0.5)
        columns = [3 * i % n for i in range(n)] if chooser.random() < 0.5 else chooser.sample(range(n), n)
        for _ in range(chooser.randint(0, 2)):
            columns[chooser.randrange(n)] = chooser.randrange(n)
        pairwise = _attacking_pairs(rules, n, list(enumerate(columns)), "pieces")
        fast = placement_problems(rules, n, columns)
        if len(pairwise) < MAX_PROBLEMS:
            assert sorted(fast) == sorted(pairwise), (n, rules, columns)
        else:
            assert len(fast) == MAX_PROBLEMS


@pytest.mark.parametrize(("args", "answer"), [
    (["13", "--problem", "toroidal", "--count"], "4524"),
    (["12", "--problem", "superqueens", "--count"], "156"),
    (["25", "--problem", "toroidal"], " ".join(str(2 * i % 25) for i in range(25))),
    (["700", "--problem", "superqueens"], " ".join(str(3 * i % 701 - 1) for i in range(1, 701))),
])
def test_the_placement_problems_by_default(args: list[str], answer: str) -> None:
    done = run_cli("solve", *args)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, answer, "")
