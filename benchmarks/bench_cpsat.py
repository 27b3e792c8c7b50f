"""Benchmark of the ``cpsat`` backend's enumeration against OR-Tools' sample configuration (issue 5).

Sides, each measured in a fresh Python process, alternated round by round so that a noisy
machine slows every side alike; the table shows the median wall and CPU seconds and the ratio
side / reference (below 1: faster than the reference; the target is <= 0.5 at n = 11 and 12):

* ``reference``: OR-Tools' N-Queens sample written out here: q[i] per row, the three
  AllDifferent, default parameters, ``num_workers = 1``, ``enumerate_all_solutions`` and a
  callback that only counts.
* ``count <config>``: ``create_backend(...).count(Instance(n))`` for each ``--config`` (default:
  the backend's defaults, i.e. the tuned strategy, and ``cpsat:strategy=plain`` for comparison).
* ``stream <config>``: the first configuration's ``solutions()`` iterator consumed to the end
  (the boards come through a queue from the solver thread).
* ``minizinc gecode`` (only when ``minizinc`` with Gecode is installed): the same three
  ``alldifferent`` in MiniZinc, first-fail search, ``--all-solutions``, as an outside reference
  (wall time of the subprocess, flattening included; for information).

Targets apply to the rows of the first configuration; the exit status is 1 when one is missed or
a check fails. Checks of the timed runs themselves (after the clock stops): every count equals
OEIS A000170; where the timed path yields the boards (``stream``, MiniZinc) every board passes
the independent checker, none repeats, and their SHA-256 digest is the solution set compared with
the reference's. The reference and the ``count`` sides only count when timed (the reference as
OR-Tools' sample does, ``count`` through the backend's counting callback): their solution sets
come from one more, untimed run per side that records the boards. The order of the sides rotates
every round. Run::

    python benchmarks/bench_cpsat.py --n 11 12 --repeat 3
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from tabulate import tabulate

Board = tuple[int, ...]
MINIZINC = "minizinc gecode"
TARGET = 0.5

MZN_MODEL = """\
include "alldifferent.mzn";
int: n;
array[0..n-1] of var 0..n-1: q;
constraint alldifferent(q);
constraint alldifferent(i in 0..n-1)(q[i] + i);
constraint alldifferent(i in 0..n-1)(q[i] - i);
solve :: int_search(q, first_fail, indomain_min) satisfy;
output [join(" ", [show(q[i]) | i in 0..n-1])];
"""


def digest(boards: Iterable[Board]) -> tuple[int, str]:
    """Count and SHA-256 of the sorted boards: equal pairs mean equal solution sets."""
    ordered = sorted(boards)
    return len(ordered), hashlib.sha256(repr(ordered).encode()).hexdigest()[:16]


def reference(n: int, record: bool) -> tuple[int, list[Board]]:
    """OR-Tools' sample configuration; ``record`` keeps the boards (for the set check only)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"x_{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different([queens[i] + i for i in range(n)])
    model.add_all_different([queens[i] - i for i in range(n)])
    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0
            self.boards: list[Board] = []

        def on_solution_callback(self) -> None:
            self.count += 1
            if record:
                self.boards.append(tuple(int(self.value(q)) for q in queens))

    counter = Counter()
    solver.solve(model, counter)
    return counter.count, counter.boards


