"""Boards of millions of queens: ``nqueens-cp solve N`` (local search, the default from n = 200)
as a whole process, against the issue's targets and a C implementation of the same swap search.

Every run is a fresh process under ``/usr/bin/time`` (wall seconds, and its maximum resident
set size), writing its answer to a file; every answer is read back and checked by
the independent checker (``nqueens_cp.core.checker``, its O(n) path). Medians of ``--repeat`` runs; our
side and the C side alternate (ours first on even rounds). The load averages are printed before
and after: the machine is shared, so absolute times move with the load and the ratios measured in
one run are the figures to compare.

    python benchmarks/bench_localsearch.py            # 10^5, 10^6, 10^7, the completion, C at 10^6 and 10^7
    python benchmarks/bench_localsearch.py --huge     # also n = 10^8 (about 3 GB, a minute or two)

Exits 1 when a target is missed or an answer is wrong.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import load_average, machine
from nqueens_cp.core.checker import solution_problems
from nqueens_cp.core.instance import Instance
from nqueens_cp.instances.completion import completion_instances

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "ref" / "sosic_gu.c"
BINARY = HERE / "ref" / "build" / "sosic_gu"
FLAGS = ["-O3", "-march=native"]


@dataclass(frozen=True)
class Run:
    seconds: float
    max_rss_mb: float


def build_reference() -> Path:
    """``gcc -O3 -march=native``, again when the source or the flags changed (a stamp file holds them)."""
    compiler = shutil.which("gcc")
    if compiler is None:
        raise SystemExit("gcc is needed to build the C reference (apt-get install gcc)")
    stamp = BINARY.with_suffix(".flags")
    wanted = " ".join(FLAGS)
    if (not BINARY.exists() or BINARY.stat().st_mtime < SOURCE.stat().st_mtime
            or not stamp.exists() or stamp.read_text() != wanted):
        BINARY.parent.mkdir(exist_ok=True)
        subprocess.run([compiler, *FLAGS, "-o", str(BINARY), str(SOURCE)], check=True)
        stamp.write_text(wanted)
    return BINARY


#: GNU time reports the maximum RSS of the program alone. ``wait4`` on a child forked from this
#: process does not: the fork's copy of this process's pages (the answers it read back, up to
#: 2.7 GB after checking n = 10^8) counts towards the child's peak before it execs.
GNU_TIME = "/usr/bin/time"


def timed_process(command: list[str], output: Path) -> Run:
    """Run ``command`` with stdout to ``output``: its wall time and maximum RSS (GNU time's ``%M``)."""
    if not os.access(GNU_TIME, os.X_OK):
        raise SystemExit(f"{GNU_TIME} is needed for the memory figures (apt-get install time)")
    with open(output, "wb") as out:
        start = time.perf_counter()
        done = subprocess.run([GNU_TIME, "-f", "%M", *command], stdout=out, stderr=subprocess.PIPE, check=False)
        seconds = time.perf_counter() - start
    stderr = done.stderr.decode()
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])}...: exit {done.returncode}: {stderr.strip()}")
    return Run(seconds, int(stderr.strip().splitlines()[-1]) / 1024)


def check_answer(instance: Instance, output: Path) -> None:
    """Read the answer back and check it (O(n)); exit 1 when it is wrong."""
    columns = np.fromfile(output, dtype=np.int64, sep=" ")
    problems = solution_problems(instance, columns)
    if problems:
        raise SystemExit(f"WRONG answer for n = {instance.n:,}: {problems[0]}")


def ours(instance: Instance) -> list[str]:
    fixes = [arg for row, col in instance.fixed for arg in ("--fix", f"{row}:{col}")]
    return [sys.executable, "-m", "nqueens_cp", "solve", str(instance.n), *fixes]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per case (median; default 3)")
    parser.add_argument("--huge", action="store_true", help="also n = 10^8 (about 3 GB of memory)")
    args = parser.parse_args(argv)
    reference = build_reference()
    print(f"machine: {machine()}")
    print(f"load before: {load_average()} (the machine is shared with other jobs)")
    (completion,) = completion_instances(10**6, 1000, 1, seed=0)
    cases: list[tuple[str, Instance, float, float | None, bool]] = [
        ("n = 100,000", Instance(10**5), 1.0, None, False),
        ("n = 1,000,000", Instance(10**6), 2.0, None, True),
        ("n = 10,000,000", Instance(10**7), 10.0, 1024.0, True),
        ("completion n = 1,000,000, 1,000 pre-placed (seed 0)", completion, 10.0, None, False),
    ]
    if args.huge:
        cases.append(("n = 100,000,000", Instance(10**8), 120.0, 8192.0, False))
    rows = []
    all_met = True
    subprocess.run(ours(Instance(1000)), stdout=subprocess.DEVNULL, check=True)  # numba's cache is warm
    with tempfile.TemporaryDirectory() as scratch:
        output = Path(scratch) / "answer.txt"
        for label, instance, seconds_target, memory_target, with_c in cases:
            mine: list[Run] = []
            theirs: list[Run] = []
            for round_no in range(args.repeat):
                sides = ("ours", "c") if round_no % 2 == 0 else ("c", "ours")
                for side in sides:
                    if side == "ours":
                        mine.append(timed_process(ours(instance), output))
                    elif with_c:
                        theirs.append(timed_process([str(reference), str(instance.n), "0"], output))
                    else:
                        continue
                    check_answer(instance, output)
            wall = statistics.median(r.seconds for r in mine)
            rss = max(r.max_rss_mb for r in mine)
            met = wall <= seconds_target and (memory_target is None or rss <= memory_target)
            all_met = all_met and met
            c_wall = statistics.median(r.seconds for r in theirs) if theirs else None
            rows.append((label, wall, rss, seconds_target, memory_target, met, c_wall))
            print(f"  {label}: {wall:.2f} s, {rss:,.0f} MB" + (f"; C {c_wall:.2f} s" if c_wall else "")
                  + f" (load {load_average()})", flush=True)
    print()
    print("| board | ours: median wall s | max RSS MB | target | met | C swap search: median wall s | ours / C |")
    print("|---|---|---|---|---|---|---|")
    for label, wall, rss, seconds_target, memory_target, met, c_wall in rows:
        target = f"<= {seconds_target:g} s" + (f", <= {memory_target:,.0f} MB" if memory_target else "")
        c_text = f"{c_wall:.2f}" if c_wall else "-"
        ratio = f"{wall / c_wall:.2f}" if c_wall else "-"
        print(f"| {label} | {wall:.2f} | {rss:,.0f} | {target} | {'yes' if met else 'NO'} | {c_text} | {ratio} |")
    print(f"\nruns per case: {args.repeat} (medians); every answer checked by nqueens_cp.core.checker")
    print(f"load after: {load_average()}")
    return 0 if all_met else 1


if __name__ == "__main__":
    sys.exit(main())
