"""The family model's cuts (``build_family_model(..., cuts=True)``): the three half-count rows keep
some image of every set under the square's 8 symmetries, Spencer's bound holds, and CP-SAT with
them (its default) still proves every optimum OEIS publishes for the small boards; the colouring's
first step refutes an n-colouring where none exists and finds one where it does."""

from __future__ import annotations

import random

import pytest

from nqueens_cp.core.family_checker import witness_problems
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem
from nqueens_cp.models.family import build_family_model, domination_lower_bound, halves_rows
from nqueens_cp.models.geometry import square_variable

from .conftest import require_backend

Set = frozenset[tuple[int, int]]


def _image(n: int, squares: Set, transpose: bool, flip_rows: bool, flip_columns: bool) -> Set:
    """``squares`` transposed (or not), then flipped top to bottom and left to right (or not)."""
    moved = ((c, r) if transpose else (r, c) for r, c in squares)
    return frozenset((n - 1 - r if flip_rows else r, n - 1 - c if flip_columns else c) for r, c in moved)


def _images(n: int, squares: Set) -> list[Set]:
    """The 8 images of ``squares`` under the square's rotations and reflections."""
    return [_image(n, squares, t, v, h) for t in (False, True) for v in (False, True) for h in (False, True)]


def _keeps(n: int, squares: Set) -> bool:
    on = {square_variable(n, r, c) for r, c in squares}
    return all(sum(a for a, v in row.terms if v in on) >= 0 for row in halves_rows(n))


@pytest.mark.parametrize("n", range(1, 9))
def test_every_set_has_an_image_the_halves_keep(n: int) -> None:
    rng = random.Random(n)
    squares = [(r, c) for r in range(n) for c in range(n)]
    for _ in range(300):
        chosen = frozenset(s for s in squares if rng.random() < rng.choice((0.1, 0.3, 0.5)))
        assert any(_keeps(n, image) for image in _images(n, chosen)), (n, sorted(chosen))


def test_the_halves_cut_some_sets() -> None:
    assert not _keeps(6, frozenset({(5, 0)}))  # a lone queen in the bottom half
    assert not _keeps(6, frozenset({(0, 5)}))  # in the right half
    assert not _keeps(6, frozenset({(1, 0), (0, 1), (2, 0)}))  # more below the diagonal than above
    assert _keeps(6, frozenset({(0, 0)})) and _keeps(6, frozenset({(1, 0), (0, 1), (0, 2)}))


def test_spencers_bound_is_below_every_published_domination_number() -> None:
    for sequence in ("A075458", "A075324"):
        for n, value in SEQUENCES[sequence].items():
            assert domination_lower_bound(n) <= value, (sequence, n)
    assert [domination_lower_bound(n) for n in (10, 11, 12, 13)] == [5, 5, 6, 6]


def test_the_cuts_are_rows_of_the_model() -> None:
    n = 7
    for problem, added in ((Problem.DOMINATION, 4), (Problem.INDEPENDENT_DOMINATION, 4), (Problem.PEACEABLE, 3),
                           (Problem.COLOURING, 0), (Problem.TOROIDAL, 0)):
        plain, cut = build_family_model(problem, n), build_family_model(problem, n, cuts=True)
        assert len(cut.rows) - len(plain.rows) == added, problem
    full = build_family_model(Problem.COLOURING, n, colours=n)
    assert (full.variables, len(full.rows)) == (n * n * n + n, n * n + n * (6 * n - 6) + (n - 1) + n + 2 * n * n)


@pytest.mark.parametrize("problem", [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.PEACEABLE],
                         ids=lambda p: p.value)
def test_cpsat_with_the_cuts_proves_the_published_optima(problem: Problem) -> None:
    require_backend("cpsat")
    from nqueens_cp.backends.framework.registry import create_backend

    solver = create_backend("cpsat", cuts=True, time_limit=120)
    for n in range(1, 9 if problem is not Problem.PEACEABLE else 7):
        answer = solver.solve_family(problem, n)
        assert answer.proved and answer.value == SEQUENCES[problem.sequences[0]][n], (problem, n, answer)
        assert witness_problems(problem, n, answer.witness) == []


def test_the_colouring_refutes_n_colours_first_and_proves_the_published_optima() -> None:
    require_backend("cpsat")
    from nqueens_cp.backends.framework.registry import create_backend

    solver = create_backend("cpsat", cuts=True, time_limit=120)
    assert solver._colour_with_n(Problem.COLOURING, 8) == (None, True)  # type: ignore[attr-defined]
    seven, refuted = solver._colour_with_n(Problem.COLOURING, 7)  # type: ignore[attr-defined]
    assert not refuted and seven is not None and seven.value == 7 and seven.proved
    for n in range(2, 10):
        answer = solver.solve_family(Problem.COLOURING, n)
        assert answer.proved and answer.value == SEQUENCES["A088202"][n], (n, answer)
        assert witness_problems(Problem.COLOURING, n, answer.witness) == []


def test_the_modular_colouring_is_proper_with_the_palette_and_with_n_prime_to_6() -> None:
    from nqueens_cp.models.family import colour_bound, modular_colouring

    for n in range(1, 30):
        for colours in {colour_bound(n), *([n] if n % 6 in (1, 5) else [])}:
            witness = tuple(tuple(row) for row in modular_colouring(n, colours))
            assert witness_problems(Problem.COLOURING, n, witness) == [], (n, colours)
            assert witness[0] == tuple(range(n))
    assert witness_problems(Problem.COLOURING, 8, tuple(tuple(row) for row in modular_colouring(8, 8)))  # 8: not prime to 6
