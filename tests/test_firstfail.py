"""First-fail search: exhaustive like the row search, and fast first solutions for large n."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.cli import main
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170
from nqueens_cp.core.symmetry import is_canonical
from nqueens_cp.searches.firstfail import (
    _BudgetExhausted,
    _search,
    firstfail_first,
    firstfail_solutions,
    middle_out,
)


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


def test_restarts_get_past_a_fruitless_subtree() -> None:
    # n = 46: the deterministic order spends more than 10,000 placements without a solution ...
    with pytest.raises(_BudgetExhausted):
        next(_search(Instance(46), None, middle_out(46), 10_000))
    # ... while the restarts, each with a doubled budget and reshuffled ties, find one.
    assert is_valid_solution(Instance(46), firstfail_first(Instance(46)) or ())


def test_the_seed_changes_the_answer_and_repeats_it() -> None:
    answers = [firstfail_first(Instance(46), seed=seed) for seed in range(5)]
    assert all(is_valid_solution(Instance(46), answer or ()) for answer in answers)
    assert len(set(answers)) > 1  # the seed reshuffles the ties of the restarts
    assert answers == [firstfail_first(Instance(46), seed=seed) for seed in range(5)]  # and is reproducible


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


@pytest.mark.parametrize("n", [1, 5, 8, 9])
def test_numpy_counts_equal_the_loop(n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The free-square counts are updated by a Python loop for small boards, by numpy for large ones:
    forced either way, the searches visit the same boards in the same order."""
    from nqueens_cp.searches import firstfail

    cases: list[dict[str, int | None]] = [{"first_row_max": None}, {"first_row_max": (n - 1) // 2}]
    instances = [Instance(n), *([Instance(n, {1: min(2, n - 1)})] if n > 2 else [])]
    answers = {}
    for threshold in (1, 10**9):
        monkeypatch.setattr(firstfail, "VECTORIZE_FROM", threshold)
        answers[threshold] = [list(firstfail_solutions(i, **case)) for i in instances for case in cases]
    assert answers[1] == answers[10**9]
    monkeypatch.setattr(firstfail, "VECTORIZE_FROM", 200)
    large = [firstfail_first(Instance(m)) for m in (199, 200, 230)]
    monkeypatch.setattr(firstfail, "VECTORIZE_FROM", 10**9)
    assert large == [firstfail_first(Instance(m)) for m in (199, 200, 230)]
