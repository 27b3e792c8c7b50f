"""Local search (``localsearch``) and the explicit constructions (``construction``), judged by the
independent checker: every n in 4..2000, sampled sizes up to 10^6, completions, blocked squares,
seeds, bounds, refusals, the streamed output and the linear-time checker."""

from __future__ import annotations

import random

import numpy as np
import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.core.checker import PAIRWISE_MAX_N, solution_problems
from nqueens_cp.core.errors import ModelTooLargeError, NQueensError, SearchBoundError
from nqueens_cp.instances.completion import completion_instances
from nqueens_cp.searches.constructions import CONSTRUCTIONS, construction
from nqueens_cp.searches.localsearch import local_search

from .conftest import run_cli


@pytest.mark.parametrize("method", CONSTRUCTIONS)
def test_constructions_solve_every_board_up_to_2000(method: str) -> None:
    for n in range(0, 2001):
        board = construction(n, method)
        if n in (2, 3):
            assert board is None
            continue
        assert board is not None and board.dtype == np.int32
        assert solution_problems(Instance(n), board) == [], (method, n)


def test_the_two_constructions_are_different_solutions() -> None:
    assert any(not np.array_equal(construction(n, "evens-odds"), construction(n, "bernhardsson"))  # type: ignore[arg-type]
               for n in range(4, 40))


def test_swap_search_solves_every_board_from_4_to_2000() -> None:
    for n in range(4, 2001):
        outcome = local_search(Instance(n), seed=n)
        assert outcome.status == "found" and outcome.columns is not None, n
        assert solution_problems(Instance(n), outcome.columns) == [], n


def test_minconflicts_solves_every_board_from_4_to_300() -> None:
    for n in range(4, 301):
        outcome = local_search(Instance(n), method="minconflicts", seed=n)
        assert outcome.columns is not None and solution_problems(Instance(n), outcome.columns) == [], n


@pytest.mark.slow
def test_minconflicts_solves_every_board_from_301_to_2000() -> None:
    for n in range(301, 2001):
        outcome = local_search(Instance(n), method="minconflicts", seed=n)
        assert outcome.columns is not None and solution_problems(Instance(n), outcome.columns) == [], n


@pytest.mark.parametrize("n", [2_001, 4_999, 12_345, 65_536, 100_003])
def test_sampled_sizes(n: int) -> None:
    for name, options in (("localsearch", {}), ("construction", {}), ("construction", {"method": "bernhardsson"})):
        columns = create_backend(name, **options).first_columns(Instance(n))
        assert columns is not None and solution_problems(Instance(n), columns) == [], (name, n)


@pytest.mark.slow
@pytest.mark.parametrize("n", [314_159, 1_000_000])
def test_sampled_large_sizes(n: int) -> None:
    for name in ("localsearch", "construction"):
        columns = create_backend(name).first_columns(Instance(n))
        assert columns is not None and solution_problems(Instance(n), columns) == [], (name, n)


def test_tuple_and_array_answers_agree() -> None:
    backend = create_backend("localsearch", seed=3)
    solution = backend.first_solution(Instance(500))
    columns = backend.first_columns(Instance(500))
    assert isinstance(solution, tuple) and columns is not None and solution == tuple(columns.tolist())


@pytest.mark.parametrize("method", ["swap", "minconflicts"])
def test_the_same_seed_gives_the_same_answer(method: str) -> None:
    first = create_backend("localsearch", method=method, seed=7).first_solution(Instance(1000))
    again = create_backend("localsearch", method=method, seed=7).first_solution(Instance(1000))
    other = create_backend("localsearch", method=method, seed=8).first_solution(Instance(1000))
    assert first == again and first != other


@pytest.mark.parametrize("method", ["swap", "minconflicts"])
def test_completions_keep_the_pre_placed_queens(method: str) -> None:
    backend = create_backend("localsearch", method=method)
    found = 0
    for instance in completion_instances(60, 12, 15, seed=1):
        try:
            solution = backend.first_solution(instance)
        except SearchBoundError:
            continue
        assert solution is not None and solution_problems(instance, solution) == [], instance
        found += 1
    assert found >= 10


