"""The row model as data, and the Choco backend: every filtering level and formulation, the same answers."""

from __future__ import annotations

import pytest

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.models.choco import ALLDIFF_LEVELS, DIAGONALS
from nqueens_cp.models.rows import row_model
from nqueens_cp.testing.backend_contract import reference_solutions

from .conftest import require_backend


def test_row_model_full_and_reduced() -> None:
    full = row_model(Instance(5, {1: 3}))
    assert full.full and full.rows == tuple(range(5)) and full.equalities == ((1, 3),) and full.feasible
    assert full.diagonals() == ((0, 1, 2, 3, 4), (0, -1, -2, -3, -4))
    reduced = row_model(Instance(5, {1: 3}, blocked=[(0, 0)]))
    assert not reduced.full and reduced.rows == (0, 2, 3, 4) and reduced.settled == ((1, 3),)
    assert reduced.domains[0] == (1,)  # (0, 0) blocked, 2 attacked on a diagonal, 3 and 4 taken
    assert reduced.board([1, 0, 2, 4]) == (1, 3, 0, 2, 4)
    assert not row_model(Instance(5, {0: 0, 1: 1})).feasible


@pytest.mark.parametrize("alldiff", ALLDIFF_LEVELS)
@pytest.mark.parametrize("diagonals", DIAGONALS)
def test_every_filtering_level_gives_the_same_solutions(alldiff: str, diagonals: str) -> None:
    require_backend("choco")
    backend = create_backend("choco", alldiff=alldiff, diagonals=diagonals)
    assert set(backend.solutions(Instance(7))) == reference_solutions(Instance(7))
    assert backend.count(Instance(9)) == A000170[9]
    blocked = Instance(7, {2: 0}, blocked=[(0, 1), (3, 3)])
    assert set(backend.solutions(blocked)) == reference_solutions(blocked)


def test_searches_and_a_large_first_solution() -> None:
    require_backend("choco")
    for search in ("default", "firstfail", "inorder"):
        assert create_backend("choco", search=search).count(Instance(8)) == 92
    assert create_backend("choco", search="inorder").first_solution(Instance(8)) == (0, 4, 7, 5, 2, 6, 1, 3)
    from nqueens_cp.core.checker import is_valid_solution

    solution = create_backend("choco").first_solution(Instance(128))
    assert solution is not None and is_valid_solution(Instance(128), solution)


def test_alldiff_level_is_case_insensitive_and_checked() -> None:
    from nqueens_cp.core.errors import BackendOptionError

    assert create_backend("choco", alldiff="bc").options["alldiff"] == "BC"
    with pytest.raises(BackendOptionError, match="alldiff"):
        create_backend("choco", alldiff="GAC")
