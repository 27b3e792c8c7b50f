"""``backtrack`` enumeration against the classic tutorial generator, n = 11 by default.

The reference is the textbook recursive generator (Magnus Lie Hetland, *Beginning Python*):
``conflict(state, x)`` scans every earlier row, and each level yields ``(pos,) + result``.
Both sides enumerate every solution in this process, alternately; the ratio is
median(backtrack) / median(reference), and the target is at most 1/3 (at least 3 times faster).

    python benchmarks/bench_backtrack.py [--n 11] [--repeat 7]
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import Comparison, alternate, report, timed

from nqueens_cp.backends.backtrack import BacktrackBackend
from nqueens_cp.core.instance import Instance


# The reference is kept as the tutorial writes it, hence the noqa comments.
def conflict(state: tuple[int, ...], next_x: int) -> bool:
    """The tutorial's check: does a queen in column ``next_x`` of the next row attack ``state``?"""
    next_y = len(state)
    for i in range(next_y):  # noqa: SIM110
        if abs(state[i] - next_x) in (0, next_y - i):
            return True
    return False


def queens(num: int = 8, state: tuple[int, ...] = ()) -> Iterator[tuple[int, ...]]:
    """The tutorial's recursive generator of all solutions."""
    for pos in range(num):
        if not conflict(state, pos):
            if len(state) == num - 1:
                yield (pos,)
            else:
                for result in queens(num, state + (pos,)):  # noqa: RUF005
                    yield (pos,) + result  # noqa: RUF005


def enumerate_backtrack(backend: BacktrackBackend, n: int) -> list[tuple[int, ...]]:
    return list(backend.solutions(Instance(n)))


def enumerate_tutorial(n: int) -> list[tuple[int, ...]]:
    return list(queens(n))


def at_least_3x(ratio: float) -> bool:
    return ratio <= 1 / 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[11])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    backend = BacktrackBackend()
    rows = []
    for n in args.n:
        ours, ref, our_sols, ref_sols = alternate(
            partial(timed, partial(enumerate_backtrack, backend, n)),
            partial(timed, partial(enumerate_tutorial, n)),
            args.repeat,
        )
        if our_sols != ref_sols:
            raise SystemExit(f"n={n}: the two sides enumerated different solutions")
        rows.append(
            Comparison(
                f"enumerate n={n} ({len(our_sols)} solutions)",
                tuple(ours), tuple(ref), "<= 0.333", at_least_3x,
            )
        )
    ok = report("backtrack vs the tutorial generator (in-process, all solutions)", rows, "backtrack", "tutorial")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
