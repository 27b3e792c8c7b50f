"""Counting by start constellations: whole commands against C, serial and split, n = 17 and 18 by default.

The yardstick is an outside program, the fastest public C constellations counter we know:
``004GCC_constellation.c`` of the suzukiiichiro/N-Queens repository on GitHub (folder
``10Bit_CUDA``; not part of this project, and not copied into it). Get it and pass its path
(the source, built here with ``gcc -O3 -march=native`` into the temporary directory, or a binary
you built yourself)::

    git clone --depth 1 https://github.com/suzukiiichiro/N-Queens /tmp/suzukiiichiro-N-Queens
    python benchmarks/bench_constellations.py --n 16 17 \\
        --outside-c /tmp/suzukiiichiro-N-Queens/10Bit_CUDA/004GCC_constellation.c

That program takes no arguments: it counts n = 4..18 in one process and prints a line per n. It
runs on a pseudo-terminal (each line comes out when printed) and is stopped after the line of
the n measured; its time is from the line before to that line (wall, and user + system from
/proc), which holds all its work for that n and none of the smaller boards'. Its start-up is a
C program's (a millisecond). Target: ours / it <= 0.85 (serial), and with ``--parallel``,
``--workers 2`` against half its time <= 0.9. (It prints wrong counts for n = 4 and 5; from 6 on
they are right, and every count timed here is checked.)

Our own C programs, built by this script with ``gcc -O3 -march=native`` into
``benchmarks/build/`` from ``benchmarks/ref/constellations.c``:

* ``C same``: our algorithm line for line in C (same orientation, same per-row masks, same
  level-synchronous search over batches of states), so that ours / C same measures compiled
  numba against C on identical work, and C same / the outside program our algorithm against
  theirs, both in C. It counts the solutions only; ours also counts the classes (OEIS A002562),
  for which the few constellations a rotation fixes get a small search of their symmetric
  completions (0.05 s of ours at n = 17);
* ``C faf``: our port of the method as published (Q27 / NQueensFAF: the class member with the
  queen nearest a corner in the last row, a recursive search inserting the border queens'
  diagonals at their rows), for information.

Every side of ours is a whole process, timed from start to exit (wall) and by the processor time
it got (user + system, from ``getrusage``): ``nqueens-cp solve N --count --backend bitboard``
includes Python's start-up, loading the kernel's machine code and the generation of the
constellations, as the C programs include theirs. The package's bytecode is compiled first, as
pip compiles an installed package's: where ``PYTHONDONTWRITEBYTECODE`` is set (as on the machine
of RESULTS.md) an editable install would otherwise compile its 47 modules again in every
process. Sides run alternately, ``--repeat`` times each, the order rotated every round (medians).
On a shared machine the wall times stretch with the load (printed before and after); the
processor times stretch much less. Without ``--outside-c`` the yardstick rows are left out (a
note says so).

``--parallel`` adds, per n, the serial command against ``--workers 2`` (its default executor,
two threads of one process; target: serial / workers >= 1.85) and against ``--workers 2
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
2-core machine; on a shared machine whatever the other jobs leave). The last row divides, round by
round, serial / ``--workers 2`` by that yardstick of the same round (median of the rounds): 1.0
when the split gets from the machine what two separate C processes get.

    python benchmarks/bench_constellations.py [--n 17 18] [--repeat 3] [--outside-c PATH [--no-ports]]
        [--parallel] [--no-c]
"""

from __future__ import annotations

import argparse
import compileall
import contextlib
import os
import pty
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Callable, Iterator

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
PACKAGE = HERE.parent / "nqueens_cp"
sys.path.insert(0, str(HERE))

from _common import build_c, load_average, machine  # noqa: E402

from nqueens_cp.core.oeis import A000170  # noqa: E402

