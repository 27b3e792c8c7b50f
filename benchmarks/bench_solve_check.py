"""What checking every printed board costs ``solve``: this checkout against a copy of the code from
before the checks, whole processes, output to /dev/null, alternated (medians of ``--repeat``).

The cases: ``solve 100000000`` (the array path: one board of 10^8 rows, checked in one compiled
pass) and ``solve 16 --all`` (14,772,512 boards from the compiled kernel, checked batch by batch,
each after the one before). Target: each median within 5% of the old code's.

    git archive d7ad6e6 | tar -x -C /tmp/nqueens-cp-before-checks
    python benchmarks/bench_solve_check.py --old /tmp/nqueens-cp-before-checks [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import alternate, load_average, machine

REPO = Path(__file__).resolve().parents[1]
CASES = ("100000000", "16 --all")
#: Run once on each side before the timing: compiles (or loads) what a first run compiles.
WARM_UP = ("300000", "10 --all")
TARGET = 1.05


def wall(code: Path, args: str) -> tuple[float, object]:
    """Wall time of ``python -m nqueens_cp solve ARGS > /dev/null`` with ``code`` first on the path."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", *args.split()], stdout=subprocess.DEVNULL,
                   check=True, env=env, cwd=code)
    return time.perf_counter() - start, None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="a copy of the code before the checks")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cases", nargs="+", default=list(CASES), help="solve arguments, one string each")
    args = parser.parse_args(argv)
    print(machine())
    for case in WARM_UP:
        wall(REPO, case)
        wall(args.old, case)
    met = True
    for case in args.cases:
        before = load_average()
        new, old, _, _ = alternate(lambda case=case: wall(REPO, case), lambda case=case: wall(args.old, case),
                                   args.repeat)
        ratio = statistics.median(new) / statistics.median(old)
        met &= ratio <= TARGET
        print(f"solve {case} > /dev/null: checked {statistics.median(new):.2f} s, unchecked "
              f"{statistics.median(old):.2f} s, ratio {ratio:.3f} (target <= {TARGET}); runs checked "
              f"{', '.join(f'{t:.2f}' for t in new)}, unchecked {', '.join(f'{t:.2f}' for t in old)}; "
              f"load {before} before, {load_average()} after", flush=True)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
