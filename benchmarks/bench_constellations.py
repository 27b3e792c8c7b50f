"""Counting by start constellations: whole commands against C, serial and split, n = 17 and 18 by default.

The references, built by this script with ``gcc -O3 -march=native`` into ``benchmarks/build/`` from
``benchmarks/ref/constellations.c``:

* ``C faf``: the constellations method as published (Q27 / NQueensFAF: the class member with the
  queen nearest a corner in the last row, a recursive search inserting the border queens'
  diagonals at their rows) -- the reference to beat; target: ours / C faf <= 0.9;
* ``C same``: our algorithm line for line in C (same orientation, same per-row masks, same
  explicit stack), so that ours / C same measures compiled numba against C on identical work.

Every side is a whole process, timed from start to exit (wall) and by the processor time it got
(user + system, from ``getrusage``): ``nqueens-cp solve N --count --backend bitboard`` includes
Python's and numba's start-up and the generation of the constellations, as the C programs include
theirs. Sides run alternately, ``--repeat`` times each (medians). On a shared machine the wall
times stretch with the load (printed before and after); the processor times stretch much less.

``--parallel`` adds, per n, the serial command against ``--workers 2`` (its default executor,
two threads of one process; target: serial / workers >= 1.8) and against ``--workers 2
--executor processes`` (a process pool), and Dask against the process pool (target: <= 1.05)
two ways: ``--executor dask --workers 2``, which starts a local cluster inside the command (for
this kernel one worker of two threads in the command's process) and so pays its start-up, and
``--scheduler`` to a cluster already running (``dask scheduler`` and two ``dask worker --nthreads
1`` processes on localhost, started by this script before the timing, as a user of a cluster
would have them): the executor's own cost. That pair alternates on its own, while the cluster
runs; the other sides alternate without it. Every count is checked against OEIS
A000170. Their processor time is not comparable (the workers are not this
script's children), so only wall times are given. As a yardstick of what two processes can get
from the machine at that moment, ``C same`` is also run alone and twice at once, alternately:
``2 * alone / together`` is the throughput of two processes relative to one (2.0 on an idle
2-core machine; on a shared machine whatever the other jobs leave).

    python benchmarks/bench_constellations.py [--n 17 18] [--repeat 3] [--parallel] [--no-c]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Iterator

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import build_c, load_average, machine  # noqa: E402

from nqueens_cp.oeis import A000170  # noqa: E402

SOURCE = HERE / "ref" / "constellations.c"
BINARY = HERE / "build" / "constellations"


def build_reference() -> Path:
    """Compile the C reference with ``gcc -O3 -march=native`` (again when the source, the compiler or the flags change)."""
    return build_c(SOURCE, BINARY)


def run_process(command: list[str], count_field: int) -> tuple[float, float, int]:
    """Wall seconds, processor seconds (user + system, the process and its children) and the count
    printed by ``command`` (whitespace field ``count_field`` of its output)."""
    before = os.times()
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, int(output.split()[count_field])


def two_at_once(command: list[str], count_field: int) -> tuple[float, float, int]:
    """Wall seconds for two copies of ``command`` started together (both must count right)."""
    start = time.perf_counter()
    copies = [subprocess.Popen(command, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [copy.communicate()[0] for copy in copies]
    wall = time.perf_counter() - start
    counts = {int(output.split()[count_field]) for output in outputs}
    return wall, 0.0, counts.pop() if len(counts) == 1 else -1


@contextlib.contextmanager
def running_dask_cluster(workers: int = 2) -> Iterator[str]:
    """A ``dask scheduler`` and ``workers`` single-threaded ``dask worker`` processes on localhost,
    for the duration of the block; yields the scheduler's address. Each worker has counted once
    (numba loaded) before the block's body runs, as on a cluster in use."""
    dask = shutil.which("dask", path=os.path.dirname(sys.executable)) or shutil.which("dask")
    if dask is None:
        raise SystemExit("the dask command is missing: pip install 'nqueens-cp[dask]'")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    processes = [subprocess.Popen([dask, "scheduler", "--host", "127.0.0.1", "--port", str(port), "--no-dashboard"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)]
    try:
        for _ in range(workers):
            processes.append(subprocess.Popen(
                [dask, "worker", address, "--nthreads", "1", "--nworkers", "1", "--no-nanny", "--no-dashboard",
                 "--host", "127.0.0.1"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True))
        warm = subprocess.run(ours(14, "--scheduler", address), capture_output=True, text=True, timeout=300)
        if warm.returncode != 0:
            raise SystemExit(f"the Dask cluster at {address} did not count: {warm.stderr.strip()}")
        yield address
    finally:
        for process in processes:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def ours(n: int, *extra: str) -> list[str]:
    return [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--count", "--backend", "bitboard", *extra]


def reference(kind: str, n: int) -> list[str]:
    return [str(BINARY), kind, str(n)]


def alternate(sides: dict[str, tuple[list[str], int]], repeat: int, n: int) -> dict[str, tuple[list[float], list[float]]]:
    """Run every side ``repeat`` times, rotating the order each round; exits on a wrong count."""
    names = list(sides)
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
    for round_no in range(repeat):
        order = names[round_no % len(names):] + names[: round_no % len(names)]
        for name in order:
            command, field = sides[name]
            wall, cpu, count = (two_at_once if name == "C same x2" else run_process)(command, field)
            if count != A000170[n]:
                raise SystemExit(f"n={n}: {name} counted {count}, OEIS A000170 says {A000170[n]}")
            times[name][0].append(wall)
            times[name][1].append(cpu)
    return times


def ratio_row(label: str, times: dict[str, tuple[list[float], list[float]]], ours_side: str, ref_side: str,
              target: str, meets: partial[bool] | None) -> list[str]:
    our_wall, our_cpu = (statistics.median(values) for values in times[ours_side])
    ref_wall, ref_cpu = (statistics.median(values) for values in times[ref_side])
    ratio = our_wall / ref_wall
    met = "" if meets is None else ("yes" if meets(ratio) else "NO")
    return [label, f"{our_wall:.2f}", f"{ref_wall:.2f}", f"{ratio:.3f}", f"{our_cpu / ref_cpu:.3f}", target, met,
            str(len(times[ours_side][0]))]


def at_most(limit: float, ratio: float) -> bool:
    return ratio <= limit


def at_least(limit: float, ratio: float) -> bool:
    return ratio >= limit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[17, 18])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--parallel", action="store_true", help="also serial against --workers 2 and Dask")
    parser.add_argument("--no-c", action="store_true", help="skip the C comparison")
    args = parser.parse_args(argv)
    build_reference()
    run_process(ours(12), 0)  # numba's cache is warm before anything is timed
    run_process(ours(14), 0)
    print(f"machine: {machine()}")
    rows: list[list[str]] = []
    ok = True
    for n in args.n:
        print(f"n={n}: load before {load_average()}", flush=True)
        if not args.no_c:
            times = alternate(
                {"ours": (ours(n), 0), "C faf": (reference("faf", n), 1), "C same": (reference("ours", n), 1)},
                args.repeat, n,
            )
            rows.append(ratio_row(f"n={n} serial / C faf (published method)", times, "ours", "C faf", "<= 0.9",
                                  partial(at_most, 0.9)))
            rows.append(ratio_row(f"n={n} serial / C same algorithm", times, "ours", "C same", "(numba vs C)", None))
            rows.append(ratio_row(f"n={n} C same / C faf", times, "C same", "C faf", "(info)", None))
        if args.parallel:
            times = alternate(
                {"serial": (ours(n), 0), "workers 2": (ours(n, "--workers", "2"), 0),
                 "processes 2": (ours(n, "--workers", "2", "--executor", "processes"), 0),
                 "dask 2": (ours(n, "--executor", "dask", "--workers", "2"), 0),
                 "C same x1": (reference("ours", n), 1), "C same x2": (reference("ours", n), 1)},
                args.repeat, n,
            )
            # Apart: the idle scheduler and workers of a running cluster take a little of the machine.
            with running_dask_cluster(2) as address:
                beside_cluster = alternate(
                    {"processes 2": (ours(n, "--workers", "2", "--executor", "processes"), 0),
                     "dask running": (ours(n, "--scheduler", address), 0)},
                    args.repeat, n,
                )
            available = 2 * statistics.median(times["C same x1"][0]) / statistics.median(times["C same x2"][0])
            for side, label, target in (("workers 2", "--workers 2 (threads)", ">= 1.8"),
                                        ("processes 2", "--workers 2 --executor processes", "(info)")):
                speedup = statistics.median(times["serial"][0]) / statistics.median(times[side][0])
                met = "" if target == "(info)" else "yes" if speedup >= 1.8 else "NO"
                rows.append([f"n={n} serial / {label}", f"{statistics.median(times['serial'][0]):.2f}",
                             f"{statistics.median(times[side][0]):.2f}", f"{speedup:.3f}", "",
                             target, met, str(args.repeat)])
            for runs, side, label in ((beside_cluster, "dask running", "Dask, cluster running (2 workers)"),
                                      (times, "dask 2", "Dask, local cluster started by the command")):
                for pool, pool_label, target, check in (
                    ("processes 2", "process pool", "<= 1.05", partial(at_most, 1.05)),
                    ("workers 2", "threads", "(info)", None),
                ):
                    if pool not in runs:
                        continue
                    dask_row = ratio_row(f"n={n} {label} / {pool_label}", runs, side, pool, target, check)
                    dask_row[4] = ""
                    rows.append(dask_row)
            rows.append([f"n={n} two C same at once: throughput vs one", "", "", f"{available:.3f}", "",
                         "(yardstick: 2.0 idle)", "", str(args.repeat)])
        print(f"n={n}: load after {load_average()}", flush=True)
    table = tabulate(rows, headers=["case", "first side median s", "second side median s", "ratio wall",
                                    "ratio cpu", "target", "met", "runs"], tablefmt="github")
    ok = all(row[6] != "NO" for row in rows)
    print("## bitboard count by start constellations, whole processes (wall medians; cpu = user + system)")
    print(table)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
