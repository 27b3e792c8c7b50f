"""Benchmark of the ``sat`` backend's enumeration (issues 2 and 5).

Two modes, each run in a fresh Python process per measurement, alternating the sides so that
a noisy machine slows every side alike; the table shows medians and ratios.

* target (default): the reference of issue 5 (seqcounter encoding, Minisat22, one blocking
  clause over the queen variables per board, written here with PySAT directly) against the
  ``sat`` backend, enumerating through ``solutions()``, in each ``--config`` (default: the
  backend's defaults). Both sides must produce the same solution set (compared by count and a
  SHA-256 digest of the sorted solutions). Ratio = ours / reference; the target is <= 0.1 (at
  least 10 times faster) for the first configuration; the exit status is 1 when it is missed::

      python benchmarks/bench_sat.py --n 12 --repeat 3

* grid: every encoding x every enumerating solver through the backend, the table behind the
  default encoding and solver (``## Choosing the SAT encoding and solver`` in docs/choosing.md)::

      python benchmarks/bench_sat.py --grid --n 10 --repeat 3
      python benchmarks/bench_sat.py --grid --n 12 --encodings pairwise,bitwise --solvers cadical195,cadical153
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import math
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Sequence

from tabulate import tabulate

Board = tuple[int, ...]


def digest(boards: Iterable[Board]) -> tuple[int, str]:
    """Count and SHA-256 of the sorted boards: equal pairs mean equal solution sets."""
    ordered = sorted(boards)
    return len(ordered), hashlib.sha256(repr(ordered).encode()).hexdigest()[:16]


def reference_boards(n: int) -> Iterator[Board]:
    """Issue 5's reference: seqcounter cardinality encoding, Minisat22, blocking on queen variables."""
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pool = IDPool()
    q = [[pool.id(("q", r, c)) for c in range(n)] for r in range(n)]
    clauses: list[list[int]] = []

    def at_most_one(lits: list[int]) -> None:
        if len(lits) > 1:
            clauses.extend(CardEnc.atmost(lits, 1, vpool=pool, encoding=EncType.seqcounter).clauses)

    for r in range(n):
        clauses.extend(CardEnc.equals(q[r], 1, vpool=pool, encoding=EncType.seqcounter).clauses)
    for c in range(n):
        at_most_one([q[r][c] for r in range(n)])
    for s in range(2 * n - 1):
        at_most_one([q[r][s - r] for r in range(n) if 0 <= s - r < n])
    for d in range(-(n - 1), n):
        at_most_one([q[r][r - d] for r in range(n) if 0 <= r - d < n])
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            queens = [lit for lit in model[: n * n] if lit > 0]
            yield tuple((lit - 1) % n for lit in queens)
            solver.add_clause([-lit for lit in queens])


def backend_boards(n: int, config: str) -> Iterator[Board]:
    """The ``sat`` backend's enumeration in configuration ``config`` (e.g. ``sat:solver=glucose4``)."""
    from nqueens_cp.backends.framework.configuration import Configuration
    from nqueens_cp.backends.framework.registry import create_backend
    from nqueens_cp.core.instance import Instance

    name, options = Configuration.split(config)
    return create_backend(name, **options).solutions(Instance(n))


def child(argv: Sequence[str]) -> None:
    """One measurement in this (fresh) process: print seconds, count and digest as JSON."""
    import pysat.card
    import pysat.solvers  # noqa: F401  (imported before the clock starts, for both sides)

    side, n_text = argv
    n = int(n_text)
    start, cpu = time.perf_counter(), time.process_time()
    boards = list(reference_boards(n) if side == "reference" else backend_boards(n, side))
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    count, sha = digest(boards)
    print(json.dumps({"seconds": seconds, "cpu": cpu, "count": count, "digest": sha,
                      "problems": timed_problems(n, boards)}))


def timed_problems(n: int, boards: list[Board]) -> list[str]:
    """What is wrong with the boards a timed run produced: each board by the independent checker,
    repeats, and their number against OEIS A000170 (checked after the clock stops)."""
    from nqueens_cp.core.checker import solution_problems
    from nqueens_cp.core.instance import Instance
    from nqueens_cp.core.oeis import A000170

    instance = Instance(n)
    problems = [f"{board}: {reasons[0]}" for board in boards if (reasons := solution_problems(instance, board))][:3]
    if len(set(boards)) != len(boards):
        problems.append(f"{len(boards) - len(set(boards))} boards repeated")
    if len(boards) != A000170[n]:
        problems.append(f"{len(boards)} solutions, OEIS A000170 says {A000170[n]}")
    return problems


