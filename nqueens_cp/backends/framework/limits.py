"""Bounds checked before anything is built: a model's estimated memory, a search's reach.

Every model's size is known in advance from the closed forms of :mod:`nqueens_cp.models.sizes`;
multiplied by the bytes a clause or a variable costs in Python and in the solver (measured,
``benchmarks/RESULTS.md``), it gives the memory a model will take: each model's module states its
estimate, and each backend declares the one of what it builds (``Backend.memory_estimate``). A
model over the budget (the backend's ``memory_budget_mb``, ``--max-model-mb``; by default a quarter
of this machine's memory, at most 4 GiB) is refused with one line that gives the estimate and what
to use instead. This module holds what is common to them all: the budget, the check and its
refusal, the time bounds, and what to use instead.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from nqueens_cp.core.errors import BackendOptionError, ModelTooLargeError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.problems import Problem
from nqueens_cp.models.cnf import cnf_memory
from nqueens_cp.models.encodings import Encoding
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize
from nqueens_cp.system.processes import physical_memory_mb

#: The largest board on which a row-order search is asked for a first solution: beyond it row
#: order walks into subtrees of billions of nodes (reports/first: row order times out from n = 64).
ROW_ORDER_FIRST_MAX_N = 32

_MAX_DEFAULT_MB = 4096


def default_budget_mb() -> float:
    """A quarter of the machine's physical memory, at most 4 GiB."""
    total = physical_memory_mb()
    return _MAX_DEFAULT_MB if total is None else min(total / 4, _MAX_DEFAULT_MB)


def check_budget(megabytes: float | None) -> float | None:
    """``megabytes`` as a memory budget for models (None: the default), or ``ModelTooLargeError``
    when it is not > 0."""
    if megabytes is not None and not megabytes > 0:
        raise ModelTooLargeError(f"the model budget must be > 0 MB, got {megabytes:g}")
    return megabytes


def budget_mb(megabytes: float | None = None) -> float:
    """The memory budget models are checked against: ``megabytes``, or the default for None."""
    return default_budget_mb() if megabytes is None else megabytes


def check_fits(estimate: ModelEstimate, *, backend: str, budget: float | None = None) -> None:
    """Raise ``ModelTooLargeError`` when ``estimate`` is over ``budget`` megabytes (None: the default)."""
    limit = budget_mb(budget)
    if estimate.megabytes > limit:
        raise ModelTooLargeError(
            f"{backend}: the {estimate.what} would take about {estimate.megabytes:,.0f} MB "
            f"({estimate.size.variables:,} variables, {estimate.size.constraints:,} {estimate.size.unit}), over the "
            f"{limit:,.0f} MB limit (memory_budget_mb); {estimate.instead}"
        )


#: The largest board on which each backend, with its default options, finds a first solution
#: within a minute on 2 shared cores (``benchmarks/bench_largest_boards.py``; benchmarks/RESULTS.md,
#: "Every backend at its largest board": the largest size answered of those tried, a run being
#: stopped after 75 s of wall time on a loaded machine, 12 to 30 s of CPU). A larger board is
#: refused with one line naming what answers there, unless the backend is given a time limit
#: (option ``time_limit``): it then stops at that limit with a line saying so. Backends not named
#: here answer every board they accept.
FIRST_SOLUTION_MAX_N: dict[str, int] = {
    "backtrack": 20_000,  # 13 s CPU (n = 30,000: none in 17 s)
    "cpsat": 256,  # 16 s CPU (n = 500: none in 18 s; n = 1,000: none in 10 minutes)
    "sat": 100,  # 5.5 s CPU (n = 150: none in 16 s)
    "minizinc": 150,  # 2.6 s CPU, 15 s wall (n = 500: none in 75 s wall)
    "choco": 1_000,  # 12 s CPU (n = 3,000: none in 15 s)
    "xcsp3": 100,  # 31 s wall (n = 300: none in 75 s; n = 3,000: ACE answered "no solution", wrongly)
    "cpmpy": 128,  # 3.1 s CPU (n = 256: none in 13 s CPU)
    "asp": 200,  # 2.1 s CPU, 14 s wall (n = 500: none in 13 s CPU)
    "pb": 400,  # 9.8 s CPU (n = 1,158: none in 13 s CPU)
    "smt": 300,  # 9.3 s CPU (n = 846: none in 17 s CPU)
    "mip": 300,  # 12 s CPU (n = 1,036: none in 16 s CPU)
    "localsearch": 50_000_000,  # 16 s CPU (n = 10^8: 29 s on a quieter machine, none in 39 s CPU here)
    "construction": 100_000_000,  # 11 s CPU
}

