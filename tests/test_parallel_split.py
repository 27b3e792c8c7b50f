"""Splitting into sub-problems: the plan itself, and identical results at every depth for every backend."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from itertools import permutations, product
from typing import Any

import pytest

from nqueens_cp import A000170, A002562, Instance, NQueensError, create_backend
from nqueens_cp.backends.framework.registry import backend_class, backend_names
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.parallel import (
    ParallelConfig,
    ProcessPoolTaskExecutor,
    SplitRun,
    default_depth,
    expand,
    mirror,
    split_instance,
)

from .conftest import backend_params

#: Every registered backend at the time the tests are collected (cpsat and sat included).
BACKENDS = backend_names()
# a split run enumerates or counts every sub-problem: the backends that answer both
SPLITTING = [name for name in BACKENDS if {'all', 'count'} <= backend_class(name).answers]
BACKEND_PARAMS = backend_params(SPLITTING)
#: xcsp3 starts a Java program for every sub-problem (0.5 to 2 s each; its split tests took 750 s
#: of CI): it is split on the smallest board only, and left out of the other split tests. Its
#: completions (what a sub-problem is) are in the contract kit.
JAVA_PER_SOLVE = frozenset({"xcsp3"})
WITHOUT_JAVA = backend_params([name for name in SPLITTING if name not in JAVA_PER_SOLVE])
#: minizinc starts MiniZinc and Gecode for every sub-problem too (its n = 7 and 8 sweeps took 75 s
#: of CI): split at every depth on the smallest board; the other split tests run it in full.
SMALLEST_BOARD_ONLY = JAVA_PER_SOLVE | {"minizinc"}
#: HiGHS solves every sub-problem from scratch (8-mip alone took 17.6 s of the default run in CI):
#: its larger boards and its runs at every depth are slow tests (CI runs them), the smallest is not.
SLOW_SPLITS = frozenset({"mip"})


def _slow_for(param: Any, slow: bool) -> Any:
    """``param`` with the ``slow`` mark added when ``slow``."""
    return pytest.param(*param.values, marks=[*param.marks, pytest.mark.slow] if slow else param.marks, id=param.id)


#: :data:`WITHOUT_JAVA` with :data:`SLOW_SPLITS` marked slow.
WITHOUT_JAVA_DEFAULT_FAST = [_slow_for(param, param.values[0] in SLOW_SPLITS) for param in WITHOUT_JAVA]


def _backends_and_sizes(sizes: list[int]) -> list[Any]:
    """(backend, n) for every splitting backend and size, those starting a program per solve on
    the first size only."""
    return [pytest.param(param.values[0], n, id=f"{n}-{param.id}",
                         marks=[*param.marks, *([pytest.mark.slow] if n > sizes[0] and param.values[0] in SLOW_SPLITS
                                                else [])])
            for param in BACKEND_PARAMS for n in sizes
            if n == sizes[0] or param.values[0] not in SMALLEST_BOARD_ONLY]


@cache
def reference(instance: Instance) -> frozenset[tuple[int, ...]]:
    """Solutions by brute force over the permutations (every solution is one), judged by the checker."""
    fixed = instance.fixed
    return frozenset(
        p for p in permutations(range(instance.n))
        if all(p[r] == c for r, c in fixed) and is_valid_solution(instance, p)
    )


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessPoolTaskExecutor]:
    with ProcessPoolTaskExecutor(2) as executor:
        yield executor


def test_registry_holds_the_four_backends() -> None:
    assert {"backtrack", "bitboard", "cpsat", "sat"} <= set(BACKENDS)


@pytest.mark.parametrize("n", range(0, 9))
@pytest.mark.parametrize("depth", range(0, 4))
def test_plan_partitions_the_solutions(n: int, depth: int) -> None:
    """Each solution extends exactly one prefix of the full split, and the mirror plan covers them all."""
    instance = Instance(n)
    full = split_instance(instance, depth, symmetry=False)
    assert all(sub.weight == 1 and not sub.mirrored for sub in full.subproblems)
    solutions = reference(instance)
    owners = [[sub for sub in full.subproblems if s[: full.depth] == sub.prefix] for s in solutions]
    assert all(len(found) == 1 for found in owners)
    half = split_instance(instance, depth)
    assert all(sub.instance.fixed_by_row == dict(enumerate(sub.prefix)) for sub in half.subproblems)
    own = {sub.index: [s for s in solutions if s[: half.depth] == sub.prefix] for sub in half.subproblems}
    covered = [s for sub in half.subproblems for s in expand(sub, own[sub.index])]
    assert len(covered) == len(set(covered)) and set(covered) == solutions
    assert half.total_count((i, len(found)) for i, found in own.items()) == A000170[n]


def test_mirror_weights_and_middle_column() -> None:
    plan = split_instance(Instance(7), 1)
    assert [sub.prefix for sub in plan.subproblems] == [(0,), (1,), (2,), (3,)]
    assert [sub.weight for sub in plan.subproblems] == [2, 2, 2, 1]
    assert [sub.mirrored for sub in plan.subproblems] == [True, True, True, False]
    plan = split_instance(Instance(8), 1)
    assert [sub.prefix for sub in plan.subproblems] == [(0,), (1,), (2,), (3,)]
    assert all(sub.weight == 2 for sub in plan.subproblems)
    assert mirror((1, 3, 0, 2)) == (2, 0, 3, 1)


def test_prefixes_are_consistent_and_keep_pre_placed_queens() -> None:
    instance = Instance(8, {1: 3, 5: 0})
    plan = split_instance(instance, 3)
    assert not plan.symmetric  # pre-placed queens: no mirror
    assert plan.subproblems
    for sub in plan.subproblems:
        assert sub.prefix[1] == 3
        assert sub.instance.fixed_by_row == {**dict(enumerate(sub.prefix)), 5: 0}
        assert sub.instance.fixed_are_consistent()
        assert sub.weight == 1 and not sub.mirrored
    prefixes = {sub.prefix for sub in plan.subproblems}
    expected = {s[:3] for s in product(range(8), repeat=3)
                if Instance(8, {**dict(enumerate(s)), 1: 3, 5: 0}).fixed_are_consistent() and s[1] == 3}
    assert prefixes == expected
    total = sum(len(reference(sub.instance)) for sub in plan.subproblems)
    assert total == len(reference(instance))


def test_depth_is_clamped_and_checked() -> None:
    assert split_instance(Instance(4), 9).depth == 4
    assert len(split_instance(Instance(4), 4)) == 1  # only (1, 3, 0, 2) survives with the mirror
    assert split_instance(Instance(0), 2).subproblems[0].instance == Instance(0)
    with pytest.raises(NQueensError):
        split_instance(Instance(4), -1)
    assert len(split_instance(Instance(12), default_depth(Instance(12), 2))) >= 32
    assert len(split_instance(Instance(8, {0: 0, 1: 1}), 2)) == 0  # attacking pre-placed queens


@pytest.mark.parametrize(("backend", "n"), _backends_and_sizes([6, 7, 8]))
def test_every_depth_gives_the_same_count_and_set(backend: str, n: int) -> None:
    instance = Instance(n)
    expected = reference(instance)
    for depth in range(0, 3 if backend in JAVA_PER_SOLVE else 4):  # depth 3: 18 more Java starts, twice
        config = ParallelConfig(split_depth=depth)
        count = SplitRun(instance, backend, config=config).count()
        assert (count.count, count.depth) == (A000170[n], depth)
        solutions = list(SplitRun(instance, backend, enumerate=True, config=config).solutions())
        assert len(solutions) == len(set(solutions)) == len(expected)
        assert set(solutions) == expected


@pytest.mark.parametrize("backend", WITHOUT_JAVA_DEFAULT_FAST)
def test_unique_and_pre_placed_at_every_depth(backend: str) -> None:
    for depth in range(0, 4):
        config = ParallelConfig(split_depth=depth)
        unique = SplitRun(Instance(8), backend, unique=True, config=config).count().count
        assert unique == A002562[8]
        completion = Instance(8, {2: 5})
        run = SplitRun(completion, backend, enumerate=True, config=config)
        assert set(run.solutions()) == reference(completion)


@pytest.mark.parametrize("backend", WITHOUT_JAVA_DEFAULT_FAST)
def test_process_pool_gives_the_same_results(backend: str, pool: ProcessPoolTaskExecutor) -> None:
    for depth in (0, 2, 3):
        config = ParallelConfig(split_depth=depth, workers=2)
        assert SplitRun(Instance(8), backend, config=config, executor=pool).count().count == 92
        run = SplitRun(Instance(7), backend, enumerate=True, config=config, executor=pool)
        solutions = list(run.solutions())
        assert len(solutions) == 40 and set(solutions) == reference(Instance(7))


def test_backend_options_travel_to_the_workers(pool: ProcessPoolTaskExecutor) -> None:
    run = SplitRun(Instance(7), "sat", {"encoding": "pairwise", "solver": "minisat22"},
                   config=ParallelConfig(split_depth=2, workers=2), executor=pool)
    assert run.count().count == 40
    assert run.header()["options"]["encoding"] == "pairwise"


def test_bad_requests_are_refused_before_starting() -> None:
    with pytest.raises(NQueensError):
        SplitRun(Instance(6, {0: 1}), "bitboard", unique=True)
    with pytest.raises(NQueensError):
        SplitRun(Instance(6), "bitboard", {"nope": 1})
    with pytest.raises(NQueensError):
        SplitRun(Instance(6), "bitboard", config=ParallelConfig(executor="fibers"))
    with pytest.raises(NQueensError):
        SplitRun(Instance(6), "bitboard", config=ParallelConfig(max_attempts=0))
    with pytest.raises(NQueensError):
        list(SplitRun(Instance(6), "bitboard").solutions())  # not an enumerating run


def test_reference_agrees_with_a_backend() -> None:
    assert reference(Instance(7)) == frozenset(create_backend("backtrack").solutions(Instance(7)))


@pytest.mark.parametrize("backend", ["bitboard", "sat"])
def test_fingerprints_merge_to_the_serial_one(backend: str) -> None:
    from nqueens_cp.core.fingerprint import fingerprint_of

    serial = fingerprint_of(create_backend(backend).solutions(Instance(8)))
    for depth in range(0, 4):
        run = SplitRun(Instance(8), backend, enumerate=True, config=ParallelConfig(split_depth=depth))
        assert run.fingerprint() == serial
    unique = SplitRun(Instance(8), backend, enumerate=True, unique=True, config=ParallelConfig(split_depth=2))
    assert unique.fingerprint() == fingerprint_of(create_backend(backend).solutions(Instance(8), unique=True))
    with pytest.raises(NQueensError):
        SplitRun(Instance(8), backend).fingerprint()
