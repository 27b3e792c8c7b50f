"""Time to a first solution, whole command, the default against a reference configuration.

Each side is the command a user types, ``nqueens-cp solve N --backend ...``, run as a subprocess
(start-up included) with a cap on its wall time; the sides alternate round by round. What is
compared is the CPU time of the command (user + system, children included): on this shared
2-core machine the wall time mostly measures the other jobs, while for these single-threaded
searches the CPU time is what the wall time is on an idle machine. A run that hits the cap counts
as its CPU time so far (a lower bound; the table says so; our side capped once misses the
target). Every answer timed is checked with the independent checker (``nqueens_cp/core/checker.py``)
and a wrong one stops the benchmark (exit 1); the count of checked answers per side is printed.

    python benchmarks/bench_first.py                          # cpsat: default (strategy=first) vs plain, n = 256
    python benchmarks/bench_first.py --n 512 --ours cpsat:search_workers=2 --cap 120

The target of the cpsat row: the default answers n = 256 within 30 s (of CPU time, see above).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Comparison, alternate, report  # noqa: E402

from nqueens_cp.backends.framework.configuration import Configuration  # noqa: E402
from nqueens_cp.core.checker import solution_problems  # noqa: E402
from nqueens_cp.core.instance import Instance  # noqa: E402


def command(config: str, n: int) -> list[str]:
    """``nqueens-cp solve N`` for the configuration ``name:key=value:...``."""
    name, options = Configuration.split(config)
    flags = [arg for key, value in options.items() for arg in ("-O", f"{key}={value}")]
    return [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--backend", name, *flags]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def answer_problems(n: int, stdout: str) -> list[str]:
    """Why the printed answer is not a solution of ``n`` queens (empty when it is), by the
    independent checker; an answer that is not ``n`` integers is a problem too."""
    try:
        solution = tuple(int(word) for word in stdout.split())
    except ValueError:
        return [f"not a board: {stdout.strip()[:200]!r}"]
    return solution_problems(Instance(n), solution)


def timed_run(config: str, n: int, cap: float) -> tuple[float, object]:
    """CPU seconds of one whole command and ``"checked"`` once its answer passed the independent
    checker (or ``"capped"`` when it hit the wall-time cap); exits on a wrong answer."""
    start = _children_cpu()
    try:
        done = subprocess.run(command(config, n), capture_output=True, text=True, timeout=cap, check=False)
    except subprocess.TimeoutExpired:
        return _children_cpu() - start, "capped"
    seconds = _children_cpu() - start
    problems = [f"exit {done.returncode}: {done.stderr.strip()[-300:]}"] if done.returncode != 0 else []
    problems = problems or answer_problems(n, done.stdout)
    if problems:
        raise SystemExit(f"{config} n={n}: wrong answer: {'; '.join(problems[:3])}")
    return seconds, "checked"


def timed_and_tallied(config: str, n: int, cap: float, tally: dict[str, int]) -> tuple[float, object]:
    """:func:`timed_run`, counting its outcomes (``checked``/``capped``) in ``tally``."""
    seconds, outcome = timed_run(config, n, cap)
    tally[str(outcome)] = tally.get(str(outcome), 0) + 1
    return seconds, outcome


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
        ours_tally: dict[str, int] = {}
        ref_tally: dict[str, int] = {}
        ours, reference, _, _ = alternate(
            partial(timed_and_tallied, args.ours, n, args.cap, ours_tally),
            partial(timed_and_tallied, args.reference, n, args.cap, ref_tally),
            args.repeat,
        )
        print(f"n={n}: answers checked by the independent checker: {args.ours} {ours_tally.get('checked', 0)}"
              f"/{args.repeat}, {args.reference} {ref_tally.get('checked', 0)}/{args.repeat}"
              f" (the others hit the {args.cap:g} s cap)")
        capped = " (reference capped: a lower bound)" if ref_tally.get("capped") else ""
        ours_capped = bool(ours_tally.get("capped"))
        rows.append(Comparison(
            f"first solution n={n}{capped}", tuple(ours), tuple(reference), f"ours <= {args.target:g} CPU s",
            lambda ratio, ours=tuple(ours), capped=ours_capped: not capped and statistics.median(ours) <= args.target,
        ))
    met = report("CPU seconds to a first solution (whole command)", rows, args.ours, args.reference)
    print(f"load average after: {Path('/proc/loadavg').read_text().split()[:3]}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
