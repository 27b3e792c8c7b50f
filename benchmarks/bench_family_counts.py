"""The family's compiled counters on 2 threads against the published terms (issue 37).

Toroidal queens (A051906) for n = 5, 7, 11, 13, 17, 19, 23, 25 and superqueens (A051223, and
A051224 up to symmetry by Burnside's lemma) for n = 10..20. Each size runs in a child process
(``--one PROBLEM N``) with a limit of 10 minutes: a size that takes longer is reported as over
the limit and stops its sequence. Per size: the count, the published term, whether they match and
the wall seconds (the child's counting only, its numba load excluded by a warm-up on a small board).
The target: every term within 10 minutes on 2 cores.

    nice python benchmarks/bench_family_counts.py [--limit 600] [--workers 2] [--toroidal N ...]
                                                  [--superqueens N ...]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from nqueens_cp.core.family_oeis import A051223, A051224, A051906
from nqueens_cp.core.problems import Problem

SIZES = {Problem.TOROIDAL: (5, 7, 11, 13, 17, 19, 23, 25), Problem.SUPERQUEENS: tuple(range(10, 21))}

#: Small sizes for ``run_all.py --quick``.
QUICK_ARGUMENTS = ["--toroidal", "5", "7", "11", "13", "--superqueens", "10", "11", "12"]


def one(problem: Problem, n: int, workers: int) -> dict[str, object]:
    """Count one size in this process and return its figures."""
    from nqueens_cp.searches.family_kernel import count, unique_count

    rules = problem.rules
    count(rules, 7, workers)  # load (or compile) the machine code
    unique_count(rules, 7, workers)
    start = time.perf_counter()
    total = count(rules, n, workers)
    unique = unique_count(rules, n, workers, total) if problem is Problem.SUPERQUEENS else None
    return {"count": total, "unique": unique, "seconds": time.perf_counter() - start}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per size (default 600)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--toroidal", type=int, nargs="*", default=SIZES[Problem.TOROIDAL])
    parser.add_argument("--superqueens", type=int, nargs="*", default=SIZES[Problem.SUPERQUEENS])
    parser.add_argument("--one", nargs=2, metavar=("PROBLEM", "N"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(Problem.named(args.one[0]), int(args.one[1]), args.workers)))
        return
    print(f"# family counts, {args.workers} threads, limit {args.limit:.0f} s per size")
    print("| problem | n | count | published | match | unique | published | match | seconds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for problem, sizes in ((Problem.TOROIDAL, args.toroidal), (Problem.SUPERQUEENS, args.superqueens)):
        for n in sizes:
            command = [sys.executable, __file__, "--one", problem.value, str(n), "--workers", str(args.workers)]
            try:
                done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=args.limit)
            except subprocess.TimeoutExpired:
                print(f"| {problem.value} | {n} | - | - | - | - | - | - | over {args.limit:.0f} (stopped) |", flush=True)
                break
            result = json.loads(done.stdout)
            published = A051906[n] if problem is Problem.TOROIDAL else A051223[n]
            unique = result["unique"]
            unique_cells = "- | - | -"
            if unique is not None:
                unique_cells = f"{unique} | {A051224[n]} | {'yes' if unique == A051224[n] else 'NO'}"
            print(f"| {problem.value} | {n} | {result['count']} | {published} | "
                  f"{'yes' if result['count'] == published else 'NO'} | {unique_cells} | {result['seconds']:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
