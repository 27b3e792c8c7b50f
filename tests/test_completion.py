"""Completion instances: the reproducible generator, cross-checked answers, ``compare --task complete``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.backends.framework.registry import create_backend, register_backend, unregister_backend
from nqueens_cp.cli import main
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import InvalidInstanceError, NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.harness.task_registry import make_task
from nqueens_cp.harness.tasks import Completion
from nqueens_cp.instances.completion import completion_instances, random_partial_placement

from .conftest import SEARCH_CONFIGS


def test_generator_is_reproducible_from_the_seed() -> None:
    first = completion_instances(12, 4, 20, seed=7)
    assert first == completion_instances(12, 4, 20, seed=7)
    assert first != completion_instances(12, 4, 20, seed=8)
    assert len(set(first)) > 1
    for instance in first:
        assert instance.n == 12 and len(instance.fixed) == 4
        assert instance.fixed_are_consistent()


def test_generator_edges() -> None:
    import random

    assert completion_instances(8, 0, 3, seed=1) == (Instance(8),) * 3
    assert completion_instances(8, 3, 0, seed=1) == ()
    full = random_partial_placement(8, 8, random.Random(5))  # 8 non-attacking queens: a solution
    assert is_valid_solution(Instance(8), tuple(col for _, col in full.fixed))
    with pytest.raises(InvalidInstanceError):
        completion_instances(5, 6, 1, seed=0)
    with pytest.raises(InvalidInstanceError):
        completion_instances(5, 2, -1, seed=0)
    with pytest.raises(InvalidInstanceError):
        completion_instances(3, 3, 1, seed=0)  # the 3x3 board has no 3 non-attacking queens


@pytest.mark.parametrize(("n", "k"), [(8, 3), (10, 4), (12, 6)])
def test_backends_agree_on_completions(n: int, k: int) -> None:
    instances = completion_instances(n, k, 12, seed=2024)
    outcomes = {"found": 0, "none": 0}
    for instance in instances:
        reference = set(create_backend("bitboard").solutions(instance))
        for name, options in SEARCH_CONFIGS:
            answer = create_backend(name, **options).first_solution(instance)
            if answer is None:
                assert not reference, (name, options, instance)
            else:
                assert answer in reference and is_valid_solution(instance, answer), (name, options, instance)
        outcomes["found" if reference else "none"] += 1
    assert outcomes["found"] > 0, "no board completes: the answers were never compared with a board"


def test_both_outcomes_occur() -> None:
    # the cross-check above is only meaningful if some boards complete and some do not
    answers = [create_backend("backtrack", search="firstfail").first_solution(i)
               for i in completion_instances(10, 4, 30, seed=2024)]
    assert any(a is None for a in answers) and any(a is not None for a in answers)


def test_completion_task() -> None:
    task = make_task("complete", preplaced=3, instances_per_n=5, seed=9)
    assert isinstance(task, Completion)
    assert task.instances(8) == completion_instances(8, 3, 5, 9)
    assert task.expected_count(task.instances(8)[0]) is None
    assert not task.exhaustive and not task.counts_known
    assert dict(task.parameters()) == {"preplaced": 3, "instances": 5, "seed": 9}


class NeverCompletes(BitboardBackend):
    """Claims that no board has a completion (wrong whenever one does)."""

    name = "test-never-completes"
    summary = "always answers none"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return iter(())


@pytest.fixture
def liar() -> Iterator[None]:
    register_backend(NeverCompletes.name, NeverCompletes)
    try:
        yield
    finally:
        unregister_backend(NeverCompletes.name)


def test_compare_complete_reports_settled_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "complete"
    status = main(["compare", "--task", "complete", "--n", "8,10", "--preplaced", "3", "--instances", "4",
                   "--seed", "5", "--repeat", "1", "--backends", "backtrack:search=firstfail,sat",
                   "--out", str(out)])
    report = capsys.readouterr().out
    assert status == 0
    assert "RESULT: PASS" in report and "## Completion: boards settled" in report
    assert "--task complete --preplaced 3 --instances 4 --seed 5" in report
    data = json.loads((out / "results.json").read_text())
    runs = data["runs"]
    assert len(runs) == 2 * 4 * 2
    boards = {(r["n"], tuple(map(tuple, r["fixed"]))) for r in runs}
    expected = {(n, i.fixed) for n in (8, 10) for i in completion_instances(n, 3, 4, 5)}
    assert boards == expected
    # the saved results re-render with the same completion table
    assert main(["report", str(out / "results.json")]) == 0
    assert "## Completion: boards settled" in capsys.readouterr().out


def test_compare_complete_catches_a_wrong_none(
    liar: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["compare", "--task", "complete", "--n", "12", "--preplaced", "2", "--instances", "3",
                   "--repeat", "1", "--backends", f"backtrack:search=firstfail,{NeverCompletes.name}",
                   "--out", str(tmp_path / "liar")])
    report = capsys.readouterr().out
    assert status == 1
    assert "RESULT: FAIL" in report
    assert f"[answer] {NeverCompletes.name} n=12" in report
    assert "another configuration found one" in report


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--task", "complete", "--n", "8"], "needs --preplaced"),
        (["--task", "complete", "--n", "4,8", "--preplaced", "5"], "need 0 <= K <= n"),
        (["--task", "complete", "--n", "8", "--preplaced", "-1"], ">= 0"),
        (["--task", "complete", "--n", "3", "--preplaced", "3"], "non-attacking"),
        (["--n", "8", "--preplaced", "2"], "apply to --task complete only"),
        (["--task", "first", "--n", "8", "--seed", "3"], "apply to --task complete only"),
    ],
)
def test_compare_complete_usage_errors(
    argv: list[str], fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status = main(["compare", *argv, "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("nqueens-cp: error: ") and err.count("\n") == 1
    assert fragment in err
    assert not (tmp_path / "x").exists()


def test_a_backend_without_pre_placed_queens_is_left_out_of_completion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``construction`` places every queen by a closed form: the default completion comparison leaves it
    out, named it is refused in one line before anything runs, and solving refuses it in one line."""
    from nqueens_cp.harness.configs import default_configuration_texts

    assert "construction" in default_configuration_texts(Answer.FIRST)
    assert "construction" not in default_configuration_texts(Answer.FIRST, fixed=True)
    status = main(["compare", "--task", "complete", "--n", "8", "--preplaced", "2", "--instances", "1",
                   "--backends", "backtrack,construction", "--out", str(tmp_path / "x")])
    assert status == 2
    assert "construction: backend construction does not support pre-placed queens" in capsys.readouterr().err
    with pytest.raises(NQueensError, match=r"^backend construction does not support pre-placed queens$"):
        create_backend("construction").first_solution(Instance(8, {0: 0}))