#: Options with which a backend's first solution is not held to its bound above (its memory bounds
#: still hold): CP-SAT's local search on the Boolean model answers n = 1,000 (docs/solving.md).
UNBOUNDED_WITH: dict[str, dict[str, object]] = {"cpsat": {"strategy": "localsearch"}}

#: The largest board each counting-only backend counts within a minute (same measure); ``bdd``
#: counts n = 13 in 42 s CPU, its own memory bound (``BDD_MAX_N``).
COUNT_MAX_N: dict[str, int] = {
    "ganak": 10,  # 11 s CPU (n = 11: none in 19 s)
    "approxmc": 12,  # 34 s CPU
}


def answering_backends(n: int, *, empty: bool = True, but: str = "") -> str:
    """What answers a first solution of a board of n rows (of backtrack's first-fail search, local
    search and, for an ``empty`` board, the construction; not ``but``), in API words:
    ``backend "A" or "B"``."""
    names = [name for name in ("backtrack", "localsearch", "construction")
             if name != but and n <= FIRST_SOLUTION_MAX_N.get(name, n) and (empty or name != "construction")]
    if not names:
        return f"a smaller board (none of the backends answers n = {n:,} within a minute)"
    quoted = [f'"{name}"' for name in names]
    return "backend " + (f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0])


def is_empty(instance: Instance) -> bool:
    """Whether ``instance`` is the empty board (no pre-placed queen, no blocked square)."""
    return not (instance.fixed or instance.blocked)


def one_solution_instead(instance: Instance) -> str:
    """What answers a first solution of ``instance`` instead of a model too large: ``for one solution use ...``."""
    return f"for one solution use {answering_backends(instance.n, empty=is_empty(instance))}"


def with_advice(estimate: ModelEstimate, instance: Instance, smaller: str | None) -> ModelEstimate:
    """``estimate`` saying what to use instead when it does not fit: ``smaller`` (a leaner option of
    the same backend) when there is one, else the backends that answer one solution."""
    return replace(estimate, instead=smaller or one_solution_instead(instance))


def first_solution_bound(backend: str, options: Mapping[str, object]) -> int | None:
    """``FIRST_SOLUTION_MAX_N[backend]``, or None when ``options`` lift it (a time limit, or
    :data:`UNBOUNDED_WITH`)."""
    farther = UNBOUNDED_WITH.get(backend)
    if options.get("time_limit") or (farther and all(options.get(key) == value for key, value in farther.items())):
        return None
    return FIRST_SOLUTION_MAX_N.get(backend)


def refuse_slow_first(instance: Instance, backend: str, options: Mapping[str, object]) -> None:
    """Raise ``ModelTooLargeError`` for a first solution of more free rows (rows without a pre-placed
    queen: a completion's model is built over those) than the backend's bound with ``options``
    (:func:`first_solution_bound`)."""
    bound = first_solution_bound(backend, options)
    free = instance.n - len(instance.fixed)
    if bound is None or free <= bound:
        return
    limit = ", or give it option time_limit=SECONDS, at which it stops" if "time_limit" in options else ""
    rows = f"n = {instance.n:,}" if free == instance.n else f"n = {instance.n:,}, {free:,} free rows"
    raise ModelTooLargeError(
        f"{backend} finds no first solution of n > {bound:,} within a minute ({rows}); "
        f"use {answering_backends(free, empty=is_empty(instance), but=backend)}{limit}"
    )


#: The largest board whose optimum the default solver of each family problem proves within about a
#: minute on 2 cores (``benchmarks/bench_family.py --limit 20``, under load 3-5: domination n = 10 by
#: HiGHS in 17 s, independent domination n = 9 in 20 s, colouring n = 7 in 0.3 s and n = 8 not in
#: 20 s, peaceable armies n = 7 in 23-31 s). Beyond it a solver without a time limit is refused.
FAMILY_OPTIMUM_MAX_N: dict[Problem, int] = {
    Problem.DOMINATION: 10, Problem.INDEPENDENT_DOMINATION: 9, Problem.COLOURING: 7, Problem.PEACEABLE: 7,
}