SOURCE = HERE / "ref" / "constellations.c"
BINARY = HERE / "build" / "constellations"
OUTSIDE = "outside C"
OUTSIDE_NAME = "004GCC_constellation.c"
#: The last n the outside program counts (its loop runs from 4 to ``targetN = 18``).
OUTSIDE_LAST_N = 18


def build_reference() -> Path:
    """Compile the C reference with ``gcc -O3 -march=native`` (again when the source, the compiler or the flags change)."""
    return build_c(SOURCE, BINARY)


Run = tuple[float, float, int]


def run_process(command: list[str], count_field: int) -> Run:
    """Wall seconds, processor seconds (user + system, the process and its children) and the count
    printed by ``command`` (whitespace field ``count_field`` of its output)."""
    before = os.times()
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - start
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return wall, cpu, int(output.split()[count_field])


def outside_binary(path: Path) -> Path:
    """The outside program to run: ``path`` itself when it is an executable, else (a ``.c`` file)
    built with ``gcc -O3 -march=native`` into the temporary directory (never into the project)."""
    if not path.is_file():
        raise ValueError(f"--outside-c {path}: no such file")
    if path.suffix == ".c":
        return build_c(path, Path(tempfile.gettempdir()) / "nqueens-cp-yardsticks" / path.stem)
    if not os.access(path, os.X_OK):
        raise ValueError(f"--outside-c {path}: neither a C source (.c) nor an executable")
    return path


