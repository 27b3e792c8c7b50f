"""The family's vocabulary against its ground truth: the attack rule and the witness checker,
brute-forced on small boards, reproduce the published OEIS terms of every problem; a wrong witness
is refused with the squares at fault."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest

from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import InvalidArgumentError
from nqueens_cp.core.family_checker import (
    colouring_problems,
    domination_problems,
    peaceable_problems,
    placement_problems,
)
from nqueens_cp.core.family_oeis import (
    A007705,
    A051223,
    A051224,
    A051906,
    A075324,
    A075458,
    A088202,
    A250000,
)
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170
from nqueens_cp.core.problems import Direction, Goal, Problem, Rules, attacks
from nqueens_cp.core.symmetry import canonical

QUEEN, TORUS, SUPER = Rules(), Rules(toroidal=True), Rules(knight=True)


def _placements(rules: Rules, n: int) -> list[tuple[int, ...]]:
    """Every placement of n pieces, one per row, by backtracking on the attack rule alone."""
    found: list[tuple[int, ...]] = []

    def extend(prefix: tuple[int, ...]) -> None:
        if len(prefix) == n:
            found.append(prefix)
            return
        row = len(prefix)
        for col in range(n):
            if not any(attacks(rules, n, (r, c), (row, col)) for r, c in enumerate(prefix)):
                extend((*prefix, col))

    extend(())
    return found


def _squares(n: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(n) for c in range(n)]


def _fewest(n: int, holds) -> int:  # type: ignore[no-untyped-def]
    for k in range(n * n + 1):
        if any(holds(chosen) for chosen in combinations(_squares(n), k)):
            return k
    raise AssertionError("no witness at all")


def test_the_classic_rules_are_the_classic_checker() -> None:
    for n in range(1, 7):
        for columns in permutations(range(n)):
            assert (placement_problems(QUEEN, n, columns) == []) == is_valid_solution(Instance(n), columns)


def test_attack_is_symmetric_and_never_on_itself() -> None:
    for rules in (QUEEN, TORUS, SUPER, Rules(toroidal=True, knight=True)):
        for a in _squares(5):
            assert not attacks(rules, 5, a, a)
            for b in _squares(5):
                assert attacks(rules, 5, a, b) == attacks(rules, 5, b, a)


@pytest.mark.parametrize("n", range(1, 12))
def test_toroidal_placements_are_a051906(n: int) -> None:
    solutions = _placements(TORUS, n)
    assert len(solutions) == A051906[n]
    assert all(placement_problems(TORUS, n, s) == [] for s in solutions)
    if n % 2:
        assert A007705[n // 2] == A051906[n]


@pytest.mark.parametrize("n", range(1, 11))
def test_superqueen_placements_are_a051223_and_a051224(n: int) -> None:
    solutions = _placements(SUPER, n)
    assert len(solutions) == A051223[n]
    assert len({canonical(s) for s in solutions}) == A051224[n]


def test_classic_placements_are_a000170() -> None:
    assert [len(_placements(QUEEN, n)) for n in range(1, 9)] == [A000170[n] for n in range(1, 9)]


@pytest.mark.parametrize("n", range(1, 6))
def test_domination_numbers_are_a075458_and_a075324(n: int) -> None:
    assert _fewest(n, lambda queens: not domination_problems(QUEEN, n, queens)) == A075458[n]
    assert _fewest(n, lambda queens: not domination_problems(QUEEN, n, queens, independent=True)) == A075324[n]


def _colourable(n: int, k: int) -> bool:
    squares = _squares(n)
    colour: dict[tuple[int, int], int] = {}

    def place(i: int) -> bool:
        if i == len(squares):
            return True
        square = squares[i]
        for c in range(min(k, max(colour.values(), default=-1) + 2)):  # colours used in order
            if all(colour[other] != c for other in squares[:i] if attacks(QUEEN, n, other, square)):
                colour[square] = c
                if place(i + 1):
                    return True
                del colour[square]
        return False

    if place(0):
        grid = [[colour[(r, c)] for c in range(n)] for r in range(n)]
        assert colouring_problems(QUEEN, n, grid) == []
        return True
    return False


@pytest.mark.parametrize("n", range(1, 5))
def test_chromatic_numbers_are_a088202(n: int) -> None:
    assert min(k for k in range(1, n * n + 1) if _colourable(n, k)) == A088202[n]


def _peaceable(n: int, m: int) -> bool:
    squares = _squares(n)
    for white in combinations(squares, m):
        free = [s for s in squares if s not in white and not any(attacks(QUEEN, n, w, s) for w in white)]
        if len(free) >= m:
            black = free[:m]
            assert peaceable_problems(QUEEN, n, white, black) == []
            return True
    return False


@pytest.mark.parametrize("n", range(1, 5))
def test_peaceable_armies_are_a250000(n: int) -> None:
    assert max(m for m in range(n * n // 2 + 1) if m == 0 or _peaceable(n, m)) == A250000[n]


def test_wrong_witnesses_are_refused_naming_the_squares() -> None:
    assert placement_problems(TORUS, 8, (0, 4, 7, 5, 2, 6, 1, 3)) != []  # a classic solution, not toroidal
    # a classic solution of n = 5 whose queens stand a knight's jump apart five times
    assert placement_problems(SUPER, 5, (0, 2, 4, 1, 3)) == [
        f"pieces on {a} and {b} attack each other"
        for a, b in [((0, 0), (1, 2)), ((1, 2), (2, 4)), ((1, 2), (3, 1)), ((2, 4), (4, 3)), ((3, 1), (4, 3))]]
    assert domination_problems(QUEEN, 4, [(0, 0)]) == ["square (1, 2) is neither occupied nor attacked",
                                                       "square (1, 3) is neither occupied nor attacked",
                                                       "square (2, 1) is neither occupied nor attacked",
                                                       "square (2, 3) is neither occupied nor attacked",
                                                       "square (3, 1) is neither occupied nor attacked",
                                                       "square (3, 2) is neither occupied nor attacked"]
    assert domination_problems(QUEEN, 4, [(0, 0), (1, 1), (2, 3)], independent=True)[0] == (
        "queens on (0, 0) and (1, 1) attack each other")
    assert colouring_problems(QUEEN, 2, [[0, 1], [2, 0]]) == ["squares (0, 0) and (1, 1) attack each other and share colour 0"]
    assert peaceable_problems(QUEEN, 4, [(0, 0)], [(1, 2), (2, 1)]) == ["the armies differ in size: 1 white, 2 black"]
    assert peaceable_problems(QUEEN, 4, [(0, 0)], [(0, 3)]) == ["the white queen on (0, 0) attacks the black queen on (0, 3)"]
    assert placement_problems(QUEEN, 4, (0, 9, 1, 3)) == ["square (1, 9) is off the 4 x 4 board"]


def test_each_problem_declares_its_rules_goal_and_sequences() -> None:
    assert Problem.named("toroidal").rules == TORUS
    assert Problem.SUPERQUEENS.rules == SUPER and Problem.QUEENS.rules == QUEEN
    assert [p for p in Problem if p.counts_placements] == [Problem.QUEENS, Problem.TOROIDAL, Problem.SUPERQUEENS]
    assert Problem.PEACEABLE.direction is Direction.MAXIMISE and Problem.COLOURING.direction is Direction.MINIMISE
    assert Problem.DOMINATION.goal is Goal.DOMINATE and Problem.QUEENS.direction is None
    assert all(p.sequences for p in Problem)
    with pytest.raises(InvalidArgumentError, match=r"unknown problem 'toroidl'.*toroidal"):
        Problem.named("toroidl")
