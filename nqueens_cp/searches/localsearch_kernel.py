"""Local search for one N-Queens solution, compiled with numba (the ``localsearch`` backend).

Two methods, both repairing a complete but conflicting placement of the free queens:

* **swap** (the default): the linear-time search of Sosic and Gu ("3,000,000 queens in less
  than one minute", SIGART Bulletin 2(2), 1991; "Fast search algorithms for the N-queens
  problem", IEEE Trans. SMC 21(6), 1991; their QS4). The queens form a *permutation*
  (``perm[row] == col``, each column once), so rows and columns hold by construction and only
  diagonals can conflict. The queens on every diagonal are counted (``up[row + col]``,
  ``down[row - col + n - 1]``), and the *collisions* are the queens beyond the first on each
  diagonal. A greedy start places the free rows in order, each on a column drawn at random from
  the columns not used yet, redrawn (at most ``ATTEMPTS`` times) until neither diagonal is
  occupied; the rows whose draws all failed keep their last draw. That leaves a handful of
  collisions however large n is. The repair takes the attacked queens one by one and swaps the
  columns of the attacked queen and of a random other free queen when the swap lowers the
  collisions (the permutation stays one). Each attempt is O(1), the start O(n).
* **minconflicts**: min-conflicts as in Minton, Johnston, Philips and Laird ("Minimizing
  conflicts: a heuristic repair method for constraint satisfaction and scheduling problems",
  Artificial Intelligence 58, 1992): one queen per row, any column; a greedy start (each row
  takes the least attacked of a few random columns), then repeatedly a random attacked queen
  moves, within its row, to the column attacked by the fewest queens (ties broken at random).
  Each move scans the row: O(n) per step, the textbook method rather than the fast one.

Pre-placed queens never move (their rows are left out of the free rows), and a queen on a blocked
square counts as one more collision, so a placement with no collisions honours both. Each search
is one restart's worth of state in arrays; the kernels run in bounded slices (``init_rows`` over a
range of rows, ``repair`` for a number of attempts) so that the Python driver
(:mod:`~nqueens_cp.searches.localsearch`) can check its time bound between them. Random numbers
come from a xorshift64 generator held in the state, so the same seed gives the same answer on
every platform. numba and numpy are imported with this module: import it only where it is used.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nqueens_cp.system.compiled import compiled, inline

Int32Array = npt.NDArray[np.int32]
Int64Array = npt.NDArray[np.int64]
UInt64Array = npt.NDArray[np.uint64]
#: The line counts: uint8 while no line reaches ``UINT8_MAX_COUNT`` queens, else int32.
CountArray = npt.NDArray[np.uint8] | npt.NDArray[np.int32]

#: Draws per row of the greedy start before a row keeps a conflicting column.
ATTEMPTS = 64
#: Random columns the min-conflicts start looks at per row.
MINCONFLICTS_SAMPLE = 16

# Slots of the int64 ``stats`` array each kernel updates.
#: Collisions now (queens beyond the first on a diagonal, plus queens on blocked squares).
COLLISIONS = 0
#: Repair attempts (swap tries or min-conflicts moves) made so far.
STEPS = 1
#: Attempts made since the collisions last went down.
STALE = 2
#: Entries in the queue of possibly attacked rows.
QUEUED = 3
#: 1 when a row could not be queued (the queue was full): the driver re-scans.
OVERFLOW = 4
STATS_SIZE = 5
#: ``stats[OVERFLOW]`` when the swap start met a line its counts cannot follow.
COUNTS_TOO_SMALL = 2
#: The most queens a line may hold with uint8 counts (the repair keeps one below it, as a swap
#: may put two queens on one line).
UINT8_MAX_COUNT = 255


_MASK64 = (1 << 64) - 1


def seed_state(seed: int, restart: int) -> UInt64Array:
    """The generator's state for ``restart`` of a run seeded with ``seed`` (splitmix64 of both).
    Plain Python: one compiled function fewer to load at start-up."""
    z = (seed * 0x9E3779B97F4A7C15 + restart * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.array([z if z else 0x2545F4914F6CDD1D], dtype=np.uint64)


@inline
def _step(x: np.uint64) -> np.uint64:
    """The xorshift64 generator's next state."""
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    return x


@inline
def _scaled(x: np.uint64, bound: int) -> int:
    """The integer in ``[0, bound)`` that state ``x`` draws (``bound`` < 2**32)."""
    return np.int64(((x >> np.uint64(32)) * np.uint64(bound)) >> np.uint64(32))  # type: ignore[no-any-return]


@inline
def _below(state: UInt64Array, bound: int) -> int:
    """A random integer in ``[0, bound)``, advancing the generator held in ``state``."""
    x = _step(state[0])
    state[0] = x
    return _scaled(x, bound)


