"""The backend contract as plain functions: the checks every nqueens-cp backend passes.

A backend in another package runs them in its own tests::

    from nqueens_cp.testing.backend_contract import CHECKS, run_contract
    from mypkg.module import MyBackend

    def test_my_backend_keeps_the_contract():
        run_contract(MyBackend())

    # or one test per check:
    @pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
    def test_contract(check):
        check(MyBackend())

Each check raises ``ContractViolation`` (an ``AssertionError``) saying what is wrong. The
answers are judged by the independent checker and by a brute-force enumeration, never by
another backend. A backend that declares it does not count or enumerate (``Backend.answers``)
is checked for a one-line ``NQueensError`` refusal of those instead, and on its first solutions. nqueens-cp's own contract tests (``tests/test_backends_contract.py``) are these
functions, run against every built-in backend.

A backend that counts without enumerating (``counts_only()``, :mod:`nqueens_cp.backends.framework.counting`)
runs ``COUNT_ONLY_CHECKS`` instead: counts (exact, or within the tolerance an approximate counter
states), one-line refusals of boards, counts with pre-placed queens and blocked squares against the
brute-force sets, and ``unique`` counts or a one-line refusal.
"""

from __future__ import annotations

import random
from functools import cache
from itertools import permutations
from typing import Callable

from nqueens_cp.backends.framework.base import Answer, Backend, count_within_tolerance
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError, NQueensError, SearchBoundError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.oeis import A000170


class ContractViolation(AssertionError):
    """A backend broke the contract; the message says how."""


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise ContractViolation(message)


@cache
def reference_solutions(instance: Instance) -> frozenset[Solution]:
    """Every solution of ``instance`` by brute force, kept by the checker alone: the permutations of the
    columns (a solution has one queen per column) that keep the pre-placed queens and have distinct
    diagonals (a quick sieve), each then judged by the checker."""
    n, fixed = instance.n, instance.fixed_by_row
    candidates = (
        p for p in permutations(range(n))
        if all(p[r] == c for r, c in fixed.items())
        and len({c + r for r, c in enumerate(p)}) == n and len({c - r for r, c in enumerate(p)}) == n
    )
    return frozenset(p for p in candidates if is_valid_solution(instance, p))


def _refuses(backend: Backend, answer: Answer) -> bool:
    """True (after checking the refusal is one ``NQueensError`` line) when ``backend`` does not give ``answer``."""
    if answer in backend.answers:
        return False
    try:
        if answer is Answer.COUNT:
            backend.count(Instance(6))
        else:
            list(backend.solutions(Instance(6)))
    except NQueensError as error:
        _require("\n" not in str(error) and bool(str(error)), f"{backend!r}: refusal of {answer} is not one line")
        return True
    raise ContractViolation(f"{backend!r}: does not declare '{answer}' in its answers but did not refuse it")


def check_counts(backend: Backend, ns: range = range(0, 11)) -> None:
    """``count`` equals OEIS A000170 for every n in ``ns``."""
    if _refuses(backend, Answer.COUNT):
        return
    for n in ns:
        got = backend.count(Instance(n))
        _require(got == A000170[n], f"{backend!r}: count of n={n} is {got}, A000170 says {A000170[n]}")


def check_solution_sets(backend: Backend, ns: range = range(0, 8)) -> None:
    """``solutions`` yields tuples, each valid, none twice, exactly the brute-force set."""
    if _refuses(backend, Answer.ALL):
        return
    for n in ns:
        instance = Instance(n)
        solutions = list(backend.solutions(instance))
        _require(all(isinstance(s, tuple) for s in solutions), f"{backend!r}: n={n}: a solution is not a tuple")
        invalid = [s for s in solutions if not is_valid_solution(instance, s)]
        _require(not invalid, f"{backend!r}: n={n}: invalid solutions, e.g. {invalid[:1]}")
        _require(len(solutions) == len(set(solutions)), f"{backend!r}: n={n}: a solution was produced twice")
        expected = reference_solutions(instance)
        missing, extra = expected - set(solutions), set(solutions) - expected
        _require(not missing and not extra,
                 f"{backend!r}: n={n}: {len(missing)} solutions missing, {len(extra)} extra")


