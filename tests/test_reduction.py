"""models/reduction.py: propagating pre-placed queens and blocked squares keeps every completion."""

from __future__ import annotations

import itertools
import random

from nqueens_cp import Instance
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.instances.files import read_instance
from nqueens_cp.models.reduction import Reduction, reduce_instance

from .test_csplib import DATA


def completions_of_reduction(reduction: Reduction) -> set[tuple[int, ...]]:
    """Every board the reduced model allows: one open square per free row and column, at most
    one queen per diagonal (by brute force over the free columns' permutations)."""
    if not reduction.consistent:
        return set()
    open_squares = set(reduction.squares)
    found = set()
    for perm in itertools.permutations(reduction.cols):
        chosen = list(zip(reduction.rows, perm, strict=True))
        diagonals_distinct = len({r + c for r, c in chosen}) == len(chosen) == len({r - c for r, c in chosen})
        if diagonals_distinct and all(sq in open_squares for sq in chosen):
            found.add(reduction.board(dict(chosen)))
    return found


def test_reduced_model_has_exactly_the_completions() -> None:
    rng = random.Random(11)
    for _ in range(400):
        n = rng.randrange(0, 7)
        fixed = {rng.randrange(n): rng.randrange(n) for _ in range(rng.randrange(0, 3))} if n else {}
        blocked = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randrange(0, 2 * n + 1))] if n else []
        instance = Instance(n, fixed, blocked)
        everything = {p for p in itertools.permutations(range(n)) if is_valid_solution(instance, p)}
        assert completions_of_reduction(reduce_instance(instance)) == everything, instance


def test_lines_of_a_reduction() -> None:
    reduction = reduce_instance(Instance(4, {0: 1}, [(1, 0)]))
    assert reduction.rows == (1, 2, 3) and reduction.cols == (0, 2, 3)
    # (1, 0) blocked; (1, 2) and (2, 3) attacked by the queen at (0, 1) along a diagonal
    assert reduction.squares == ((1, 3), (2, 0), (2, 2), (3, 0), (3, 2), (3, 3))
    lines = list(reduction.lines())
    assert ("row", [(1, 3)]) in lines and ("column", [(2, 0), (3, 0)]) in lines
    assert all(len(squares) > 1 for kind, squares in lines if kind in ("up", "down"))


def test_attacking_preplaced_queens_make_an_inconsistent_reduction() -> None:
    assert not reduce_instance(Instance(5, {0: 0, 1: 1})).consistent
    assert not reduce_instance(Instance(5, {0: 0}, [(0, 0)])).consistent
    assert reduce_instance(Instance(5, {0: 0, 1: 2})).consistent


def test_translated_csplib_instance_shrinks_to_its_original_board() -> None:
    instance = read_instance(DATA / "completion-10-4-778-3.param")
    reduction = reduce_instance(instance)
    assert instance.n == 2540 and len(reduction.rows) == len(reduction.cols) == 10
    original = read_instance(DATA / "diag-10-4-778.param", 3)
    assert len(reduction.squares) == 100 - len(original.blocked)