@inline
def _is_blocked(row: int, col: int, starts: Int64Array, blocked: Int32Array) -> bool:
    """Whether ``(row, col)`` is blocked: ``blocked[starts[row]:starts[row + 1]]`` lists the row's columns."""
    for k in range(starts[row], starts[row + 1]):  # noqa: SIM110  (numba compiles no generators)
        if blocked[k] == col:
            return True
    return False


@inline
def _row(free: Int32Array, k: int) -> int:
    """The board row of free row ``k`` (``free`` empty: every row is free, row ``k`` itself)."""
    return k if free.shape[0] == 0 else int(free[k])


@inline
def _attacked(n: int, row: int, col: int, up: CountArray, down: CountArray, colcount: CountArray,
              starts: Int64Array, blocked: Int32Array) -> bool:
    """Whether the queen at ``(row, col)`` shares a line with another queen or stands on a blocked square."""
    if up[row + col] > 1 or down[row - col + n - 1] > 1:
        return True
    if colcount.shape[0] > 0 and colcount[col] > 1:
        return True
    return blocked.shape[0] > 0 and _is_blocked(row, col, starts, blocked)


@inline
def _push(queue: Int32Array, stats: Int64Array, k: int) -> None:
    """Queue free row ``k`` as possibly attacked; a full queue is marked, for a re-scan later."""
    queued = stats[QUEUED]
    if queued < queue.shape[0]:
        queue[queued] = k
        stats[QUEUED] = queued + 1
    else:
        stats[OVERFLOW] = 1


@compiled
def place_fixed(n: int, fixed_rows: Int32Array, fixed_cols: Int32Array, up: CountArray, down: CountArray,
                colcount: CountArray, starts: Int64Array, blocked: Int32Array, stats: Int64Array) -> None:
    """Count the pre-placed queens on their lines."""
    for k in range(fixed_rows.shape[0]):
        row = fixed_rows[k]
        col = fixed_cols[k]
        stats[COLLISIONS] += (up[row + col] > 0) + (down[row - col + n - 1] > 0)
        up[row + col] += 1
        down[row - col + n - 1] += 1
        if colcount.shape[0] > 0:
            stats[COLLISIONS] += colcount[col] > 0
            colcount[col] += 1
        if blocked.shape[0] > 0 and _is_blocked(row, col, starts, blocked):
            stats[COLLISIONS] += 1


@compiled
def queue_attacked(n: int, cols: Int32Array, free: Int32Array, up: CountArray, down: CountArray,
                   colcount: CountArray, starts: Int64Array, blocked: Int32Array, queue: Int32Array,
                   stats: Int64Array) -> None:
    """Re-scan: fill ``queue`` with the attacked free rows, as many as fit (after an overflow)."""
    stats[QUEUED] = 0
    stats[OVERFLOW] = 0
    for k in range(cols.shape[0]):
        if _attacked(n, _row(free, k), cols[k], up, down, colcount, starts, blocked):
            _push(queue, stats, k)


# -- the swap search (Sosic and Gu) ------------------------------------------------------------


@compiled
def swap_init_rows(n: int, cols: Int32Array, free: Int32Array, first: int, last: int, up: CountArray,
                   down: CountArray, starts: Int64Array, blocked: Int32Array, queue: Int32Array,
                   state: UInt64Array, stats: Int64Array, max_count: int) -> None:
    """Greedy start for free rows ``first`` to ``last - 1``: ``cols[k:]`` holds the unused columns;
    row k draws one of them until neither of its diagonals is taken (at most ``ATTEMPTS`` draws),
    and is queued when it keeps a conflicting one. Every collision involves a queued row.

    Stops with ``stats[OVERFLOW] = COUNTS_TOO_SMALL`` when a row's diagonal already holds
    ``max_count`` queens (the counts' type is too small; the driver starts again with int32). The
    collisions alone do not decide it: n = 10^8 leaves about 400 collisions, none on a line of more
    than two queens."""
    # The generator, the collisions and the queue's length live in locals for the loop (through the
    # arrays, every draw was a store and a load: the start took 1.1-1.37x as long at n = 10^7).
    m = cols.shape[0]
    has_blocked = blocked.shape[0] > 0
    x = state[0]
    collisions = stats[COLLISIONS]
    queued = stats[QUEUED]
    capacity = queue.shape[0]
    for k in range(first, last):
        row = _row(free, k)
        pick = k
        for _ in range(ATTEMPTS):
            x = _step(x)
            pick = k + _scaled(x, m - k)
            # unsigned indices: numba adds no negative-index wrap-around (0.81-0.93x the time)
            col = cols[np.uint64(pick)]
            if up[np.uint64(row + col)] == 0 and down[np.uint64(row - col + n - 1)] == 0 and not (
                has_blocked and _is_blocked(row, col, starts, blocked)
            ):
                break
        col = cols[pick]
        if up[row + col] >= max_count or down[row - col + n - 1] >= max_count:
            stats[OVERFLOW] = COUNTS_TOO_SMALL
            break
        cols[pick] = cols[k]
        cols[k] = col
        added = (up[row + col] > 0) + (down[row - col + n - 1] > 0)
        up[row + col] += 1
        down[row - col + n - 1] += 1
        if has_blocked and _is_blocked(row, col, starts, blocked):
            added += 1
        if added:
            collisions += added
            if queued < capacity:
                queue[queued] = k
                queued += 1
            else:
                stats[OVERFLOW] = 1
    state[0] = x
    stats[COLLISIONS] = collisions
    stats[QUEUED] = queued


