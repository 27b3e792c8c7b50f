"""``solve`` checks every board before it prints it: wrong backends are caught, nothing of a bad
board is written, stderr says what failed, exit status 1. Also: approximate counts outside their
bound, and ``--limit 0``."""

from __future__ import annotations

from typing import Any, ClassVar, Iterator

import numpy as np
import pytest

from nqueens_cp.backends.construction import ConstructionBackend
from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.cli import main
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.instance import Instance, Solution

from .conftest import require_backend
from .harness_backends import correct


class ZerosBackend(Backend):
    """Every board it gives has all queens in column 0, after the true ones with ``--all``."""

    name = "test-zeros"
    summary = "all queens in column 0"
    supports_blocked = True

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        yield from correct(Instance(instance.n))[:2]
        yield (0,) * instance.n

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._solutions(instance, limit)

    def _first_solution(self, instance: Instance) -> Solution | None:
        return (0,) * instance.n


class IgnoresSquaresBackend(ZerosBackend):
    """Gives the empty board's solutions, whatever queens are pre-placed or squares blocked."""

    name = "test-ignores-squares"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        yield from correct(Instance(instance.n))

    def _first_solution(self, instance: Instance) -> Solution | None:
        return correct(Instance(instance.n))[0]


class RepeatsBackend(ZerosBackend):
    """Gives the solutions with the first again at the end (out of lexicographic order)."""

    name = "test-repeats"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        solutions = correct(instance)
        yield from [*solutions, solutions[0]]


class OrderedRepeatsBackend(RepeatsBackend):
    """Says its boards come in lexicographic order: gives the second solution twice."""

    name = "test-ordered-repeats"

    def lexicographic_solutions(self, unique: bool = False) -> bool:
        return True

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        solutions = correct(instance)
        yield from [*solutions[:2], *solutions[1:]]


class UnorderedBackend(OrderedRepeatsBackend):
    """Says its boards come in lexicographic order, gives them backwards (each once)."""

    name = "test-unordered"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        yield from reversed(correct(instance))


class ArraysBackend(OrderedRepeatsBackend):
    """Gives its boards as arrays of two rows; ``bad`` says which board is replaced by what."""

    name = "test-arrays"
    bad: ClassVar[dict[int, str]] = {}

    def _solution_arrays(self, instance: Instance, limit: int | None, unique: bool) -> Iterator[Any]:
        boards = np.array(correct(Instance(instance.n)), dtype=np.int64)  # pre-placed queens ignored
        for index, how in self.bad.items():
            boards[index] = boards[index - 1] if how == "repeat" else 0
        return (boards[first:first + 2] for first in range(0, len(boards), 2))


class ZeroColumnsBackend(ZerosBackend):
    """Answers the first solution as an array of zeros."""

    name = "test-zero-columns"
    array_answers = True

    def _first_columns(self, instance: Instance) -> Any:
        return np.zeros(instance.n, dtype=np.int32)


class SwappedConstructionBackend(ConstructionBackend):
    """The construction's board with rows 5 and 6 given the same column (from the compiled check on)."""

    name = "test-swapped"

    def _first_columns(self, instance: Instance) -> Any:
        columns = super()._first_columns(instance)
        columns[6] = columns[5]
        return columns


class WrongApproximateBackend(ZerosBackend):
    """An approximate counter whose count is always 1."""

    name = "test-approximate"
    count_tolerance = 0.8

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        return 1


FAKES: tuple[type[Backend], ...] = (
    ZerosBackend, IgnoresSquaresBackend, RepeatsBackend, OrderedRepeatsBackend, UnorderedBackend, ArraysBackend,
    ZeroColumnsBackend, SwappedConstructionBackend, WrongApproximateBackend,
)


@pytest.fixture(autouse=True)
def fakes() -> Iterator[None]:
    for cls in FAKES:
        register_backend(cls.name, cls)
    yield
    for cls in FAKES:
        unregister_backend(cls.name)


def solve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["solve", *args])
    out, err = capsys.readouterr()
    return status, out, err


def lines(solutions: list[Solution]) -> str:
    return "".join(" ".join(map(str, board)) + "\n" for board in solutions)


def test_an_invalid_first_solution_is_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve(capsys, "6", "--backend", "test-zeros") == (
        1, "", "nqueens-cp: error: test-zeros returned an invalid board for n=6: rows 0 and 1 share column 0\n")
    status, out, err = solve(capsys, "6", "--backend", "test-zeros", "--show")
    assert (status, out) == (1, "") and "rows 0 and 1 share column 0" in err


@pytest.mark.parametrize("extra", [[], ["--format", "jsonl"], ["--show"], ["--unique"]])
def test_all_stops_before_an_invalid_board(capsys: pytest.CaptureFixture[str], extra: list[str]) -> None:
    status, out, err = solve(capsys, "8", "--all", "--backend", "test-zeros", *extra)
    assert status == 1 and "0 0 0" not in out and "[0, 0, 0" not in out
    assert len([line for line in out.splitlines() if line and "." not in line]) == 2
    assert err == "nqueens-cp: error: test-zeros returned an invalid board for n=8: rows 0 and 1 share column 0\n"


