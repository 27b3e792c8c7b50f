"""Blocked squares, CSPLib problem 079's instance files, and the translation to completion."""

from __future__ import annotations

import ast
import csv
import random
import re
from pathlib import Path

import pytest

from nqueens_cp import Instance, InvalidInstanceError, NQueensError
from nqueens_cp.core.checker import is_valid_solution, solution_problems
from nqueens_cp.core.errors import InstanceFileError
from nqueens_cp.core.instance import diagonal_squares
from nqueens_cp.instances.excluded_diagonals import Diagonal, ExcludedDiagonals, to_completion
from nqueens_cp.instances.files import read_excluded_diagonals, read_instance
from nqueens_cp.models.reduction import reduce_instance

from .conftest import run_cli

DATA = Path(__file__).parent / "data" / "csplib079"


def free_part(instance: Instance) -> tuple[tuple[int, ...], tuple[int, ...], Instance]:
    """The free rows and columns of a completion instance, and the board of its open squares on
    them (the i-th free row and column become row and column i), from the models' reduction."""
    reduction = reduce_instance(instance)
    row_of = {r: i for i, r in enumerate(reduction.rows)}
    col_of = {c: j for j, c in enumerate(reduction.cols)}
    open_squares = {(row_of[r], col_of[c]) for r, c in reduction.squares}
    m = len(reduction.rows)
    blocked = [(i, j) for i in range(m) for j in range(m) if (i, j) not in open_squares]
    return reduction.rows, reduction.cols, Instance(m, blocked=blocked)


def first_solution(instance: Instance) -> tuple[int, ...] | None:
    """A plain recursive search written for these tests (shares nothing with the backends)."""
    n = instance.n
    allowed = [instance.allowed_columns(row) for row in range(n)]
    cols: list[int] = []

    def place(row: int) -> bool:
        if row == n:
            return True
        for col in allowed[row]:
            if all(col != c and abs(col - c) != row - r for r, c in enumerate(cols)):
                cols.append(col)
                if place(row + 1):
                    return True
                cols.pop()
        return False

    return tuple(cols) if place(0) else None


def paper_answers() -> dict[tuple[int, int, int], bool]:
    with (DATA / "answers.tsv").open(encoding="utf-8") as handle:
        return {(int(r["n"]), int(r["diagonals"]), int(r["id"])): r["satisfiable"] == "1"
                for r in csv.DictReader(handle, delimiter="\t")}


# -- blocked squares in the instance and the checker -------------------------------------------


def test_blocked_squares_are_sorted_without_repeats_and_part_of_equality() -> None:
    a = Instance(5, blocked=[(3, 1), (0, 4), (3, 1)])
    assert a.blocked == ((0, 4), (3, 1))
    assert a == Instance(5, blocked=[(0, 4), (3, 1)]) and hash(a) == hash(Instance(5, blocked=[(3, 1), (0, 4)]))
    assert a != Instance(5)
    assert a.with_fixed({1: 2}).blocked == a.blocked
    assert a.with_blocked([(2, 2)]).blocked == ((0, 4), (2, 2), (3, 1))
    assert str(a) == "n=5 blocked=0:4,3:1"
    assert str(Instance(5, {0: 1}, [(4, 4)])) == "n=5 fixed=0:1 blocked=4:4"
    assert str(Instance(9, blocked=diagonal_squares(9, "sum", 8))) == "n=9 blocked=9 squares"


@pytest.mark.parametrize("blocked", [[(5, 0)], [(0, -1)], [(0, 1, 2)], [("a", 0)], [(True, 0)], [3]])
def test_invalid_blocked_squares_raise_the_package_error(blocked: object) -> None:
    with pytest.raises(InvalidInstanceError) as caught:
        Instance(5, blocked=blocked)  # type: ignore[arg-type]
    assert isinstance(caught.value, NQueensError) and str(caught.value)


def test_a_queen_on_a_blocked_square_is_a_valid_instance_without_solution() -> None:
    instance = Instance(6, {0: 1}, [(0, 1)])
    assert not instance.fixed_are_consistent()
    assert instance.allowed_columns(0) == []
    assert first_solution(instance) is None


