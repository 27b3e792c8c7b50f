"""How far each paradigm gets on the N-Queens family's optimisation problems (issue 37).

For each problem and each solver (CP-SAT, HiGHS, clingo, z3, Gecode through MiniZinc, ...: any
backend that takes the problem and a time limit), boards of growing n are solved with a time limit
per board; a row gives the optimum found, whether it was proved, the published term (OEIS) and the
time. A solver stops at its first board not proved within the limit. A summary follows: per
problem and solver, the largest board proved and its seconds, and the first board not proved. The rows are the
measured basis of the default backends (``backends/framework/defaults.py``) and of the largest
board each answers by default.

A solver is a backend, with options after colons (``sat:optimiser=rc2``), and ``:certify`` to
solve with ``--certify`` (the ``sat`` backend's iterated SAT, its optimum's proof checked: the
time includes the check).

    python benchmarks/bench_family.py --limit 60 [--problems domination,colouring] [--solvers mip,asp,smt,minizinc]
    python benchmarks/bench_family.py --limit 20 --solvers sat:optimiser=rc2,sat:optimiser=iterated,sat:certify
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PROBLEMS = ("domination", "independent-domination", "colouring", "peaceable")


def solve(problem: str, n: int, solver: str, limit: float) -> tuple[dict[str, object] | None, float, str]:
    """One board in a process of its own: its JSON answer (None: none), the wall seconds, stderr."""
    backend, *words = solver.split(":")
    options = [flag for word in words if word != "certify" for flag in ("-O", word)]
    certify = ["--certify"] if "certify" in words else []
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--problem", problem, "--backend", backend,
         *options, *certify, "-O", f"time_limit={limit:g}", "--format", "jsonl"],
        capture_output=True, text=True, env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, check=False,
        timeout=limit * 3 + 60,
    )
    seconds = time.perf_counter() - start
    line = done.stdout.strip().splitlines()
    return (json.loads(line[0]) if line else None), seconds, done.stderr.strip()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--limit", type=float, default=60.0, help="seconds per board (default 60)")
    parser.add_argument("--problems", default=",".join(PROBLEMS))
    parser.add_argument("--solvers", default="cpsat,mip")
    parser.add_argument("--smallest", type=int, default=1, help="the smallest n tried")
    parser.add_argument("--largest", type=int, default=30, help="the largest n tried")
    args = parser.parse_args(argv)
    from nqueens_cp.core.family_oeis import SEQUENCES
    from nqueens_cp.core.problems import Problem

    width = max(9, *(len(solver) + 1 for solver in args.solvers.split(",")))
    print(f"{'problem':<24}{'solver':<{width}}{'n':>3}{'value':>7}{'proved':>8}{'OEIS':>6}{'seconds':>9}")
    summary: list[tuple[str, str, str, str]] = []
    for name in args.problems.split(","):
        problem = Problem.named(name)
        published = SEQUENCES[problem.sequences[0]]
        for solver in args.solvers.split(","):
            reached, stopped = "-", "-"
            for n in range(args.smallest, args.largest + 1):
                answer, seconds, stderr = solve(name, n, solver, args.limit)
                if answer is None:
                    print(f"{name:<24}{solver:<{width}}{n:>3}{'-':>7}{'no':>8}{published.get(n, '?')!s:>6}{seconds:>9.2f}"
                          f"  {stderr.splitlines()[-1] if stderr else ''}")
                    stopped = f"n = {n}: none found"
                    break
                proved = bool(answer["proved"])
                print(f"{name:<24}{solver:<{width}}{n:>3}{answer['value']!s:>7}{'yes' if proved else 'no':>8}"
                      f"{published.get(n, '?')!s:>6}{seconds:>9.2f}", flush=True)
                if not proved:
                    stopped = f"n = {n}: best {answer['value']} (OEIS {published.get(n, '?')})"
                    break
                reached = f"{n} ({seconds:.1f} s)"
            summary.append((name, solver, reached, stopped))
    print(f"\nlargest board proved optimal within {args.limit:g} s per board (its seconds, start-up included), "
          f"and the first not proved; load average {os.getloadavg()[0]:.1f}")
    print(f"{'problem':<24}{'solver':<{width}}{'largest proved':>16}  first not proved")
    for name, solver, reached, stopped in summary:
        print(f"{name:<24}{solver:<{width}}{reached:>16}  {stopped}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