@pytest.mark.parametrize("cap", [1, 3])
def test_small_line_counts_fall_back_to_int32_and_the_repair_respects_the_cap(
    cap: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the uint8 cap lowered, a start that would put more than ``cap`` queens on a line starts
    again with int32 counts (cap 1: at the first collision); at cap 3 the counts stay uint8 and the
    repair makes no swap onto a line of two. Either way the answers stay solutions."""
    from nqueens_cp.searches import localsearch as driver
    from nqueens_cp.searches import localsearch_kernel as kernel

    seen: list[type] = []
    original = kernel.swap_repair

    def spy(*args: object) -> None:
        seen.append(args[3].dtype.type)  # type: ignore[attr-defined]
        original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(driver, "UINT8_MAX_COUNT", cap)
    monkeypatch.setattr(kernel, "swap_repair", spy)
    for n in (50, 400, 3000):
        outcome = local_search(Instance(n), seed=3)
        assert outcome.columns is not None and solution_problems(Instance(n), outcome.columns) == []
    assert set(seen) == ({np.int32} if cap == 1 else {np.uint8})
    for instance in completion_instances(200, 20, 3, seed=2):
        outcome = local_search(instance, seed=1)
        assert outcome.status == "bound" or solution_problems(instance, outcome.columns) == []


def test_a_large_completion() -> None:
    (instance,) = completion_instances(20_000, 200, 1, seed=0)
    columns = create_backend("localsearch").first_columns(instance)
    assert columns is not None and solution_problems(instance, columns) == []


@pytest.mark.parametrize("method", ["swap", "minconflicts"])
def test_blocked_squares_are_avoided(method: str) -> None:
    rng = random.Random(5)
    n = 40
    blocked = {(r, c) for r in range(n) for c in range(n) if rng.random() < 0.2}
    instance = Instance(n, {3: 7}, blocked - {(3, 7)})
    solution = create_backend("localsearch", method=method).first_solution(instance)
    assert solution is not None and solution_problems(instance, solution) == []


def test_what_is_certain_is_no_solution_and_the_rest_is_the_bound() -> None:
    backend = create_backend("localsearch", restarts=2, max_steps=50)
    assert backend.first_solution(Instance(3)) is None
    assert backend.first_solution(Instance(8, {0: 0, 1: 1})) is None  # attacking pre-placed queens
    assert backend.first_solution(Instance(5, None, [(2, c) for c in range(5)])) is None  # a fully blocked row
    with pytest.raises(SearchBoundError, match="no completion found within the bound"):
        backend.first_solution(Instance(4, {0: 0}))  # consistent, but 4x4 has no completion of it
    with pytest.raises(SearchBoundError, match="time limit"):
        create_backend("localsearch", time_limit=1e-9, restarts=10**6, max_steps=1).first_solution(Instance(4, {0: 0}))


def test_count_and_all_are_refused_in_one_line() -> None:
    for name in ("localsearch", "construction"):
        with pytest.raises(NQueensError, match="cannot count"):
            create_backend(name).count(Instance(8))
        with pytest.raises(NQueensError, match="cannot enumerate"):
            create_backend(name).solutions(Instance(8))


def test_a_board_over_the_memory_budget_is_refused_before_anything_is_built() -> None:
    with pytest.raises(ModelTooLargeError, match="over the 10 MB limit"):
        create_backend("localsearch", memory_budget_mb=10).first_columns(Instance(10**6))
    with pytest.raises(ModelTooLargeError):
        create_backend("construction", memory_budget_mb=10).first_solution(Instance(10**6))
    with pytest.raises(ModelTooLargeError, match="takes boards up to n = 100,000"):
        create_backend("backtrack").first_solution(Instance(100_001))


def test_the_linear_checker_agrees_with_the_pairwise_one() -> None:
    rng = random.Random(2)
    for _ in range(300):
        n = rng.randint(1, 12)
        board = tuple(rng.randrange(n) for _ in range(n))
        instance = Instance(n, {0: board[0]} if rng.random() < 0.3 else None)
        pairwise = solution_problems(instance, board)
        linear = solution_problems(instance, np.array(board, dtype=np.int32))
        assert (pairwise == []) == (linear == []), (board, pairwise, linear)
    big = construction(PAIRWISE_MAX_N + 50)
    assert big is not None
    assert solution_problems(Instance(len(big)), tuple(big.tolist())) == []
    broken = big.copy()
    broken[[0, 1]] = broken[[1, 0]]
    assert solution_problems(Instance(len(big)), tuple(broken.tolist()))


# -- the command line -------------------------------------------------------------------------


@pytest.mark.parametrize("output_format", ["text", "jsonl"])
def test_the_cli_streams_a_large_answer_in_the_usual_format(output_format: str) -> None:
    import json

    result = run_cli("solve", "150000", "--format", output_format)
    assert result.returncode == 0, result.stderr
    line = result.stdout.strip()
    columns = json.loads(line) if output_format == "jsonl" else [int(x) for x in line.split()]
    assert solution_problems(Instance(150_000), np.array(columns, dtype=np.int32)) == []


def test_the_cli_says_no_completion_within_the_bound() -> None:
    result = run_cli("solve", "4", "--fix", "0:0", "--backend", "localsearch", "-O", "restarts=1")
    assert result.returncode == 1
    assert result.stderr.strip().startswith("no completion found within the bound for n=4 fixed=0:0")
    assert "no solution" not in result.stderr


@pytest.mark.parametrize("option", ["seed=-1", "seed=x", "max_steps=1.5", "restarts=-2", "time_limit=abc",
                                    "time_limit=-1", "method=tabu"])
def test_a_bad_seed_or_bound_is_one_line(option: str) -> None:
    result = run_cli("solve", "100", "--backend", "localsearch", "-O", option)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "option" in result.stderr


@pytest.mark.parametrize("args", [["--count"], ["--all"], ["--unique"]])
def test_the_cli_refuses_count_and_all_in_one_line(args: list[str]) -> None:
    result = run_cli("solve", "8", "--backend", "localsearch", *args)
    assert result.returncode == 2 and result.stderr.count("\n") == 1


def test_the_default_first_solution_search_follows_the_board_size() -> None:
    from nqueens_cp.backends.framework.defaults import LOCAL_SEARCH_FROM_N, default_backend

    assert default_backend(Answer.FIRST, Instance(LOCAL_SEARCH_FROM_N - 1)) == "backtrack"
    assert default_backend(Answer.FIRST, Instance(LOCAL_SEARCH_FROM_N)) == "localsearch"
    assert default_backend(Answer.COUNT, Instance(10**6)) != "localsearch"
