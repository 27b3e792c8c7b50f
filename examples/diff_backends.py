"""Enumerate one board with two backends and diff their solution sets.

    python examples/diff_backends.py 8 cpsat sat:encoding=seqcounter

A backend is written as on the command line: a name, then ``:key=value``
options. Exit status 0 when both give the same set (and every board passes the
checker), 1 otherwise, 2 for bad input.
"""

from __future__ import annotations

import argparse
import sys

from nqueens_cp import (
    Instance,
    NQueensError,
    is_valid_solution,
)
from nqueens_cp.harness.configs import parse_configurations


def solution_set(instance: Instance, text: str) -> set[tuple[int, ...]]:
    """Every solution by the configuration ``text`` (``sat:encoding=x``)."""
    (configuration,) = parse_configurations([text])
    backend = configuration.create()
    return set(backend.solutions(instance))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Diff the solution sets of two backends."
    )
    parser.add_argument("n", type=int)
    parser.add_argument("first")
    parser.add_argument("second")
    args = parser.parse_args(argv)
    n, first, second = args.n, args.first, args.second
    instance = Instance(n)
    a, b = solution_set(instance, first), solution_set(instance, second)
    invalid = [s for s in a | b if not is_valid_solution(instance, s)]
    print(
        f"n = {n}: {first} {len(a)} solutions, {second} {len(b)}\n"
        f"only {first}: {len(a - b)}, only {second}: {len(b - a)}, "
        f"invalid: {len(invalid)}"
    )
    for name, extra in ((first, a - b), (second, b - a)):
        for solution in sorted(extra)[:3]:
            print(f"  only {name}: {' '.join(map(str, solution))}")
    return 0 if a == b and not invalid else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except NQueensError as error:  # one line, as the command line says it
        print(f"diff_backends: {error}", file=sys.stderr)
        sys.exit(2)
