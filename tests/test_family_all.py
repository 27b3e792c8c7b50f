"""Every placement of the family's placement problems: ``Backend.family_solutions``,
``solve --problem P --all`` and ``compare --problem P --task all``.

Each backend's enumeration is compared with a set built from the definition alone (a row-by-row
search that asks :func:`~nqueens_cp.core.problems.attacks` of every pair); planted backends that
repeat a placement, yield an invalid one or leave one out stand for what the checks catch. They
are module-level classes, so forked workers see them.
"""

from __future__ import annotations

import itertools
from functools import cache
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.backends.framework.registry import (
    backend_class,
    backend_names,
    create_backend,
)
from nqueens_cp.cli import main
from nqueens_cp.core.errors import InvalidWitnessError, NQueensError
from nqueens_cp.core.family_checker import placement_problems, witness_problems
from nqueens_cp.core.family_oeis import A051223, A051224, A051906, A053994
from nqueens_cp.core.instance import Queens, Solution
from nqueens_cp.core.problems import Problem, attacks
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import FAIL, PASS
from nqueens_cp.harness.task_registry import make_task

from .conftest import require_backend
from .harness_backends import registered

#: The boards each backend enumerates in the tests: every placement of each compared with the definition.
SIZES = {Problem.TOROIDAL: (5, 7, 11), Problem.SUPERQUEENS: (10, 11, 12)}
PUBLISHED = {Problem.TOROIDAL: A051906, Problem.SUPERQUEENS: A051223}


@cache
def by_definition(problem: Problem, n: int) -> frozenset[Solution]:
    """Every placement of n pieces, one per row, no two attacking each other under the problem's
    rules: each piece checked against every piece above it by ``attacks`` alone."""
    found: set[Solution] = set()

    def extend(placed: tuple[int, ...]) -> None:
        row = len(placed)
        if row == n:
            found.add(placed)
            return
        for col in range(n):
            if not any(attacks(problem.rules, n, (r, c), (row, col)) for r, c in enumerate(placed)):
                extend((*placed, col))

    extend(())
    return frozenset(found)


#: The backends the issue asks to enumerate the placements.
ENUMERATORS = ("bitboard", "cpsat", "sat", "asp", "minizinc", "smt")


def enumerators() -> list[str]:
    """:data:`ENUMERATORS` and every other backend that declares an enumeration."""
    declared = [name for name in backend_names() if getattr(backend_class(name), "family_enumerations", None)]
    return sorted({*ENUMERATORS, *declared})


def test_the_backends_the_issue_names_enumerate_both_problems() -> None:
    for name in ENUMERATORS:
        assert backend_class(name).family_enumerations == {Problem.TOROIDAL, Problem.SUPERQUEENS}, name


@pytest.mark.parametrize("name", enumerators())
@pytest.mark.parametrize("problem", list(SIZES), ids=lambda p: p.value)
def test_each_backend_enumerates_the_set_of_the_definition(name: str, problem: Problem) -> None:
    require_backend(name)
    backend = create_backend(name)
    for n in SIZES[problem]:
        found = list(backend.family_solutions(problem, n))
        assert len(found) == len(set(found)), (name, n, "a placement twice")
        assert set(found) == by_definition(problem, n), (name, n)
        assert len(found) == PUBLISHED[problem][n]


def test_the_python_kernel_enumerates_the_same_set() -> None:
    backend = create_backend("bitboard", kernel="python")
    for problem, sizes in SIZES.items():
        for n in sizes[:2]:
            assert set(backend.family_solutions(problem, n)) == by_definition(problem, n)


def test_the_compiled_search_streams_in_lexicographic_order_across_batches() -> None:
    from nqueens_cp.searches import family_kernel

    for problem, n in ((Problem.TOROIDAL, 11), (Problem.SUPERQUEENS, 12)):
        streamed = list(family_kernel.placements(problem.rules, n, batch=7))
        assert streamed == sorted(by_definition(problem, n))
    assert list(family_kernel.placements(Problem.TOROIDAL.rules, 1)) == [(0,)]
    assert list(family_kernel.placements(Problem.TOROIDAL.rules, 9)) == []  # Polya: 9 is not coprime to 6