def check_limit_and_first(backend: Backend) -> None:
    """``limit``, ``first_solution`` (None without a solution) and a negative limit refused."""
    eight = Instance(8)
    if _refuses(backend, Answer.ALL) | _refuses(backend, Answer.COUNT):
        first = backend.first_solution(eight)
        _require(first is not None and is_valid_solution(eight, first), f"{backend!r}: bad first solution {first!r}")
        _require(backend.first_solution(Instance(3)) is None, f"{backend!r}: a first solution of n=3, which has none")
        return
    limited = list(backend.solutions(eight, limit=5))
    _require(len(limited) == len(set(limited)) == 5, f"{backend!r}: limit=5 gave {len(limited)} solutions")
    _require(all(is_valid_solution(eight, s) for s in limited), f"{backend!r}: limit=5 gave an invalid solution")
    _require(backend.count(eight, limit=7) == 7, f"{backend!r}: count(limit=7) is not 7")
    _require(backend.count(eight, limit=1000) == 92, f"{backend!r}: count(limit=1000) of n=8 is not 92")
    _require(list(backend.solutions(eight, limit=0)) == [], f"{backend!r}: limit=0 gave solutions")
    first = backend.first_solution(eight)
    _require(first is not None and is_valid_solution(eight, first), f"{backend!r}: bad first solution {first!r}")
    _require(backend.first_solution(Instance(3)) is None, f"{backend!r}: a first solution of n=3, which has none")
    try:
        backend.solutions(eight, limit=-1)
    except BackendOptionError:
        pass
    else:
        raise ContractViolation(f"{backend!r}: limit=-1 was not refused")


def check_completion(backend: Backend) -> None:
    """Pre-placed queens: attacking ones give nothing, a full board gives itself, a wrong full board nothing."""
    if _refuses(backend, Answer.COUNT):
        full = (0, 4, 7, 5, 2, 6, 1, 3)
        cases = (({0: 0, 1: 1}, None), ({0: 0, 3: 0}, None), (dict(enumerate(full)), full),
                 (dict(enumerate((0, 4, 7, 5, 2, 6, 3, 1))), None))
        for fixed, expected in cases:
            try:
                first = backend.first_solution(Instance(8, fixed))
            except NQueensError as error:  # a backend that cannot honour pre-placed queens says so
                _require(not backend.supports_fixed and "\n" not in str(error)
                         and not isinstance(error, SearchBoundError), f"{backend!r}: {fixed}: {error}")
                continue
            _require(first == expected, f"{backend!r}: first solution with {fixed} pre-placed is {first}, not {expected}")
        return
    _require(backend.count(Instance(8, {0: 0, 1: 1})) == 0, f"{backend!r}: completed attacking queens (diagonal)")
    _require(backend.count(Instance(8, {0: 0, 3: 0})) == 0, f"{backend!r}: completed attacking queens (column)")
    full = (0, 4, 7, 5, 2, 6, 1, 3)
    got = list(backend.solutions(Instance(8, dict(enumerate(full)))))
    _require(got == [full], f"{backend!r}: a full valid board gave {got}")
    wrong = (0, 4, 7, 5, 2, 6, 3, 1)
    _require(backend.count(Instance(8, dict(enumerate(wrong)))) == 0, f"{backend!r}: completed an invalid full board")


