"""The cpmpy backend: one model, every CPMpy solver installed here, the same answers."""

from __future__ import annotations

import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.testing.backend_contract import reference_solutions

from .conftest import require_backend


@pytest.mark.parametrize("solver", ["ortools", "choco", "exact", "z3"])
def test_every_solver_gives_the_brute_force_sets(solver: str) -> None:
    require_backend("cpmpy")
    from nqueens_cp.backends.cpmpy import installed_solvers

    if solver not in installed_solvers():
        pytest.skip(f"CPMpy finds no {solver} here")
    backend = create_backend("cpmpy", solver=solver)
    for instance in (Instance(6), Instance(7, {2: 4}), Instance(7, blocked=[(0, 0), (3, 2)])):
        assert set(backend.solutions(instance)) == reference_solutions(instance)
    assert backend.first_solution(Instance(3)) is None


def test_the_solvers_found_without_importing_are_those_cpmpy_supports() -> None:
    """The listing's cheap look-up (packages found, versions read) against CPMpy's own check."""
    require_backend("cpmpy")
    import cpmpy as cp

    from nqueens_cp.backends.cpmpy import KNOWN_SOLVERS, installed_solvers

    assert [name for name, _ in cp.SolverLookup.base_solvers()] == list(KNOWN_SOLVERS)
    assert installed_solvers() == tuple(name for name, solver in cp.SolverLookup.base_solvers() if solver.supported())


def test_a_known_solver_not_installed_is_refused_in_one_line() -> None:
    require_backend("cpmpy")
    import cpmpy as cp

    from nqueens_cp.core.errors import BackendOptionError

    absent = next((name for name, solver in cp.SolverLookup.base_solvers() if not solver.supported()), None)
    if absent is None:
        pytest.skip("every solver CPMpy knows is installed here")
    with pytest.raises(BackendOptionError, match=f"solver {absent} is not installed here"):
        create_backend("cpmpy", solver=absent).first_solution(Instance(5))


def test_unknown_solver_is_refused_in_one_line() -> None:
    require_backend("cpmpy")
    from nqueens_cp.core.errors import BackendOptionError

    with pytest.raises(BackendOptionError, match="choose from"):
        create_backend("cpmpy", solver="nosuchsolver")


def test_configuring_cpmpy_imports_no_solver() -> None:
    import subprocess
    import sys

    code = ("import sys; from nqueens_cp.backends.framework.configuration import Configuration; "
            "Configuration.parse('cpmpy:solver=choco'); print('pychoco' in sys.modules, 'cpmpy' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_the_model_is_built_without_solving() -> None:
    pytest.importorskip("cpmpy")
    from nqueens_cp.models.cpmpy_model import build_cpmpy_model
    from nqueens_cp.models.rows import row_model

    built = build_cpmpy_model(row_model(Instance(5, {0: 1})))
    assert len(built.model.constraints) == 4  # three AllDifferent, one equality
    assert built.queens.shape == (5,)
