"""Encodings x solvers, per n, from a ``nqueens-cp compare`` run of ``sat:encoding=E:solver=S`` configurations.

    python benchmarks/encodings_summary.py reports/encodings/enumeration/results.json

Prints, for each board size, a table with one row per encoding and one column per solver: the
median CPU seconds over the repetitions (``cpu_time`` of each run: the machine is shared, so CPU
time is steadier than wall time), ``timeout`` when a repetition timed out and ``-`` when none ran;
then the fastest pairs and every encoding's best time as a multiple of the fastest. It reads the
results file only (nothing is run), so the figures quoted from it can be checked against the data.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path
from statistics import median

LABEL = re.compile(r"^sat:encoding=(?P<encoding>\w+):solver=(?P<solver>\w+)$")


def load(path: Path) -> tuple[dict[tuple[int, str, str], list[float | None]], list[str], list[str]]:
    """CPU seconds of every run by (n, encoding, solver) (None for a run that did not finish ok)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    times: dict[tuple[int, str, str], list[float | None]] = defaultdict(list)
    encodings: list[str] = []
    solvers: list[str] = []
    for run in data["runs"]:
        match = LABEL.match(run["config"])
        if match is None:
            continue
        encoding, solver = match["encoding"], match["solver"]
        if encoding not in encodings:
            encodings.append(encoding)
        if solver not in solvers:
            solvers.append(solver)
        times[(run["n"], encoding, solver)].append(run["cpu_time"] if run["status"] == "ok" else None)
    return times, encodings, solvers


def cell(values: list[float | None]) -> float | None:
    """The median of the repetitions, or None when one did not finish (a timeout counts against it)."""
    if not values or any(v is None for v in values):
        return None
    return median(v for v in values if v is not None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", type=Path, help="results.json written by nqueens-cp compare")
    args = parser.parse_args(argv)
    times, encodings, solvers = load(args.results)
    for n in sorted({key[0] for key in times}):
        medians = {(e, s): cell(times.get((n, e, s), [])) for e in encodings for s in solvers}
        reps = max(len(times.get((n, e, s), [])) for e in encodings for s in solvers)
        print(f"\nn = {n}: median CPU seconds of {reps} repetitions")
        print("| encoding | " + " | ".join(solvers) + " | best / fastest |")
        print("|---|" + "--:|" * (len(solvers) + 1))
        finished = [v for v in medians.values() if v is not None]
        fastest = min(finished) if finished else None
        for e in encodings:
            row = [medians[(e, s)] for s in solvers]
            shown = ["timeout" if (n, e, s) in times and v is None else "-" if v is None else f"{v:.3g}"
                     for s, v in zip(solvers, row, strict=True)]
            best = min((v for v in row if v is not None), default=None)
            ratio = f"{best / fastest:.2f}x" if best is not None and fastest else "-"
            print(f"| `{e}` | " + " | ".join(shown) + f" | {ratio} |")
        ranked = sorted(((v, e, s) for (e, s), v in medians.items() if v is not None))[:5]
        print("fastest: " + ", ".join(f"{e}+{s} {v:.3g} s" for v, e, s in ranked))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
