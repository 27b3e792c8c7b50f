"""The cpsat strategies, the sat defaults, option defaults checked when a backend class is made, and
the references of the benchmarks."""

from __future__ import annotations

import subprocess
import sys
from itertools import permutations
from types import ModuleType

import pytest

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.backends.cpsat import CpSatBackend
from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.backends.sat import SatBackend
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError, SearchStoppedError
from nqueens_cp.models.cpsat import STRATEGIES, build_cpsat_model
from nqueens_cp.models.encodings import ENCODINGS

from .conftest import REPO, load_file

COMPLETIONS = [
    Instance(7, ((0, 0),)),
    Instance(8, ((2, 5), (5, 1))),
    Instance(8, ((0, 0), (1, 1))),  # attacking: no solution
    Instance(8, ((4, 4),)),
]


def brute_force(instance: Instance) -> set[tuple[int, ...]]:
    """Every valid board: the column permutations that keep the fixed queens, checked by the checker."""
    fixed = instance.fixed_by_row
    return {
        p for p in permutations(range(instance.n))
        if all(p[r] == c for r, c in fixed.items()) and is_valid_solution(instance, p)
    }


def load_benchmark(name: str) -> ModuleType:
    return load_file(REPO / "benchmarks" / f"{name}.py", name)


# -- cpsat -------------------------------------------------------------------------------------


def _solver_parameters(backend: CpSatBackend, task: str) -> object:
    strategy = backend._strategy(task)
    return backend._solver(strategy, enumerate_all=task == "enumerate").parameters


def test_cpsat_auto_strategy_follows_the_task() -> None:
    from ortools.sat.python import cp_model

    auto = CpSatBackend()
    # enumeration: the tuned fixed search with presolve off; a first solution: presolve off too,
    # but a branching on the median column; plain leaves CP-SAT's defaults.
    assert auto._strategy("enumerate") is STRATEGIES["tuned"]
    assert auto._strategy("first") is STRATEGIES["first"]
    enumerate_params = _solver_parameters(auto, "enumerate")
    assert enumerate_params.search_branching == cp_model.FIXED_SEARCH  # type: ignore[attr-defined]
    assert not enumerate_params.use_sat_inprocessing  # type: ignore[attr-defined]
    plain = _solver_parameters(create_backend("cpsat", strategy="plain"), "enumerate")
    assert plain.search_branching == cp_model.AUTOMATIC_SEARCH  # type: ignore[attr-defined]
    assert plain.cp_model_presolve  # type: ignore[attr-defined]
    built = build_cpsat_model(Instance(8))
    built.branch(STRATEGIES["first"].branching)
    (decision,) = built.model.Proto().search_strategy
    assert decision.domain_reduction_strategy == cp_model.SELECT_MEDIAN_VALUE


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_cpsat_strategy_parameters_reach_the_solver(name: str) -> None:
    from ortools.sat.python import cp_model

    solver = cp_model.CpSolver()
    STRATEGIES[name].configure(solver)
    for key, value in STRATEGIES[name].parameters.items():
        expected = getattr(cp_model, value) if isinstance(value, str) else value
        assert getattr(solver.parameters, key) == expected, key


def test_a_backend_class_with_an_invalid_default_is_refused_when_made() -> None:
    with pytest.raises(TypeError, match="default 'nope' of option encoding"):

        class Broken(SatBackend):
            option_specs = (OptionSpec("encoding", str, "nope", "an encoding", choices=ENCODINGS),)


@pytest.mark.parametrize("n", range(0, 10))
def test_tuned_and_plain_cpsat_give_identical_solution_sets(n: int) -> None:
    tuned = list(create_backend("cpsat", strategy="tuned").solutions(Instance(n)))
    plain = list(create_backend("cpsat", strategy="plain").solutions(Instance(n)))
    assert len(tuned) == len(set(tuned)) == A000170[n]
    assert set(tuned) == set(plain)
    assert all(is_valid_solution(Instance(n), s) for s in tuned)


@pytest.mark.parametrize("instance", COMPLETIONS, ids=str)
def test_tuned_and_plain_cpsat_agree_on_completions(instance: Instance) -> None:
    tuned = set(create_backend("cpsat", strategy="tuned").solutions(instance))
    plain = set(create_backend("cpsat", strategy="plain").solutions(instance))
    assert tuned == plain == brute_force(instance)


def test_localsearch_refuses_to_count_or_enumerate() -> None:
    backend = create_backend("cpsat", strategy="localsearch")
    with pytest.raises(BackendOptionError, match="cannot enumerate"):
        backend.count(Instance(6))
    with pytest.raises(BackendOptionError, match="cannot enumerate"):
        list(backend.solutions(Instance(6)))


@pytest.mark.parametrize("strategy", sorted({"auto", *STRATEGIES} - {"localsearch"}))
def test_cpsat_counting_callback_count_equals_enumeration(strategy: str) -> None:
    backend = create_backend("cpsat", strategy=strategy)
    for n in range(0, 10):
        assert backend.count(Instance(n)) == A000170[n] == Backend.count(backend, Instance(n))
    for instance in COMPLETIONS:
        assert backend.count(instance) == len(brute_force(instance))
    # limit and unique still go through the streamed solutions
    assert backend.count(Instance(8), limit=5) == 5
    assert backend.count(Instance(8), unique=True) == 12


def test_cpsat_count_reports_a_time_limit_instead_of_a_partial_count() -> None:
    backend = create_backend("cpsat", time_limit=0)
    with pytest.raises(SearchStoppedError, match="time limit"):
        backend.count(Instance(12))


