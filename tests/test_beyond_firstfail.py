"""First-fail search: exhaustive like the row search, and fast first solutions for large n."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.registry import create_backend
from nqueens_cp.checker import is_valid_solution
from nqueens_cp.cli import main
from nqueens_cp.errors import BackendOptionError
from nqueens_cp.firstfail import firstfail_first, firstfail_solutions, middle_out
from nqueens_cp.instance import Instance
from nqueens_cp.oeis import A000170
from nqueens_cp.symmetry import is_canonical


def test_middle_out_order() -> None:
    assert middle_out(5) == [2, 1, 3, 0, 4]
    assert middle_out(6) == [2, 3, 1, 4, 0, 5]
    assert sorted(middle_out(17)) == list(range(17))


@pytest.mark.parametrize("n", range(0, 10))
def test_enumeration_equals_the_row_search(n: int) -> None:
    found = list(firstfail_solutions(Instance(n)))
    assert len(found) == len(set(found)) == A000170[n]
    assert set(found) == set(create_backend("backtrack").solutions(Instance(n)))


@pytest.mark.parametrize(
    "fixed", [{0: 0}, {3: 3}, {0: 0, 1: 2}, {2: 5, 5: 1}, {0: 1, 7: 6}, {0: 0, 1: 1}, {4: 4, 6: 6}]
)
def test_pre_placed_queens_match_the_row_search(fixed: dict[int, int]) -> None:
    instance = Instance(8, fixed)
    found = list(firstfail_solutions(instance))
    assert len(found) == len(set(found))
    assert set(found) == set(create_backend("backtrack").solutions(instance))
    first = firstfail_first(instance)
    assert (first is None) == (not found)
    assert first is None or first in found


@pytest.mark.parametrize("n", [0, 1, 2, 3])
def test_first_on_tiny_boards(n: int) -> None:
    first = firstfail_first(Instance(n))
    assert (first is None) == (A000170[n] == 0)


def test_first_solutions_are_valid_up_to_200() -> None:
    for n in [*range(4, 60), *range(60, 201, 7), 200]:
        solution = firstfail_first(Instance(n))
        assert solution is not None and is_valid_solution(Instance(n), solution), n


def test_first_is_reproducible_and_seeded() -> None:
    # n = 46: the deterministic order runs into a long fruitless subtree, so restarts decide
    assert firstfail_first(Instance(46), seed=3) == firstfail_first(Instance(46), seed=3)
    assert is_valid_solution(Instance(46), firstfail_first(Instance(46), seed=5) or ())


def test_backend_option_and_first_solution() -> None:
    backend = create_backend("backtrack", search="firstfail")
    solution = backend.first_solution(Instance(150))
    assert solution is not None and is_valid_solution(Instance(150), solution)
    assert backend.first_solution(Instance(3)) is None
    with pytest.raises(BackendOptionError):
        create_backend("backtrack", search="sideways")


def test_unique_limit_one_is_canonical() -> None:
    backend = create_backend("backtrack", search="firstfail")
    (sol,) = backend.solutions(Instance(10), unique=True, limit=1)
    assert is_canonical(sol) and is_valid_solution(Instance(10), sol)


def test_cli_solves_a_large_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "300", "--backend", "backtrack", "-O", "search=firstfail"]) == 0
    solution = tuple(int(x) for x in capsys.readouterr().out.split())
    assert is_valid_solution(Instance(300), solution)
