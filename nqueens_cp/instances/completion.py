"""Random N-Queens completion instances: K non-attacking queens pre-placed on an n x n board.

N-Queens completion (is there a solution extending the given queens?) is NP-complete (Gent,
Jefferson and Nightingale, 2017), unlike N-Queens itself, so these are the instances on which
search, CP and SAT differ most. Instances are reproducible: the same ``(n, k, count, seed)``
always gives the same boards, on every platform (``random.Random(seed)`` only).

The generator places the K queens one at a time, each on a row not used yet, on a column
chosen uniformly among the squares not attacked by the queens already placed; when no square
is left it starts that instance again. The K queens never attack each other, but the board may
still have no completion: deciding that is the backends' job.
"""

from __future__ import annotations

import random

from nqueens_cp.core.errors import InvalidInstanceError
from nqueens_cp.core.instance import Instance

#: Fresh starts allowed per instance before the generator gives up (only for K near n).
MAX_ATTEMPTS = 10_000


def random_partial_placement(n: int, k: int, rng: random.Random) -> Instance:
    """One instance: ``k`` non-attacking queens on random rows of an ``n`` x ``n`` board.

    The free columns of a row are never listed: the draw ``rng.choice(free)`` is made as
    ``rng.randrange(len(free))`` (the same draw from the generator) and the chosen free column is
    found among the at most 3K attacked ones, so a board of a million rows takes O(K²), not O(nK).
    """
    if not 0 <= k <= n:
        raise InvalidInstanceError(f"cannot pre-place {k} queens on a {n}x{n} board (need 0 <= K <= n)")
    for _ in range(MAX_ATTEMPTS):
        rows = sorted(rng.sample(range(n), k))
        placed: list[tuple[int, int]] = []
        for row in rows:
            attacked = sorted({c for r, c in placed} | {c + (row - r) for r, c in placed if c + row - r < n}
                              | {c - (row - r) for r, c in placed if c - (row - r) >= 0})
            free = n - len(attacked)
            if not free:
                break
            placed.append((row, _nth_free_column(rng.randrange(free), attacked)))
        else:
            return Instance(n, placed)
    raise InvalidInstanceError(
        f"found no {k} non-attacking queens on a {n}x{n} board in {MAX_ATTEMPTS} random attempts"
    )


def _nth_free_column(index: int, attacked: list[int]) -> int:
    """The ``index``-th (0-based) column, in order, that is not in the sorted list ``attacked``."""
    col = index
    for taken in attacked:
        if taken <= col:
            col += 1
        else:
            break
    return col


def completion_instances(n: int, k: int, count: int, seed: int) -> tuple[Instance, ...]:
    """``count`` random completion instances with ``k`` pre-placed queens, reproducible from ``seed``."""
    if count < 0:
        raise InvalidInstanceError(f"the number of instances must be >= 0, got {count}")
    rng = random.Random(f"nqueens-cp completion {n} {k} {seed}")
    return tuple(random_partial_placement(n, k, rng) for _ in range(count))
