"""The local search driver: an instance in, a solution's columns out, or the bound reached.

The searches themselves are the numba kernels of :mod:`~nqueens_cp.searches.localsearch_kernel`
(Sosic and Gu's swap search, Minton et al.'s min-conflicts); this module lays the instance out in
int32 arrays, runs restart after restart (each from a fresh seed of the same seeded sequence), and
checks the step and time bounds between bounded slices of kernel work. Local search proves
nothing: when the bound is reached the outcome says so (``reason``), never "no solution"; only
what is certain without search (pre-placed queens that attack each other, a row with every square
blocked, n = 2 or 3) is reported as no solution.

Memory, allocated once per run and reused by every restart: the placement (4 bytes per row), the
list of free rows when there are pre-placed queens (4 bytes per row), the two diagonal counts
(2 bytes per row for the swap search's uint8 counts, 8 with int32 counts, which min-conflicts
uses and the swap search falls back to if its start brings a line to 255 queens), for min-conflicts the
column counts (4 bytes per row), and a queue of at most ``QUEUE_MAX`` attacked rows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from nqueens_cp.core.instance import Instance
from nqueens_cp.searches import localsearch_kernel as kernel

if TYPE_CHECKING:
    import numpy.typing as npt

#: The local search methods.
METHODS = ("swap", "minconflicts")
#: Rows of the greedy start per kernel call, and repair attempts per call, between bound checks.
SLICE = 1 << 20
#: The most attacked rows queued at once (more are found by the next re-scan).
QUEUE_MAX = 1 << 20
#: The most queens a line may reach with the swap search's uint8 counts (a test lowers it to try
#: the fallback to int32 counts).
UINT8_MAX_COUNT = kernel.UINT8_MAX_COUNT

#: Bytes per board row the arrays of each method take at most (see the module docstring): the
#: placement, the free rows, int32 diagonal counts (a fallback of the swap search) and columns.
BYTES_PER_ROW = {"swap": 4 + 4 + 8 + 2, "minconflicts": 4 + 4 + 8 + 4}


def default_max_steps(n: int, method: str) -> int:
    """Repair attempts per restart by default: enough for the few collisions of a large board's
    greedy start many times over, few enough that a small board stuck in a local minimum restarts
    soon."""
    return 1000 + (100 * n if method == "swap" else 20 * n)


@dataclass(frozen=True)
class LocalSearchOutcome:
    """What a local search ended with: ``columns`` (``columns[row] == col``) when it found a
    solution, else None and ``reason`` saying why (a proof of none, or the bound reached)."""

    columns: npt.NDArray[np.int32] | None
    #: ``"found"``, ``"none"`` (proved without search: ``reason`` says how) or ``"bound"``.
    status: str
    reason: str
    restarts: int
    steps: int


def certainly_unsolvable(instance: Instance) -> str | None:
    """Why ``instance`` has no solution when that is certain without search, else None."""
    n = instance.n
    if n in (2, 3):
        return f"n = {n} has no solution (A000170)"
    if not instance.fixed_are_consistent():
        return "the pre-placed queens attack each other or stand on blocked squares"
    fixed_rows = {row for row, _ in instance.fixed}
    per_row: dict[int, int] = {}
    for row, _ in instance.blocked:
        if row not in fixed_rows:
            per_row[row] = per_row.get(row, 0) + 1
    full = [row for row, count in per_row.items() if count == n]
    if full:
        return f"every square of row {min(full)} is blocked"
    return None


def _blocked_layout(n: int, blocked: tuple[tuple[int, int], ...]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """The blocked squares by row: ``columns[starts[row]:starts[row + 1]]`` (empty arrays when none)."""
    if not blocked:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int32)
    squares = np.asarray(blocked, dtype=np.int64)
    starts = np.zeros(n + 1, dtype=np.int64)
    np.add.at(starts, squares[:, 0] + 1, 1)
    return np.cumsum(starts), squares[:, 1].astype(np.int32)


def local_search(
    instance: Instance, *, method: str = "swap", seed: int = 0, restarts: int = 100,
    max_steps: int | None = None, time_limit: float | None = None,
) -> LocalSearchOutcome:
    """One solution of ``instance`` by ``method``, from up to ``1 + restarts`` starts of at most
    ``max_steps`` repair attempts each, within ``time_limit`` seconds (checked between slices)."""
    if method not in METHODS:
        raise ValueError(f"unknown local search method {method!r}")
    started = time.monotonic()
    n = instance.n
    impossible = certainly_unsolvable(instance)
    if impossible is not None:
        return LocalSearchOutcome(None, "none", impossible, 0, 0)
    if n == 0:
        return LocalSearchOutcome(np.zeros(0, dtype=np.int32), "found", "", 0, 0)
    steps_per_start = default_max_steps(n, method) if max_steps is None else max_steps
    fixed = np.asarray(instance.fixed, dtype=np.int32).reshape(-1, 2)
    fixed_rows, fixed_cols = fixed[:, 0].copy(), fixed[:, 1].copy()
    if len(fixed):
        is_free = np.ones(n, dtype=np.bool_)
        is_free[fixed_rows] = False
        free = np.flatnonzero(is_free).astype(np.int32)
        is_free.fill(True)
        is_free[fixed_cols] = False
        free_columns = np.flatnonzero(is_free).astype(np.int32)
        del is_free
    else:  # every row is free: an empty ``free`` means row k is free row k
        free = np.zeros(0, dtype=np.int32)
    m = n - len(fixed)
    # the swap search starts from the identity permutation of the free columns
    cols = np.arange(m, dtype=np.int32) if method == "swap" and not len(fixed) else np.zeros(m, dtype=np.int32)
    starts, blocked = _blocked_layout(n, instance.blocked)
    # uint8 line counts for the swap search (a quarter of the memory, and of the cache misses) unless
    # a start brings a line to UINT8_MAX_COUNT queens; int32 for min-conflicts.
    count_type: type = np.uint8 if method == "swap" else np.int32
    up: kernel.CountArray = np.zeros(2 * n - 1, dtype=count_type)
    down: kernel.CountArray = np.zeros(2 * n - 1, dtype=count_type)
    colcount = np.zeros(n if method == "minconflicts" else 0, dtype=np.int32)
    queue = np.zeros(max(1, min(m, QUEUE_MAX)), dtype=np.int32)
    total_steps = 0

    def out_of_time() -> bool:
        return time_limit is not None and time.monotonic() - started > time_limit

    restart = 0
    fresh_columns = True
    while restart <= restarts:
        state = kernel.seed_state(seed, restart)
        stats = np.zeros(kernel.STATS_SIZE, dtype=np.int64)
        up.fill(0)
        down.fill(0)
        colcount.fill(0)
        if len(fixed):  # (left out when there is none: one compiled function fewer to load)
            kernel.place_fixed(n, fixed_rows, fixed_cols, up, down, colcount, starts, blocked, stats)
        if method == "swap":
            if len(fixed):
                cols[:] = free_columns
            elif not fresh_columns:  # the first start has them from the allocation
                cols[:] = np.arange(m, dtype=np.int32)
            fresh_columns = False
        limit = UINT8_MAX_COUNT if up.dtype == np.uint8 else np.iinfo(np.int32).max
        for first in range(0, m, SLICE):
            last = min(m, first + SLICE)
            if method == "swap":
                kernel.swap_init_rows(n, cols, free, first, last, up, down, starts, blocked, queue, state, stats,
                                      limit)
            else:
                kernel.minconflicts_init_rows(n, cols, free, first, last, up, down, colcount, starts, blocked,
                                              queue, state, stats)
            if stats[kernel.OVERFLOW] == kernel.COUNTS_TOO_SMALL or out_of_time():
                break
        if stats[kernel.OVERFLOW] == kernel.COUNTS_TOO_SMALL:  # the same start again, with int32 counts
            up = np.zeros(2 * n - 1, dtype=np.int32)
            down = np.zeros(2 * n - 1, dtype=np.int32)
            continue
        if out_of_time():
            return _bound(restart, total_steps, time_limit)
        while stats[kernel.COLLISIONS] > 0 and stats[kernel.STEPS] < steps_per_start:
            if stats[kernel.QUEUED] == 0:
                if not stats[kernel.OVERFLOW]:
                    raise AssertionError("local search: collisions left with no attacked queen queued")
                kernel.queue_attacked(n, cols, free, up, down, colcount, starts, blocked, queue, stats)
            attempts = min(SLICE, steps_per_start - int(stats[kernel.STEPS]))
            if method == "swap":
                kernel.swap_repair(n, cols, free, up, down, starts, blocked, queue, state, stats, attempts, limit)
            else:
                kernel.minconflicts_repair(n, cols, free, up, down, colcount, starts, blocked, queue, state,
                                           stats, attempts)
            if stats[kernel.COLLISIONS] > 0 and out_of_time():
                return _bound(restart, total_steps + int(stats[kernel.STEPS]), time_limit)
        total_steps += int(stats[kernel.STEPS])
        if stats[kernel.COLLISIONS] == 0:
            return LocalSearchOutcome(_board(n, cols, free, fixed_rows, fixed_cols), "found", "", restart,
                                      total_steps)
        restart += 1
    return LocalSearchOutcome(
        None, "bound", f"{restarts + 1} starts of at most {steps_per_start:,} repair steps each", restarts,
        total_steps,
    )


def _board(n: int, cols: npt.NDArray[np.int32], free: npt.NDArray[np.int32], fixed_rows: npt.NDArray[np.int32],
           fixed_cols: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """The full board (``board[row] == col``) from the free rows' columns and the pre-placed queens."""
    if len(free) == 0 and len(fixed_rows) == 0:
        return cols
    board = np.empty(n, dtype=np.int32)
    board[free] = cols
    board[fixed_rows] = fixed_cols
    return board


def _bound(restart: int, steps: int, time_limit: float | None) -> LocalSearchOutcome:
    return LocalSearchOutcome(None, "bound", f"the time limit of {time_limit:g} s", restart, steps)