def test_checker_rejects_a_queen_on_a_blocked_square() -> None:
    solution = (0, 4, 7, 5, 2, 6, 1, 3)
    assert is_valid_solution(Instance(8, blocked=[(0, 1), (7, 7)]), solution)
    problems = solution_problems(Instance(8, blocked=[(1, 4), (0, 1)]), solution)
    assert problems == ["row 1: queen on the blocked square at column 4"]


def test_diagonal_squares() -> None:
    assert diagonal_squares(4, "sum", 0) == ((0, 0),)
    assert diagonal_squares(4, "sum", 4) == ((1, 3), (2, 2), (3, 1))
    assert diagonal_squares(4, "difference", -3) == ((0, 3),)
    assert diagonal_squares(4, "difference", 1) == ((1, 0), (2, 1), (3, 2))
    for kind, value in (("sum", 7), ("sum", -1), ("difference", 4), ("difference", -4)):
        with pytest.raises(InvalidInstanceError, match="off the 4x4 board"):
            diagonal_squares(4, kind, value)  # type: ignore[arg-type]


def test_backends_that_ignore_blocked_squares_refuse_them() -> None:
    from nqueens_cp.backends.framework.base import Backend

    class Plain(Backend):
        name = "plain-test"
        summary = "test"

        def _solutions(self, instance: Instance, limit: int | None):  # type: ignore[no-untyped-def]
            yield from ()

    with pytest.raises(NQueensError, match="does not support blocked squares"):
        list(Plain().solutions(Instance(4, blocked=[(0, 0)])))


# -- reading files ---------------------------------------------------------------------------


def test_excluded_diagonals_file_and_the_first_d_pairs() -> None:
    read = read_excluded_diagonals(DATA / "diag-10-4-778.param")
    problem = read.problem
    assert problem.n == 10 and len(problem.diagonals) == 13
    # [[18, 0], [1, 1], [12, 0], ...]: difference 18 - 9 = 9, sum 1, difference 3
    assert problem.diagonals[:3] == (Diagonal("difference", 9), Diagonal("sum", 1), Diagonal("difference", 3))
    three = read_instance(DATA / "diag-10-4-778.param", 3)
    assert set(three.blocked) == {(9, 0), (0, 1), (1, 0), (3, 0), (4, 1), (5, 2), (6, 3), (7, 4), (8, 5), (9, 6)}
    assert read_instance(DATA / "diag-10-4-778.param") == problem.instance()
    assert read_instance(DATA / "diag-10-4-778.param", 0) == Instance(10)
    with pytest.raises(InstanceFileError, match=r"diag-10-4-778.param:2: 14 diagonals asked for, numdiags is 13"):
        read_instance(DATA / "diag-10-4-778.param", 14)


def test_answers_of_the_paper_on_the_test_files() -> None:
    answers = paper_answers()
    assert len(answers) == 56
    for (n, d, ident), satisfiable in answers.items():
        instance = read_instance(DATA / f"diag-{n}-4-{ident}.param", d)
        solution = first_solution(instance)
        assert (solution is not None) == satisfiable, (n, d, ident)
        assert solution is None or is_valid_solution(instance, solution)


def test_completion_file_of_the_papers_translation() -> None:
    instance = read_instance(DATA / "completion-10-4-778-3.param")
    assert instance.n == 19 * 133 + 13 and len(instance.fixed) == instance.n - 10


