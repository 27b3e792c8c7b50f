"""Count a board split over two workers, with a checkpoint, then resume.

    python examples/split_count.py 12 /tmp/n12.sqlite

The checkpoint (SQLite) records each sub-problem's count as it finishes; run
the script again with the same file (or stop it half-way and run it again) and
the finished sub-problems are read back instead of counted. The total is
checked against OEIS A000170.
"""

from __future__ import annotations

import argparse
import sys

from nqueens_cp import A000170, Instance, NQueensError
from nqueens_cp.parallel import ParallelConfig, SplitRun


def count(n: int, checkpoint: str) -> int:
    config = ParallelConfig(workers=2, split_depth=2, checkpoint=checkpoint)
    result = SplitRun(Instance(n), "bitboard", config=config).count()
    print(
        f"n = {n}: {result.count} solutions from {result.subproblems} "
        "sub-problems "
        f"({result.resumed} read back from {checkpoint}), {result.executor}"
    )
    return result.count


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description="Count a board split over two workers, with a checkpoint."
    )
    parser.add_argument("n", type=int)
    parser.add_argument("checkpoint", nargs="?", default="split-count.sqlite")
    args = parser.parse_args(argv)
    n, checkpoint = args.n, args.checkpoint
    first = count(n, checkpoint)
    again = count(n, checkpoint)  # every sub-problem is in the checkpoint now
    expected = A000170[n] if n < len(A000170) else None
    print("A000170:", expected)
    return 0 if first == again and expected in (None, first) else 1


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except NQueensError as error:  # one line, as the command line says it
        print(f"split_count: {error}", file=sys.stderr)
        sys.exit(2)
