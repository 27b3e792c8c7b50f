"""The ``pb`` backend (Exact) and its model beyond the shared contract: both formulations, the
lex-leader constraints, the exported OPB file solved by Exact, the bound, the command line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.symmetry import canonical
from nqueens_cp.export.writers import export_model
from nqueens_cp.models.pb import FORMULATIONS, build_pb_model
from nqueens_cp.models.sizes import line_size, opb_size
from nqueens_cp.testing.backend_contract import reference_solutions

from .conftest import run_cli
from .test_export_writers import parse_opb


def exact_solutions_of_opb(text: str, n: int) -> set[tuple[int, ...]]:
    """Every solution of an exported OPB file, solved by Exact: its constraints as the file states them
    (Exact's Python interface reads no files, so the file's lines are handed over one by one)."""
    import exact

    from nqueens_cp.system.interrupts import python_signal_handlers_back

    variables, constraints = parse_opb(text)
    with python_signal_handlers_back():  # Exact's constructor takes over SIGINT and SIGTERM
        solver = exact.Exact([("verbosity", "0")])
    names = [f"x{v}" for v in range(1, variables + 1)]
    for name in names:
        solver.addVariable(name)
    for terms, op, rhs in constraints:
        solver.addConstraint([(c, f"x{v}") for c, v in terms], True, rhs, op == "=", rhs)
    boards = set()
    while solver.runFull(False) == "SAT":
        values = solver.getLastSolutionFor(names)
        boards.add(tuple(v % n for v, value in enumerate(values) if value))
        solver.invalidateLastSol(names)
    return boards


@pytest.mark.parametrize("instance", [Instance(6), Instance(8), Instance(8, {0: 2, 5: 1})], ids=str)
def test_the_exported_opb_file_solved_by_exact_gives_the_solution_set(instance: Instance) -> None:
    assert exact_solutions_of_opb(export_model(instance, "opb"), instance.n) == reference_solutions(instance)


@pytest.mark.parametrize("formulation", FORMULATIONS)
def test_both_formulations_count_and_enumerate_exactly(formulation: str) -> None:
    backend = create_backend("pb", formulation=formulation)
    for n in range(1, 9):
        assert backend.count(Instance(n)) == A000170[n]
    assert set(backend.solutions(Instance(9))) == reference_solutions(Instance(9))


def test_the_lex_leader_constraints_keep_the_canonical_board_of_each_class() -> None:
    backend = create_backend("pb")
    for n in range(1, 10):
        got = list(backend.solutions(Instance(n), unique=True))
        assert len(got) == A002562[n] == backend.count(Instance(n), unique=True)
        assert set(got) == {canonical(s) for s in reference_solutions(Instance(n))}


def test_the_model_size_is_the_line_model_size_and_the_opb_count() -> None:
    for n in range(2, 12):
        for fixed in ({}, {0: n - 1}):
            size = build_pb_model(Instance(n, fixed)).size()
            assert size == line_size(n, len(fixed))
            assert size.constraints == opb_size(n, len(fixed)).constraints


def test_a_model_too_large_is_refused_in_one_line_before_it_is_built() -> None:
    run = run_cli("solve", "60", "--backend", "pb", "-O", "formulation=clauses", "--max-model-mb", "10")
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "use -O formulation=lines" in run.stderr


def test_the_command_line_counts_and_lists_the_backend() -> None:
    run = run_cli("solve", "8", "--backend", "pb", "--count")
    assert run.returncode == 0, run.stderr
    assert "92" in run.stdout
    listing = run_cli("backends").stdout.split("\npb:")[1]
    assert listing.startswith(" available") and "-O formulation=lines|clauses" in listing


#: After an in-process pb solve, SIGINT still raises KeyboardInterrupt, a later solve still works,
#: and SIGTERM still ends the process. (Exact's constructor installs its own handler for both
#: signals; left in place, SIGTERM was swallowed and every later Exact call in the process, or in
#: one forked from it, failed with "Program interrupted by user.")
_AFTER_A_SOLVE = """
import os, signal, time
from nqueens_cp import Instance, create_backend
backend = create_backend(BACKEND[0], **BACKEND[1])
assert backend.count(Instance(6)) == 4
assert next(iter(backend.solutions(Instance(6)))) is not None
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(1)
    raise SystemExit("SIGINT did not reach Python")
except KeyboardInterrupt:
    pass
assert backend.count(Instance(7), limit=None) == 40
print("ready", flush=True)
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(2)
print("SIGTERM did not end the process")
"""


@pytest.mark.parametrize("backend", [("pb", {}), ("cpmpy", {"solver": "exact"})], ids=["pb", "cpmpy-exact"])
def test_signals_are_python_s_again_after_a_solve(backend: tuple[str, dict[str, str]]) -> None:
    done = subprocess.run([sys.executable, "-c", f"BACKEND = {backend!r}\n{_AFTER_A_SOLVE}"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout == "ready\n" and done.returncode == -15, (done.returncode, done.stdout, done.stderr[-2000:])


def test_exact_s_own_interrupt_message_counts_as_ctrl_c() -> None:
    from nqueens_cp.system.interrupts import is_interruption

    assert is_interruption(RuntimeError("Program interrupted by user."))
    assert not is_interruption(RuntimeError("exact stopped without an answer (INCONSISTENT)"))
