"""Time to a first solution, whole command, the default against a reference configuration.

Each side is the command a user types, ``nqueens-cp solve N --backend ...``, run as a subprocess
(start-up included) with a cap on its wall time; the sides alternate round by round. What is
compared is the CPU time of the command (user + system, children included): on this shared
2-core machine the wall time mostly measures the other jobs, while for these single-threaded
searches the CPU time is what the wall time is on an idle machine. A run that hits the cap counts
as its CPU time so far (a lower bound; the table says so). Every answer is checked with the
independent checker.

    python benchmarks/bench_first.py                          # cpsat: default (strategy=first) vs plain, n = 256
    python benchmarks/bench_first.py --n 512 --ours cpsat:search_workers=2 --cap 120

The target of the cpsat row: the default answers n = 256 within 30 s (of CPU time, see above).
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Comparison, alternate, report  # noqa: E402

from nqueens_cp.backends.registry import parse_config  # noqa: E402
from nqueens_cp.checker import is_valid_solution  # noqa: E402
from nqueens_cp.instance import Instance  # noqa: E402


def command(config: str, n: int) -> list[str]:
    """``nqueens-cp solve N`` for the configuration ``name:key=value:...``."""
    name, options = parse_config(config)
    flags = [arg for key, value in options.items() for arg in ("-O", f"{key}={value}")]
    return [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--backend", name, *flags]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_run(config: str, n: int, cap: float) -> tuple[float, object]:
    """CPU seconds of one whole command and whether it answered validly (or hit the wall-time cap)."""
    start = _children_cpu()
    try:
        done = subprocess.run(command(config, n), capture_output=True, text=True, timeout=cap, check=False)
    except subprocess.TimeoutExpired:
        return _children_cpu() - start, "no answer within the cap"
    seconds = _children_cpu() - start
    solution = tuple(int(word) for word in done.stdout.split())
    if done.returncode != 0 or not is_valid_solution(Instance(n), solution):
        raise SystemExit(f"{config} n={n}: exit {done.returncode}, invalid answer: {done.stderr.strip()[-300:]}")
    return seconds, "valid"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[256])
    parser.add_argument("--ours", default="cpsat", help="configuration measured (default: cpsat, its defaults)")
    parser.add_argument("--reference", default="cpsat:strategy=plain", help="configuration compared with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--cap", type=float, default=300.0, help="wall seconds allowed per run (default 300)")
    parser.add_argument("--target", type=float, default=30.0, help="seconds the default must answer within")
    args = parser.parse_args()
    print(f"load average before: {Path('/proc/loadavg').read_text().split()[:3]}")
    rows = []
    for n in args.n:
        ours, reference, _, ref_result = alternate(
            lambda n=n: timed_run(args.ours, n, args.cap), lambda n=n: timed_run(args.reference, n, args.cap),
            args.repeat,
        )
        capped = " (reference capped: a lower bound)" if ref_result != "valid" else ""
        rows.append(Comparison(
            f"first solution n={n}{capped}", tuple(ours), tuple(reference), f"ours <= {args.target:g} CPU s",
            lambda ratio, ours=tuple(ours): sorted(ours)[len(ours) // 2] <= args.target,
        ))
    met = report("CPU seconds to a first solution (whole command)", rows, args.ours, args.reference)
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
