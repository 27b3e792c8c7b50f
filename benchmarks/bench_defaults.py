"""The default backend of ``solve N --count`` against the fastest backend, whole process.

For every n, ``nqueens-cp solve N --count`` (no ``--backend``: the default the question picks)
and ``nqueens-cp solve N --count --backend B`` for every backend B that counts exactly
(``bitboard``, ``backtrack``, ``cpsat``, ``sat``, and ``minizinc`` when its binary is installed)
run as fresh processes, ``--repeat`` rounds, the order rotated each round so that a slow spell of
a shared machine hits every side. A backend whose median at some n is over ``--cap`` seconds is
not run at larger n (said under the table), unless it is the fastest there. The fastest backend
of a row is the one with the smallest median there; every answer is checked against OEIS A000170 (exit status 1 on a wrong
one). Target: the default within 1.2x of the fastest, n = 4..17.

    python benchmarks/bench_defaults.py [--n 4-17] [--repeat 3] [--cap 3]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import load_average, machine
from tabulate import tabulate

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from nqueens_cp.core.oeis import A000170  # noqa: E402

#: The backends that count exactly, fastest first as far as we know (the benchmark measures it).
COUNTERS = ("bitboard", "backtrack", "cpsat", "sat", "minizinc")
#: The target: default median / fastest median.
TARGET = 1.2
DEFAULT = "default"


def sizes(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def solve_count(n: int, backend: str | None) -> tuple[float, str]:
    """Wall time of ``python -m nqueens_cp solve N --count [--backend B]`` and what it printed."""
    command = [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--count"]
    if backend is not None:
        command += ["--backend", backend]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=REPO)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[3:])}: exit status {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", default="4-17", help="board sizes LOW-HIGH (default 4-17)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds per n (default 3)")
    parser.add_argument("--cap", type=float, default=3.0,
                        help="a backend whose median is over CAP seconds is not run at larger n (default 3)")
    args = parser.parse_args(argv)
    counters = [b for b in COUNTERS if b != "minizinc" or shutil.which("minizinc")]
    print(f"## default `solve N --count` against the fastest backend (whole process, medians of {args.repeat}, "
          "order rotated each round)")
    print(f"machine: {machine()}; load before: {load_average()}")
    if "minizinc" not in counters:
        print("minizinc: not measured (no minizinc binary on PATH)")
    rows = []
    wrong: list[str] = []
    dropped: dict[str, int] = {}
    met_all = True
    for n in sizes(args.n):
        sides: list[str | None] = [None, *(b for b in counters if b not in dropped)]
        times: dict[str, list[float]] = {}
        for round_no in range(args.repeat):
            shift = round_no % len(sides)
            for backend in sides[shift:] + sides[:shift]:
                seconds, printed = solve_count(n, backend)
                label = backend or DEFAULT
                if printed != str(A000170[n]):
                    wrong.append(f"n={n} {label}: printed {printed!r}, A000170({n}) = {A000170[n]}")
                times.setdefault(label, []).append(seconds)
        medians = {label: statistics.median(values) for label, values in times.items()}
        fastest = min((label for label in medians if label != DEFAULT), key=medians.__getitem__)
        ratio = medians[DEFAULT] / medians[fastest]
        met = ratio <= TARGET
        met_all = met_all and met
        others = ", ".join(f"{label} {medians[label]:.3f}" for label in medians if label not in (DEFAULT, fastest))
        rows.append([n, f"{medians[DEFAULT]:.3f}", fastest, f"{medians[fastest]:.3f}", f"{ratio:.3f}",
                     "yes" if met else "NO", others or "-"])
        for label, median in medians.items():  # the fastest is never dropped
            if label not in (DEFAULT, fastest) and median > args.cap and label not in dropped:
                dropped[label] = n
    print(tabulate(rows, headers=["n", "default median s", "fastest backend", "its median s",
                                  "ratio default/fastest", f"<= {TARGET}", "other backends (median s)"],
                   tablefmt="github"))
    for label, n in dropped.items():
        print(f"{label}: not run past n = {n} (median over {args.cap:g} s there)")
    print(f"load after: {load_average()}")
    for line in wrong:
        print(f"WRONG: {line}")
    if wrong:
        return 1
    print("target met for every n" if met_all else "target NOT met for every n")
    return 0 if met_all else 1


if __name__ == "__main__":
    sys.exit(main())
