"""The paradigms of issue 21 against their targets, whole process, medians of 3 (alternated).

    python benchmarks/bench_paradigms.py            # every formulation: count n = 10, first n = 256
    python benchmarks/bench_paradigms.py --counters # the counters: n = 8..12, each up to --timeout
    python benchmarks/bench_paradigms.py --quick    # one repetition

Each case is one ``nqueens-cp solve`` process (start-up, import, model, solve, output), timed from
the outside. Targets: every enumerating paradigm counts n = 10 in <= 5 s and first-solves n = 256 in
<= 30 s. Configurations of a case run in turn, repetition by repetition, so a change of load hits
them alike; the load is printed.
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
from _common import load_average

REPO = Path(__file__).resolve().parents[1]

#: (paradigm, configuration) measured on the targets: at least two formulations each.
FORMULATIONS: list[tuple[str, str]] = [
    ("classic CP (Choco)", "choco"),
    ("classic CP (Choco)", "choco:alldiff=AC"),
    ("classic CP (Choco)", "choco:alldiff=DEFAULT"),
    ("classic CP (Choco)", "choco:diagonals=auxiliary"),
    ("classic CP (Choco)", "choco:search=firstfail"),
    ("XCSP3 (ACE, Java)", "xcsp3"),
    ("XCSP3 (Choco, Java)", "xcsp3:solver=choco"),
    ("CPMpy", "cpmpy"),
    ("CPMpy", "cpmpy:solver=choco"),
    ("CPMpy", "cpmpy:solver=exact"),
    ("CPMpy", "cpmpy:solver=z3"),
    ("direct CP-SAT (for CPMpy)", "cpsat"),
]

#: The counters, with their formulations.
COUNTERS: list[str] = [
    "ganak", "ganak:encoding=seqcounter", "approxmc", "approxmc:epsilon=0.3:delta=0.05",
    "bdd", "bdd:build=lines", "bdd:reorder=true", "bdd:library=autoref", "bitboard", "sat",
]


def command(config: str, n: int, task: str) -> list[str]:
    name, *options = config.split(":")
    flags = [flag for option in options for flag in ("-O", option)]
    what = ["--count"] if task == "count" else []
    return [sys.executable, "-m", "nqueens_cp", "solve", str(n), *what, "--backend", name, *flags]


def run_once(config: str, n: int, task: str, timeout: float) -> float | None:
    """Seconds of one whole process, or None when it timed out or failed."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    start = time.perf_counter()
    try:
        done = subprocess.run(command(config, n, task), capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None
    took = time.perf_counter() - start
    return took if done.returncode == 0 else None


def median_text(times: list[float | None], timeout: float) -> str:
    if any(t is None for t in times):
        return f"> {timeout:g} s ({sum(t is None for t in times)} of {len(times)} no answer)"
    return f"{statistics.median(t for t in times if t is not None):.2f} s"


def measure(configs: list[str], cases: list[tuple[int, str, float]], repeat: int) -> dict[tuple[str, int, str], list[float | None]]:
    times: dict[tuple[str, int, str], list[float | None]] = {}
    for n, task, timeout in cases:
        for _ in range(repeat):
            for config in configs:
                key = (config, n, task)
                if times.get(key) and times[key][-1] is None:
                    continue  # timed out once: not again
                times.setdefault(key, []).append(run_once(config, n, task, timeout))
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--counters", action="store_true", help="measure the counters on n = 8..12")
    parser.add_argument("--quick", action="store_true", help="one repetition instead of three")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per process (default 60)")
    parser.add_argument("--only", default="", help="comma-separated configurations to run (default: all)")
    args = parser.parse_args()
    repeat = 1 if args.quick else 3
    print(f"load before: {load_average()}")
    if args.counters:
        cases = [(n, "count", args.timeout) for n in (8, 10, 11, 12)]
        times = measure(COUNTERS, cases, repeat)
        print(f"{'configuration':36} " + " ".join(f"{'n = ' + str(n):>26}" for n, _, _ in cases))
        for config in COUNTERS:
            print(f"{config:36} " + " ".join(f"{median_text(times.get((config, n, 'count'), [None]), args.timeout):>26}"
                                            for n, _, _ in cases))
    else:
        cases = [(10, "count", args.timeout), (256, "first", args.timeout)]
        chosen = [(p, c) for p, c in FORMULATIONS if not args.only or c in args.only.split(",")]
        configs = [config for _, config in chosen]
        times = measure(configs, cases, repeat)
        print(f"{'paradigm':28} {'configuration':32} {'count n = 10 (<= 5 s)':>28} {'first n = 256 (<= 30 s)':>28}")
        for paradigm, config in chosen:
            count, first = (median_text(times[(config, n, task)], args.timeout) for n, task, _ in cases)
            print(f"{paradigm:28} {config:32} {count:>28} {first:>28}")
    print(f"load after: {load_average()}; medians of {repeat}, whole process (python -m nqueens_cp solve ...)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