def test_multi_line_values_comments_and_essence_spelling(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.param"
    path.write_text("language ESSENCE' 1.0\n$ a comment\nn =  5\nnumdiags = 2\ndiags = [[4, 1],\n   [4, 0]]  $ end\n")
    assert read_excluded_diagonals(path).problem.diagonals == (Diagonal("sum", 4), Diagonal("difference", 0))
    completion = tmp_path / "c.param"
    completion.write_text("letting n be 4\nletting init = [[0, 1],\n [3, 2]]\n")
    assert read_instance(completion) == Instance(4, {0: 1, 3: 2})
    empty = tmp_path / "e.param"
    empty.write_text("letting n = 3\nletting init = []\n")
    assert read_instance(empty) == Instance(3)


def test_two_init_queens_in_one_row_have_no_completion(tmp_path: Path) -> None:
    path = tmp_path / "c.param"
    path.write_text("letting n = 6\nletting init = [[2, 1], [2, 4]]\n")
    instance = read_instance(path)
    assert instance.fixed == ((2, 1),) and not instance.fixed_are_consistent()
    assert first_solution(instance) is None


@pytest.mark.parametrize(
    ("text", "diagonals", "message"),
    [
        ("n = 4\nnumdiags = 1\ndiags = [[7, 1]]\n", None, r"x.param:3: \[7, 1\]: diagonal off the 4x4 board"),
        ("n = 4\nnumdiags = 2\ndiags = [[1, 1],\n [-1, 0]]\n", None, r"x.param:4: \[-1, 0\]: diagonal off"),
        ("n = 4\nnumdiags = 1\ndiags = [[1, 2]]\n", None, r"x.param:3: .*type must be 1 \(sum\) or 0"),
        ("n = 4\nnumdiags = 2\ndiags = [[1, 1]]\n", None, r"x.param:2: numdiags is 2 but diags lists 1"),
        ("n = 4\nnumdiags = 1\ndiags = [[1, 1]]\n", 2, r"x.param:2: 2 diagonals asked for, numdiags is 1"),
        ("n = 4\nnumdiags = 1\ndiags = [[1, 1]\n", None, r"x.param:3: diags must be a list of \[integer, integer\]"),
        ("n = four\nnumdiags = 0\ndiags = []\n", None, r"x.param:1: n must be an integer"),
        ("n = -4\nnumdiags = 0\ndiags = []\n", None, r"x.param:1: n must be >= 0"),
        ("n = 4\nnumdiags = 0\n", None, r"x.param:2: no `diags = ...`"),
        ("n = 4\nnumdiags = 0\ndiags = []\ncolour = 3\n", None, r"x.param:4: unknown name 'colour'"),
        ("n = 4\nn = 5\n", None, r"x.param:2: n is given twice"),
        ("hello\n", None, r"x.param:1: expected `name = value`"),
        ("", None, r"x.param:1: no `name = value` line"),
        ("letting n = 4\nletting init = [[0, 1], [4, 0]]\n", None, r"x.param:2: init queen \[4, 0\] is off the 4x4"),
        ("letting n = 4\nletting init = [[0, 1]]\n", 1, r"x.param:2: --diagonals applies to Excluded Diagonals"),
    ],
)
def test_bad_files_give_file_line_and_why(tmp_path: Path, text: str, diagonals: int | None, message: str) -> None:
    path = tmp_path / "x.param"
    path.write_text(text)
    with pytest.raises(InstanceFileError, match=message) as caught:
        read_instance(path, diagonals)
    assert "\n" not in str(caught.value) and str(caught.value).startswith(str(path))


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(InstanceFileError, match="no such file"):
        read_instance(tmp_path / "missing.param")
    with pytest.raises(InstanceFileError, match="is a directory"):
        read_instance(tmp_path)
    binary = tmp_path / "b.param"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(InstanceFileError, match="not a text file"):
        read_instance(binary)


# -- the translation to completion -------------------------------------------------------------


def random_problem(rng: random.Random, n: int) -> ExcludedDiagonals:
    diagonals = []
    for _ in range(rng.randrange(0, n + 3)):
        if rng.random() < 0.5:
            diagonals.append(Diagonal("sum", rng.randrange(0, 2 * n - 1)))
        else:
            diagonals.append(Diagonal("difference", rng.randrange(-(n - 1), n)))
    return ExcludedDiagonals(n, tuple(diagonals))


def test_translation_equals_the_papers_script_output() -> None:
    ours = to_completion(read_excluded_diagonals(DATA / "diag-10-4-778.param").first(3))
    text = (DATA / "completion-10-4-778-3.param").read_text()
    n = int(re.search(r"n =\s*(\d+)", text).group(1))  # type: ignore[union-attr]
    init = ast.literal_eval(re.search(r"init =\s*(\[.*\])", text, re.S).group(1))  # type: ignore[union-attr]
    assert ours.instance.n == n
    assert set(ours.instance.fixed) == {tuple(pair) for pair in init}


def test_translation_reduces_back_to_the_original_instance() -> None:
    rng = random.Random(7)
    for n in range(1, 12):
        for _ in range(4):
            problem = random_problem(rng, n)
            translation = to_completion(problem)
            big = translation.instance
            assert big.fixed_are_consistent()
            assert len(big.fixed) == big.n - n
            rows, cols, reduced = free_part(big)
            assert rows == tuple(r + translation.row_offset for r in range(n)) and cols == tuple(range(n))
            assert reduced == problem.instance()


def test_both_forms_give_the_same_answers_and_boards_map_across() -> None:
    """The answer of each test file in both forms: the original, and its completion translation
    solved through its free part; every board is mapped to the other form and checked there."""
    for (n, d, ident), satisfiable in paper_answers().items():
        if d % 3:
            continue  # a third of the rows keeps this test fast
        problem = read_excluded_diagonals(DATA / f"diag-{n}-4-{ident}.param").first(d)
        translation = to_completion(problem)
        _, _, reduced = free_part(translation.instance)
        direct, via_completion = first_solution(problem.instance()), first_solution(reduced)
        assert (direct is not None) == (via_completion is not None) == satisfiable
        if via_completion is not None:
            big = translation.from_original(via_completion)
            assert is_valid_solution(translation.instance, big)
            assert translation.to_original(big) == via_completion
            assert is_valid_solution(problem.instance(), via_completion)


def test_first_d_out_of_range_and_off_board_diagonals() -> None:
    problem = ExcludedDiagonals(4, (Diagonal("sum", 1),))
    with pytest.raises(InvalidInstanceError):
        problem.first(2)
    with pytest.raises(InvalidInstanceError):
        ExcludedDiagonals(4, (Diagonal("sum", 9),))
    assert to_completion(ExcludedDiagonals(0, ())).instance == Instance(0)


def test_generator_reproduces_csplib_instances() -> None:
    from nqueens_cp.instances.excluded_diagonals import generate, to_param

    for path in DATA.glob("diag-*.param"):
        n, min_free, seed = (int(part) for part in path.stem.split("-")[1:])
        assert to_param(generate(n, min_free, seed)) == path.read_text(), path.name
    # the example of CSPLib's AA-Excluded-Diagonals-Info.md: queens-diag-gen.py 10 4 1
    assert to_param(generate(10, 4, 1)).splitlines()[2] == (
        "diags =  [[4, 1], [2, 1], [14, 0], [8, 1], [8, 0], [7, 0], [3, 1], [12, 1], [18, 0], [5, 0], [14, 1], "
        "[0, 0], [15, 1], [17, 1]]")
    problem = generate(12, 4, 5)
    instance = problem.instance()
    assert all(len(instance.allowed_columns(r)) >= 4 for r in range(12))
    assert all(sum((r, c) not in set(instance.blocked) for r in range(12)) >= 4 for c in range(12))


@pytest.mark.parametrize(
    "text",
    ["n = 1000000000000\nnumdiags = 1\ndiags = [[0,1]]\n", "letting n be 1000000000000\nletting init be [[0,0]]\n",
     "n = 2147483648\nnumdiags = 0\ndiags = []\n"],
    ids=["excluded-diagonals", "completion", "one-over"],
)
def test_an_instance_files_n_is_checked_against_the_board_limit_first(tmp_path: Path, text: str) -> None:
    from nqueens_cp.core.instance import MAX_N

    path = tmp_path / "big.param"
    path.write_text(text)
    with pytest.raises(InstanceFileError, match=rf"big.param:1: n must be <= {MAX_N}, got \d+"):
        read_instance(path)  # at once: nothing of size n is built (this hung in a loop over range(n))
    done = run_cli("solve", "--instance", str(path), timeout=30)
    assert (done.returncode, done.stdout) == (2, "") and len(done.stderr.splitlines()) == 1
