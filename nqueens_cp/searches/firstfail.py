"""First-fail search: a complete depth-first search that scales to boards of a thousand rows.

It is the ``search=firstfail`` option of the ``backtrack`` backend. Three ideas, each classic:

* **Forward checking with counts.** For every unassigned row the search keeps how many of its
  squares are still free (column and both diagonals unused). Placing a queen on (r, c) can take
  at most three squares from another row r2, at distance k = |r2 - r|: (r2, c), (r2, c - k) and
  (r2, c + k). So one placement costs O(n) and needs no trail: undoing it re-marks the lines
  free and adds back exactly the squares that are free again. A row left with no free square
  is a dead end found at once, not n rows later.
* **Most constrained row first** (first-fail, "minimum remaining values"): the next row is an
  unassigned row with the fewest free squares; rows with one square left are filled at once.
* **Middle-out values**: a row's free columns are tried from the centre of the board outwards,
  where a queen leaves the most room on the diagonals of the remaining rows.

The search is exhaustive (it enumerates every solution once, and proves "no solution" when there
is none), iterative (no recursion limit at n = 1024) and honours pre-placed queens. For the empty
board it finds a first solution for every n up to 1024 with little or no backtracking.
"""

from __future__ import annotations

import random
from typing import Any, Iterator, Sequence

from ..instance import Instance, Solution


def middle_out(n: int) -> list[int]:
    """The columns 0..n-1 ordered from the centre outwards (ties: the left one first)."""
    return sorted(range(n), key=lambda c: (abs(2 * c - (n - 1)), c))


class _BudgetExhausted(Exception):
    """Internal: a restart's node budget ran out."""


def firstfail_solutions(instance: Instance, *, first_row_max: int | None = None) -> Iterator[Solution]:
    """Every solution of ``instance``, found by first-fail search (see the module docstring).

    ``first_row_max`` (used for symmetry breaking) limits row 0 to columns ``<= first_row_max``.
    Deterministic: ties between equally constrained rows go to the row nearer the middle.
    """
    return _search(instance, first_row_max, middle_out(instance.n), None)


def firstfail_first(
    instance: Instance, *, seed: int = 0, first_row_max: int | None = None
) -> Solution | None:
    """One solution of ``instance`` (None when there is none), by first-fail search with restarts.

    Backtracking search on N-Queens has heavy-tailed run times: for a few n the deterministic
    order walks into a huge fruitless subtree. So the search runs with a budget of placements;
    when the budget runs out it restarts with the budget doubled and the tie-break between
    equally constrained rows reshuffled (``random.Random(seed)``: reproducible). Budgets grow
    without bound, so the search stays complete: it proves "no solution" when there is none.
    """
    n = instance.n
    rng = random.Random(seed)
    priority = middle_out(n)
    budget = 4 * n + 64
    while True:
        try:
            return next(_search(instance, first_row_max, priority, budget), None)
        except _BudgetExhausted:
            budget *= 2
            noise = [rng.random() * n / 4 for _ in range(n)]
            priority = sorted(range(n), key=lambda r: abs(2 * r - (n - 1)) / 2 + noise[r])


#: From this board size on, the counts of free squares are updated with numpy, a whole board's
#: rows at once, instead of a Python loop over them (the same rule; equal results, tested).
VECTORIZE_FROM = 200


def _middle_out_columns(free: int, last: int) -> Iterator[int]:
    """The columns set in ``free``, from the centre of the board outwards (ties: the left one first)."""
    middle = last // 2  # columns 0..middle are the left half (2c <= last)
    left, right = free & ((2 << middle) - 1), free >> (middle + 1)
    while left or right:
        col_left = left.bit_length() - 1  # the left half's column nearest the centre, or -1
        col_right = middle + 1 + ((right & -right).bit_length() - 1) if right else -1
        if col_right < 0 or (col_left >= 0 and last - 2 * col_left <= 2 * col_right - last):
            left ^= 1 << col_left
            yield col_left
        else:
            right ^= 1 << (col_right - middle - 1)
            yield col_right


