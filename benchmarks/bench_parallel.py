"""Split runs: 2 local workers against 1, Dask against the process pool, and a big exact count.

    python benchmarks/bench_parallel.py                      # n=17 comparisons, then n=18 counted
    python benchmarks/bench_parallel.py --n 12 --big 0       # quick smoke run, no big count
    python benchmarks/bench_parallel.py --repeat 1 --depth 3  # rows split at depth 3 instead, one run per side

Every run counts ``--n`` with ``--backend`` (default bitboard, with whatever kernel that backend
has) split the same way: into batches of start constellations (the bitboard backend's split of
an empty board, 32 batches: the default for 2 workers), or by fixing the first ``--depth`` rows:

* ``serial``: ``backend.count(Instance(n))`` in this process, no split (for reference only: the
  backend may use symmetries a split cannot).
* ``pool x1`` and ``pool x2``: a local process pool of 1 and of 2 worker processes. Target:
  ``pool x1 / pool x2 >= 1.8``.
* ``dask x2``: a Dask local cluster of 2 single-threaded worker processes. Target:
  ``dask x2 / pool x2 <= 1.05``.

``cores used`` is the processor time the workers got divided by the wall time: about 1 and 2
on an idle machine, less when other processes take cores. Pools and the cluster are started, and warmed up with a small count (so compiled kernels are
loaded in every worker), before the timed runs; their start-up times are printed separately. The
timed runs alternate between the sides compared so a slow spell of a shared machine hits both.
Then ``--big`` (default 18) is counted once on the 2-worker pool and checked against OEIS A000170.
The exit status is 0 when every target was met and every count was right, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Callable

from tabulate import tabulate

from nqueens_cp import A000170, Instance, create_backend
from nqueens_cp.parallel import (
    DaskExecutor,
    ParallelConfig,
    ProcessPoolTaskExecutor,
    SplitRun,
    default_batches,
    default_depth,
    split_instance,
)
from nqueens_cp.parallel.executors import TaskExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from _common import load_average, machine

#: Per side, the processor seconds its workers got in each timed run (see ``timed_count``).
CPU: dict[int, list[float]] = {}


def split_config(instance: Instance, backend: str, depth: int | None) -> ParallelConfig:
    """Rows fixed at ``depth``, or (None) the toolkit's default split for 2 workers: constellation
    batches where the backend counts them, else the default depth."""
    counter = create_backend(backend)
    if depth is None and not counter.counts_constellation_batches:
        depth = default_depth(instance, 2)
    batches = None if depth is not None else default_batches(counter.start_constellations(instance.n), 2)
    return ParallelConfig(split_depth=depth, batches=batches)


def describe(config: ParallelConfig, instance: Instance) -> str:
    if config.split_depth is not None:
        return f"split depth {config.split_depth} ({len(split_instance(instance, config.split_depth))} sub-problems)"
    return f"{config.batches} batches of start constellations"


def timed_count(instance: Instance, backend: str, config: ParallelConfig, executor: TaskExecutor) -> float:
    """Seconds for one split count on ``executor``; exits if the count is wrong.

    The processor time the workers got is appended to ``CPU[id(executor)]``: divided by the wall
    time it says how many cores the run really had (less than the workers on a busy machine).
    """
    started = time.perf_counter()
    run = SplitRun(instance, backend, config=config, executor=executor)
    results = list(run.subproblem_results())
    seconds = time.perf_counter() - started
    count = run.plan.total_count((s.subproblem.index, s.result.count) for s in results) if run.plan else -1
    if count != A000170[instance.n]:
        sys.exit(f"wrong count for n={instance.n}: {count}, expected {A000170[instance.n]}")
    CPU.setdefault(id(executor), []).append(sum(s.result.cpu_seconds for s in results))
    return seconds


def started(make: Callable[[], TaskExecutor], backend: str) -> tuple[TaskExecutor, float]:
    """An executor, warmed up with a small count; and the seconds that took."""
    begin = time.perf_counter()
    executor = make()
    timed_count(Instance(14), backend, split_config(Instance(14), backend, None), executor)
    return executor, time.perf_counter() - begin


def alternate(sides: dict[str, Callable[[], float]], repeat: int) -> dict[str, list[float]]:
    """Run every side ``repeat`` times, rotating the order each round."""
    names = list(sides)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_no in range(repeat):
        order = names[round_no % len(names) :] + names[: round_no % len(names)]
        for name in order:
            times[name].append(sides[name]())
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=17, help="board size of the comparisons (default 17)")
    parser.add_argument("--big", type=int, default=18, help="board size counted once on 2 workers (0: skip)")
    parser.add_argument("--backend", default="bitboard", help="backend (default bitboard)")
    parser.add_argument("--depth", type=int, help="split depth (default: the toolkit's default for 2 workers)")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs per side (default 3: medians)")
    parser.add_argument("--no-dask", action="store_true", help="leave out the Dask comparison")
    args = parser.parse_args(argv)

    instance = Instance(args.n)
    config = split_config(instance, args.backend, args.depth)
    backend = create_backend(args.backend)
    print(f"machine: {machine()}; load average before: {load_average()}")
    print(f"backend: {backend!r}; n={args.n}, {describe(config, instance)}; {args.repeat} timed run(s) per side")

    serial_started = time.perf_counter()
    serial_count = backend.count(instance)
    serial = time.perf_counter() - serial_started
    ok = serial_count == A000170[args.n]

    pool1, start1 = started(lambda: ProcessPoolTaskExecutor(1), args.backend)
    pool2, start2 = started(lambda: ProcessPoolTaskExecutor(2), args.backend)
    sides: dict[str, Callable[[], float]] = {
        "pool x1": lambda: timed_count(instance, args.backend, config, pool1),
        "pool x2": lambda: timed_count(instance, args.backend, config, pool2),
    }
    startups = {"pool x1": start1, "pool x2": start2}
    dask: TaskExecutor | None = None
    if not args.no_dask:
        dask, startups["dask x2"] = started(lambda: DaskExecutor(workers=2), args.backend)
        sides["dask x2"] = lambda: timed_count(instance, args.backend, config, dask)  # type: ignore[arg-type]
    try:
        times = alternate(sides, args.repeat)
    finally:
        pool1.close()
        if dask is not None:
            dask.close()
    median = {name: statistics.median(values) for name, values in times.items()}
    executors = {"pool x1": pool1, "pool x2": pool2, "dask x2": dask}

    def cores(name: str) -> str:
        """Median over the timed runs of worker processor seconds / wall seconds."""
        cpu = CPU[id(executors[name])][1:]  # the first entry is the warm-up
        return f"{statistics.median(c / t for c, t in zip(cpu, times[name], strict=True)):.2f}"

    rows = [["serial (no split)", f"{serial:.2f}", "", "", "", "", "yes" if ok else "WRONG COUNT"]]
    speedup = median["pool x1"] / median["pool x2"]
    met_speedup = speedup >= 1.8
    rows.append(["pool x1", f"{median['pool x1']:.2f}", cores("pool x1"), f"{startups['pool x1']:.2f}", "", "", ""])
    rows.append(["pool x2", f"{median['pool x2']:.2f}", cores("pool x2"), f"{startups['pool x2']:.2f}",
                 f"x1 / x2 = {speedup:.2f}", ">= 1.8", "yes" if met_speedup else "NO"])
    met_dask = True
    if "dask x2" in median:
        slowdown = median["dask x2"] / median["pool x2"]
        met_dask = slowdown <= 1.05
        rows.append(["dask x2", f"{median['dask x2']:.2f}", cores("dask x2"), f"{startups['dask x2']:.2f}",
                     f"dask / pool = {slowdown:.2f}", "<= 1.05", "yes" if met_dask else "NO"])
    print(tabulate(rows, headers=["run", "seconds (median)", "cores used", "start-up + warm-up s", "ratio", "target", "met"]))
    print(f"load average after: {load_average()} (other processes on the machine take cores from the workers)")

    if args.big:
        big = Instance(args.big)
        big_config = split_config(big, args.backend, args.depth)
        try:
            seconds = timed_count(big, args.backend, big_config, pool2)
        finally:
            pool2.close()
        print(f"\nn={args.big}: {A000170[args.big]} solutions (checked against A000170) counted in "
              f"{seconds:.1f} s on the 2-worker pool, {describe(big_config, big)}")
    else:
        pool2.close()
    return 0 if ok and met_speedup and met_dask else 1


if __name__ == "__main__":
    sys.exit(main())