@inline
def _leave(n: int, row: int, col: int, up: CountArray, down: CountArray) -> int:
    """Take the queen at (row, col) off its diagonals; the collisions it took with it."""
    gone = (up[row + col] > 1) + (down[row - col + n - 1] > 1)
    up[row + col] -= 1
    down[row - col + n - 1] -= 1
    return gone  # type: ignore[no-any-return]


@inline
def _enter(n: int, row: int, col: int, up: CountArray, down: CountArray) -> int:
    """Put a queen at (row, col) on its diagonals; the collisions it adds."""
    added = (up[row + col] > 0) + (down[row - col + n - 1] > 0)
    up[row + col] += 1
    down[row - col + n - 1] += 1
    return added  # type: ignore[no-any-return]


@compiled
def swap_repair(n: int, cols: Int32Array, free: Int32Array, up: CountArray, down: CountArray,
                starts: Int64Array, blocked: Int32Array, queue: Int32Array, state: UInt64Array,
                stats: Int64Array, attempts: int, max_count: int) -> None:
    """At most ``attempts`` swap tries on the queued attacked queens (the repair of Sosic and Gu).
    A swap that would bring a line to ``max_count`` queens is not made (the counts' type).

    The queue is worked from its end: a queen no longer attacked is dropped; an attacked one swaps
    columns with a random free queen when that lowers the collisions, and the partner is queued
    when the swap left it attacked. Every collision keeps involving a queued queen, so an empty
    queue means no collision (unless the queue overflowed: the driver re-scans). Returns when the
    collisions reach 0, the queue empties or the attempts are spent.
    """
    m = cols.shape[0]
    has_blocked = blocked.shape[0] > 0
    no_columns = np.zeros(0, dtype=up.dtype)
    collisions = stats[COLLISIONS]
    steps = stats[STEPS]
    stale = stats[STALE]
    end = steps + attempts
    while collisions > 0 and stats[QUEUED] > 0 and steps < end:
        k = queue[stats[QUEUED] - 1]
        row = _row(free, k)
        col = cols[k]
        if not _attacked(n, row, col, up, down, no_columns, starts, blocked):
            stats[QUEUED] -= 1
            continue
        steps += 1
        stale += 1
        j = _below(state, m)
        if j == k:
            continue
        other = _row(free, j)
        col2 = cols[j]
        delta = -_leave(n, row, col, up, down) - _leave(n, other, col2, up, down)
        if (up[row + col2] >= max_count - 1 or down[row - col2 + n - 1] >= max_count - 1
                or up[other + col] >= max_count - 1 or down[other - col + n - 1] >= max_count - 1):
            _enter(n, row, col, up, down)
            _enter(n, other, col2, up, down)
            continue
        delta += _enter(n, row, col2, up, down) + _enter(n, other, col, up, down)
        if has_blocked:
            delta += (_is_blocked(row, col2, starts, blocked) - _is_blocked(row, col, starts, blocked)
                      + _is_blocked(other, col, starts, blocked) - _is_blocked(other, col2, starts, blocked))
        if delta < 0:
            cols[k] = col2
            cols[j] = col
            collisions += delta
            stale = 0
            if not _attacked(n, row, col2, up, down, no_columns, starts, blocked):
                stats[QUEUED] -= 1
            if _attacked(n, other, col, up, down, no_columns, starts, blocked):
                _push(queue, stats, j)
        else:  # undo
            _leave(n, row, col2, up, down)
            _leave(n, other, col, up, down)
            _enter(n, row, col, up, down)
            _enter(n, other, col2, up, down)
    stats[COLLISIONS] = collisions
    stats[STEPS] = steps
    stats[STALE] = stale