def _search(
    instance: Instance, first_row_max: int | None, priority: Sequence[int], budget: int | None
) -> Iterator[Solution]:
    """The search itself: rows tie-broken in ``priority`` order, at most ``budget`` placements."""
    n = instance.n
    if n == 0:
        yield ()
        return
    if not instance.fixed_are_consistent():
        return
    vectorized = n >= VECTORIZE_FROM
    if vectorized:
        import numpy as np

        col_used: Any = np.zeros(n, bool)
        up_used: Any = np.zeros(2 * n - 1, bool)  # r + c
        down_used: Any = np.zeros(2 * n - 1, bool)  # r - c + n - 1
        size: Any = np.full(n, n, np.int64)  # free squares per unassigned row
        is_free: Any = np.ones(n, bool)
    else:
        col_used = [False] * n
        up_used = [False] * (2 * n - 1)
        down_used = [False] * (2 * n - 1)
        size = [n] * n
    cols = [-1] * n
    free_rows: list[int] = list(range(n))  # unassigned rows (order irrelevant)
    where = list(range(n))  # where[r]: index of r in free_rows while r is unassigned
    last = n - 1
    rank = [0] * (n + 1)  # ties go to the lower rank; rank[n] is the sentinel for "no row yet"
    for position, r in enumerate(priority):
        rank[r] = position
    placements = 0
    rank[n] = n
    if vectorized:
        rank_array = np.asarray(rank[:n], np.int64)
    if first_row_max is not None:
        size[0] = min(n, first_row_max + 1)

    restricted = first_row_max is not None
    row0_limit = n - 1 if first_row_max is None else first_row_max
    full = (1 << n) - 1
    # The same lines as bit masks, to list a row's free columns quickly: bit c of col_mask,
    # bit r + c of up_mask, bit c - r + n - 1 of down_mask.
    masks = [0, 0, 0]

    def allowed(r: int, c: int) -> bool:
        return not (col_used[c] or up_used[r + c] or down_used[r - c + last]) and (r != 0 or c <= row0_limit)

    def take(r: int) -> None:
        i, j = where[r], len(free_rows) - 1
        other = free_rows[j]
        free_rows[i], where[other] = other, i
        free_rows.pop()
        if vectorized:
            is_free[r] = False

    def give_back(r: int) -> None:
        where[r] = len(free_rows)
        free_rows.append(r)
        if vectorized:
            is_free[r] = True

    def row0_loss(r: int, c: int) -> int:
        """The squares (r, c) takes from row 0 when row 0 may only use columns <= row0_limit."""
        k = r if r > 0 else -r
        return sum(1 for x in {c, c + k, c - k} if 0 <= x <= row0_limit and allowed(0, x))

    def adjust(r: int, c: int, sign: int) -> int:
        """Change each free row's count by ``sign`` per square (r, c) blocks; return the most constrained row.

        The squares counted are those free when (r, c)'s lines are unused: call it before
        marking them (sign -1) or after un-marking them (sign +1). Returns -1 when no row is left.
        """
        best, best_size = n, n + 1
        cu, uu, du, sz = col_used, up_used, down_used, size
        for r2 in free_rows:
            k = r2 - r if r2 > r else r - r2
            lost = 0 if uu[r2 + c] or du[r2 - c + last] else 1
            x = c + k
            if x < n and not (cu[x] or uu[r2 + x] or du[r2 - x + last]):
                lost += 1
            x = c - k
            if x >= 0 and not (cu[x] or uu[r2 + x] or du[r2 - x + last]):
                lost += 1
            if restricted and r2 == 0:
                lost = row0_loss(r, c)
            s = sz[r2] + sign * lost
            sz[r2] = s
            if s < best_size or (s == best_size and rank[r2] < rank[best]):
                best, best_size = r2, s
        return -1 if best == n else best

    def adjust_vectorized(r: int, c: int, sign: int) -> int:
        """:func:`adjust` for every free row at once, with numpy."""
        rows = np.flatnonzero(is_free)
        if rows.size == 0:
            return -1
        k = np.abs(rows - r)
        lost = ~(up_used[rows + c] | down_used[rows - c + last])
        for x in (c + k, c - k):
            inside = (x >= 0) & (x < n)
            x = np.where(inside, x, 0)
            lost = lost.astype(np.int64) + (inside & ~(col_used[x] | up_used[rows + x] | down_used[rows - x + last]))
        if restricted and is_free[0]:
            lost[np.searchsorted(rows, 0)] = row0_loss(r, c)
        size[rows] += sign * lost
        return int(rows[np.argmin(size[rows] * (n + 1) + rank_array[rows])])

    if vectorized:
        adjust = adjust_vectorized

    def mark(r: int, c: int, value: bool) -> None:
        col_used[c] = value
        up_used[r + c] = value
        down_used[r - c + last] = value
        masks[0] ^= 1 << c
        masks[1] ^= 1 << (r + c)
        masks[2] ^= 1 << (c - r + last)

    def place(r: int, c: int) -> int:
        nonlocal placements
        placements += 1
        if budget is not None and placements > budget:
            raise _BudgetExhausted
        take(r)
        best = adjust(r, c, -1)
        mark(r, c, True)
        cols[r] = c
        return best

    def unplace(r: int) -> None:
        c = cols[r]
        cols[r] = -1
        mark(r, c, False)
        adjust(r, c, +1)
        give_back(r)

    def candidates(r: int) -> Iterator[int]:
        """Row r's free columns, middle-out. Lazy: whenever the search asks for the next one, the
        board above this level is as it was when the level was opened, so the free set stays valid."""
        free = full & ~(masks[0] | (masks[1] >> r) | (masks[2] >> (last - r)))
        if r == 0:
            free &= (1 << (row0_limit + 1)) - 1
        return _middle_out_columns(free, last)

    # Pre-placed queens are placed for good before the search starts.
    best = -1
    for r, c in instance.fixed:
        if not allowed(r, c):
            return
        best = place(r, c)
    if not free_rows:
        yield tuple(cols)
        return
    if best < 0:
        best = min(free_rows, key=lambda r: size[r])
    # The search stack, as parallel lists: per level the row and the iterator over its candidate
    # columns (the one on the board, if any, was the last it gave).
    stack_rows = [best]
    stack_cands = [candidates(best)]
    placed_top = False  # whether the top level's queen is on the board
    while stack_rows:
        row = stack_rows[-1]
        if placed_top:
            unplace(row)
            placed_top = False
        col = next(stack_cands[-1], -1)
        if col < 0:
            stack_rows.pop()
            stack_cands.pop()
            placed_top = bool(stack_rows)  # the parent level's queen is still on the board
            continue
        best = place(row, col)
        placed_top = True
        if best < 0:
            yield tuple(cols)
        elif size[best] > 0:
            stack_rows.append(best)
            stack_cands.append(candidates(best))
            placed_top = False