def test_limit_and_unique() -> None:
    backend = create_backend("bitboard")
    first = list(backend.family_solutions(Problem.SUPERQUEENS, 12, limit=5))
    assert first == sorted(by_definition(Problem.SUPERQUEENS, 12))[:5]
    assert list(backend.family_solutions(Problem.SUPERQUEENS, 12, limit=0)) == []
    for problem, n, classes in ((Problem.TOROIDAL, 13, A053994[6]), (Problem.SUPERQUEENS, 12, A051224[12])):
        representatives = list(backend.family_solutions(problem, n, unique=True))
        assert len(representatives) == classes, (problem, n)
    assert len(list(backend.family_solutions(Problem.TOROIDAL, 13, unique=True, limit=3))) == 3


def test_an_undeclared_problem_or_backend_is_refused_in_one_line() -> None:
    with pytest.raises(NQueensError, match=r"^backend mip does not enumerate placements of problem toroidal$"):
        create_backend("mip").family_solutions(Problem.TOROIDAL, 5)
    with pytest.raises(NQueensError, match="does not enumerate placements of problem domination"):
        create_backend("bitboard").family_solutions(Problem.DOMINATION, 5)
    with pytest.raises(NQueensError, match="limit must be an integer"):
        create_backend("bitboard").family_solutions(Problem.TOROIDAL, 5, limit=-1)


# -- planted backends ------------------------------------------------------------------------------


class _Planted(BitboardBackend):
    """The bitboard backend with its enumeration of the family's placements spoiled."""

    summary = "a planted fault"

    @staticmethod
    def spoil(placements: list[Solution]) -> list[Solution]:
        return placements

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        return iter(self.spoil(list(super()._family_solutions(problem, n, None))))


class RepeatingBackend(_Planted):
    """Yields its second placement again third."""

    name = "test-family-repeat"

    @staticmethod
    def spoil(placements: list[Solution]) -> list[Solution]:
        return placements[:2] + placements[1:]


class InvalidBackend(_Planted):
    """Yields, third, a placement with its first two rows swapped wrongly: two pieces on a column."""

    name = "test-family-invalid"

    @staticmethod
    def spoil(placements: list[Solution]) -> list[Solution]:
        bad = (placements[0][0], *placements[0][:-1])  # the first row's column twice
        return [*placements[:2], bad, *placements[2:]]


class DroppingBackend(_Planted):
    """Leaves out its last placement."""

    name = "test-family-drop"

    @staticmethod
    def spoil(placements: list[Solution]) -> list[Solution]:
        return placements[:-1]


class BypassingBackend(BitboardBackend):
    """Overrides the public ``family_solutions`` itself (no check of the contract): repeats a board."""

    name = "test-family-bypass"
    summary = "a planted fault"

    def family_solutions(self, problem: Problem, n: int, *, limit: int | None = None,
                         unique: bool = False) -> Iterator[Queens]:
        placements = list(super().family_solutions(problem, n))
        return iter(placements + placements[:1])

    def lexicographic_family_solutions(self, problem: Problem) -> bool:
        return False  # the command line then keeps every board seen


PLANTED = (RepeatingBackend, InvalidBackend, DroppingBackend, BypassingBackend)


@pytest.fixture(autouse=True)
def planted() -> Iterator[None]:
    with registered(*PLANTED):
        yield


def test_the_contract_refuses_an_invalid_placement_before_it_is_yielded() -> None:
    stream = create_backend(InvalidBackend.name).family_solutions(Problem.TOROIDAL, 7)
    assert len([next(stream), next(stream)]) == 2
    with pytest.raises(InvalidWitnessError, match="invalid placement of toroidal for n = 7"):
        next(stream)


# -- solve --all -----------------------------------------------------------------------------------


