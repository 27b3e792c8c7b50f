"""Models of the board's CNF without projection, per encoding: does the model count equal the solution count?

    python benchmarks/model_counts.py --n 4-8

For each encoding and n, every solution (from the bitboard search) is extended to all the models
of ``build_cnf(Instance(n), encoding)`` that agree with it on the queen variables
(:mod:`nqueens_cp.models.model_count`); the table gives their sum, the number of DIMACS models,
and whether it equals the number of solutions. Variables that the encoding allocates but uses in no
clause count too (each doubles the models), as they would for any model counter reading the file.
An entry ">= X" means a group of auxiliary variables had more than --cap models; counts above 10¹²
are shown rounded (``1.77e101``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.models.model_count import ModelCount, ModelCounter


def sizes(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def model_count(encoding: str, n: int, cap: int) -> tuple[int, ModelCount]:
    """(solutions, models without projection) of the CNF of the empty n x n board."""
    solutions = list(create_backend("bitboard").solutions(Instance(n)))
    built = build_cnf(Instance(n), encoding)
    counter = ModelCounter(built.cnf.clauses, built.cnf.nv, cap=cap)
    return len(solutions), counter.total(solutions)


def shown(count: ModelCount) -> str:
    """The count, in full up to 10¹², else rounded as ``1.77e101`` (both marked ">=" if a lower bound)."""
    text = str(count.models) if count.models < 10**12 else f"{count.models:.2e}"
    return text if count.exact else f">= {text}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=sizes, default=sizes("4-8"), help="board sizes, e.g. 4-8 (default 4-8)")
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="comma-separated (default: all)")
    parser.add_argument("--cap", type=int, default=100_000, help="models enumerated per group at most")
    args = parser.parse_args(argv)
    encodings = [e for e in args.encodings.split(",") if e]
    print("| encoding | " + " | ".join(f"n={n}" for n in args.n) + " | models = solutions? |")
    print("|---|" + "--:|" * len(args.n) + "---|")
    solutions_row: list[str] = []
    for encoding in encodings:
        cells: list[str] = []
        equal = True
        for n in args.n:
            solutions, models = model_count(encoding, n, args.cap)
            if len(solutions_row) < len(args.n):
                solutions_row.append(str(solutions))
            cells.append(shown(models))
            equal = equal and models.exact and models.models == solutions
        print(f"| `{encoding}` | " + " | ".join(cells) + f" | {'yes' if equal else 'no'} |", flush=True)
    print("| solutions | " + " | ".join(solutions_row) + " | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