def minizinc(n: int) -> list[Board]:
    """All solutions from MiniZinc with Gecode (one board per line of its output)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "queens.mzn"
        path.write_text(MZN_MODEL)
        done = subprocess.run(
            ["minizinc", "--solver", "gecode", "--all-solutions", "-D", f"n = {n};", str(path)],
            capture_output=True, text=True, check=True,
        )
    return [tuple(map(int, line.split())) for line in done.stdout.splitlines() if line and line[0].isdigit()]


def timed_problems(n: int, count: int, boards: list[Board] | None) -> list[str]:
    """What is wrong with a timed run's result: its count against OEIS A000170 and, when the timed
    path produced the boards, each board by the independent checker and their distinctness."""
    from nqueens_cp.core.checker import solution_problems
    from nqueens_cp.core.instance import Instance
    from nqueens_cp.core.oeis import A000170

    problems = [f"counted {count}, OEIS A000170 says {A000170[n]}"] if count != A000170[n] else []
    if boards is not None:
        instance = Instance(n)
        problems += [f"{board}: {reasons[0]}" for board in boards if (reasons := solution_problems(instance, board))][:3]
        if len(set(boards)) != len(boards):
            problems.append(f"{len(boards) - len(set(boards))} boards repeated")
    return problems


def child(side: str, n: int, record: bool) -> None:
    """One run of ``side`` in this (fresh) process: print seconds, count, digest and what the check of
    the timed result found, as JSON. The check runs after the clock stops."""
    import ortools.sat.python.cp_model  # noqa: F401  (imported before the clock starts, for every side)

    from nqueens_cp.backends.framework.configuration import Configuration
    from nqueens_cp.backends.framework.registry import create_backend
    from nqueens_cp.core.instance import Instance

    boards: list[Board] = []
    kind, _, config = side.partition(" ")
    if kind in ("count", "stream"):
        name, options = Configuration.split(config)
        backend = create_backend(name, **options)
    wall, cpu = time.perf_counter(), time.process_time()
    if side == "reference":
        count, boards = reference(n, record)
    elif kind == "stream" or (kind == "count" and record):
        boards = list(backend.solutions(Instance(n)))
        count = len(boards)
    elif kind == "count":
        count = backend.count(Instance(n))
    elif side == MINIZINC:
        boards = minizinc(n)
        count = len(boards)
    else:
        raise SystemExit(f"unknown side {side!r}")
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    has_boards = record or kind == "stream" or side == MINIZINC
    # MiniZinc's solving happens in child processes: their CPU time is not in process_time().
    result = {"wall": wall, "cpu": cpu if side != MINIZINC else None, "count": count,
              "digest": digest(boards)[1] if has_boards else None,
              "problems": timed_problems(n, count, boards if has_boards else None)}
    print(json.dumps(result))


def measure(side: str, n: int, record: bool = False) -> dict[str, object]:
    """Run ``side`` once in a fresh interpreter and return its JSON result."""
    command = [sys.executable, __file__, "--child", side, str(n), "record" if record else "time"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"n={n} {side}: the measuring process failed (exit {done.returncode}): "
                         f"{done.stderr.strip()[-300:]}")
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def has_minizinc_gecode() -> bool:
    """Whether ``minizinc`` is on PATH and lists a Gecode solver."""
    if shutil.which("minizinc") is None:
        return False
    done = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True, check=False)
    return "org.gecode.gecode" in done.stdout


def run(sizes: Sequence[int], repeats: int, sides: Sequence[str], targeted: Sequence[str]) -> bool:
    """Measure every side at every size (the order of the sides rotated every round); check every
    timed result; print the table; return whether every target was met and every check passed."""
    rows = []
    all_met = True
    for n in sizes:
        wall: dict[str, list[float]] = {side: [] for side in sides}
        cpu: dict[str, list[float]] = {side: [] for side in sides}
        counts: dict[str, object] = {}
        timed_digests: dict[str, set[object]] = {side: set() for side in sides}
        problems: dict[str, list[str]] = {side: [] for side in sides}
        for round_no in range(repeats):
            shift = round_no % len(sides)
            for side in [*sides[shift:], *sides[:shift]]:
                result = measure(side, n)
                wall[side].append(float(result["wall"]))  # type: ignore[arg-type]
                if result["cpu"] is not None:
                    cpu[side].append(float(result["cpu"]))  # type: ignore[arg-type]
                counts[side] = result["count"]
                problems[side] += result["problems"]  # type: ignore[arg-type]
                if result["digest"] is not None:
                    timed_digests[side].add(result["digest"])
        # The solution set: the timed boards' where the timed path yields boards (stream, MiniZinc),
        # else one untimed run recording them (the reference and count sides only count when timed).
        sets: dict[str, object] = {}
        for side in sides:
            if timed_digests[side]:
                sets[side] = (counts[side], timed_digests[side].pop() if len(timed_digests[side]) == 1 else "differ")
            else:
                recorded = measure(side, n, record=True)
                problems[side] += recorded["problems"]  # type: ignore[arg-type]
                sets[side] = (recorded["count"], recorded["digest"])
        ref_wall = statistics.median(wall["reference"])
        ref_cpu = statistics.median(cpu["reference"])
        for side in sides:
            side_wall = statistics.median(wall[side])
            side_cpu = statistics.median(cpu[side]) if cpu[side] else None
            same = sets[side] == sets["reference"]
            checked = not problems[side]
            all_met = all_met and same and checked
            for problem in problems[side][:3]:
                print(f"n={n} {side}: {problem}", file=sys.stderr)
            met = None
            if side in targeted:
                met = same and checked and side_wall / ref_wall <= TARGET
                all_met = all_met and met
            rows.append([
                n, side, counts[side], side_wall, side_wall / ref_wall,
                side_cpu, side_cpu / ref_cpu if side_cpu else None,
                "yes" if checked else "NO", "yes" if same else "NO", None if met is None else ("yes" if met else "NO"),
            ])
    print(f"cpsat enumeration: median of {repeats} alternated runs per side (order rotated every round), each in a"
          f" fresh process; ratio = side / reference (target <= {TARGET} on the wall ratio of the first configuration);"
          " checked: every timed count = OEIS A000170 and every timed board passed the independent checker")
    print(tabulate(rows, headers=["n", "side", "solutions", "wall s", "ratio (wall)", "cpu s", "ratio (cpu)",
                                  "checked", "same set", "target met"], floatfmt=".3f", missingval="-"))
    return all_met


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        side, n, mode = sys.argv[2:5]
        child(side, int(n), mode == "record")
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[11, 12], help="board sizes (default 11 12)")
    parser.add_argument("--repeats", "--repeat", dest="repeats", type=int, default=3,
                        help="alternated runs per side (default 3)")
    parser.add_argument("--config", nargs="+", default=["cpsat", "cpsat:strategy=plain"],
                        help="backend configurations (default: cpsat cpsat:strategy=plain); targets on the first")
    parser.add_argument("--no-minizinc", action="store_true", help="leave MiniZinc + Gecode out")
    args = parser.parse_args()
    targeted = [f"count {args.config[0]}", f"stream {args.config[0]}"]
    sides = ["reference", targeted[0], targeted[1], *(f"count {config}" for config in args.config[1:])]
    if not args.no_minizinc and has_minizinc_gecode():
        sides.append(MINIZINC)
    sys.exit(0 if run(args.n, args.repeats, sides, targeted) else 1)


if __name__ == "__main__":
    main()
