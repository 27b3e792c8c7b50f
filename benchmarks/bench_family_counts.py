"""The family's compiled counters on 2 threads against the published terms (issue 37).

Toroidal queens (A051906) for n = 5, 7, 11, 13, 17, 19, 23, 25 and superqueens (A051223, and
A051224 up to symmetry by Burnside's lemma) for n = 10..20. Each size runs in a child process
(``--one PROBLEM N``) with a limit of 10 minutes: a size that takes longer is reported as over
the limit and stops its sequence. Per size: the count, the published term, whether they match,
the wall seconds and the CPU seconds of all threads (the child's counting only, its numba load
excluded by a warm-up on a small board). The target: every term within 10 minutes on 2 cores.

``--compare-old`` also runs, size by size right after the new counter, the searches the counters
replaced (``family_kernel.search_count``: the torus's column shift alone, the superqueens'
mirror alone; the classes by Burnside's lemma in both) and prints ``old / new`` of the wall and
of the CPU seconds; the old side stops its sequence at the limit too.

    python benchmarks/bench_family_counts.py [--limit 600] [--workers 2] [--compare-old]
                                             [--toroidal N ...] [--superqueens N ...]
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


def one(problem: Problem, n: int, workers: int, old: bool) -> dict[str, object]:
    """Count one size in this process (``old``: by the searches the counters replaced) and return
    its figures."""
    from nqueens_cp.searches.family_kernel import count, search_count, unique_count

    counter = search_count if old else count
    rules = problem.rules
    for warm in (7, 11):  # load (or compile) the machine code
        counter(rules, warm, workers)
        unique_count(rules, warm, workers)
    start, cpu = time.perf_counter(), time.process_time()
    total = counter(rules, n, workers)
    unique = unique_count(rules, n, workers, total) if problem is Problem.SUPERQUEENS else None
    return {"count": total, "unique": unique, "seconds": time.perf_counter() - start,
            "cpu": time.process_time() - cpu}


def _run(problem: Problem, n: int, workers: int, old: bool, limit: float) -> dict[str, object] | None:
    """:func:`one` in a child process; None when it takes longer than ``limit`` seconds."""
    command = [sys.executable, __file__, "--one", problem.value, str(n), "--workers", str(workers)]
    try:
        done = subprocess.run(command + (["--old"] if old else []), capture_output=True, text=True, check=True,
                              timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    result: dict[str, object] = json.loads(done.stdout)
    return result


def _ratio(old: dict[str, object] | None, new: dict[str, object], key: str) -> str:
    return "-" if old is None else f"{float(old[key]) / max(float(new[key]), 1e-9):.1f}"  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per size (default 600)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--compare-old", action="store_true", help="also time the searches the counters replaced")
    parser.add_argument("--toroidal", type=int, nargs="*", default=SIZES[Problem.TOROIDAL])
    parser.add_argument("--superqueens", type=int, nargs="*", default=SIZES[Problem.SUPERQUEENS])
    parser.add_argument("--one", nargs=2, metavar=("PROBLEM", "N"), help=argparse.SUPPRESS)
    parser.add_argument("--old", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(Problem.named(args.one[0]), int(args.one[1]), args.workers, args.old)))
        return
    print(f"# family counts, {args.workers} threads, limit {args.limit:.0f} s per size")
    header = "| problem | n | count | published | match | unique | published | match | seconds | CPU seconds |"
    rule = "|---|---|---|---|---|---|---|---|---|---|"
    if args.compare_old:
        header += " old seconds | old CPU | old / new (wall) | old / new (CPU) |"
        rule += "---|---|---|---|"
    print(header)
    print(rule)
    for problem, sizes in ((Problem.TOROIDAL, args.toroidal), (Problem.SUPERQUEENS, args.superqueens)):
        old_running = args.compare_old
        for n in sizes:
            result = _run(problem, n, args.workers, False, args.limit)
            if result is None:
                print(f"| {problem.value} | {n} | - | - | - | - | - | - | over {args.limit:.0f} (stopped) | - |",
                      flush=True)
                break
            published = A051906[n] if problem is Problem.TOROIDAL else A051223[n]
            unique = result["unique"]
            unique_cells = "- | - | -"
            if unique is not None:
                unique_cells = f"{unique} | {A051224[n]} | {'yes' if unique == A051224[n] else 'NO'}"
            line = (f"| {problem.value} | {n} | {result['count']} | {published} | "
                    f"{'yes' if result['count'] == published else 'NO'} | {unique_cells} | {result['seconds']:.2f} | "
                    f"{result['cpu']:.2f} |")
            if args.compare_old:
                old = _run(problem, n, args.workers, True, args.limit) if old_running else None
                if old is not None and (old["count"], old["unique"]) != (result["count"], result["unique"]):
                    line += " old count differs: NO |"
                missing = f"over {args.limit:.0f} (stopped)" if old_running else "-"
                old_running = old is not None
                line += (f" {missing if old is None else format(old['seconds'], '.2f')} |"
                         f" {'-' if old is None else format(old['cpu'], '.2f')} |"
                         f" {_ratio(old, result, 'seconds')} | {_ratio(old, result, 'cpu')} |")
            print(line, flush=True)


if __name__ == "__main__":
    main()