def test_a_cpsat_time_limit_during_all_is_a_run_that_stopped_not_bad_input() -> None:
    done = subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", "14", "--all", "--backend", "cpsat",
                           "--time-limit", "0.5"], capture_output=True, text=True, timeout=120, cwd=REPO)
    lines = done.stdout.splitlines()
    assert done.returncode == 3, done.stderr  # its own status: stopped (was 2, bad input)
    assert 0 < len(lines) < A000170[14] and len(set(lines)) == len(lines)  # the partial output is kept
    assert all(is_valid_solution(Instance(14), tuple(map(int, line.split()))) for line in lines)
    assert done.stderr == (f"nqueens-cp: stopped: cpsat reached its time limit of 0.5 s before it enumerated "
                           f"every solution (FEASIBLE); the {len(lines)} solution(s) written are not all\n")
    count = subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", "14", "--count", "--backend", "cpsat",
                            "--time-limit", "0.2"], capture_output=True, text=True, timeout=120, cwd=REPO)
    assert (count.returncode, count.stdout) == (3, "") and count.stderr.startswith("nqueens-cp: stopped: ")



def test_cpsat_refuses_a_first_solution_whose_median_branching_cannot_fit() -> None:
    """The median-column branching of ``strategy=first`` makes CP-SAT encode every domain value
    (n² literals: 3.95 GB at n = 2000, 22 GB at n = 5000 before it reached a 3-s time limit).
    The estimate says so before anything is built; smallest-column branching stays O(n)."""
    from nqueens_cp.core.errors import ModelTooLargeError
    from nqueens_cp.models.cpsat import cpsat_memory

    assert cpsat_memory(2000, "alldiff", median_branching=True).megabytes > 3800
    assert cpsat_memory(50_000, "alldiff").megabytes < 200
    with pytest.raises(ModelTooLargeError, match=r"median-column branching.*option strategy=tuned"):
        create_backend("cpsat", time_limit=10).first_solution(Instance(5000))  # a time limit lifts the time bound
    done = subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", "50000", "--backend", "cpsat", "--time-limit", "10"],
                          capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "-O strategy=tuned" in done.stderr

# -- sat ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n", range(0, 10))
def test_sat_defaults_enumerate_exactly(n: int) -> None:
    solutions = list(SatBackend().solutions(Instance(n)))
    assert len(solutions) == len(set(solutions)) == A000170[n]
    assert set(solutions) == set(create_backend("cpsat").solutions(Instance(n)))


# -- benchmark references ----------------------------------------------------------------------


@pytest.mark.parametrize("n", range(1, 8))
def test_bench_sat_reference_enumerates_exactly(n: int) -> None:
    bench = load_benchmark("bench_sat")
    boards = list(bench.reference_boards(n))
    assert len(boards) == len(set(boards)) == A000170[n]
    assert set(boards) == brute_force(Instance(n))


@pytest.mark.parametrize("n", range(1, 8))
def test_bench_cpsat_reference_enumerates_exactly(n: int) -> None:
    bench = load_benchmark("bench_cpsat")
    count, boards = bench.reference(n, True)
    assert count == len(boards) == len(set(boards)) == A000170[n]
    assert set(boards) == brute_force(Instance(n))


def test_bench_digest_tells_sets_apart() -> None:
    bench = load_benchmark("bench_sat")
    assert bench.digest([(1, 3, 0, 2), (2, 0, 3, 1)]) == bench.digest([(2, 0, 3, 1), (1, 3, 0, 2)])
    assert bench.digest([(1, 3, 0, 2)]) != bench.digest([(2, 0, 3, 1)])


@pytest.mark.slow
@pytest.mark.parametrize("script", ["bench_sat", "bench_cpsat"])
def test_benchmark_scripts_run_and_find_the_same_sets(script: str) -> None:
    extra = ["--no-minizinc"] if script == "bench_cpsat" else []
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / f"{script}.py"), "--n", "7", "--repeat", "1", *extra],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode in (0, 1), done.stderr  # 1: a target missed (n = 7 is all start-up)
    rows = [line.split() for line in done.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(rows) == (4 if script == "bench_cpsat" else 2)
    assert all(row[-2] == "yes" for row in rows), done.stdout  # the "same set" column


@pytest.mark.slow
def test_bench_sat_grid_runs_and_finds_the_same_sets() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_sat.py"), "--grid", "--n", "7", "--repeat", "1",
         "--encodings", "pairwise,ladder", "--solvers", "cadical195,minisat22"],
        capture_output=True, text=True, timeout=300, check=True,
    )
    assert "solution sets agree: yes" in done.stdout
    assert "fastest: " in done.stdout


@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        ([], "backtrack"),  # the first solution: first-fail search
        (["--count"], "bitboard"),
        (["--count", "--unique"], "bitboard"),
        (["--unique"], "bitboard"),
        (["--all"], "bitboard"),
        (["--all", "--unique"], "bitboard"),
        (["--count", "--backend", "backtrack"], "backtrack"),  # the readable search, one flag away
    ],
)
def test_the_default_backend_of_solve_follows_the_question(
    flags: list[str], expected: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from nqueens_cp.cli import main
    from nqueens_cp.cli import solve as solve_command

    made: list[str] = []

    def recording(name: str, **options: object) -> Backend:
        made.append(name)
        return create_backend(name, **options)

    monkeypatch.setattr(solve_command, "create_backend", recording)
    assert main(["solve", "6", *flags]) == 0
    assert made == [expected]
    answer = capsys.readouterr().out.split("\n")
    if "--count" in flags:
        assert answer[0] == ("1" if "--unique" in flags else "4")