# -- min-conflicts (Minton et al.) ----------------------------------------------------------------


@inline
def _conflicts(n: int, row: int, col: int, up: CountArray, down: CountArray, colcount: CountArray) -> int:
    """Queens on the lines through (row, col) (column and both diagonals)."""
    return int(colcount[col]) + int(up[row + col]) + int(down[row - col + n - 1])


@compiled
def minconflicts_init_rows(n: int, cols: Int32Array, free: Int32Array, first: int, last: int,
                           up: CountArray, down: CountArray, colcount: CountArray, starts: Int64Array,
                           blocked: Int32Array, queue: Int32Array, state: UInt64Array, stats: Int64Array) -> None:
    """Greedy start for free rows ``first`` to ``last - 1``: each takes the least attacked unblocked
    column among ``MINCONFLICTS_SAMPLE`` random ones (a blocked one only when all draws were), and
    is queued when that column is attacked."""
    has_blocked = blocked.shape[0] > 0
    for k in range(first, last):
        row = _row(free, k)
        best = np.int64(-1)
        best_cost = np.int64(1) << 62
        for _ in range(MINCONFLICTS_SAMPLE):
            col = _below(state, n)
            cost = np.int64(_conflicts(n, row, col, up, down, colcount))
            if has_blocked and _is_blocked(row, col, starts, blocked):
                cost += np.int64(1) << 40
            if cost < best_cost:
                best, best_cost = col, cost
                if cost == 0:
                    break
        cols[k] = best
        added = (colcount[best] > 0) + (up[row + best] > 0) + (down[row - best + n - 1] > 0)
        colcount[best] += 1
        up[row + best] += 1
        down[row - best + n - 1] += 1
        if has_blocked and _is_blocked(row, best, starts, blocked):
            added += 1
        if added:
            stats[COLLISIONS] += added
            _push(queue, stats, k)


@compiled
def minconflicts_repair(n: int, cols: Int32Array, free: Int32Array, up: CountArray, down: CountArray,
                        colcount: CountArray, starts: Int64Array, blocked: Int32Array, queue: Int32Array,
                        state: UInt64Array, stats: Int64Array, attempts: int) -> None:
    """At most ``attempts`` min-conflicts moves: a random queued attacked queen moves, in its row,
    to a least attacked unblocked column (ties at random; its own column counts too); the queens
    it then attacks are queued (one more pass over the rows, as the move's own scan is O(n))."""
    has_blocked = blocked.shape[0] > 0
    m = cols.shape[0]
    collisions = stats[COLLISIONS]
    steps = stats[STEPS]
    stale = stats[STALE]
    end = steps + attempts
    while collisions > 0 and stats[QUEUED] > 0 and steps < end:
        queued = stats[QUEUED]
        slot = _below(state, queued)
        k = queue[slot]
        row = _row(free, k)
        col = cols[k]
        if not _attacked(n, row, col, up, down, colcount, starts, blocked):
            queue[slot] = queue[queued - 1]
            stats[QUEUED] = queued - 1
            continue
        steps += 1
        stale += 1
        old = (colcount[col] > 1) + (up[row + col] > 1) + (down[row - col + n - 1] > 1)
        if has_blocked and _is_blocked(row, col, starts, blocked):
            old += 1
        colcount[col] -= 1
        up[row + col] -= 1
        down[row - col + n - 1] -= 1
        best = col
        best_cost = 1 << 62
        ties = 0
        for c in range(n):
            cost = _conflicts(n, row, c, up, down, colcount)
            if cost > best_cost:
                continue
            if has_blocked and _is_blocked(row, c, starts, blocked):
                continue
            if cost < best_cost:
                best, best_cost, ties = c, cost, 1
            else:
                ties += 1
                if _below(state, ties) == 0:
                    best = c
        new = (colcount[best] > 0) + (up[row + best] > 0) + (down[row - best + n - 1] > 0)
        if has_blocked and _is_blocked(row, best, starts, blocked):
            new += 1
        colcount[best] += 1
        up[row + best] += 1
        down[row - best + n - 1] += 1
        cols[k] = best
        if new < old:
            stale = 0
        collisions += new - old
        if not _attacked(n, row, best, up, down, colcount, starts, blocked):
            queue[slot] = queue[queued - 1]
            stats[QUEUED] = queued - 1
        elif new > 0:  # the queens it now attacks are attacked too: queue them
            for other in range(m):
                r = _row(free, other)
                c = cols[other]
                if other != k and (c == best or r + c == row + best or r - c == row - best):
                    _push(queue, stats, other)
    stats[COLLISIONS] = collisions
    stats[STEPS] = steps
    stats[STALE] = stale
