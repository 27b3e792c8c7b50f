"""The family's searches against the brute force of test_family_core and the published terms; the
symmetries the compiled counter uses, each checked on its own."""

from __future__ import annotations

from collections import Counter

import pytest

from nqueens_cp.core.family_checker import placement_problems
from nqueens_cp.core.family_oeis import A051223, A051224, A051906
from nqueens_cp.core.oeis import A000170
from nqueens_cp.core.problems import Rules
from nqueens_cp.core.symmetry import SYMMETRIES, canonical
from nqueens_cp.searches import family
from tests.test_family_core import _placements

kernel = pytest.importorskip("nqueens_cp.searches.family_kernel")

QUEEN, TORUS, SUPER, BOTH = Rules(), Rules(toroidal=True), Rules(knight=True), Rules(toroidal=True, knight=True)
ALL_RULES = (QUEEN, TORUS, SUPER, BOTH)


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
@pytest.mark.parametrize("n", range(0, 9))
def test_every_search_is_the_brute_force(rules: Rules, n: int) -> None:
    expected = _placements(rules, n) if n else [()]
    assert list(family.row_solutions(rules, n)) == expected
    assert list(family.bitboard_solutions(rules, n)) == expected
    assert family.count(rules, n) == len(expected)
    assert kernel.count(rules, n, workers=1) == kernel.count(rules, n, workers=2) == len(expected)
    assert kernel.fixed_count(rules, n, 0) == len(expected)  # the identity fixes every placement


@pytest.mark.parametrize("rules,sequence,largest", [(TORUS, A051906, 13), (SUPER, A051223, 12)], ids=str)
def test_the_readable_searches_give_the_published_terms(rules: Rules, sequence: dict[int, int], largest: int) -> None:
    for n in range(1, largest + 1):
        found = family.solutions(rules, n)
        assert len(found) == family.count(rules, n) == sequence[n]
        assert found == sorted(set(found))  # distinct and in lexicographic order
        assert all(placement_problems(rules, n, s) == [] for s in found)
        assert family.first(rules, n) == (found[0] if found else None)
        assert family.solutions(rules, n, limit=3) == found[:3]
    assert [len(list(family.row_solutions(rules, n))) for n in range(1, 12)] == [sequence[n] for n in range(1, 12)]


def test_the_compiled_counts_are_the_published_terms() -> None:
    assert [kernel.count(TORUS, n) for n in range(1, 18)] == [A051906[n] for n in range(1, 18)]
    assert [kernel.count(SUPER, n) for n in range(1, 15)] == [A051223[n] for n in range(1, 15)]
    assert [kernel.unique_count(SUPER, n) for n in range(1, 15)] == [A051224[n] for n in range(1, 15)]
    assert [kernel.count(QUEEN, n) for n in range(1, 12)] == [A000170[n] for n in range(1, 12)]


def test_the_torus_column_shift_makes_every_first_column_alike() -> None:
    """count(n) = n * (solutions with the row-0 queen in column 0): the shift is a bijection."""
    for n in (5, 7, 11, 13):
        first_columns = Counter(s[0] for s in family.bitboard_solutions(TORUS, n))
        assert set(first_columns.values()) == {A051906[n] // n} and len(first_columns) == n
        shifted = {tuple((c + 1) % n for c in s) for s in family.bitboard_solutions(TORUS, n)}
        assert shifted == set(family.bitboard_solutions(TORUS, n))
    # with the knight the shift is no symmetry (the jumps do not wrap): the kernel uses the mirror
    with_knight = set(family.bitboard_solutions(BOTH, 13))
    assert {tuple((c + 1) % 13 for c in s) for s in with_knight} != with_knight


def test_the_torus_search_finds_nothing_where_polya_says_so() -> None:
    """Polya: no solution unless gcd(n, 6) = 1; the search, without the theorem, agrees."""
    for n in (2, 3, 4, 6, 8, 9, 10, 12):
        assert kernel.search_count(TORUS, n) == 0 == kernel.count(TORUS, n)
        assert kernel.search_count(BOTH, n) == 0 == kernel.count(BOTH, n)


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_the_mirror_maps_placements_to_placements(rules: Rules) -> None:
    for n in (8, 10, 11):
        found = set(family.bitboard_solutions(rules, n))
        assert {tuple(n - 1 - c for c in s) for s in found} == found


@pytest.mark.parametrize("rules", ALL_RULES, ids=str)
def test_burnside_counts_the_classes_and_each_symmetry_its_fixed_placements(rules: Rules) -> None:
    for n in range(1, 12):
        found = list(family.bitboard_solutions(rules, n))
        for symmetry in SYMMETRIES:
            assert kernel.fixed_count(rules, n, symmetry.index) == sum(symmetry.apply(s) == s for s in found)
        assert kernel.unique_count(rules, n) == len({canonical(s) for s in found})
    assert kernel.unique_count(SUPER, 12) == A051224[12]


def test_boards_beyond_the_kernel_are_refused() -> None:
    with pytest.raises(ValueError, match="0 <= n <= 32"):
        kernel.count(SUPER, 33)


@pytest.mark.slow
def test_larger_published_terms() -> None:
    assert kernel.count(TORUS, 19) == A051906[19]
    for n in (15, 16, 17):
        total = kernel.count(SUPER, n)
        assert total == A051223[n]
        assert kernel.unique_count(SUPER, n, total=total) == A051224[n]