def check_random_completions(backend: Backend, examples: int = 25, seed: int = 0) -> None:
    """Random boards up to 7x7 with up to 3 pre-placed queens (legal or not): exactly the brute-force set."""
    rng = random.Random(seed)
    for _ in range(examples):
        n = rng.randint(0, 7)
        fixed = {rng.randrange(n): rng.randrange(n) for _ in range(rng.randint(0, 3))} if n else {}
        instance = Instance(n, fixed)
        if Answer.ALL not in backend.answers:
            _check_first_against_brute_force(backend, instance)
            continue
        got = list(backend.solutions(instance))
        _require(len(got) == len(set(got)) and set(got) == reference_solutions(instance),
                 f"{backend!r}: wrong solution set for {instance}")


def _check_first_against_brute_force(backend: Backend, instance: Instance) -> None:
    """A first solution is one of the brute-force set; "none" only when the set is empty; a stop at
    the search's bound only when the set is empty too (these boards are tiny). A backend that cannot
    honour pre-placed queens (``supports_fixed`` false) refuses them with one line."""
    expected = reference_solutions(instance)
    try:
        got = backend.first_solution(instance)
    except SearchBoundError:
        _require(not expected, f"{backend!r}: stopped at its bound on {instance}, which has {len(expected)} solutions")
        return
    except NQueensError as error:
        _require(bool(instance.fixed) and not backend.supports_fixed and "\n" not in str(error),
                 f"{backend!r}: {instance}: {error}")
        return
    _require(got in expected if got is not None else not expected,
             f"{backend!r}: first solution {got} of {instance} is not one of its {len(expected)} solutions")


def check_unique_refuses_pre_placed_queens(backend: Backend) -> None:
    """``unique`` with pre-placed queens raises an ``NQueensError``."""
    try:
        backend.count(Instance(6, {0: 1}), unique=True)
    except NQueensError:
        return
    raise ContractViolation(f"{backend!r}: unique=True with pre-placed queens was not refused")


def check_unique_counts(backend: Backend, ns: range = range(1, 8)) -> None:
    """``unique`` yields the canonical member of every symmetry class (OEIS A002562)."""
    from nqueens_cp.core.oeis import A002562
    from nqueens_cp.core.symmetry import canonical

    if _refuses(backend, Answer.ALL):
        return
    for n in ns:
        got = list(backend.solutions(Instance(n), unique=True))
        expected = {canonical(s) for s in reference_solutions(Instance(n))}
        _require(len(got) == len(set(got)) == A002562[n] and set(got) == expected,
                 f"{backend!r}: unique solutions of n={n} are not the {A002562[n]} canonical ones")


def check_model_size(backend: Backend) -> None:
    """``model_size`` is None (a plain search) or at least n variables and one constraint."""
    size = backend.model_size(Instance(6))
    _require(size is None or (size.variables >= 6 and size.constraints > 0),
             f"{backend!r}: implausible model size {size}")


def check_first_solutions(backend: Backend, ns: range = range(0, 30)) -> None:
    """``first_solution`` and ``first_columns`` give valid solutions for every n in ``ns`` (None for
    n = 2 and 3 only)."""
    import numpy as np

    for n in ns:
        instance = Instance(n)
        first = backend.first_solution(instance)
        _require((first is None) == (n in (2, 3)), f"{backend!r}: first solution of n={n} is {first}")
        _require(first is None or (isinstance(first, tuple) and is_valid_solution(instance, first)),
                 f"{backend!r}: bad first solution of n={n}: {first}")
        columns = backend.first_columns(instance)
        _require((columns is None) == (n in (2, 3)), f"{backend!r}: first_columns of n={n} is {columns}")
        _require(columns is None or (columns.dtype == np.int32 and is_valid_solution(instance, columns)),
                 f"{backend!r}: bad first_columns of n={n}: {columns}")


#: Every check, in a sensible order (fast and basic first).
CHECKS: tuple[Callable[[Backend], None], ...] = (
    check_first_solutions, check_counts, check_solution_sets, check_limit_and_first, check_completion, check_random_completions,
    check_unique_refuses_pre_placed_queens, check_unique_counts, check_model_size,
)


