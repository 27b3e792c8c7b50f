"""Start constellations: the symmetry bookkeeping, the pure-Python and compiled finishing searches,
and the counts against OEIS A000170 / A002562 and a brute-force enumeration."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import Counter

import pytest

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.symmetry import SYMMETRIES, canonical
from nqueens_cp.searches import constellations as cons

PYTHON = BitboardBackend(kernel="python")


def all_solutions(n: int) -> list[tuple[int, ...]]:
    return list(PYTHON.solutions(Instance(n)))


def border_key(n: int, solution: tuple[int, ...]) -> cons.Key:
    last = n - 1
    queens = [(row, col) for row, col in enumerate(solution) if row in (0, last) or col in (0, last)]
    return cons.key_of(n, queens)


@pytest.mark.parametrize("n", [5, 8, 9])
def test_point_maps_move_queens_like_the_solution_transforms(n: int) -> None:
    maps = cons._point_maps(n)
    assert len(maps) == len(SYMMETRIES)
    for solution in all_solutions(n)[:20]:
        queens = set(enumerate(solution))
        for point_map, symmetry in zip(maps, SYMMETRIES, strict=True):
            assert {point_map(q) for q in queens} == set(enumerate(symmetry.apply(solution)))
    assert (SYMMETRIES[cons.ROT90].name, SYMMETRIES[cons.ROT180].name) == ("rotate90", "rotate180")


def is_constellation(n: int, key: cons.Key) -> bool:
    """Whether ``key`` places one queen on each border line, none attacking another (the
    definition, tested square by square)."""
    if n < cons.MIN_N or not all(0 <= value < n for value in key):
        return False
    queens = cons.queens_of(n, key)
    if cons.key_of(n, queens) != key:  # e.g. top = 0 but left != 0: two queens in column 0
        return False
    return not any(a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))
                   for a in queens for b in queens)


@pytest.mark.parametrize("n", range(4, 13))
def test_canonical_constellations_partition_all_constellations(n: int) -> None:
    every = [key for key in itertools.product(range(n), repeat=4) if is_constellation(n, key)]
    for key in every:
        assert cons.key_images(n, key) == cons.images(n, key)
    covered: Counter[cons.Key] = Counter()
    for constellation in cons.constellations(n):
        members = set(cons.images(n, constellation.key))
        assert constellation.key == min(members)
        assert constellation.weight == len(members) in (2, 4, 8)
        assert constellation.search_key in members
        assert constellation.rot90 <= constellation.rot180
        assert constellation.stabiliser_order == {8: 1, 4: 2, 2: 4}[constellation.weight]
        covered.update(members)
    assert sorted(covered) == sorted(every)
    assert set(covered.values()) == {1}


@pytest.mark.parametrize("n", [6, 7, 8, 9])
def test_completions_match_brute_force(n: int) -> None:
    """Per constellation: completions, and completions fixed by each rotation, from all solutions."""
    solutions = all_solutions(n)
    by_key: dict[cons.Key, list[tuple[int, ...]]] = {}
    for solution in solutions:
        by_key.setdefault(border_key(n, solution), []).append(solution)
    for constellation in cons.constellations(n):
        found = by_key.get(constellation.search_key, [])
        finished = cons.finish(n, constellation)
        assert finished.completions == len(found) == len(by_key.get(constellation.key, []))
        if constellation.rot180:
            assert finished.fixed_rot180 == sum(map(cons.is_rot180_symmetric, found))
        if constellation.rot90:
            assert finished.fixed_rot90 == sum(map(cons.is_rot90_symmetric, found))


@pytest.mark.parametrize("n", range(4, 10))
def test_classes_by_burnside_equal_the_canonical_solutions(n: int) -> None:
    classes = {canonical(solution) for solution in all_solutions(n)}
    assert cons.count(n) == cons.ConstellationCount(A000170[n], len(classes))


@pytest.mark.parametrize("n", range(12))
def test_python_count_matches_oeis(n: int) -> None:
    assert cons.count(n) == cons.ConstellationCount(A000170[n], A002562[n] if n else 1)


def test_symmetry_checks_of_boards() -> None:
    assert cons.is_rot90_symmetric((1, 3, 0, 2)) and cons.is_rot180_symmetric((1, 3, 0, 2))
    assert not cons.is_rot180_symmetric((0, 4, 7, 5, 2, 6, 1, 3))


@pytest.mark.parametrize("batches", [1, 3, 7, 64])
def test_batches_partition_the_constellations(batches: int) -> None:
    items = cons.constellations(10)
    parts = [cons.batch(items, index, batches) for index in range(batches)]
    assert sorted(c.key for part in parts for c in part) == sorted(c.key for c in items)
    total = sum((cons.count_batch(10, part) for part in parts), cons.ConstellationCount(0, 0))
    assert total == cons.ConstellationCount(A000170[10], A002562[10])


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(cons.NQueensError):
        cons.constellations(3)
    with pytest.raises(cons.NQueensError):
        cons.batch([], 2, 2)
    with pytest.raises(cons.NQueensError):
        cons.small_board_count(-1)
    assert not is_constellation(8, (0, 3, 1, 5))  # top = 0 is a corner queen: left must be 0


kernel = pytest.importorskip("nqueens_cp.searches.native.constellations_kernel")


@pytest.mark.parametrize("n", range(4, 15))
def test_compiled_count_matches_oeis(n: int) -> None:
    assert kernel.count_batch(n, cons.constellations(n)) == cons.ConstellationCount(A000170[n], A002562[n])


@pytest.mark.parametrize("n", [8, 11, 12])
def test_compiled_and_python_agree_constellation_by_constellation(n: int) -> None:
    items = cons.constellations(n)
    assert kernel.finish_batch(n, items) == [cons.finish(n, c) for c in items]


@pytest.mark.parametrize("n", [13, 14, 16])
def test_compiled_counts_rotation_fixed_completions_like_python(n: int) -> None:
    """The orbit search of the rotation-fixed constellations against the Python search, which checks
    every completion for the rotations (a board of 4k or 4k+1 queens has completions fixed by the
    rotation by 90 degrees, as 13 and 16 do; 14 has none)."""
    items = [c for c in cons.constellations(n) if c.rot180][:: 1 if n < 16 else 6]
    assert kernel.finish_batch(n, items) == [cons.finish(n, c) for c in items]


def test_compiled_agrees_with_python_on_a_sample_of_a_larger_board() -> None:
    n = 16
    items = cons.constellations(n)
    sample = [*random.Random(11).sample(items, 3), *[c for c in items if c.rot180][:2]]
    assert kernel.finish_batch(n, sample) == [cons.finish(n, c) for c in sample]


@pytest.mark.slow
@pytest.mark.parametrize("n", [15, 16])
def test_compiled_count_matches_oeis_slow(n: int) -> None:
    assert kernel.count_batch(n, cons.constellations(n)) == cons.ConstellationCount(A000170[n], A002562[n])


@pytest.mark.parametrize("n", [12, 13, 14, 15])
def test_backend_count_on_both_sides_of_the_python_threshold(n: int) -> None:
    backend = BitboardBackend()
    assert backend.count(Instance(n)) == A000170[n]
    assert backend.count(Instance(n), unique=True) == A002562[n]
    if n <= 13:
        assert BitboardBackend(kernel="python").count(Instance(n)) == A000170[n]


def test_small_counts_do_not_import_numba() -> None:
    code = (
        "import sys\n"
        "from nqueens_cp.cli import main\n"
        "main(['solve', '8', '--backend', 'bitboard', '--count'])\n"
        "main(['solve', '13', '--backend', 'bitboard', '--count', '--unique'])\n"
        "assert 'numba' not in sys.modules, 'numba was imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["92", str(A002562[13])]