def measure(side: str, n: int, timeout: float = 900) -> dict[str, object]:
    """Run one measurement in a fresh interpreter; the times are inf on timeout, nan on a crash."""
    command = [sys.executable, __file__, "--child", side, str(n)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return {"seconds": math.inf, "cpu": math.inf, "count": None, "digest": None, "problems": ["timed out"]}
    if done.returncode != 0:
        print(f"{side}: exit {done.returncode}: {done.stderr.strip()[-300:]}", file=sys.stderr)
        return {"seconds": math.nan, "cpu": math.nan, "count": None, "digest": None,
                "problems": [f"exit {done.returncode}"]}
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def target(sizes: Sequence[int], repeats: int, configs: Sequence[str]) -> bool:
    """Reference vs each configuration, alternated; medians and ratios; whether the target held."""
    from nqueens_cp.backends.sat import DEFAULT_SOLVER
    from nqueens_cp.models.cnf import DEFAULT_ENCODING

    sides = ["reference", *configs]
    rows = []
    all_met = True
    for n in sizes:
        times: dict[str, list[float]] = {side: [] for side in sides}
        cpu: dict[str, list[float]] = {side: [] for side in sides}
        digests: dict[str, set[object]] = {side: set() for side in sides}
        problems: dict[str, list[str]] = {side: [] for side in sides}
        for round_no in range(repeats):
            shift = round_no % len(sides)
            for side in [*sides[shift:], *sides[:shift]]:  # the order rotates every round
                result = measure(side, n)
                times[side].append(float(result["seconds"]))  # type: ignore[arg-type]
                cpu[side].append(float(result["cpu"]))  # type: ignore[arg-type]
                digests[side].add((result["count"], result["digest"]))
                problems[side] += result["problems"]  # type: ignore[arg-type]
        ref, ref_cpu = statistics.median(times["reference"]), statistics.median(cpu["reference"])
        for side in sides:
            ours, ours_cpu = statistics.median(times[side]), statistics.median(cpu[side])
            same = len(digests["reference"]) == 1 and digests[side] == digests["reference"]
            checked = not problems[side]
            all_met = all_met and same and checked
            for problem in problems[side][:3]:
                print(f"n={n} {side}: {problem}", file=sys.stderr)
            met = None
            if side == configs[0]:
                met = same and checked and ours / ref <= 0.1
                all_met = all_met and met
            count = next(iter(digests[side]))[0]
            rows.append([n, side, count, ours, ours / ref, ours_cpu, ours_cpu / ref_cpu, "yes" if checked else "NO",
                         "yes" if same else "NO", None if met is None else ("yes" if met else "NO")])
    print(f"sat enumeration: reference = seqcounter + minisat22 + blocking on queen variables;"
          f" backend defaults = {DEFAULT_ENCODING} + {DEFAULT_SOLVER}; median of {repeats} alternated runs"
          " (order rotated every round), each in a fresh process; ratio = side / reference (target <= 0.1 for the"
          " first configuration); checked: every timed board passed the independent checker, none repeated,"
          " their number = OEIS A000170")
    print(tabulate(rows, headers=["n", "side", "solutions", "wall s", "ratio (wall)", "cpu s", "ratio (cpu)",
                                  "checked", "same set", "target met"], floatfmt=".3f", missingval="-"))
    return all_met


def grid(n: int, repeats: int, encodings: Sequence[str], solvers: Sequence[str], timeout: float) -> bool:
    """Every encoding x solver through the backend; median seconds, solvers as rows; whether every
    timed run's boards passed the checks and the solution sets agree."""
    combos = list(itertools.product(encodings, solvers))
    times: dict[tuple[str, str], list[float]] = {combo: [] for combo in combos}
    counts: set[object] = set()
    failures: list[str] = []
    for _ in range(repeats):
        random.shuffle(combos)  # alternate: every combination once per round, in a new order
        for encoding, solver in combos:
            result = measure(f"sat:encoding={encoding}:solver={solver}", n, timeout)
            times[encoding, solver].append(float(result["cpu"]))  # type: ignore[arg-type]
            counts.add((result["count"], result["digest"]))
            for problem in result["problems"]:  # type: ignore[attr-defined]
                failures.append(f"{encoding}+{solver}: {problem}")
    medians = {combo: statistics.median(values) for combo, values in times.items()}
    rows = [[solver, *(medians[encoding, solver] for encoding in encodings)] for solver in solvers]
    print(f"sat enumeration of n={n}: median CPU seconds (build + enumerate) of {repeats} alternated runs,"
          f" each in a fresh process; solution sets agree: {'yes' if len(counts) == 1 else 'NO'};"
          f" every timed board checked: {'yes' if not failures else 'NO'}")
    for failure in failures[:5]:
        print(failure, file=sys.stderr)
    print(tabulate(rows, headers=["solver", *encodings], floatfmt=".2f"))
    best = sorted(medians.items(), key=lambda item: item[1])[:5]
    print("fastest: " + ", ".join(f"{e}+{s} {t:.2f} s" for (e, s), t in best))
    return len(counts) == 1 and not failures


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(sys.argv[2:])
        return
    from nqueens_cp.backends.sat import ENUMERATING_SOLVERS
    from nqueens_cp.models.encodings import ENCODINGS

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[12], help="board sizes (default 12)")
    parser.add_argument("--repeats", "--repeat", dest="repeats", type=int, default=3,
                        help="alternated runs per side (default 3)")
    parser.add_argument("--config", nargs="+", default=["sat"],
                        help="target: backend configurations, e.g. sat sat:solver=glucose4 (target on the first)")
    parser.add_argument("--grid", action="store_true", help="encoding x solver table instead of the target")
    parser.add_argument("--encodings", default=",".join(ENCODINGS), help="grid: comma-separated encodings")
    parser.add_argument("--solvers", default=",".join(ENUMERATING_SOLVERS), help="grid: comma-separated solvers")
    parser.add_argument("--timeout", type=float, default=300, help="grid: seconds per run before giving up")
    args = parser.parse_args()
    if args.grid:
        good = [grid(n, args.repeats, args.encodings.split(","), args.solvers.split(","), args.timeout) for n in args.n]
        sys.exit(0 if all(good) else 1)
    else:
        sys.exit(0 if target(args.n, args.repeats, args.config) else 1)


if __name__ == "__main__":
    main()
