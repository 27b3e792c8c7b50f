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

from nqueens_cp.core.instance import Instance, Solution


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


class _Counts:
    """The used lines and, per unassigned row, its count of free squares, in Python lists.

    One of the search's two strategies for the same rule (the other is :class:`_ArrayCounts`):
    :meth:`adjust` changes each free row's count by the squares a queen on (r, c) blocks.
    """

    def __init__(self, search: _FirstFail) -> None:
        n = search.n
        self.search = search
        self.col_used: Any = [False] * n
        self.up_used: Any = [False] * (2 * n - 1)  # r + c
        self.down_used: Any = [False] * (2 * n - 1)  # r - c + n - 1
        self.size: Any = [n] * n  # free squares per unassigned row

    def taken(self, r: int) -> None:
        """Row ``r`` left the unassigned rows."""

    def given_back(self, r: int) -> None:
        """Row ``r`` is unassigned again."""

    def adjust(self, r: int, c: int, sign: int) -> int:
        """Change each free row's count by ``sign`` per square (r, c) blocks; return the most constrained row.

        The squares counted are those free when (r, c)'s lines are unused: call it before
        marking them (sign -1) or after un-marking them (sign +1). Returns -1 when no row is left.
        """
        search = self.search
        n, last, rank, restricted = search.n, search.last, search.rank, search.restricted
        best, best_size = n, n + 1
        cu, uu, du, sz = self.col_used, self.up_used, self.down_used, self.size
        bm = search.blocked_mask
        for r2 in search.free_rows:
            k = r2 - r if r2 > r else r - r2
            gone = bm[r2]
            lost = 0 if uu[r2 + c] or du[r2 - c + last] or gone >> c & 1 else 1
            x = c + k
            if x < n and not (cu[x] or uu[r2 + x] or du[r2 - x + last] or gone >> x & 1):
                lost += 1
            x = c - k
            if x >= 0 and not (cu[x] or uu[r2 + x] or du[r2 - x + last] or gone >> x & 1):
                lost += 1
            if restricted and r2 == 0:
                lost = search.row0_loss(r, c)
            s = sz[r2] + sign * lost
            sz[r2] = s
            if s < best_size or (s == best_size and rank[r2] < rank[best]):
                best, best_size = r2, s
        return -1 if best == n else best


class _ArrayCounts(_Counts):
    """:class:`_Counts` in numpy arrays, every free row adjusted at once (boards from ``VECTORIZE_FROM``)."""

    def __init__(self, search: _FirstFail) -> None:
        import numpy as np

        self.np = np
        n = search.n
        self.search = search
        self.col_used = np.zeros(n, bool)
        self.up_used = np.zeros(2 * n - 1, bool)
        self.down_used = np.zeros(2 * n - 1, bool)
        self.size = np.full(n, n, np.int64)
        self.is_free: Any = np.ones(n, bool)
        self.blocked_grid: Any = None
        if search.instance.blocked:
            self.blocked_grid = np.zeros((n, n), bool)
            self.blocked_grid[tuple(np.asarray(search.instance.blocked).T)] = True
        self.rank: Any = None  # set once the search's ranks are known

    def taken(self, r: int) -> None:
        self.is_free[r] = False

    def given_back(self, r: int) -> None:
        self.is_free[r] = True

    def adjust(self, r: int, c: int, sign: int) -> int:
        np, search = self.np, self.search
        n, last = search.n, search.last
        if self.rank is None:
            self.rank = np.asarray(search.rank[:n], np.int64)
        rows = np.flatnonzero(self.is_free)
        if rows.size == 0:
            return -1
        col_used, up_used, down_used, blocked_grid = self.col_used, self.up_used, self.down_used, self.blocked_grid
        k = np.abs(rows - r)
        lost = ~(up_used[rows + c] | down_used[rows - c + last])
        if blocked_grid is not None:
            lost &= ~blocked_grid[rows, c]
        for x in (c + k, c - k):
            inside = (x >= 0) & (x < n)
            x = np.where(inside, x, 0)
            open_ = ~(col_used[x] | up_used[rows + x] | down_used[rows - x + last])
            if blocked_grid is not None:
                open_ &= ~blocked_grid[rows, x]
            lost = lost.astype(np.int64) + (inside & open_)
        if search.restricted and self.is_free[0]:
            lost[np.searchsorted(rows, 0)] = search.row0_loss(r, c)
        self.size[rows] += sign * lost
        return int(rows[np.argmin(self.size[rows] * (n + 1) + self.rank[rows])])


