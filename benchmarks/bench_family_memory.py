"""Memory of the family models (issue 37): the peak resident memory that building each model and
handing it to its solver adds, per term of its rows, beside the bound ``family_terms`` gives and
``BYTES_PER_FAMILY_TERM`` prices (``models/family.py``). One process per case, the solver
libraries imported first so that their own start-up is not counted.

    python benchmarks/bench_family_memory.py
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CASES = [("peaceable", 20), ("domination", 24), ("independent-domination", 24), ("colouring", 16),
         ("superqueens", 30), ("toroidal", 31)]

PROBE = """
import resource, sys
from nqueens_cp.backends import create_backend
from nqueens_cp.core.problems import Problem
from nqueens_cp.models.family import BYTES_PER_FAMILY_TERM, build_family_model, family_terms
problem, n, name = Problem.named(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
backend = create_backend(name)
import highspy, ortools.sat.python.cp_model  # noqa: E401,F401  (their start-up is not the model's)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if name == "cpsat":
    _, _, model = backend._family_model(problem, n)
else:
    model = build_family_model(problem, n)
    highs = backend._highs(model)
added = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
terms = sum(len(row.terms) for row in model.rows)
print(f"{problem.value:<24}{n:>4}  {name:<6}{terms:>10,}{family_terms(problem, n):>12,}"
      f"{added / terms:>12.0f}{BYTES_PER_FAMILY_TERM:>10}")
"""


def main() -> int:
    print(f"{'problem':<24}{'n':>4}  {'solver':<6}{'terms':>10}{'bound':>12}{'B/term':>12}{'priced':>10}")
    for problem, n in CASES:
        for solver in ("cpsat", "mip"):
            done = subprocess.run([sys.executable, "-c", PROBE, problem, str(n), solver], capture_output=True,
                                  text=True, env={"PYTHONPATH": str(REPO), "PATH": ""}, check=False)
            print(done.stdout.rstrip() or f"{problem} {n} {solver}: {done.stderr.strip().splitlines()[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