def solve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str], str]:
    status = main(["solve", *args])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


@pytest.mark.parametrize(("problem", "n"), [("toroidal", 7), ("toroidal", 11), ("superqueens", 11)])
def test_solve_all_streams_every_placement_checked(capsys: pytest.CaptureFixture[str], problem: str, n: int) -> None:
    status, lines, err = solve(capsys, str(n), "--problem", problem, "--all")
    assert status == 0 and err == ""
    boards = [tuple(map(int, line.split())) for line in lines]
    assert len(boards) == len(set(boards)) and set(boards) == by_definition(Problem.named(problem), n)
    assert all(not placement_problems(Problem.named(problem).rules, n, b) for b in boards)


def test_solve_all_limit_show_jsonl_and_unique(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, _ = solve(capsys, "11", "--problem", "toroidal", "--all", "--limit", "3")
    assert status == 0 and [tuple(map(int, line.split())) for line in lines] == sorted(by_definition(Problem.TOROIDAL, 11))[:3]
    status, lines, _ = solve(capsys, "7", "--problem", "toroidal", "--all", "--limit", "1", "--show")
    assert status == 0 and len(lines) == 1 + 7 + 1 and sum(line.count("Q") for line in lines) == 7
    status, lines, _ = solve(capsys, "10", "--problem", "superqueens", "--all", "--format", "jsonl", "--backend", "cpsat")
    assert status == 0 and {tuple(eval(line)) for line in lines} == by_definition(Problem.SUPERQUEENS, 10)
    status, lines, _ = solve(capsys, "13", "--problem", "toroidal", "--all", "--unique")
    assert status == 0 and len(lines) == A053994[6]
    status, lines, _ = solve(capsys, "11", "--problem", "superqueens", "--all", "--unique", "--backend", "sat")
    assert status == 0 and len(lines) == A051224[11]


@pytest.mark.parametrize("backend", [RepeatingBackend.name, BypassingBackend.name])
def test_solve_all_refuses_a_repeated_placement(capsys: pytest.CaptureFixture[str], backend: str) -> None:
    status, lines, err = solve(capsys, "7", "--problem", "toroidal", "--all", "--backend", backend)
    assert status == 1 and "twice for toroidal on the 7 x 7 board" in err and err.count("\n") == 1
    assert len(lines) == len(set(lines))  # the repeat is not written


def test_solve_all_refuses_an_invalid_placement_and_writes_nothing_of_it(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = solve(capsys, "7", "--problem", "toroidal", "--all", "--backend", InvalidBackend.name)
    assert status == 1 and "invalid placement of toroidal for n = 7" in err and err.count("\n") == 1
    assert len(lines) == 2 and all(not placement_problems(Problem.TOROIDAL.rules, 7, tuple(map(int, line.split())))
                                   for line in lines)


def test_solve_all_with_a_placement_left_out_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, lines, err = solve(capsys, "11", "--problem", "superqueens", "--all", "--backend", DroppingBackend.name)
    assert status == 1 and len(lines) == A051223[11] - 1
    assert err == f"nqueens-cp: error: {DroppingBackend.name} wrote 43 placements of superqueens on the 11 x 11 board, " \
                  "A051223 publishes 44: the backend is wrong\n"
    status, lines, _ = solve(capsys, "11", "--problem", "superqueens", "--all", "--limit", "10", "--backend",
                             DroppingBackend.name)
    assert status == 0 and len(lines) == 10  # a limit asks for no count to check


# -- compare --task all ----------------------------------------------------------------------------


def compare(backends: str, problem: str, ns: tuple[int, ...], store_limit: int = 1000) -> object:
    configurations = parse_configurations(backends.split(","))
    request = ComparisonRequest(task=make_task("family", problem=problem, question="all"),
                                configurations=configurations, ns=ns, repeat=1, timeout=60, store_limit=store_limit,
                                baseline=configurations[0].label, command="test")
    return run_comparison(request)


def checks(results: object, name: str, config: str | None = None) -> set[str]:
    return {str(c.status) for c in results.checks if c.name == name and (config is None or c.config == config)}  # type: ignore[attr-defined]


@pytest.mark.parametrize("store_limit", [1000, 10], ids=["exact", "fingerprint"])
def test_compare_all_passes_with_two_honest_backends(store_limit: int) -> None:
    require_backend("cpsat")
    results = compare("bitboard,cpsat", "toroidal", (5, 6, 7, 11), store_limit)
    assert results.outcome == "PASS", results.failures  # type: ignore[attr-defined]
    assert checks(results, "set") == {PASS} and checks(results, "validity") == {PASS}
    assert checks(results, "count") == {PASS} and checks(results, "duplicates") == {PASS}
    assert {run.count for run in results.runs if run.n == 11} == {A051906[11]}  # type: ignore[attr-defined]


def test_compare_all_fails_a_backend_that_leaves_a_placement_out() -> None:
    results = compare(f"bitboard,{DroppingBackend.name}", "superqueens", (10, 11))
    assert results.outcome == "FAIL"  # type: ignore[attr-defined]
    assert checks(results, "set", DroppingBackend.name) == {FAIL} and checks(results, "set", "bitboard") == {PASS}
    assert checks(results, "count", DroppingBackend.name) == {FAIL}


def test_compare_all_fails_an_invalid_or_repeated_placement() -> None:
    results = compare(f"bitboard,{RepeatingBackend.name},{BypassingBackend.name}", "toroidal", (7,))
    assert checks(results, "duplicates", BypassingBackend.name) == {FAIL}
    assert checks(results, "run", RepeatingBackend.name) == set()  # the contract does not check repeats: compare does
    assert checks(results, "duplicates", RepeatingBackend.name) == {FAIL}
    invalid = compare(f"bitboard,{InvalidBackend.name}", "toroidal", (7,))
    assert checks(invalid, "run", InvalidBackend.name) == {FAIL}  # refused inside family_solutions: a failed run


def test_compare_all_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["compare", "--problem", "superqueens", "--task", "all", "--n", "10-11", "--backends",
                   "bitboard,sat", "--repeat", "1", "--out", str(tmp_path / "r")])
    out = capsys.readouterr().out
    assert status == 0 and "superqueens: all placements" in out and "RESULT: PASS" in out
    assert "--task all" in (tmp_path / "r" / "report.md").read_text()


# -- the colouring of the 1 x 1 board ---------------------------------------------------------------


def test_the_colouring_model_of_the_1x1_board_has_no_objective_below_1() -> None:
    """Every assignment of the 0-1 model's variables that satisfies its rows uses a colour."""
    from nqueens_cp.models.family import build_family_model

    model = build_family_model(Problem.COLOURING, 1)
    assert model.objective is not None
    least = None
    for values in itertools.product((0, 1), repeat=model.variables):
        def value(v: int, values: tuple[int, ...] = values) -> int:
            return values[v - 1]
        if all((row.lower is None or row.lower <= total) and (row.upper is None or total <= row.upper)
               for row in model.rows for total in [sum(c * value(v) for c, v in row.terms)]):
            objective = sum(c * value(v) for c, v in model.objective.terms)
            least = objective if least is None else min(least, objective)
    assert least == 1


@pytest.mark.parametrize("name", [name for name in backend_names() if Problem.COLOURING in backend_class(name).family])
def test_every_backend_colours_the_1x1_board_with_one_colour(name: str) -> None:
    require_backend(name)
    backend = create_backend(name)
    answer = backend.solve_family(Problem.COLOURING, 1)
    assert answer.value == 1 and answer.proved and answer.witness is not None
    assert not witness_problems(Problem.COLOURING, 1, answer.witness)
    if name == "sat":  # its optimum certified: the proof refutes 0 colours from the model's own clauses
        certified, certificate = backend.certified_family(Problem.COLOURING, 1)  # type: ignore[attr-defined]
        assert certified.value == certificate.value == 1
