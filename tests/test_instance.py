from __future__ import annotations

import itertools

import pytest

from nqueens_cp import A000170, A002562, Instance, InvalidInstanceError, NQueensError
from nqueens_cp.core.checker import is_valid_solution, solution_problems
from nqueens_cp.core.symmetry import canonical, class_size, images


@pytest.mark.parametrize(
    ("n", "fixed"),
    [(-3, None), (2.5, None), ("8", None), (True, None), (4, {4: 0}), (4, {0: -1}), (4, [(0, 1), (0, 2)]),
     (4, [(0, 1, 2)]), (4, {0: "1"})],
)
def test_invalid_instances_raise_the_package_error(n: object, fixed: object) -> None:
    with pytest.raises(InvalidInstanceError) as caught:
        Instance(n, fixed)  # type: ignore[arg-type]
    assert isinstance(caught.value, NQueensError)
    assert str(caught.value)


def test_instance_normalises_placements() -> None:
    a = Instance(5, {3: 1, 0: 4})
    b = Instance(5, [(0, 4), (3, 1)])
    assert a == b and a.fixed == ((0, 4), (3, 1)) and hash(a) == hash(b)
    assert a.with_fixed({1: 2}).fixed == ((0, 4), (1, 2), (3, 1))


def test_attacking_placements_are_valid_input() -> None:
    instance = Instance(8, {0: 0, 1: 1})
    assert not instance.fixed_are_consistent()
    assert Instance(8, {0: 0, 2: 1}).fixed_are_consistent()


def test_checker_accepts_a_known_solution_and_names_each_fault() -> None:
    eight = Instance(8)
    assert is_valid_solution(eight, (0, 4, 7, 5, 2, 6, 1, 3))
    assert "share column" in solution_problems(eight, (0, 4, 7, 5, 2, 6, 1, 0))[0]
    assert "diagonal" in " ".join(solution_problems(eight, (0, 1, 7, 5, 2, 6, 4, 3)))
    assert solution_problems(eight, (0, 4, 7))  # wrong length
    assert solution_problems(eight, (0, 4, 7, 5, 2, 6, 1, 8))  # off the board
    assert solution_problems(eight, [0, 4, 7, 5, 2, 6, 1, 3])  # not a tuple
    pinned = Instance(8, {0: 1})
    assert "pre-placed" in solution_problems(pinned, (0, 4, 7, 5, 2, 6, 1, 3))[0]
    assert is_valid_solution(Instance(0), ())


def brute_force(n: int) -> list[tuple[int, ...]]:
    """All solutions by checking every permutation: independent of every backend."""
    return [p for p in itertools.permutations(range(n)) if is_valid_solution(Instance(n), p)]


def test_shipped_counts_match_brute_force_for_small_n() -> None:
    for n in range(0, 9):
        solutions = brute_force(n)
        assert len(solutions) == A000170[n]
        if n:
            assert len({canonical(s) for s in solutions}) == A002562[n]
            representatives = {canonical(s) for s in solutions}
            assert sum(class_size(s) for s in representatives) == A000170[n]


def test_symmetries_map_solutions_to_solutions() -> None:
    for solution in brute_force(6):
        for image in images(solution):
            assert is_valid_solution(Instance(6), image)


def test_shipped_tables_cover_the_issue_range() -> None:
    assert sorted(A000170) == list(range(28))
    assert sorted(A002562) == list(range(1, 28))
    # Burnside: 8 * classes >= all solutions, as each class has at most 8 members.
    assert all(8 * A002562[n] >= A000170[n] for n in range(1, 28))