class _FirstFail:
    """One run of the search: rows tie-broken in ``priority`` order, at most ``budget`` placements.

    The board's lines are kept twice: as flags and counts in a :class:`_Counts` strategy (Python
    lists below ``VECTORIZE_FROM`` rows, numpy arrays from there), and as bit masks to list a
    row's free columns quickly (bit c of ``masks[0]``, bit r + c of ``masks[1]``, bit c - r + n - 1
    of ``masks[2]``).
    """

    def __init__(
        self, instance: Instance, first_row_max: int | None, priority: Sequence[int], budget: int | None
    ) -> None:
        n = self.n = instance.n
        self.instance = instance
        self.last = n - 1
        self.budget = budget
        self.placements = 0
        self.counts = _ArrayCounts(self) if n >= VECTORIZE_FROM else _Counts(self)
        # Blocked squares, as one bit mask of columns per row (never free, never counted as free).
        self.blocked_mask = [0] * n
        for r, c in instance.blocked:
            self.blocked_mask[r] |= 1 << c
        for r in range(n):
            self.counts.size[r] -= self.blocked_mask[r].bit_count()
        self.cols = [-1] * n
        self.free_rows: list[int] = list(range(n))  # unassigned rows (order irrelevant)
        self.where = list(range(n))  # where[r]: index of r in free_rows while r is unassigned
        self.rank = [0] * (n + 1)  # ties go to the lower rank; rank[n] is the sentinel for "no row yet"
        for position, r in enumerate(priority):
            self.rank[r] = position
        self.rank[n] = n
        self.restricted = first_row_max is not None
        self.row0_limit = n - 1 if first_row_max is None else first_row_max
        if first_row_max is not None:
            self.counts.size[0] = sum(
                1 for c in range(min(n, first_row_max + 1)) if not self.blocked_mask[0] >> c & 1
            )
        self.full = (1 << n) - 1
        self.masks = [0, 0, 0]

    def allowed(self, r: int, c: int) -> bool:
        counts = self.counts
        return (not (counts.col_used[c] or counts.up_used[r + c] or counts.down_used[r - c + self.last]
                     or self.blocked_mask[r] >> c & 1)
                and (r != 0 or c <= self.row0_limit))

    def row0_loss(self, r: int, c: int) -> int:
        """The squares (r, c) takes from row 0 when row 0 may only use columns <= row0_limit."""
        k = r if r > 0 else -r
        return sum(1 for x in {c, c + k, c - k} if 0 <= x <= self.row0_limit and self.allowed(0, x))

    def _mark(self, r: int, c: int, value: bool) -> None:
        counts, masks = self.counts, self.masks
        counts.col_used[c] = value
        counts.up_used[r + c] = value
        counts.down_used[r - c + self.last] = value
        masks[0] ^= 1 << c
        masks[1] ^= 1 << (r + c)
        masks[2] ^= 1 << (c - r + self.last)

    def place(self, r: int, c: int) -> int:
        """Put a queen on (r, c); returns the most constrained free row (-1: none left)."""
        self.placements += 1
        if self.budget is not None and self.placements > self.budget:
            raise _BudgetExhausted
        free_rows, where = self.free_rows, self.where
        i = where[r]
        other = free_rows[-1]
        free_rows[i], where[other] = other, i
        free_rows.pop()
        self.counts.taken(r)
        best = self.counts.adjust(r, c, -1)
        self._mark(r, c, True)
        self.cols[r] = c
        return best

    def unplace(self, r: int) -> None:
        c = self.cols[r]
        self.cols[r] = -1
        self._mark(r, c, False)
        self.counts.adjust(r, c, +1)
        self.where[r] = len(self.free_rows)
        self.free_rows.append(r)
        self.counts.given_back(r)

    def candidates(self, r: int) -> Iterator[int]:
        """Row r's free columns, middle-out. Lazy: whenever the search asks for the next one, the
        board above this level is as it was when the level was opened, so the free set stays valid."""
        masks, last = self.masks, self.last
        free = self.full & ~(masks[0] | (masks[1] >> r) | (masks[2] >> (last - r)) | self.blocked_mask[r])
        if r == 0:
            free &= (1 << (self.row0_limit + 1)) - 1
        return _middle_out_columns(free, last)

    def solutions(self) -> Iterator[Solution]:
        """Every solution, depth first (pre-placed queens are placed for good before the search starts)."""
        best = -1
        for r, c in self.instance.fixed:
            if not self.allowed(r, c):
                return
            best = self.place(r, c)
        if not self.free_rows:
            yield tuple(self.cols)
            return
        size = self.counts.size
        if best < 0:
            best = min(self.free_rows, key=lambda r: size[r])
        # The search stack, as parallel lists: per level the row and the iterator over its candidate
        # columns (the one on the board, if any, was the last it gave).
        stack_rows = [best]
        stack_cands = [self.candidates(best)]
        placed_top = False  # whether the top level's queen is on the board
        while stack_rows:
            row = stack_rows[-1]
            if placed_top:
                self.unplace(row)
                placed_top = False
            col = next(stack_cands[-1], -1)
            if col < 0:
                stack_rows.pop()
                stack_cands.pop()
                placed_top = bool(stack_rows)  # the parent level's queen is still on the board
                continue
            best = self.place(row, col)
            placed_top = True
            if best < 0:
                yield tuple(self.cols)
            elif size[best] > 0:
                stack_rows.append(best)
                stack_cands.append(self.candidates(best))
                placed_top = False


def _search(
    instance: Instance, first_row_max: int | None, priority: Sequence[int], budget: int | None
) -> Iterator[Solution]:
    """The search itself: rows tie-broken in ``priority`` order, at most ``budget`` placements."""
    if instance.n == 0:
        yield ()
        return
    if not instance.fixed_are_consistent():
        return
    yield from _FirstFail(instance, first_row_max, priority, budget).solutions()
