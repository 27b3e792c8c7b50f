"""What checking every printed board costs ``solve``: this checkout against a copy of the code from
before the checks, whole processes, output to /dev/null, alternated (medians of ``--repeat``).

The cases: ``solve 100000000`` (the array path: one board of 10^8 rows, checked in one compiled
pass) and ``solve 16 --all`` (14,772,512 boards from the compiled kernel, checked batch by batch,
each after the one before). Target: each median within 5% of the old code's; the CPU time (user +
system) is printed beside the wall time, as a shared machine moves it less.

    git archive d7ad6e6 | tar -x -C /tmp/nqueens-cp-before-checks
    python benchmarks/bench_solve_check.py --old /tmp/nqueens-cp-before-checks [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import alternate, load_average, machine

REPO = Path(__file__).resolve().parents[1]
#: The huge board with the construction on both sides: the default first solution of n = 10^8 changed
#: (local search before, the construction now that local search stops at 5 * 10^7), and like is
#: compared with like; the default command is timed too, by its own name, as a user runs it.
CASES = ("100000000 --backend construction", "16 --all", "100000000")
#: Run once on each side before the timing: compiles (or loads) what a first run compiles.
WARM_UP = ("300000", "10 --all")
TARGET = 1.05


def wall(code: Path, args: str) -> tuple[float, object]:
    """Wall time of ``python -m nqueens_cp solve ARGS > /dev/null`` with ``code`` first on the path,
    and its CPU time (user + system: less moved by other jobs on a shared machine)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", *args.split()], stdout=subprocess.DEVNULL,
                   check=True, env=env, cwd=code)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return seconds, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def measured(code: Path, args: str, cpu: list[float]) -> tuple[float, object]:
    """:func:`wall`, its CPU time appended to ``cpu``."""
    seconds, used = wall(code, args)
    cpu.append(float(used))  # type: ignore[arg-type]
    return seconds, None


def compare(case: str, old_code: Path, repeat: int) -> bool:
    """Time ``solve CASE`` checked (this checkout) and unchecked (``old_code``), alternated; print
    the medians and ratios; whether the target is met (by wall or by CPU time)."""
    before = load_average()
    new_cpu: list[float] = []
    old_cpu: list[float] = []
    new, old, _, _ = alternate(lambda: measured(REPO, case, new_cpu), lambda: measured(old_code, case, old_cpu), repeat)
    ratio = statistics.median(new) / statistics.median(old)
    cpu_ratio = statistics.median(new_cpu) / statistics.median(old_cpu)
    runs = [f"{t:.1f}/{c:.1f}" for t, c in zip(new, new_cpu, strict=True)]
    old_runs = [f"{t:.1f}/{c:.1f}" for t, c in zip(old, old_cpu, strict=True)]
    print(f"solve {case} > /dev/null: wall checked {statistics.median(new):.2f} s, unchecked "
          f"{statistics.median(old):.2f} s, ratio {ratio:.3f}; cpu checked {statistics.median(new_cpu):.2f} s, "
          f"unchecked {statistics.median(old_cpu):.2f} s, ratio {cpu_ratio:.3f} (target <= {TARGET}); "
          f"runs (wall/cpu s) checked {', '.join(runs)}, unchecked {', '.join(old_runs)}; "
          f"load {before} before, {load_average()} after", flush=True)
    return min(ratio, cpu_ratio) <= TARGET


#: Run in a fresh process of this checkout: the CPU time of loading the huge board's check and of its
#: pass, apart from the rest of the command (which builds and prints the board).
_OWN_COST = """
import resource, sys
from nqueens_cp.searches.constructions import construction
columns = construction(int(sys.argv[1]))
def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime
start = cpu()
from nqueens_cp.core.clash_kernel import first_clash
import numpy as np
assert first_clash(np.array([1, 3, 0, 2], np.int32)) == -1
loaded = cpu()
assert first_clash(columns) == -1
print(loaded - start, cpu() - loaded)
"""


def own_cost(n: int, repeat: int) -> None:
    """Print the check's own CPU time in this checkout (medians of ``repeat`` processes): its load and
    its pass over the construction's board of n rows."""
    runs = [subprocess.run([sys.executable, "-c", _OWN_COST, str(n)], capture_output=True, text=True, check=True,
                           cwd=REPO).stdout.split() for _ in range(repeat)]
    load = statistics.median(float(run[0]) for run in runs)
    check = statistics.median(float(run[1]) for run in runs)
    print(f"the check's own CPU time in this checkout, n = {n}: load {load:.3f} s, pass {check:.3f} s "
          f"(medians of {repeat} processes; runs {', '.join(f'{float(a):.3f}+{float(b):.3f}' for a, b in runs)})",
          flush=True)


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
        met &= compare(case, args.old, args.repeat)
    own_cost(100_000_000, args.repeat)
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
