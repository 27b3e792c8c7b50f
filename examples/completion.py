"""A completion instance: some queens placed at random, can the board be
completed?

    python examples/completion.py 16 5 1

Places K non-attacking queens on an n x n board (reproducibly, from the seed),
asks two backends for a completion, checks it, and prints the board (``Q`` a
given queen, ``q`` a found one).
"""

from __future__ import annotations

import argparse
import random
import sys

from nqueens_cp import (
    Instance,
    NQueensError,
    create_backend,
    is_valid_solution,
)


def picture(instance: Instance, solution: tuple[int, ...]) -> str:
    """The board as text: ``Q`` given, ``q`` found, ``.`` empty."""
    given = instance.fixed_by_row
    return "\n".join(
        " ".join(
            ("Q" if given.get(row) == col else "q")
            if col == solution[row]
            else "."
            for col in range(instance.n)
        )
        for row in range(instance.n)
    )


def main(argv: list[str]) -> int:
    from nqueens_cp.instances.completion import random_partial_placement

    parser = argparse.ArgumentParser(
        description="Complete a board with K queens placed at random."
    )
    parser.add_argument("n", type=int)
    parser.add_argument("k", type=int)
    parser.add_argument("seed", type=int, nargs="?", default=1)
    args = parser.parse_args(argv)
    n, k, seed = args.n, args.k, args.seed
    instance = random_partial_placement(n, k, random.Random(seed))
    print(f"instance: {instance}")
    answers = {
        name: create_backend(name).first_solution(instance)
        for name in ("backtrack", "cpsat")
    }
    if all(answer is None for answer in answers.values()):
        print("no completion (both backends agree)")
        return 0
    for name, answer in answers.items():
        if answer is None or not is_valid_solution(instance, answer):
            print(
                f"{name} gave no valid completion where the other did",
                file=sys.stderr,
            )
            return 1
    print(picture(instance, answers["backtrack"] or ()))
    print("both completions checked")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except NQueensError as error:  # one line, as the command line says it
        print(f"completion: {error}", file=sys.stderr)
        sys.exit(2)
