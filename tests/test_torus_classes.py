"""Toroidal solutions up to the torus's symmetries (``searches/torus_classes``): the group, its
conjugacy classes, the fixed-solution search against brute force, and every published term of A053994."""

from __future__ import annotations

import pytest

from nqueens_cp.core.family_oeis import A007705, A053994
from nqueens_cp.core.problems import Rules
from nqueens_cp.searches import family
from nqueens_cp.searches.torus_classes import (
    TorusMap,
    _compose,
    _inverse,
    conjugacy_classes,
    fixed_count,
    group,
    torus_classes,
)

from .conftest import run_cli

TORUS = Rules(toroidal=True)


def _queens(n: int, placement: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    return frozenset(enumerate(placement))


def _image(n: int, g: TorusMap, queens: frozenset[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    return frozenset(g.apply(n, square) for square in queens)


@pytest.mark.parametrize("n", [5, 7])
def test_every_element_maps_toroidal_solutions_to_toroidal_solutions(n: int) -> None:
    elements = list(group(n))
    assert len(set(elements)) == 8 * n * n
    solutions = {_queens(n, s) for s in family.solutions(TORUS, n)}
    for g in elements:
        assert {_image(n, g, q) for q in solutions} == solutions


def test_inverse_and_composition() -> None:
    n = 7
    identity = TorusMap((1, 0, 0, 1), (0, 0))
    for g in group(n):
        assert _compose(n, g, _inverse(n, g)) == identity
        assert _compose(n, _inverse(n, g), g) == identity


def test_conjugacy_classes_partition_the_group_and_are_closed_under_conjugation() -> None:
    n = 5
    classes = conjugacy_classes(n)
    which = {g: i for i, k in enumerate(classes) for g in k}
    assert len(which) == 8 * n * n and sum(map(len, classes)) == 8 * n * n
    assert classes[0] == [TorusMap((1, 0, 0, 1), (0, 0))]
    for g in group(n):
        for h in group(n):
            assert which[_compose(n, _compose(n, h, g), _inverse(n, h))] == which[g]


@pytest.mark.parametrize("n", [5, 7, 11])
def test_fixed_count_is_the_brute_force_count_for_every_element(n: int) -> None:
    solutions = [_queens(n, s) for s in family.solutions(TORUS, n)]
    for g in group(n):
        assert fixed_count(n, g) == sum(_image(n, g, q) == q for q in solutions), g


def test_classes_of_side_13_are_the_orbits_counted_one_by_one() -> None:
    n = 13
    elements = list(group(n))
    left = {_queens(n, s) for s in family.solutions(TORUS, n)}
    orbits = 0
    while left:
        start = left.pop()
        left -= {_image(n, g, start) for g in elements}
        orbits += 1
    assert torus_classes(n).classes == orbits == A053994[n // 2]


@pytest.mark.parametrize("n", [1, 3, 5, 7, 9, 11, 13])
def test_a053994_with_every_term_searched(n: int) -> None:
    result = torus_classes(n)
    assert result.solutions == A007705[n // 2]
    assert result.classes == A053994[n // 2]


@pytest.mark.parametrize("n", [15, 17, 19, 21, 23])
def test_a053994_from_the_published_number_of_solutions(n: int) -> None:
    assert torus_classes(n, A007705[n // 2]).classes == A053994[n // 2]


@pytest.mark.slow
def test_a053994_of_side_25() -> None:
    assert torus_classes(25, A007705[12]).classes == A053994[12]


def test_a_burnside_sum_that_is_no_multiple_of_the_group_order_is_an_error() -> None:
    with pytest.raises(ArithmeticError, match="not a multiple"):
        _ = torus_classes(5, A007705[2] + 1).classes


@pytest.mark.parametrize(("args", "answer"), [
    (["13", "--problem", "toroidal", "--count", "--unique"], "11"),
    (["11", "--problem", "superqueens", "--count", "--unique"], "6"),
])
def test_the_command_line_counts_classes(args: list[str], answer: str) -> None:
    done = run_cli("solve", *args)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, answer, "")


@pytest.mark.parametrize(("args", "message"), [
    (["13", "--problem", "toroidal", "--unique"], "--unique counts or enumerates placements up to symmetry: give --count or --all"),
    (["6", "--problem", "domination", "--unique"], "--problem domination asks for an optimum"),
    (["13", "--problem", "toroidal", "--count", "--unique", "--backend", "cpsat"],
     "backend cpsat does not count classes of toroidal; use --backend bitboard"),
])
def test_the_command_line_refuses_classes_it_cannot_count(args: list[str], message: str) -> None:
    done = run_cli("solve", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr
