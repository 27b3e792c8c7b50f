"""The sizes of the family's ASP programs, MiniZinc models and SMT-LIB texts as models/README.md
writes them (section "The N-Queens family"), checked against what each builder writes."""

from __future__ import annotations

import re

import pytest

from nqueens_cp.core.problems import Goal, Problem
from nqueens_cp.models.family import build_family_model, colour_bound
from nqueens_cp.models.family_asp import family_asp_program
from nqueens_cp.models.family_minizinc import family_minizinc_model
from nqueens_cp.models.family_smt import family_smt_model
from nqueens_cp.models.geometry import ModelSize

FAMILY = [p for p in Problem if p is not Problem.QUEENS]
SIZES = range(2, 10)


def _readme_asp_size(problem: Problem, n: int) -> tuple[int, int]:
    """(chosen atoms, board facts) of the answer set programs, n >= 2."""
    facts = 4 * n * n if problem is Problem.TOROIDAL else 4 * n * n - 4
    if problem is Problem.SUPERQUEENS:
        facts += 4 * (n - 1) * (n - 2)
    chosen = {Goal.COLOUR: colour_bound(n) * n * n, Goal.PEACEABLE: 2 * n * n}.get(problem.goal, n * n)
    return chosen, facts


def _readme_minizinc_size(problem: Problem, n: int) -> tuple[int, int]:
    """(variables, constraints) of the MiniZinc models, n >= 2."""
    lines = 6 * n - 6
    if problem is Problem.TOROIDAL:
        return n, 4
    if problem is Problem.SUPERQUEENS:
        return n, 2 * n
    if problem is Problem.DOMINATION:
        return n * n, n * n
    if problem is Problem.INDEPENDENT_DOMINATION:
        return n * n, n * n + lines
    if problem is Problem.COLOURING:
        return n * n, lines + n + (1 if colour_bound(n) > n else 0)
    return 2 * n * n + 2 * lines, n * n + 2 * (4 * n * n - 4) + lines + 2


#: Per paradigm: its builder, the README's formula, the unit of its size, and the pattern of what it
#: counts in the written text (the ASP program's facts, the MiniZinc model's constraint items).
PARADIGMS = {
    "asp": (family_asp_program, _readme_asp_size, "board facts", r"\b(?:on|knight)\((?:\d+,)+\d+\)\."),
    "minizinc": (family_minizinc_model, _readme_minizinc_size, "constraints", r"(?m)^constraint "),
}


@pytest.mark.parametrize("paradigm", PARADIGMS)
@pytest.mark.parametrize("problem", FAMILY, ids=lambda p: p.value)
def test_the_readme_formulas_are_the_built_programs(problem: Problem, paradigm: str) -> None:
    build, formula, unit, counted = PARADIGMS[paradigm]
    for n in SIZES:
        built = build(problem, n)
        size = formula(problem, n)
        assert built.size() == ModelSize(*size, unit), (problem, n)
        assert len(re.findall(counted, built.text)) == size[1], (problem, n)


@pytest.mark.parametrize("problem", FAMILY, ids=lambda p: p.value)
def test_the_smt_text_is_the_0_1_program(problem: Problem) -> None:
    for n in SIZES:
        built = family_smt_model(problem, n)
        model = build_family_model(problem, n)
        assert built.size() == ModelSize(model.variables, len(model.rows), "assertions")
        assert built.body.count("(declare-const ") == model.variables
        assert built.body.count("(assert ") == len(model.rows)
        assert bool(built.objective) == (model.objective is not None)
