"""Benchmark of certified answers (``solve --certify``): what checking the proofs costs.

Two parts, in one process each (the checker's compiled kernel is loaded first and its load time
printed apart), every figure a median of ``--repeat`` runs with the sides alternated:

* ``csplib``: every unsatisfiable instance of the CSPLib 079 sample (``benchmarks/csplib079``,
  the paper's answers) for n = 10..16: plain solving (``sat`` backend, no proof), solving with the
  proof written, and checking (the rules check and the DRUP proof). Totals, and the ratio of
  check time to solve time::

      python benchmarks/bench_certify.py csplib --repeat 3

* ``counts``: ``--count`` for n = 4..12: plain counting against certified counting (solve with the
  proof, check every solution, the rules and the proof); proof lines and check time per n::

      python benchmarks/bench_certify.py counts --repeat 3

* ``encodings``: ``--count`` at n = 10 with the encodings ``--encodings`` (pairwise, seqcounter,
  totalizer by default): solve with the proof, the whole check, and of it the check of the CNF's
  clauses (the rules, and for an encoding with auxiliary variables that every board extends to
  the clauses over them), timed apart::

      python benchmarks/bench_certify.py encodings --repeat 3

The target (issue 23): checking within 10x of solving. The exit status is 1 when an answer is
wrong (a certified count that differs from OEIS, an instance the paper calls unsatisfiable that is
not certified so) or the target is missed; a failed check is reported, never a traceback.
"""

from __future__ import annotations

import argparse
import csv
import statistics
import sys
import time
from pathlib import Path

from tabulate import tabulate

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks._common import load_average, machine
from nqueens_cp import Instance
from nqueens_cp.backends.sat import SatBackend
from nqueens_cp.core.errors import CertificationError
from nqueens_cp.core.oeis import A000170
from nqueens_cp.instances.files import read_instance
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.proofs.certificate import CnfOfBoard, check_clauses

SAMPLE = Path(__file__).resolve().parent / "csplib079"
TARGET = 10.0


def unsatisfiable_sample(low: int, high: int) -> list[tuple[str, Instance]]:
    """The sample's instances the paper answers "no solution", n from ``low`` to ``high``."""
    with (SAMPLE / "answers.tsv").open(encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle, delimiter="\t") if r["satisfiable"] == "0"]
    chosen = []
    for row in rows:
        n, diagonals, ident = int(row["n"]), int(row["diagonals"]), row["id"]
        if low <= n <= high:
            path = SAMPLE / "instances" / f"diag-{n}-4-{ident}.param"
            chosen.append((f"{n}-{diagonals}-{ident}", read_instance(path, diagonals)))
    return chosen


def certify_once(instance: Instance, *, every: bool, encoding: str = "pairwise") -> tuple[float, float, int, int]:
    """(solve seconds, check seconds, solutions, proof lines) of one certified run."""
    started = time.perf_counter()
    certificate = SatBackend(encoding=encoding).certified(instance, every=every, on_solution=lambda solution: None)
    total = time.perf_counter() - started
    assert certificate is not None, "a solution where the paper says none"
    return total - certificate.check_seconds, certificate.check_seconds, certificate.solutions, \
        certificate.proof_text.count("\n")


def plain_once(instance: Instance, *, every: bool) -> tuple[float, int]:
    backend = SatBackend()
    started = time.perf_counter()
    answer = backend.count(instance) if every else int(backend.first_solution(instance) is not None)
    return time.perf_counter() - started, answer


def warm_up() -> float:
    started = time.perf_counter()
    certify_once(Instance(4), every=True)
    return time.perf_counter() - started


def run_csplib(repeat: int, low: int, high: int) -> bool:
    cases = unsatisfiable_sample(low, high)
    rows = []
    totals = {"plain": 0.0, "proof": 0.0, "check": 0.0}
    wrong = []
    for label, instance in cases:
        plain, proof, check, lines = [], [], [], []
        for k in range(repeat):
            order = (0, 1) if k % 2 == 0 else (1, 0)
            for side in order:
                if side == 0:
                    seconds, answer = plain_once(instance, every=False)
                    plain.append(seconds)
                    if answer:
                        wrong.append(f"{label}: the sat backend found a solution")
                else:
                    try:
                        solve_s, check_s, _, proof_lines = certify_once(instance, every=False)
                    except (CertificationError, AssertionError) as error:
                        wrong.append(f"{label}: {error}")
                        continue
                    proof.append(solve_s)
                    check.append(check_s)
                    lines.append(proof_lines)
        if not proof:
            continue
        med = {"plain": statistics.median(plain), "proof": statistics.median(proof), "check": statistics.median(check)}
        for key in totals:
            totals[key] += med[key]
        rows.append((label, f"{med['plain'] * 1e3:.1f}", f"{med['proof'] * 1e3:.1f}", f"{med['check'] * 1e3:.1f}",
                     max(lines), f"{med['check'] / med['proof']:.2f}"))
    print(tabulate(rows, headers=("n-D-id", "plain solve ms", "solve+proof ms", "check ms", "proof lines",
                                  "check/solve"), tablefmt="github"))
    print()
    by_n: dict[int, list[float]] = {}
    for label, plain_ms, proof_ms, check_ms, proof_lines, _ in rows:
        entry = by_n.setdefault(int(label.split("-")[0]), [0, 0.0, 0.0, 0.0, 0])
        entry[0] += 1
        entry[1] += float(plain_ms)
        entry[2] += float(proof_ms)
        entry[3] += float(check_ms)
        entry[4] = max(entry[4], proof_lines)
    print(tabulate([(n, int(e[0]), f"{e[1]:.0f}", f"{e[2]:.0f}", f"{e[3]:.0f}", int(e[4]), f"{e[3] / e[2]:.2f}")
                    for n, e in sorted(by_n.items())],
                   headers=("n", "instances", "plain solve ms", "solve+proof ms", "check ms", "largest proof (lines)",
                            "check/solve"), tablefmt="github"))
    print()
    ratio = totals["check"] / totals["proof"]
    print(f"{len(rows)} of {len(cases)} unsatisfiable instances (n = {low}..{high}) certified; totals of medians: "
          f"plain solve {totals['plain']:.2f} s, solve with proof {totals['proof']:.2f} s, "
          f"check {totals['check']:.2f} s; check/solve = {ratio:.2f} (check/plain = "
          f"{totals['check'] / totals['plain']:.2f}); target check/solve <= {TARGET:g}: "
          f"{'met' if ratio <= TARGET else 'MISSED'}")
    for line in wrong:
        print(f"WRONG: {line}")
    return not wrong and len(rows) == len(cases) and ratio <= TARGET