@pytest.mark.parametrize("squares", [["--fix", "0:2"], ["--block", "0:1"]])
def test_boards_are_checked_against_the_instance(capsys: pytest.CaptureFixture[str], squares: list[str]) -> None:
    for what in (["--all"], []):
        status, out, err = solve(capsys, "6", "--backend", "test-ignores-squares", *what, *squares)
        assert (status, out) == (1, ""), err
        assert ("pre-placed queen at column 2" if squares[0] == "--fix" else "blocked square at column 1") in err


def test_a_repeat_is_caught_before_it_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = solve(capsys, "6", "--all", "--backend", "test-repeats")
    assert status == 1 and out == lines(correct(Instance(6)))
    assert err == "nqueens-cp: error: test-repeats returned the board (1 3 5 0 2 4) twice for n=6\n"


def test_a_repeat_across_spilled_runs_is_found_at_the_end(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from nqueens_cp.cli import checked

    monkeypatch.setattr(checked, "SPILL_AT", 2)
    status, out, err = solve(capsys, "6", "--all", "--backend", "test-repeats")
    solutions = correct(Instance(6))
    assert status == 1 and out == lines([*solutions, solutions[0]])
    assert err.startswith("nqueens-cp: error: test-repeats returned the board (1 3 5 0 2 4) twice for n=6 (found once")
    assert solve(capsys, "8", "--all", "--backend", "test-ignores-squares")[0] == 0  # 92 boards, 46 runs, no repeat


def test_a_declared_order_is_held_to(capsys: pytest.CaptureFixture[str]) -> None:
    solutions = correct(Instance(6))
    status, out, err = solve(capsys, "6", "--all", "--backend", "test-ordered-repeats")
    assert (status, out) == (1, lines(solutions[:2]))
    assert err == "nqueens-cp: error: test-ordered-repeats returned the board (2 5 1 4 0 3) twice for n=6\n"
    status, out, err = solve(capsys, "6", "--all", "--backend", "test-unordered")
    assert (status, out) == (1, lines(solutions[-1:]))
    assert "out of the lexicographic order it declares" in err


@pytest.mark.parametrize(("bad", "printed", "message"), [
    ({}, 92, ""),
    ({5: "zeros"}, 4, "an invalid board for n=8: rows 0 and 1 share column 0"),
    ({4: "repeat"}, 4, "the board (0 6 4 7 1 3 5 2) twice for n=8"),  # the first of a batch repeats the last before
    ({3: "repeat"}, 2, "the board (0 6 3 5 7 1 4 2) twice for n=8"),
])
def test_batches_are_checked_before_any_of_their_boards_is_printed(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, bad: dict[int, str], printed: int,
        message: str) -> None:
    monkeypatch.setattr(ArraysBackend, "bad", bad)
    status, out, err = solve(capsys, "8", "--all", "--backend", "test-arrays")
    assert (status, out) == (1 if message else 0, lines(correct(Instance(8))[:printed]))
    assert err == (f"nqueens-cp: error: test-arrays returned {message}\n" if message else "")
    monkeypatch.setattr(ArraysBackend, "bad", {})
    status, out, err = solve(capsys, "8", "--all", "--backend", "test-arrays", "--fix", "0:1")
    assert (status, out) == (1, "") and "pre-placed queen at column 1" in err


def test_the_array_answer_is_checked(capsys: pytest.CaptureFixture[str]) -> None:
    assert solve(capsys, "300", "--backend", "test-zero-columns") == (
        1, "", "nqueens-cp: error: test-zero-columns returned an invalid board for n=300: rows 0 and 1 share column 0\n")
    status, out, err = solve(capsys, "200000", "--backend", "test-swapped")  # the compiled check
    assert (status, out) == (1, "") and err.startswith("nqueens-cp: error: test-swapped returned an invalid board")
    assert "rows 5 and 6 share column" in err


def test_an_approximate_count_outside_its_bound_is_not_printed(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = solve(capsys, "4", "--count", "--backend", "test-approximate")
    assert (status, out) == (1, "")
    assert err == ("nqueens-cp: error: test-approximate returned the approximate count 1, not within a factor 1.8 "
                   "of the true count: OEIS A000170(4) = 2; no result reported\n")
    assert solve(capsys, "3", "--count", "--backend", "test-approximate")[:2] == (1, "")  # A000170(3) = 0
    assert solve(capsys, "5", "--count", "--backend", "test-approximate", "--fix", "0:0")[:2] == (0, "1\n")


def test_approxmc_at_n_4_prints_no_count_outside_its_bound(capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's own command: ApproxMC 4.4.0 counts 1 for the 2 boards of n = 4, and ``1`` was
    printed on stdout before the error. Whatever the installed ApproxMC answers, stdout holds a
    count within its bound or nothing."""
    from nqueens_cp.backends.framework.base import count_within_tolerance

    require_backend("approxmc")
    status, out, err = solve(capsys, "4", "--count", "--backend", "approxmc")
    if status == 0:
        assert count_within_tolerance(int(out), 2, 0.8) and "OEIS A000170(4) = 2 is within it" in err
    else:
        assert (status, out) == (1, "")
        assert err.startswith("nqueens-cp: error: approxmc returned the approximate count ") and err.count("\n") == 1
        assert err.endswith("not within a factor 1.8 of the true count: OEIS A000170(4) = 2; no result reported\n")


@pytest.mark.parametrize("what", [["--all"], [], ["--count"], ["--all", "--unique"]])
def test_limit_zero_asks_for_nothing(capsys: pytest.CaptureFixture[str], what: list[str]) -> None:
    for args in (["--limit", "0", *what], [*what, "--limit", "0"]):  # in either order
        status, out, err = solve(capsys, "8", *args)
        assert (status, out) == (0, "") and err.count("\n") == 1 and "no solution" not in err  # not even in part
        assert err.startswith("nqueens-cp: --limit 0 asks for zero boards: nothing searched or written")


def test_the_fast_checks_agree_with_the_pairwise_checker() -> None:
    from itertools import product

    from nqueens_cp.core.checker import board_problem, first_invalid_board, solution_problems

    for n, squares in ((4, {}), (4, {"fixed": ((0, 1),)}), (4, {"blocked": ((0, 2), (3, 3))})):
        instance = Instance(n, **squares)  # type: ignore[arg-type]
        boards = list(product(range(n), repeat=n))
        for board in boards:
            problems = solution_problems(instance, board)
            assert board_problem(instance, board) == (problems[0] if problems else None), board
        invalid = [index for index, board in enumerate(boards) if solution_problems(instance, board)]
        array, start, found = np.array(boards, dtype=np.int64), 0, []
        while (failed := first_invalid_board(instance, array[start:])) is not None:
            found.append(start + failed[0])
            start += failed[0] + 1
        assert found == invalid


def test_the_compiled_check_of_a_large_board() -> None:
    from nqueens_cp.core.checker import COMPILED_CHECK_FROM_N, columns_problem

    n = COMPILED_CHECK_FROM_N + 2
    columns = ConstructionBackend().first_columns(Instance(n))
    assert columns is not None and columns_problem(Instance(n), columns) is None
    assert columns_problem(Instance(n, fixed=((0, int(columns[0]) ^ 1),)), columns) is not None
    bad = columns.copy()
    bad[[7, 8]] = bad[7] + 1, bad[7]  # rows 7 and 8 on a difference diagonal (and their columns off their lines)
    assert columns_problem(Instance(n), bad) is not None
    bad = columns.copy()
    bad[n - 1] = n
    assert columns_problem(Instance(n), bad) == f"row {n - 1}: column {n} is off the board"


def test_a_split_run_checks_each_board_before_printing_it(capsys: pytest.CaptureFixture[str]) -> None:
    # Every sub-problem gives the fake's boards: two of the empty board's, then the all-zeros board.
    status, out, err = solve(capsys, "6", "--all", "--backend", "test-zeros", "--workers", "2",
                             "--executor", "threads", "--split-depth", "1")
    assert status == 1 and err.startswith("nqueens-cp: error: test-zeros returned ")
    printed = [tuple(map(int, line.split())) for line in out.splitlines()]
    assert len(set(printed)) == len(printed) and all(is_valid_solution(Instance(6), board) for board in printed)


def test_a_certified_enumeration_checks_each_board_before_printing_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from nqueens_cp.backends.sat import SatBackend

    certified = SatBackend.certified

    def wrong_board_first(self: SatBackend, instance: Instance, **kwargs: Any) -> Any:
        kwargs["on_solution"]((0,) * instance.n)  # a solver answer the checker refuses
        return certified(self, instance, **kwargs)

    monkeypatch.setattr(SatBackend, "certified", wrong_board_first)
    status, out, err = solve(capsys, "6", "--all", "--certify")
    assert (status, out) == (1, "")
    assert "certification failed: sat returned an invalid board for n=6: rows 0 and 1 share column 0" in err


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint16])
def test_the_compiled_pass_names_the_first_row_that_clashes(dtype: type) -> None:
    """The machine code of the huge board's pass, on every board of 5 rows with columns -1..5 (off
    the board included), against the definition: the first row off the board or sharing a line
    with an earlier row."""
    from itertools import product

    from nqueens_cp.core.clash_kernel import first_clash

    def expected(board: tuple[int, ...]) -> int:
        for row, col in enumerate(board):
            if not 0 <= col < len(board) or any(col == c or abs(col - c) == row - r for r, c in enumerate(board[:row])):
                return row
        return -1

    low = 0 if np.dtype(dtype).kind == "u" else -1
    for board in product(range(low, 6), repeat=5):
        assert first_clash(np.array(board, dtype=dtype)) == expected(board), board
    assert first_clash(np.array([0, 2**40], dtype=np.int64)) == 1  # not wrapped into the board by a cast
