"""The sizes of the family's 0-1 programs as models/README.md writes them (section "The N-Queens
family"), checked against the built models (``FamilyModel.size()``) for several n."""

from __future__ import annotations

import pytest

from nqueens_cp.core.problems import Problem
from nqueens_cp.models.family import build_family_model, colour_bound
from nqueens_cp.models.geometry import ModelSize

SIZES = range(2, 10)


def _readme_size(problem: Problem, n: int) -> tuple[int, int]:
    """(variables, rows), the formulas of models/README.md for n >= 2."""
    lines = 6 * n - 6  # n rows, n columns, 2(2n - 3) diagonals of two or more squares
    if problem is Problem.TOROIDAL:
        return n * n, 4 * n
    if problem is Problem.SUPERQUEENS:
        return n * n, lines + 4 * (n - 1) * (n - 2)
    if problem is Problem.DOMINATION:
        return n * n, n * n
    if problem is Problem.INDEPENDENT_DOMINATION:
        return n * n, n * n + lines
    if problem is Problem.COLOURING:
        k = colour_bound(n)
        return k * n * n + k, n * n + k * lines + (k - 1) + n
    return 2 * n * n, n * n + 2 * n * (n - 1) * (5 * n - 1) // 3 + 1


@pytest.mark.parametrize("problem", [p for p in Problem if p is not Problem.QUEENS], ids=lambda p: p.value)
def test_the_readme_formulas_are_the_built_sizes(problem: Problem) -> None:
    for n in SIZES:
        variables, rows = _readme_size(problem, n)
        assert build_family_model(problem, n).size() == ModelSize(variables, rows, "rows"), (problem, n)


def test_the_palette_is_the_least_prime_at_least_max_n_5() -> None:
    assert [colour_bound(n) for n in range(1, 15)] == [5, 5, 5, 5, 5, 7, 7, 11, 11, 11, 11, 13, 13, 17]


def _readme_cp_size(problem: Problem, n: int) -> tuple[int, int]:
    """(variables, constraints) of the constraint programs, the formulas of models/README.md."""
    lines = 6 * n - 6
    if problem is Problem.TOROIDAL:
        return 3 * n, 2 * n + 4
    if problem is Problem.SUPERQUEENS:
        return n, 2 * n
    if problem is Problem.DOMINATION:
        return n * n + 1, n * n + 1
    if problem is Problem.INDEPENDENT_DOMINATION:
        return n * n + 1, n * n + lines + 1
    if problem is Problem.COLOURING:
        return n * n + 1, lines + n + (2 if colour_bound(n) > n else 1)
    return 2 * n * n + 2 * lines + 1, n * n + 2 * (4 * n * n - 4) + lines + 3


@pytest.mark.parametrize("problem", [p for p in Problem if p is not Problem.QUEENS], ids=lambda p: p.value)
def test_the_readme_formulas_are_what_the_choco_builder_posts(problem: Problem, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("pychoco")
    from pychoco.constraints.constraint import Constraint
    from pychoco.variables.variable_factory import VariableFactory

    from nqueens_cp.models.choco import build_choco_family_model

    counted = {"variables": 0, "constraints": 0}

    def counting(method: object, what: str) -> object:
        def call(self: object, *args: object, **kwargs: object) -> object:
            counted[what] += 1
            return method(self, *args, **kwargs)  # type: ignore[operator]
        return call

    monkeypatch.setattr(Constraint, "post", counting(Constraint.post, "constraints"))
    for name in ("intvar", "boolvar"):  # views (the diagonals' offsets) are no variables of their own
        monkeypatch.setattr(VariableFactory, name, counting(getattr(VariableFactory, name), "variables"))
    for n in (3, 5, 7, 8):  # 5 and 7: a prime palette, no precedence
        counted.update(variables=0, constraints=0)
        build_choco_family_model(problem, n)
        assert (counted["variables"], counted["constraints"]) == _readme_cp_size(problem, n), (problem, n)
