"""Time to a first solution of every n in a range, for one configuration (a measurement, not a test).

    python benchmarks/first_solution_scan.py 1 5000 --backend backtrack

prints the slowest sizes, the total, and any size without a valid answer. Each size runs in
this process, one after another, under a per-size cap; the result is checked with the independent
checker. Times and the cap are CPU seconds of this process (``process_time``, ``ITIMER_PROF``;
Unix only): on a shared machine the wall time mostly measures the other jobs, while for these
single-threaded searches the CPU time is the wall time of an idle machine. Used for the "every n
up to 1024 in under 2 s" figure of the first-fail search, and, with ``1 1500`` and ``200 5000
--backend localsearch`` (the default's two searches, first-fail below n = 200), "every n up to
5000 within 3 s" of the default ``solve N``.
"""

from __future__ import annotations

import argparse
import signal
import sys
import time
from types import FrameType

from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.instance import Instance


class _Cap(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise _Cap


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("low", type=int)
    parser.add_argument("high", type=int)
    parser.add_argument("--step", type=int, default=1, help="every STEP-th size only (default 1: all)")
    parser.add_argument("--also", type=int, nargs="*", default=[], help="more sizes to run")
    parser.add_argument("--backend", default="backtrack", help="configuration NAME:KEY=VALUE...")
    parser.add_argument("--cap", type=float, default=10.0, help="CPU seconds allowed per size (default 10)")
    parser.add_argument("--worst", type=int, default=10, help="how many of the slowest sizes to list")
    args = parser.parse_args()
    name, options = Configuration.split(args.backend)
    backend = create_backend(name, **options)
    signal.signal(signal.SIGPROF, _alarm)
    times: list[tuple[float, int]] = []
    failures: list[str] = []
    for n in sorted({*range(args.low, args.high + 1, args.step), *args.also}):
        signal.setitimer(signal.ITIMER_PROF, args.cap)
        start = time.process_time()
        try:
            solution = backend.first_solution(Instance(n))
        except _Cap:
            failures.append(f"n={n}: no answer within {args.cap:g} s")
            continue
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        elapsed = time.process_time() - start
        times.append((elapsed, n))
        if solution is None and n not in (2, 3):
            failures.append(f"n={n}: answered 'no solution'")
        elif solution is not None and not is_valid_solution(Instance(n), solution):
            failures.append(f"n={n}: invalid board")
    times.sort(reverse=True)
    print(f"{args.backend}: n = {args.low}..{args.high} step {args.step} (+{len(args.also)} more), {len(times)} answered, total {sum(t for t, _ in times):.1f} CPU s")
    print("slowest: " + ", ".join(f"n={n} {t:.3f} s" for t, n in times[: args.worst]))
    for line in failures:
        print("FAILED " + line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
