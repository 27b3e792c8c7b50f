"""A053994: toroidal solutions up to rotations, reflections and torus shifts, with a certificate.

For each side n: Burnside's lemma over the conjugacy classes of the torus's group of 8 n² maps
(``nqueens_cp.searches.torus_classes``). ``Fix`` of the identity is the number of solutions,
A007705's published term (Engelhardt's count: taken as published, and said so in the output);
every other class's ``Fix`` is counted here by the orbit search. Prints one row per side (the
classes, A053994's published term where there is one, the seconds) and, with ``--certificate
FILE``, writes every class's representative map, size and ``Fix`` as JSON, from which the term is
``sum(size * fixed) / (8 n²)``: anyone can re-count any ``Fix`` with another program.
``--cross-check`` does so here: every class's ``Fix`` but the identity's counted again by OR-Tools
CP-SAT, enumerating the solutions of a Boolean model of the torus (one queen per row and column,
one per wrapping diagonal) with ``x[s] == x[g(s)]`` for every square s: a different program on a
different model.

    nice python benchmarks/bench_torus_classes.py [N ...] [--certificate FILE] [--workers 2] [--cross-check]

Side 31 is the first side whose term A053994 does not publish (its entry stops at side 29).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from nqueens_cp.core.family_oeis import A007705, A053994
from nqueens_cp.searches.torus_classes import TorusMap, torus_classes

#: Small sides for ``run_all.py --quick``.
QUICK_ARGUMENTS = ["5", "7", "11", "13", "17", "19"]


def cp_sat_fixed(n: int, g: TorusMap) -> int:
    """The toroidal solutions of side n that ``g`` fixes, enumerated by CP-SAT (see the docstring)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    x = {(r, c): model.NewBoolVar(f"x{r}_{c}") for r in range(n) for c in range(n)}
    for k in range(n):
        model.AddExactlyOne(x[k, c] for c in range(n))
        model.AddExactlyOne(x[r, k] for r in range(n))
        model.AddExactlyOne(x[r, (k - r) % n] for r in range(n))
        model.AddExactlyOne(x[r, (r - k) % n] for r in range(n))
    for square, var in x.items():
        model.Add(var == x[g.apply(n, square)])

    class Counter(cp_model.CpSolverSolutionCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            super().__init__()
            self.solutions = 0

        def on_solution_callback(self) -> None:
            self.solutions += 1

    solver = cp_model.CpSolver()
    solver.parameters.enumerate_all_solutions = True
    solver.parameters.num_workers = 1
    counter = Counter()
    status = solver.Solve(model, counter)
    if status not in (cp_model.OPTIMAL, cp_model.INFEASIBLE):
        raise SystemExit(f"bench_torus_classes: CP-SAT did not finish the enumeration for {g} (status {status})")
    return counter.solutions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sides", type=int, nargs="*", default=[5, 7, 11, 13, 17, 19, 23, 25, 29, 31])
    parser.add_argument("--workers", type=int, default=2, help="threads for the classes' searches (default 2)")
    parser.add_argument("--certificate", type=Path, help="write the Burnside sum of every side as JSON")
    parser.add_argument("--cross-check", action="store_true",
                        help="count every class's Fix but the identity's again with CP-SAT")
    args = parser.parse_args()
    print("| side | solutions (A007705) | conjugacy classes | Burnside sum | classes | A053994 | match | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    certificates = []
    for n in args.sides:
        if n % 2 == 0 or n // 2 not in A007705:
            raise SystemExit(f"bench_torus_classes: side {n} has no published number of solutions in A007705")
        start = time.perf_counter()
        result = torus_classes(n, A007705[n // 2], args.workers)
        seconds = time.perf_counter() - start
        published = A053994.get(n // 2)
        match = "-" if published is None else ("yes" if published == result.classes else "**NO**")
        print(f"| {n} | {result.solutions:,} | {len(result.conjugacy)} | {result.burnside_sum:,} | "
              f"{result.classes:,} | {'unpublished' if published is None else f'{published:,}'} | {match} | "
              f"{seconds:.1f} |", flush=True)
        if args.cross_check:
            start = time.perf_counter()
            disagree = [(k, again) for k in result.conjugacy[1:]
                        if (again := cp_sat_fixed(n, k.representative)) != k.fixed]
            print(f"CP-SAT cross-check of side {n}'s {len(result.conjugacy) - 1} other classes: "
                  f"{'all agree' if not disagree else f'**{len(disagree)} DISAGREE**: {disagree}'} "
                  f"({time.perf_counter() - start:.1f} s)", flush=True)
        certificates.append({
            "side": n, "group_order": 8 * n * n, "classes": result.classes,
            "identity": "A007705's published number of solutions", "burnside_sum": result.burnside_sum,
            "conjugacy_classes": [{"matrix": list(k.representative.matrix), "shift": list(k.representative.shift),
                                   "size": k.size, "fixed": k.fixed} for k in result.conjugacy],
        })
    if args.certificate:
        args.certificate.write_text(json.dumps({
            "what": "toroidal n-queens solutions up to rotations, reflections and torus shifts (A053994)",
            "map": "(r, c) -> (a r + b c + shift[0], c' r + d c + shift[1]) mod n, matrix = [a, b, c', d]",
            "sides": certificates}, indent=1) + "\n")


if __name__ == "__main__":
    main()
