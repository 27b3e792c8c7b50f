"""Every backend at the largest board it accepts (and a few below): what the command answers, and when.

Each case is the command a user types, ``nqueens-cp solve N --backend NAME`` (``--count`` for the
backends that only count), run once as a subprocess under a wall-time cap. The table gives its
exit status, its wall and CPU time (user + system, children included) and the last line of its
stderr: an answer (status 0), a stop at a stated time limit (3), a refusal (2), or no answer within
the cap (``capped``: what the bounds must rule out). One run per case: this is the reach of each
backend, not a speed comparison.

    python benchmarks/bench_largest_boards.py                       # every backend, its largest n
    python benchmarks/bench_largest_boards.py --backends cpsat --n 256 512 1000 --cap 90
    python benchmarks/bench_largest_boards.py --backends --down-to-an-answer --cases sat=234 sat=150 sat=100

The answer goes to a temporary file (the table gives its size), not through a pipe: the largest
boards answer hundreds of megabytes.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from tabulate import tabulate

from nqueens_cp.backends.framework.largest import largest_accepted_n
from nqueens_cp.backends.framework.registry import backend_class, backend_names

#: What ``run_all.py --quick`` runs: two backends at their largest boards.
QUICK_ARGUMENTS = ["--backends", "bitboard", "sat", "--cap", "60"]


def run_case(name: str, n: int, cap: float) -> list[object]:
    """One ``solve`` command under a wall-time cap: its row of the table."""
    count = "first" not in backend_class(name).answers
    argv = [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--backend", name, *(["--count"] if count else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    with tempfile.TemporaryFile() as answer:
        process = subprocess.Popen(argv, stdout=answer, stderr=subprocess.PIPE, text=True, start_new_session=True)
        try:
            _, err = process.communicate(timeout=cap)
            status: object = process.returncode
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            _, err = process.communicate()
            status = "capped"
        written = answer.seek(0, os.SEEK_END)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = err.strip().splitlines()
    said = lines[-1] if lines else (f"(answer: {written:,} bytes)" if written else "")
    return [name, "count" if count else "first", n, status, f"{wall:.1f}", f"{cpu:.1f}", said[:150]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", nargs="*", default=None, help="backend names (default: all)")
    parser.add_argument("--n", type=int, nargs="*", default=None,
                        help="board sizes (default: each backend's largest accepted n)")
    parser.add_argument("--cases", nargs="*", default=[], metavar="NAME=N", help="more cases, backend and size")
    parser.add_argument("--down-to-an-answer", action="store_true",
                        help="each backend's sizes from the largest down, up to the first answered")
    parser.add_argument("--cap", type=float, default=75.0, help="wall seconds per case (default 75)")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    cases: dict[str, list[int]] = {name: list(args.n or [largest_accepted_n(name)])
                                   for name in (args.backends if args.backends is not None else backend_names())}
    for case in args.cases:
        name, n = case.split("=")
        cases.setdefault(name, []).append(int(n))
    rows = []
    for name, sizes in cases.items():
        for n in sorted(sizes, reverse=True) if args.down_to_an_answer else sizes:
            rows.append(run_case(name, n, args.cap))
            print(" | ".join(map(str, rows[-1])), flush=True)
            if args.down_to_an_answer and rows[-1][3] == 0:
                break
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(tabulate(rows, headers=["backend", "question", "n", "status", "wall s", "cpu s", "last stderr line"],
                   tablefmt="github"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