def _processor_seconds(pid: int) -> float:
    """User + system seconds of the running (or not yet reaped) process ``pid``, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_outside(binary: Path, n: int) -> Run:
    """Time the outside program's work for ``n`` alone: wall and processor seconds from the line it
    printed before the line of ``n`` to that line, and the count on it.

    ``004GCC_constellation.c`` takes no arguments: it counts n = 4, 5, ... 18 in one process and
    prints ``N: total unique time`` after each. It runs on a pseudo-terminal (so each line comes
    out as it is printed) and is stopped once the line of ``n`` is read; the interval holds all of
    its work for ``n`` (generating the constellations, counting, summing, and freeing the previous
    n's lists), not the smaller boards before it. Its own start-up, a C program's, is a
    millisecond; ours (Python, numba, about 1 s) is in our side's time."""
    master, terminal = pty.openpty()
    process = subprocess.Popen([str(binary)], stdin=subprocess.DEVNULL, stdout=terminal, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    os.close(terminal)
    mark_wall, mark_cpu = time.perf_counter(), 0.0
    pending = b""
    try:
        while True:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the program has closed its terminal
                chunk = b""
            if not chunk:
                raise SystemExit(f"{binary} ended (exit {process.wait()}) before printing the line of n = {n}; "
                                 "004GCC_constellation.c counts n = 4..18")
            now_wall, now_cpu = time.perf_counter(), _processor_seconds(process.pid)
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                match = re.match(rb"\s*(\d+):\s+(\d+)\s", line)
                if match and int(match[1]) == n:
                    return now_wall - mark_wall, now_cpu - mark_cpu, int(match[2])
                mark_wall, mark_cpu = now_wall, now_cpu
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(master)


def two_at_once(command: list[str], count_field: int) -> Run:
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
    (the kernel loaded) before the block's body runs, as on a cluster in use."""
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


def process(command: list[str], field: int) -> Callable[[], Run]:
    """A side that runs ``command`` as a whole process, its count in whitespace field ``field``."""
    return partial(run_process, command, field)


def alternate(sides: dict[str, Callable[[], Run]], repeat: int, n: int) -> dict[str, tuple[list[float], list[float]]]:
    """Run every side ``repeat`` times, rotating the order each round; exits on a wrong count."""
    names = list(sides)
    times: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in names}
    for round_no in range(repeat):
        order = names[round_no % len(names):] + names[: round_no % len(names)]
        for name in order:
            wall, cpu, count = sides[name]()
            if count != A000170[n]:
                raise SystemExit(f"n={n}: {name} counted {count}, OEIS A000170 says {A000170[n]}")
            times[name][0].append(wall)
            times[name][1].append(cpu)
    return times


def ratio_row(label: str, times: dict[str, tuple[list[float], list[float]]], ours_side: str, ref_side: str,
              target: str, meets: partial[bool] | None) -> list[str]:
    our_wall, our_cpu = (statistics.median(values) for values in times[ours_side])
    ref_wall, ref_cpu = (statistics.median(values) for values in times[ref_side])
    if ref_wall <= 0:  # too small a board to time this side (its lines came out together)
        return [label, f"{our_wall:.2f}", f"{ref_wall:.2f}", "-", "-", target, "" if meets is None else "NO",
                str(len(times[ours_side][0]))]
    ratio = our_wall / ref_wall
    met = "" if meets is None else ("yes" if meets(ratio) else "NO")
    return [label, f"{our_wall:.2f}", f"{ref_wall:.2f}", f"{ratio:.3f}", f"{our_cpu / ref_cpu:.3f}" if ref_cpu else "-",
            target, met, str(len(times[ours_side][0]))]


def against_machine(times: dict[str, tuple[list[float], list[float]]]) -> list[float]:
    """Per round, the speed-up of ``--workers 2`` over the serial command divided by what the machine
    gave two C processes in the same round (``2 * C same alone / two C same at once``): the split's
    efficiency with the machine's moods of that minute taken out (1.0: as good as two processes)."""
    rounds = zip(*(times[side][0] for side in ("serial", "workers 2", "C same x1", "C same x2")), strict=True)
    return [(serial / split) / (2 * alone / together) for serial, split, alone, together in rounds]


def at_most(limit: float, ratio: float) -> bool:
    return ratio <= limit


def at_least(limit: float, ratio: float) -> bool:
    return ratio >= limit


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[17, 18])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--outside-c", type=Path, metavar="PATH",
                        help="the yardstick: 004GCC_constellation.c of suzukiiichiro/N-Queens, its source (built "
                        "here with gcc -O3 -march=native into the temporary directory) or a binary built from it")
    parser.add_argument("--parallel", action="store_true", help="also serial against --workers 2 and Dask")
    parser.add_argument("--no-c", action="store_true", help="skip the C comparison")
    parser.add_argument("--no-ports", action="store_true",
                        help="with --outside-c: leave out our own C programs (C same, C faf), to save time")
    args = parser.parse_args(argv)
    if args.outside_c is not None and max(args.n) > OUTSIDE_LAST_N:
        parser.error(f"--outside-c: the program counts up to n = {OUTSIDE_LAST_N}; --n asks for {max(args.n)}")
    try:
        outside = None if args.outside_c is None or args.no_c else outside_binary(args.outside_c)
    except ValueError as error:
        parser.error(str(error))
    build_reference()
    compileall.compile_dir(str(PACKAGE), quiet=1)  # bytecode, as an installed package has it
    run_process(ours(12), 0)  # the kernel's machine code is stored before anything is timed
    run_process(ours(14), 0)
    print(f"machine: {machine()}")
    if outside is None and not args.no_c:
        print("note: no --outside-c PATH: the yardstick (004GCC_constellation.c) is not measured; see --help")
    rows: list[list[str]] = []
    every_run: list[list[str]] = []
    for n in args.n:
        print(f"n={n}: load before {load_average()}", flush=True)
        if not args.no_c:
            ports = not (args.no_ports and outside is not None)
            sides = {"ours": process(ours(n), 0)}
            if ports:
                sides.update({"C faf": process(reference("faf", n), 1), "C same": process(reference("ours", n), 1)})
            if outside is not None:
                sides[OUTSIDE] = partial(run_outside, outside, n)
            times = alternate(sides, args.repeat, n)
            every_run.extend(run_rows(n, times))
            if outside is not None:
                rows.append(ratio_row(f"n={n} serial / {OUTSIDE_NAME}", times, "ours", OUTSIDE, "<= 0.85",
                                      partial(at_most, 0.85)))
            if ports:
                rows.append(ratio_row(f"n={n} serial / C same algorithm", times, "ours", "C same", "(numba vs C)",
                                      None))
                if outside is not None:
                    rows.append(ratio_row(f"n={n} C same / {OUTSIDE_NAME}", times, "C same", OUTSIDE,
                                          "(algorithm vs algorithm)", None))
                rows.append(ratio_row(f"n={n} serial / C faf (published method, our port)", times, "ours", "C faf",
                                      "(info)", None))
        if args.parallel:
            sides = {"serial": process(ours(n), 0), "workers 2": process(ours(n, "--workers", "2"), 0),
                     "processes 2": process(ours(n, "--workers", "2", "--executor", "processes"), 0),
                     "dask 2": process(ours(n, "--executor", "dask", "--workers", "2"), 0),
                     "C same x1": process(reference("ours", n), 1),
                     "C same x2": partial(two_at_once, reference("ours", n), 1)}
            if outside is not None:
                sides[OUTSIDE] = partial(run_outside, outside, n)
            times = alternate(sides, args.repeat, n)
            every_run.extend(run_rows(n, times))
            # Apart: the idle scheduler and workers of a running cluster take a little of the machine.
            with running_dask_cluster(2) as address:
                beside_cluster = alternate(
                    {"processes 2": process(ours(n, "--workers", "2", "--executor", "processes"), 0),
                     "dask running": process(ours(n, "--scheduler", address), 0)},
                    args.repeat, n,
                )
            available = 2 * statistics.median(times["C same x1"][0]) / statistics.median(times["C same x2"][0])
            for side, label, target in (("workers 2", "--workers 2 (threads)", ">= 1.85"),
                                        ("processes 2", "--workers 2 --executor processes", "(info)")):
                speedup = statistics.median(times["serial"][0]) / statistics.median(times[side][0])
                met = "" if target == "(info)" else "yes" if speedup >= 1.85 else "NO"
                rows.append([f"n={n} serial / {label}", f"{statistics.median(times['serial'][0]):.2f}",
                             f"{statistics.median(times[side][0]):.2f}", f"{speedup:.3f}", "",
                             target, met, str(args.repeat)])
            if outside is not None:
                threads = statistics.median(times["workers 2"][0])
                half = statistics.median(times[OUTSIDE][0]) / 2
                rows.append([f"n={n} --workers 2 / half of one {OUTSIDE_NAME}", f"{threads:.2f}", f"{half:.2f}",
                             f"{threads / half:.3f}", "", "<= 0.9", "yes" if threads / half <= 0.9 else "NO",
                             str(args.repeat)])
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
            rows.append([f"n={n} serial / --workers 2 over that yardstick, round by round (median)", "", "",
                         f"{statistics.median(against_machine(times)):.3f}", "",
                         "(info: 1.0 = as two C processes)", "", str(args.repeat)])
        print(f"n={n}: load after {load_average()}", flush=True)
    table = tabulate(rows, headers=["case", "first side median s", "second side median s", "ratio wall",
                                    "ratio cpu", "target", "met", "runs"], tablefmt="github")
    ok = all(row[6] != "NO" for row in rows)
    print("## bitboard count by start constellations, whole processes (wall medians; cpu = user + system)")
    print(table)
    print("\n## every run, in the order of the rounds (wall s / cpu s)")
    print(tabulate(every_run, headers=["n", "side", "wall s", "cpu s"], tablefmt="github"))
    return 0 if ok else 1


def run_rows(n: int, times: dict[str, tuple[list[float], list[float]]]) -> list[list[str]]:
    """One row per side: every run's wall and processor seconds (the spread a median hides)."""
    return [[str(n), side, " ".join(f"{value:.2f}" for value in walls), " ".join(f"{value:.2f}" for value in cpus)]
            for side, (walls, cpus) in times.items()]


if __name__ == "__main__":
    sys.exit(main())
