"""A backend of your own: subclass ``Backend``, write ``_solutions``.

    python examples/custom_backend.py 8

The class below is a complete backend: the base class checks the arguments,
answers n = 0, counts by enumerating, and refuses what it does not support.
Registered under a name, it is available to ``create_backend`` (and, from an
installed package's entry point, to the command line: see examples/nqueens-cp-
example-backend). Here it is checked against ``bitboard``.
"""

from __future__ import annotations

import argparse
import sys
from typing import Iterator

from nqueens_cp import (
    Instance,
    NQueensError,
    create_backend,
    is_valid_solution,
)
from nqueens_cp.backends import Backend
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.core.instance import Solution


class ColumnsFirstBackend(Backend):
    """Backtracking by rows, columns tried from the right."""

    name = "rightfirst"
    summary = (
        "row-by-row backtracking, columns tried from the right (an example)"
    )

    def _solutions(
        self, instance: Instance, limit: int | None
    ) -> Iterator[Solution]:
        n, fixed = instance.n, instance.fixed_by_row
        board: list[int] = []

        def place(
            row: int, cols: set[int], ups: set[int], downs: set[int]
        ) -> Iterator[Solution]:
            if row == n:
                yield tuple(board)
                return
            for col in [fixed[row]] if row in fixed else range(n - 1, -1, -1):
                if col in cols or row + col in ups or row - col in downs:
                    continue
                board.append(col)
                yield from place(
                    row + 1,
                    cols | {col},
                    ups | {row + col},
                    downs | {row - col},
                )
                board.pop()

        return place(0, set(), set(), set())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Register a backend of your own and check it."
    )
    parser.add_argument("n", type=int, nargs="?", default=8)
    n = parser.parse_args(argv).n
    register_backend("rightfirst", ColumnsFirstBackend)
    try:
        mine = create_backend("rightfirst")
        found = list(mine.solutions(Instance(n)))
        reference = set(create_backend("bitboard").solutions(Instance(n)))
        completion = mine.first_solution(Instance(n, {0: 1}))
    finally:
        unregister_backend("rightfirst")
    ok = set(found) == reference and all(
        is_valid_solution(Instance(n), s) for s in found
    )
    print(
        f"n = {n}: {len(found)} solutions, "
        f"first {found[0] if found else None}; "
        f"same set as bitboard: {set(found) == reference}\n"
        f"with a queen at (0, 1): {completion}"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except NQueensError as error:  # one line, as the command line says it
        print(f"custom_backend: {error}", file=sys.stderr)
        sys.exit(2)