def refuse_slow_optimum(problem: Problem, n: int, backend: str, options: Mapping[str, object]) -> None:
    """Raise ``ModelTooLargeError`` for an optimum of ``problem`` beyond :data:`FAMILY_OPTIMUM_MAX_N`
    asked of a solver with no time limit (it would search for minutes or hours)."""
    bound = FAMILY_OPTIMUM_MAX_N.get(problem)
    if bound is None or n <= bound or options.get("time_limit"):
        return
    raise ModelTooLargeError(
        f"{backend} proves no optimum of {problem.value} beyond n = {bound} within a minute (n = {n}); "
        + ("give it option time_limit=SECONDS for the best it finds by then, with the bound it proved"
           if "time_limit" in options else
           "it takes no time limit: use --backend cpsat or mip with --time-limit SECONDS for the best found by then")
    )


#: The largest board on which each search finds a first placement of a family problem within about
#: a minute on 2 cores, where the bitboard backend's constructions do not answer for it (toroidal
#: queens: any n; superqueens: n not 2 or 3 mod 6, :mod:`nqueens_cp.searches.family`). Measured
#: 2026-12-05 at load 1-2.8, 45 s per run (``solve N --problem P --backend B`` over sizes that about
#: double; a bound is the last size answered before the first that was not): bitboard's row search
#: n = 29 in 9 s, 30 in 32 s, 32 not in 100 s; CP-SAT's superqueens n = 453 in 28 s (1.9 GB), 495 in
#: 43 s, 501 in 35 s, 560 in 46 s, but 561 not in 150 s (3.7 GB); the rest in ``benchmarks/RESULTS.md``
#: ("First placements of the family").
FAMILY_PLACEMENT_MAX_N: dict[tuple[str, Problem], int] = {
    **{(backend, Problem.SUPERQUEENS): bound for backend, bound in {
        "bitboard": 30, "cpsat": 500, "sat": 160, "asp": 512, "smt": 256, "minizinc": 512, "mip": 160, "pb": 512,
        "choco": 200, "cpmpy": 256}.items()},
    **{(backend, Problem.TOROIDAL): bound for backend, bound in {
        "cpsat": 37, "sat": 37, "asp": 37, "smt": 37, "minizinc": 25, "mip": 37, "pb": 25, "choco": 37,
        "cpmpy": 37}.items()},
}
#: The largest n sharing a factor with 6 for which each search proves, within about a minute, that
#: no toroidal placement exists (the same runs, over n = 12, 18, 24, 36).
TOROIDAL_NONE_MAX_N: dict[str, int] = {
    "cpsat": 12, "sat": 12, "asp": 18, "smt": 12, "minizinc": 12, "mip": 24, "pb": 12, "choco": 12, "cpmpy": 12,
}


def refuse_slow_placement(problem: Problem, n: int, backend: str, options: Mapping[str, object]) -> None:
    """Raise ``ModelTooLargeError`` for a first placement of ``problem`` beyond
    :data:`FAMILY_PLACEMENT_MAX_N` (or, for a torus without one, :data:`TOROIDAL_NONE_MAX_N`)
    asked of a search with no time limit, naming what answers instead."""
    from nqueens_cp.searches.family import superqueens_constructible, toroidal_placements_exist

    if problem not in (Problem.TOROIDAL, Problem.SUPERQUEENS) or options.get("time_limit"):
        return
    limit = ", or give it --time-limit SECONDS, at which it stops" if "time_limit" in options else ""
    if problem is Problem.TOROIDAL:  # bitboard has no bound here: its construction and Polya answer any n
        exists = toroidal_placements_exist(n)
        bound = FAMILY_PLACEMENT_MAX_N.get((backend, problem)) if exists else TOROIDAL_NONE_MAX_N.get(backend)
        if bound is None or n <= bound:
            return
        what = (f"finds no toroidal placement of n > {bound}" if exists else
                f"proves no toroidal board of n > {bound} empty of placements (n shares a factor with 6)")
        raise ModelTooLargeError(
            f"{backend} {what} within a minute (n = {n:,}); use --backend bitboard (it constructs one "
            f"where n is coprime to 6 and answers the rest by Polya's theorem){limit}"
        )
    bound = FAMILY_PLACEMENT_MAX_N.get((backend, problem))
    constructed = superqueens_constructible(n)
    if bound is None or n <= bound or (backend == "bitboard" and constructed):
        return
    if constructed:
        instead = "use --backend bitboard: it constructs one for this n (n not 2 or 3 mod 6)"
    elif n <= FAMILY_PLACEMENT_MAX_N[("cpsat", problem)]:
        instead = "use --backend cpsat"
    else:
        instead = "no backend here finds one within a minute"
        limit = limit or "; give cpsat --time-limit SECONDS to try"
    raise ModelTooLargeError(
        f"{backend} finds no placement of {problem.value} of n > {bound} within a minute (n = {n:,}); {instead}{limit}"
    )