# -- backends that count without enumerating (``counts_only()``: ganak, approxmc, bdd) ------------------


def counts_agree(backend: Backend, got: int, expected: int) -> bool:
    """Whether ``got`` is ``expected``, or within the backend's stated tolerance (an approximate counter)."""
    return count_within_tolerance(got, expected, backend.count_tolerance)


def check_count_only_counts(backend: Backend, ns: range = range(0, 10)) -> None:
    """``count`` equals OEIS A000170 (or lies within the stated tolerance) for every n in ``ns``;
    ``limit`` caps it."""
    for n in ns:
        got = backend.count(Instance(n))
        _require(counts_agree(backend, got, A000170[n]), f"{backend!r}: count of n={n} is {got}, A000170 says {A000170[n]}")
    _require(backend.count(Instance(6), limit=3) == 3, f"{backend!r}: count(limit=3) of n=6 is not 3")
    _require(backend.count(Instance(6), limit=0) == 0, f"{backend!r}: count(limit=0) is not 0")


def check_refuses_boards(backend: Backend) -> None:
    """``solutions`` and ``first_solution`` refuse with a one-line ``NQueensError``."""
    for ask in (lambda: list(backend.solutions(Instance(6))), lambda: backend.first_solution(Instance(6))):
        try:
            ask()
        except NQueensError as error:
            _require("\n" not in str(error) and bool(str(error)), f"{backend!r}: refusal is not one line: {error!r}")
        else:
            raise ContractViolation(f"{backend!r}: a count-only backend gave boards")


def check_count_only_completion(backend: Backend, examples: int = 12, seed: int = 0) -> None:
    """Pre-placed queens and blocked squares: the count of the brute-force set, for fixed and random boards."""
    full = (0, 4, 7, 5, 2, 6, 1, 3)
    fixed_cases = [Instance(8, {0: 0, 1: 1}), Instance(8, {0: 0, 3: 0}), Instance(8, dict(enumerate(full))),
                   Instance(8, dict(enumerate((0, 4, 7, 5, 2, 6, 3, 1)))), Instance(7, blocked=[(0, 1), (3, 3)])]
    rng = random.Random(seed)
    for _ in range(examples):
        n = rng.randint(1, 7)
        fixed = {rng.randrange(n): rng.randrange(n) for _ in range(rng.randint(0, 2))}
        blocked = [(rng.randrange(n), rng.randrange(n)) for _ in range(rng.randint(0, 3))]
        fixed_cases.append(Instance(n, fixed, blocked=blocked))
    for instance in fixed_cases:
        expected = len(reference_solutions(instance))
        got = backend.count(instance)
        _require(counts_agree(backend, got, expected), f"{backend!r}: count of {instance} is {got}, brute force {expected}")


def check_count_only_unique(backend: Backend, ns: range = range(1, 8)) -> None:
    """``unique`` counts OEIS A002562 (within the tolerance), or is refused with one line."""
    from nqueens_cp.core.oeis import A002562

    try:
        backend.count(Instance(6), unique=True)
    except NQueensError as error:
        _require("\n" not in str(error), f"{backend!r}: unique refusal is not one line")
        return
    for n in ns:
        got = backend.count(Instance(n), unique=True)
        _require(counts_agree(backend, got, A002562[n]), f"{backend!r}: unique count of n={n} is {got}, A002562 says {A002562[n]}")


#: The checks of a count-only backend.
COUNT_ONLY_CHECKS: tuple[Callable[[Backend], None], ...] = (
    check_count_only_counts, check_refuses_boards, check_count_only_completion, check_count_only_unique,
    check_model_size,
)


def run_contract(backend: Backend) -> None:
    """Run every check of ``CHECKS`` (``COUNT_ONLY_CHECKS`` for a count-only backend) on ``backend``;
    the first violation is raised."""
    for check in COUNT_ONLY_CHECKS if backend.counts_only() else CHECKS:
        check(backend)
