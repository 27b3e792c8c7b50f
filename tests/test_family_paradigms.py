"""The family through the pseudo-Boolean backend: each proved optimum is the OEIS term and agrees
with CP-SAT's; a placement is found where one exists and "none" where none does."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem

from .conftest import require_backend

OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]


@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_pb_optimum_is_the_published_term_and_cpsats(problem: Problem) -> None:
    require_backend("pb")
    require_backend("cpsat")
    pb, cpsat = create_backend("pb"), create_backend("cpsat")
    for n in range(1, 6):
        answer = pb.solve_family(problem, n)
        assert answer.proved and answer.value == SEQUENCES[problem.sequences[0]][n], (n, answer)
        assert answer.value == cpsat.solve_family(problem, n).value


@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 8)), (Problem.SUPERQUEENS, range(1, 11))],
                         ids=["toroidal", "superqueens"])
def test_pb_places_where_a_placement_exists(problem: Problem, sizes: range) -> None:
    require_backend("pb")
    pb = create_backend("pb")
    for n in sizes:
        answer = pb.solve_family(problem, n)
        assert answer.proved and (answer.witness is not None) == (SEQUENCES[problem.sequences[0]][n] > 0), (n, answer)