def family_estimate(problem: Problem, n: int) -> ModelEstimate:
    """The memory of the family model of ``problem`` on the n x n board (the 0-1 program's terms,
    which bound every paradigm's translation of it), saying what to do when it does not fit."""
    from nqueens_cp.models.family import family_memory  # not on the classic problem's way

    return replace(family_memory(problem, n), instead="use a smaller board")


def refuse_classic_time_limit(backend: str, options: Mapping[str, object]) -> None:
    """Raise ``BackendOptionError`` when ``options`` give a time limit to a backend whose time limit
    bounds a family problem's search only (the classic searches would not honour it)."""
    if options.get("time_limit") is not None:
        raise BackendOptionError(f"{backend}: option time_limit bounds a family problem's search (--problem P); "
                                 "its classic searches take none (use backend cpsat, choco or cpmpy with a time limit)")


def refuse_slow_count(instance: Instance, backend: str) -> None:
    """Raise ``ModelTooLargeError`` for a count of more free rows than ``COUNT_MAX_N[backend]``
    (the rows without a pre-placed queen: a split run's sub-problems have few)."""
    bound = COUNT_MAX_N.get(backend)
    free = instance.n - len(instance.fixed)
    if bound is not None and free > bound:
        raise ModelTooLargeError(
            f"{backend} counts no board of more than {bound} free rows within a minute (n = {instance.n:,}, "
            f"{free:,} free); "
            'use backend "bitboard" (it counts n = 17 in about 10 s)'
        )


def refuse_row_order_first(instance: Instance, backend: str) -> None:
    """Raise ``ModelTooLargeError`` for a row-order first-solution search on a board too large for it."""
    if instance.n > ROW_ORDER_FIRST_MAX_N:
        raise ModelTooLargeError(
            f"{backend} searches rows in order, which finds no first solution of n > {ROW_ORDER_FIRST_MAX_N} "
            f"in reasonable time (n = {instance.n}); use {'option search=firstfail, or ' if backend.startswith('backtrack') else ''}"
            f"{answering_backends(instance.n, empty=is_empty(instance), but=backend.split()[0])}"
        )


#: Bytes per row of a solution handed over as a tuple: the tuple's pointer and its int object
#: (columns above 256 are objects of their own), plus the list ``tolist`` makes on the way.
BYTES_PER_TUPLE_ROW = 8 + 28 + 8
#: Bytes per row of the numpy working space around a linear-time search (the free row and column
#: lists, the output slices): a margin. ``nqueens-cp solve 100000000`` peaked at 2,491,732 KB,
#: about 25 bytes a row all told, under the swap search's 18 + 8 estimated.
BYTES_PER_ROW_OVERHEAD = 8


def linear_estimate(what: str, n: int, bytes_per_row: int, *, as_tuple: bool, instead: str) -> ModelEstimate:
    """The memory of a linear-time search or construction of an n x n board (``bytes_per_row`` of
    arrays), plus the tuple of the answer when ``as_tuple`` (the Python API; the command line
    streams the array instead)."""
    per_row = bytes_per_row + BYTES_PER_ROW_OVERHEAD + (BYTES_PER_TUPLE_ROW if as_tuple else 0)
    return ModelEstimate(f"{what} of n = {n:,}", ModelSize(n, 3, "line counts"), n * per_row / MEGABYTE, instead)


def cnf_estimate(instance: Instance, encoding: Encoding | str) -> ModelEstimate:
    """The memory of the CNF of ``instance`` with ``encoding`` (the ``sat``, ``ganak`` and ``approxmc``
    backends build it), with what to use when it does not fit."""
    if Encoding.parse(encoding) is Encoding.PAIRWISE:
        answering = answering_backends(instance.n, empty=is_empty(instance))
        instead = f"use option encoding={Encoding.SEQCOUNTER} (O(n²) clauses), or for one solution {answering}"
    else:
        instead = one_solution_instead(instance)
    return replace(cnf_memory(instance, encoding), instead=instead)
