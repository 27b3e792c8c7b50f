"""``cpsat`` enumeration against OR-Tools' sample configuration, n = 11 and 12 by default.

The reference is the N-Queens sample of the OR-Tools documentation: the same three AllDifferent
constraints, CP-SAT's default parameters, ``enumerate_all_solutions`` with one worker, and a
solution callback that only counts. Our side enumerates every solution through the backend
(``list(backend.solutions(...))``, each board turned into a tuple) with each configuration given
by ``--config`` (default: the backend's defaults). Both run in this process, alternately. The
ratio is median(ours) / median(reference); the target is at most 0.5 (at least 2 times faster).
The solution sets are compared once, outside the timing, with a reference run that records
the boards.

Where ``minizinc`` with Gecode is installed, one more table shows it as an outside reference
(``minizinc --solver gecode -a`` on ``benchmarks/ref/nqueens.mzn`` as a subprocess, wall time
with MiniZinc's start-up and flattening included): for information only.

    python benchmarks/bench_cpsat.py [--n 11 12] [--repeat 3] [--config cpsat cpsat:strategy=plain]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Comparison, alternate, report, timed  # noqa: E402

from nqueens_cp.backends.base import Backend  # noqa: E402
from nqueens_cp.backends.registry import create_backend, parse_config  # noqa: E402
from nqueens_cp.instance import Instance, Solution  # noqa: E402

MODEL = HERE / "ref" / "nqueens.mzn"


def sample_model(n: int) -> tuple[Any, list[Any]]:
    """OR-Tools' sample model: three AllDifferent over q[i], q[i] + i and q[i] - i."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    queens = [model.new_int_var(0, n - 1, f"x_{i}") for i in range(n)]
    model.add_all_different(queens)
    model.add_all_different(queens[i] + i for i in range(n))
    model.add_all_different(queens[i] - i for i in range(n))
    return model, queens


def reference_run(n: int, record: bool = False) -> tuple[int, set[Solution]]:
    """Solve the sample model with default parameters, one worker, enumerating all solutions."""
    from ortools.sat.python import cp_model

    model, queens = sample_model(n)
    boards: set[Solution] = set()

    class Counter(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.count = 0

        def on_solution_callback(self) -> None:
            self.count += 1
            if record:
                boards.add(tuple(int(self.value(q)) for q in queens))

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    solver.solve(model, counter)
    return counter.count, boards


def reference_count(n: int) -> int:
    return reference_run(n)[0]


def enumerate_ours(backend: Backend, n: int) -> list[Solution]:
    return list(backend.solutions(Instance(n)))


def run_minizinc(n: int) -> tuple[float, object]:
    """Wall time and solution count of ``minizinc --solver gecode -a`` as a subprocess."""
    command = ["minizinc", "--solver", "gecode", "-a", "-D", f"n={n}", str(MODEL)]
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    seconds = time.perf_counter() - start
    return seconds, sum(1 for line in output.splitlines() if line.startswith("["))


def at_least_2x(ratio: float) -> bool:
    return ratio <= 0.5


def no_target(ratio: float) -> bool:
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[11, 12])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--config", nargs="+", default=["cpsat"], help="backend configurations, e.g. cpsat:strategy=plain")
    parser.add_argument("--no-minizinc", action="store_true", help="skip the MiniZinc table")
    args = parser.parse_args(argv)
    rows = []
    outside = []
    for n in args.n:
        _, expected = reference_run(n, record=True)
        for config in args.config:
            name, options = parse_config(config)
            backend = create_backend(name, **options)
            ours, ref, our_sols, ref_count = alternate(
                partial(timed, partial(enumerate_ours, backend, n)),
                partial(timed, partial(reference_count, n)),
                args.repeat,
            )
            assert isinstance(our_sols, list)
            if set(our_sols) != expected or len(our_sols) != len(expected) or ref_count != len(expected):
                raise SystemExit(f"n={n}: {config} and the OR-Tools sample found different solutions")
            rows.append(
                Comparison(f"{config} enumerate n={n} ({len(our_sols)})", tuple(ours), tuple(ref), "<= 0.5", at_least_2x)
            )
        if not args.no_minizinc and shutil.which("minizinc"):
            mzn, ref, mzn_count, _ = alternate(
                partial(run_minizinc, n), partial(timed, partial(reference_count, n)), args.repeat
            )
            if mzn_count != len(expected):
                raise SystemExit(f"n={n}: MiniZinc/Gecode printed {mzn_count} solutions, expected {len(expected)}")
            outside.append(Comparison(f"minizinc gecode n={n}", tuple(mzn), tuple(ref), "(info)", no_target))
    ok = report("cpsat enumeration vs OR-Tools' sample configuration (in-process)", rows, "ours", "sample")
    if outside:
        report("outside reference: MiniZinc + Gecode (subprocess wall time) vs the sample", outside, "minizinc", "sample")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
