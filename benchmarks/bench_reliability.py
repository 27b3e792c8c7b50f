"""What the reliability checks of split runs cost: checksummed checkpoints and ``verify``.

    python benchmarks/bench_reliability.py                 # n=14, depth 3, 3 alternated repetitions
    python benchmarks/bench_reliability.py --n 12 --repeat 1

Three measurements, each the median of ``--repeat`` runs, the sides alternated so that a busy
spell of a shared machine hits both, with the load average printed:

* ``checkpoint``: a split count writing a checkpoint (one checksummed row per sub-problem) against
  the same count without one;
* ``resume``: opening a finished checkpoint (every row's checksum verified) and adding it up;
* ``verify``: a split count with every sub-problem counted again by the pure-Python bitboard
  against the plain one (both inline, one process, so the ratio is the work, not the cores).

Every count is checked against OEIS A000170; the exit status is 1 if one is wrong.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from nqueens_cp import A000170, Instance
from nqueens_cp.parallel import ParallelConfig, SplitRun, split_instance

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import load_average


def _timed(run: Callable[[], int], expected: int) -> float:
    started = time.perf_counter()
    count = run()
    seconds = time.perf_counter() - started
    if count != expected:
        sys.exit(f"wrong count {count}, expected {expected}")
    return seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=14)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    n, expected = args.n, A000170[args.n]
    instance = Instance(n)
    times: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as directory:
        for repetition in range(args.repeat):
            path = Path(directory) / f"run{repetition}.sqlite"
            sides: dict[str, Callable[[], int]] = {
                "plain": lambda: SplitRun(instance, "bitboard", config=ParallelConfig(split_depth=args.depth))
                .count().count,
                "checkpoint": lambda path=path: SplitRun(
                    instance, "bitboard", config=ParallelConfig(split_depth=args.depth, checkpoint=path)
                ).count().count,
                "resume": lambda path=path: SplitRun(
                    instance, "bitboard", config=ParallelConfig(checkpoint=path)).count().count,
                "plain python": lambda: SplitRun(
                    instance, "bitboard", {"kernel": "python"}, config=ParallelConfig(split_depth=args.depth)
                ).count().count,
                "verify": lambda: SplitRun(
                    instance, "bitboard", {"kernel": "python"},
                    config=ParallelConfig(split_depth=args.depth, verify=True, verify_with="bitboard"),
                ).count().count,
            }
            for name, run in sides.items():
                times.setdefault(name, []).append(_timed(run, expected))
    median = {name: statistics.median(values) for name, values in times.items()}
    subproblems = len(split_instance(instance, args.depth))
    print(f"n={n} depth={args.depth}, median of {args.repeat}; load {load_average()}; "
          f"cores {os.cpu_count()} (sub-problems: {subproblems})")
    for name, seconds in median.items():
        print(f"  {name:13s} {seconds:8.3f} s")
    print(f"  checkpoint / plain        {median['checkpoint'] / median['plain']:.2f}")
    print(f"  resume (every row checked) {median['resume']:.3f} s")
    print(f"  verify / plain python     {median['verify'] / median['plain python']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
