"""The family's fast counters (``searches/torus_count``, ``searches/superqueens_count``): each
symmetry they use maps solutions to solutions, the weighted canonical counts equal the plain counts
and a brute-force recount of the orbit sum, and the published terms."""

from __future__ import annotations

from collections import Counter
from math import gcd

import pytest

from nqueens_cp.core.family_oeis import A051223, A051224, A051906
from nqueens_cp.core.problems import Rules
from nqueens_cp.core.symmetry import SYMMETRIES, canonical
from nqueens_cp.searches import family

pytest.importorskip("numba")

from nqueens_cp.searches import family_kernel as kernel
from nqueens_cp.searches import superqueens_count, torus_count, torus_group

TORUS, SUPER = Rules(toroidal=True), Rules(knight=True)


def _squares(placement: tuple[int, ...]) -> frozenset[tuple[int, int]]:
    return frozenset(enumerate(placement))


def _placement(n: int, squares: frozenset[tuple[int, int]]) -> tuple[int, ...] | None:
    """The placement (column per row) these squares make, or None when two share a row."""
    columns = dict(squares)
    return tuple(columns[r] for r in range(n)) if len(columns) == n == len(squares) else None


@pytest.mark.parametrize("n", [5, 7, 11, 13])
def test_each_linear_symmetry_maps_toroidal_solutions_to_solutions_and_fixes_the_corner(n: int) -> None:
    solutions = set(family.bitboard_solutions(TORUS, n))
    for generator in torus_group.generators(n):
        assert torus_group.apply(n, generator, (0, 0)) == (0, 0)
        images = {_placement(n, frozenset(torus_group.apply(n, generator, x) for x in _squares(s))) for s in solutions}
        assert images == solutions, generator
    # the eighth of a turn is no symmetry of the square's: it is what the square's group lacks
    assert torus_group.generators(n)[-1] == (1, 1, n - 1, 1)


@pytest.mark.parametrize("n", [5, 7, 9, 11, 13, 25])
def test_the_linear_group_has_eight_phi_n_elements(n: int) -> None:
    """For odd n: the scalars (phi(n) of them) times the 8 symmetries of the four directions."""
    phi = sum(1 for a in range(1, n) if gcd(a, n) == 1)
    elements = torus_group.group(n)
    assert len(elements) == len(set(elements)) == 8 * phi
    assert elements[0] == (1, 0, 0, 1)


@pytest.mark.parametrize("n", [5, 7, 13])
def test_keys_are_constant_on_orbits(n: int) -> None:
    orbit = torus_group.orbits(n)
    for r in range(n):
        for c in range(n):
            images = {torus_group.apply(n, g, (r, c)) for g in orbit.elements}
            assert len(images) == orbit.size[r, c]
            assert {int(orbit.key[x]) for x in images} == {int(orbit.key[r, c])}
    assert orbit.key[0, 0] == n and orbit.size[0, 0] == 1


def test_the_weighted_canonical_count_is_the_plain_count() -> None:
    for n in range(4, 18):
        plain = n * torus_count.plain_count_from(n, (0,))
        assert torus_count.count(n, workers=2) == plain == A051906[n]
    assert torus_count.count(1) == 1 and torus_count.count(2) == torus_count.count(3) == 0


def _recount(n: int) -> dict[int, Counter[int]]:
    """The histograms of :func:`torus_count.canonical_histograms` from their definitions, over all
    the enumerated solutions: the least key m of a difference of two queens; when the solution
    holds (0, 0) and (1, m), the triples (x, y, A) with key(y - x) = m and A (y - x) = (1, m), and
    each one's value, the row-2 column of the solution mapped by z -> A (z - x); kept when its own
    row-2 column is the least value, with the number of triples reaching it."""
    orbit = torus_group.orbits(n)
    found: dict[int, Counter[int]] = {}
    for solution in family.bitboard_solutions(TORUS, n):
        queens = _squares(solution)
        differences = {(x, y): ((y[0] - x[0]) % n, (y[1] - x[1]) % n) for x in queens for y in queens if x != y}
        m = min(int(orbit.key[d]) for d in differences.values())
        if solution[0] != 0 or solution[1] != m:
            continue
        values = []
        for (x, _), d in differences.items():
            for g in orbit.elements:
                if int(orbit.key[d]) == m and torus_group.apply(n, g, d) == (1, m):
                    image = dict(torus_group.apply(n, g, ((w[0] - x[0]) % n, (w[1] - x[1]) % n)) for w in queens)
                    values.append(image[2])
        if solution[2] == min(values):
            found.setdefault(m, Counter())[values.count(solution[2])] += 1
    return found


@pytest.mark.parametrize("n", [11, 13])
def test_the_canonical_search_finds_the_canonical_solutions_of_the_definition(n: int) -> None:
    orbit = torus_group.orbits(n)
    searched = {m: Counter({k: int(v) for k, v in enumerate(h) if v}) for m, h in
                torus_count.canonical_histograms(orbit).items()}
    assert {m: h for m, h in searched.items() if h} == _recount(n)


def test_the_pruning_window_changes_the_work_not_the_answer() -> None:
    orbit = torus_group.orbits(17)
    search = torus_count.canonical(orbit, 2)
    for least in range(3, 9):
        histograms = [search.count_from(17, least, window).tolist() for window in (0, 1, 3, 5, 17)]
        assert all(h == histograms[0] for h in histograms), least


@pytest.mark.parametrize("n", [10, 11, 12])
def test_the_square_symmetries_map_superqueens_to_superqueens(n: int) -> None:
    solutions = set(family.bitboard_solutions(SUPER, n))
    assert solutions
    for symmetry in SYMMETRIES:
        assert {symmetry.apply(s) for s in solutions} == solutions, symmetry.name


def test_the_superqueens_group_search_counts_placements_and_classes() -> None:
    for n in range(superqueens_count.MIN_N, 16):
        result = superqueens_count.count(n, workers=2)
        assert result.placements == kernel.search_count(SUPER, n) == A051223[n]
        assert result.classes == kernel.unique_count(SUPER, n, total=result.placements) == A051224[n]
    for n in (11, 12):
        assert superqueens_count.count(n).classes == len({canonical(s) for s in family.bitboard_solutions(SUPER, n)})
    with pytest.raises(ValueError, match="n >= 6"):
        superqueens_count.count(5)


@pytest.mark.slow
def test_larger_published_terms_by_the_fast_counters() -> None:
    assert torus_count.count(19) == A051906[19]
    assert torus_count.count(23) == A051906[23]
    for n in (16, 17, 18):
        result = superqueens_count.count(n)
        assert (result.placements, result.classes) == (A051223[n], A051224[n])
