"""ASP, MIP, SMT and pseudo-Boolean side by side, two formulations (or solvers) each, whole process.

Each configuration is the command a user types, ``nqueens-cp solve N --backend B -O ...``, run as a
subprocess (start-up included) with a cap on its wall time; configurations alternate round by
round and each cell is the median of ``--repeat`` runs. Two tasks, the targets of issue 21:

* ``count``: ``solve 10 --count`` (target: at most 5 s), the printed count checked against OEIS;
* ``first``: ``solve 256`` (target: at most 30 s), the printed board checked by the independent checker.

Both wall and CPU time (user + system of the child) are printed: on the shared 2-core machine the
wall time includes the other jobs' load, the CPU time is close to what an idle machine gives for
these single-threaded solvers (HiGHS may use a second thread: its CPU time can exceed the wall).

    python benchmarks/bench_paradigms_a.py                       # every configuration, both tasks
    python benchmarks/bench_paradigms_a.py --task count --only asp --repeat 3
    python benchmarks/bench_paradigms_a.py --asp-configurations  # clasp's presets, count n = 12 and first n = 256
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

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE))

from _common import load_average  # noqa: E402

from nqueens_cp import Instance, is_valid_solution  # noqa: E402
from nqueens_cp.core.oeis import A000170  # noqa: E402

#: The configurations compared, per paradigm: the default first.
CONFIGS: dict[str, list[list[str]]] = {
    "asp": [["--backend", "asp"], ["--backend", "asp", "-O", "formulation=pairwise"]],
    "pb": [["--backend", "pb"], ["--backend", "pb", "-O", "formulation=clauses"]],
    "smt": [["--backend", "smt"], ["--backend", "smt", "-O", "model=int"], ["--backend", "smt", "-O", "logic=default"]],
    "mip": [["--backend", "mip"], ["--backend", "mip", "-O", "formulation=pairwise"]],
}
TARGETS = {"count": (10, 5.0), "first": (256, 30.0)}


def label(args: list[str]) -> str:
    return ":".join([args[1], *(a for a in args[2:] if a != "-O")])


def run_once(args: list[str], task: str, n: int, cap: float) -> tuple[float, float, str]:
    """Wall and CPU seconds of one command and its verdict: ``ok``, ``capped``, ``refused`` or ``WRONG``."""
    command = [sys.executable, "-m", "nqueens_cp", "solve", str(n), *args, *(["--count"] if task == "count" else [])]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=cap, env=env)
    except subprocess.TimeoutExpired:
        return cap, float("nan"), "capped"
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode == 2:
        return wall, cpu, "refused"
    out = done.stdout.split()
    if task == "count":
        verdict = "ok" if done.returncode == 0 and out and int(out[-1]) == A000170[n] else "WRONG"
    else:
        board = tuple(int(v) for v in out) if done.returncode == 0 else ()
        verdict = "ok" if len(board) == n and is_valid_solution(Instance(n), board) else "WRONG"
    return wall, cpu, verdict


def bench(configs: list[list[str]], task: str, n: int, repeat: int, cap: float) -> bool:
    results: dict[str, list[tuple[float, float, str]]] = {label(c): [] for c in configs}
    for _ in range(repeat):
        for config in configs:  # alternate: one run of each per round
            if any(v in ("capped", "refused") for _, _, v in results[label(config)]):
                continue  # capped or refused once: not again
            results[label(config)].append(run_once(config, task, n, cap))
    target = TARGETS[task][1] if n == TARGETS[task][0] else None
    print(f"\n{task} n = {n} (median of {repeat}, whole process, cap {cap:g} s; load {load_average()})")
    print(f"| configuration | wall s | CPU s | runs | verdict |{' target |' if target else ''}")
    print(f"|---|--:|--:|--:|---|{'---|' if target else ''}")
    fine = True
    for name, runs in results.items():
        verdicts = {v for _, _, v in runs}
        wall = statistics.median(w for w, _, _ in runs)
        cpu = statistics.median(c for _, c, _ in runs)
        verdict = "WRONG" if "WRONG" in verdicts else ("capped" if "capped" in verdicts else
                                                       "refused" if "refused" in verdicts else "ok")
        fine &= verdict != "WRONG"
        met = "" if not target else (" met |" if verdict == "ok" and wall <= target else " missed |")
        print(f"| {name} | {wall:.2f} | {cpu:.2f} | {len(runs)} | {verdict} |{met}")
    return fine


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--task", choices=("count", "first", "both"), default="both")
    parser.add_argument("--only", choices=sorted(CONFIGS), action="append", help="a paradigm (repeatable)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=60.0, help="wall-time cap per run in seconds")
    parser.add_argument("--n", type=int, help="the board size (default: 10 to count, 256 for a first solution)")
    parser.add_argument("--asp-configurations", action="store_true",
                        help="compare clasp's preset configurations instead (asp, count n = 12, first n = 256)")
    args = parser.parse_args()
    fine = True
    if args.asp_configurations:
        presets = [["--backend", "asp", "-O", f"configuration={c}"] for c in ("crafty", "auto", "frumpy", "trendy")]
        fine &= bench(presets, "count", args.n or 12, args.repeat, args.cap)
        fine &= bench(presets, "first", 256, args.repeat, args.cap)
        return 0 if fine else 1
    tasks = ("count", "first") if args.task == "both" else (args.task,)
    for paradigm in args.only or sorted(CONFIGS):
        for task in tasks:
            fine &= bench(CONFIGS[paradigm], task, args.n or TARGETS[task][0], args.repeat, args.cap)
    return 0 if fine else 1


if __name__ == "__main__":
    raise SystemExit(main())