def run_counts(repeat: int, low: int, high: int) -> bool:
    rows = []
    ok = True
    for n in range(low, high + 1):
        plain, proof, check, lines = [], [], [], []
        for k in range(repeat):
            order = (0, 1) if k % 2 == 0 else (1, 0)
            for side in order:
                if side == 0:
                    seconds, count = plain_once(Instance(n), every=True)
                    plain.append(seconds)
                else:
                    try:
                        solve_s, check_s, count, proof_lines = certify_once(Instance(n), every=True)
                    except CertificationError as error:
                        print(f"WRONG: n = {n}: {error}")
                        ok = False
                        continue
                    proof.append(solve_s)
                    check.append(check_s)
                    lines.append(proof_lines)
                if count != A000170[n]:
                    print(f"WRONG: n = {n}: count {count}, OEIS A000170 {A000170[n]}")
                    ok = False
        if not proof:
            continue
        p, s, c = statistics.median(plain), statistics.median(proof), statistics.median(check)
        ok = ok and c / s <= TARGET
        rows.append((n, A000170[n], f"{p:.3f}", f"{s:.3f}", f"{c:.3f}", max(lines),
                     f"{(s + c) / p:.2f}", f"{c / s:.2f}"))
    print(tabulate(rows, headers=("n", "count", "plain count s", "solve+proof s", "check s", "proof lines",
                                  "certified/plain", "check/solve"), tablefmt="github"))
    return ok


def run_encodings(repeat: int, low: int, high: int, encodings: list[str]) -> bool:
    rows = []
    ok = True
    for n in range(low, high + 1):
        instance = Instance(n)
        for encoding in encodings:
            built = build_cnf(instance, encoding)
            cnf = CnfOfBoard(instance, built.cnf.nv, tuple(map(tuple, built.cnf.clauses)), built.squares)
            proof, check, clauses = [], [], []
            auxiliary = check_clauses(cnf)
            for _ in range(repeat):
                started = time.perf_counter()
                check_clauses(cnf)
                clauses.append(time.perf_counter() - started)
                try:
                    solve_s, check_s, count, _ = certify_once(instance, every=True, encoding=encoding)
                except CertificationError as error:
                    print(f"WRONG: n = {n}, {encoding}: {error}")
                    ok = False
                    continue
                proof.append(solve_s)
                check.append(check_s)
                if count != A000170[n]:
                    print(f"WRONG: n = {n}, {encoding}: count {count}, OEIS A000170 {A000170[n]}")
                    ok = False
            if not proof:
                continue
            s, c, k = statistics.median(proof), statistics.median(check), statistics.median(clauses)
            rows.append((n, encoding, auxiliary.clauses, auxiliary.variables, f"{s:.3f}", f"{c:.3f}", f"{k:.3f}",
                         f"{k / c:.2f}", f"{k / s:.2f}"))
    print(tabulate(rows, headers=("n", "encoding", "aux clauses", "aux variables", "solve+proof s", "check s",
                                  "of which CNF clauses s", "clauses/check", "clauses/solve"), tablefmt="github"))
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("part", choices=("csplib", "counts", "encodings"))
    parser.add_argument("--encodings", default="pairwise,seqcounter,totalizer",
                        help=f"with encodings: a comma-separated list of {', '.join(ENCODINGS)}")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--low", type=int)
    parser.add_argument("--high", type=int)
    args = parser.parse_args()
    chosen = args.encodings.split(",")
    unknown = [name for name in chosen if name not in ENCODINGS]
    if unknown:
        parser.error(f"unknown encoding {unknown[0]!r} (choose from {', '.join(ENCODINGS)})")
    print(f"# bench_certify {args.part}: {machine()}; load before: {load_average()}")
    print(f"(checker kernel load and first certified run, once: {warm_up():.2f} s)")
    if args.part == "csplib":
        ok = run_csplib(args.repeat, args.low or 10, args.high or 16)
    elif args.part == "counts":
        ok = run_counts(args.repeat, args.low or 4, args.high or 12)
    else:
        ok = run_encodings(args.repeat, args.low or 10, args.high or 10, chosen)
    print(f"load after: {load_average()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
