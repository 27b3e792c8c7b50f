"""``sat`` enumeration against the reference SAT configuration, n = 12 by default.

The reference: the backend's CNF with the ``seqcounter`` encoding, solved by PySAT's Minisat22,
each board blocked by a clause over its queen variables only, until the formula is unsatisfiable
(the loop is written out here). Our side enumerates every solution through the backend
(``list(backend.solutions(...))``) with each configuration given by ``--config`` (default: the
backend's defaults). Both run in this process, alternately, and must find the same set. The ratio
is median(ours) / median(reference); the target is at most 0.1 (at least 10 times faster).

    python benchmarks/bench_sat.py [--n 12] [--repeat 3] [--config sat sat:encoding=pairwise]
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Comparison, alternate, report, timed  # noqa: E402

from nqueens_cp.backends.base import Backend  # noqa: E402
from nqueens_cp.backends.registry import create_backend, parse_config  # noqa: E402
from nqueens_cp.backends.sat import build_cnf  # noqa: E402
from nqueens_cp.instance import Instance, Solution  # noqa: E402


def reference_solutions(n: int) -> list[Solution]:
    """seqcounter CNF, Minisat22, blocking each board on its n*n queen variables."""
    from pysat.solvers import Solver

    built = build_cnf(Instance(n), "seqcounter")
    found: list[Solution] = []
    with Solver(name="minisat22", bootstrap_with=built.cnf.clauses) as solver:
        while solver.solve():
            model = solver.get_model()
            queens = [lit for lit in model[: n * n] if lit > 0]
            found.append(built.decode(queens))
            solver.add_clause([-lit for lit in queens])
    return found


def enumerate_ours(backend: Backend, n: int) -> list[Solution]:
    return list(backend.solutions(Instance(n)))


def at_least_10x(ratio: float) -> bool:
    return ratio <= 0.1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[12])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--config", nargs="+", default=["sat"], help="backend configurations, e.g. sat:solver=glucose4")
    args = parser.parse_args(argv)
    rows = []
    for n in args.n:
        for config in args.config:
            name, options = parse_config(config)
            backend = create_backend(name, **options)
            ours, ref, our_sols, ref_sols = alternate(
                partial(timed, partial(enumerate_ours, backend, n)),
                partial(timed, partial(reference_solutions, n)),
                args.repeat,
            )
            assert isinstance(our_sols, list) and isinstance(ref_sols, list)
            if set(our_sols) != set(ref_sols) or len(our_sols) != len(ref_sols):
                raise SystemExit(f"n={n}: {config} and the reference found different solutions")
            rows.append(
                Comparison(f"{config} enumerate n={n} ({len(our_sols)})", tuple(ours), tuple(ref), "<= 0.1", at_least_10x)
            )
    ok = report("sat enumeration vs seqcounter + Minisat22 + queen-variable blocking (in-process)", rows, "ours", "reference")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
