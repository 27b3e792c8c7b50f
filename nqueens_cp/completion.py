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

from .errors import InvalidInstanceError
from .instance import Instance

#: Fresh starts allowed per instance before the generator gives up (only for K near n).
MAX_ATTEMPTS = 10_000


def random_partial_placement(n: int, k: int, rng: random.Random) -> Instance:
    """One instance: ``k`` non-attacking queens on random rows of an ``n`` x ``n`` board."""
    if not 0 <= k <= n:
        raise InvalidInstanceError(f"cannot pre-place {k} queens on a {n}x{n} board (need 0 <= K <= n)")
    for _ in range(MAX_ATTEMPTS):
        rows = sorted(rng.sample(range(n), k))
        cols: set[int] = set()
        ups: set[int] = set()
        downs: set[int] = set()
        placed: list[tuple[int, int]] = []
        for row in rows:
            free = [c for c in range(n) if c not in cols and row + c not in ups and row - c not in downs]
            if not free:
                break
            col = rng.choice(free)
            placed.append((row, col))
            cols.add(col)
            ups.add(row + col)
            downs.add(row - col)
        else:
            return Instance(n, placed)
    raise InvalidInstanceError(
        f"found no {k} non-attacking queens on a {n}x{n} board in {MAX_ATTEMPTS} random attempts"
    )


def completion_instances(n: int, k: int, count: int, seed: int) -> tuple[Instance, ...]:
    """``count`` random completion instances with ``k`` pre-placed queens, reproducible from ``seed``."""
    if count < 0:
        raise InvalidInstanceError(f"the number of instances must be >= 0, got {count}")
    rng = random.Random(f"nqueens-cp completion {n} {k} {seed}")
    return tuple(random_partial_placement(n, k, rng) for _ in range(count))
