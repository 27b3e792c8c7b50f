"""The toolkit's backends against a bit-parallel C solver on CSPLib problem 079's hard instances.

The instances are the fixed stratified sample in ``benchmarks/csplib079/`` (Excluded Diagonals,
n = 10..21, from Gent, Jefferson, Nightingale, "Complexity of n-Queens Completion", JAIR 2017;
CSPLib, CC BY 4.0): per n the 10 instances hardest for the paper's bit solver and two random
ones per stratum of D. The reference, ``benchmarks/ref/excluded_diagonals.c``, is the paper's bit
solver written from its description; this script builds it with ``gcc -O3 -march=native`` into
``benchmarks/build/`` and checks on every run that its node count equals the paper's ``nodes``.

Each backend configuration (``name:key=value``) is asked for one solution of each instance in a
forked child process (so a timeout can stop it; numba kernels are compiled once in the parent,
before forking), and the child measures the CPU time of ``backend.first_solution(instance)``
alone (``time.process_time``; a forked child's CPU time starts at zero): model building
included, process start-up excluded. The C program measures the CPU time of its own search
(``CLOCK_PROCESS_CPUTIME_ID``), excluding start-up and file reading. CPU time, not wall time: on a
shared machine it depends far less on the other processes, for both sides alike (a solver that
runs several threads is charged for all of them). Sides run alternately, the order reversed
every repetition; the timeout is wall time.

Every answer is checked: satisfiable or not must equal the paper's (``answers.tsv``), every board
must pass the independent checker (which rejects a queen on a blocked square). Prints per
backend: instances settled within the timeout, answers equal to the paper's, total seconds
(sum over instances of the median of the repetitions), ratio to the C reference's total on the
same instances, and on how many satisfiable / unsatisfiable instances it was the fastest; then
the target: the toolkit's fastest backend per instance, summed, against the C total. The load
(``/proc/loadavg``) is printed before and after. Exit status 1 (with a line saying why, no
traceback) when an answer or a board is wrong, a run died (a child killed by a signal or the
memory guard, a crash of the C program) or failed, or the target is missed.

    python benchmarks/bench_excluded_diagonals.py [--n 16-21] [--strata hardest] [--repeat 3]
        [--backends bitboard:search=lines,bitboard,sat] [--timeout 300]
"""

from __future__ import annotations

import argparse
import csv
import multiprocessing
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import build_c, load_average, machine  # noqa: E402

from nqueens_cp.backends.framework.base import Backend  # noqa: E402
from nqueens_cp.backends.framework.configuration import Configuration  # noqa: E402
from nqueens_cp.backends.framework.registry import create_backend  # noqa: E402
from nqueens_cp.core.checker import solution_problems  # noqa: E402
from nqueens_cp.core.instance import Instance  # noqa: E402
from nqueens_cp.instances.files import read_excluded_diagonals  # noqa: E402
from nqueens_cp.system.processes import kill_tree  # noqa: E402

SOURCE = HERE / "ref" / "excluded_diagonals.c"
BINARY = HERE / "build" / "excluded_diagonals"
SAMPLE = HERE / "csplib079"
REFERENCE = "C reference"
DEFAULT_BACKENDS = "bitboard:search=lines,bitboard,sat,cpsat"


@dataclass(frozen=True)
class Case:
    """One sampled instance: the paper's row and the instance itself."""

    n: int
    diagonals: int
    ident: int
    stratum: str
    satisfiable: bool
    nodes: int
    path: Path
    instance: Instance

    @property
    def name(self) -> str:
        return f"n={self.n} D={self.diagonals} id={self.ident}"


@dataclass
class Outcome:
    """What one side did on one case over the repetitions."""

    times: list[float] = field(default_factory=list)
    answer: bool | None = None  # satisfiable?
    status: str = "ok"  # ok, timeout, unsupported, error, died, WRONG
    detail: str = ""


def build_reference() -> Path:
    """Compile the C reference with ``gcc -O3 -march=native`` (again when the source, the compiler or the flags change)."""
    return build_c(SOURCE, BINARY)


def sizes(text: str) -> set[int]:
    """``16-21`` or ``10,12,14`` as a set of board sizes."""
    out: set[int] = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.update(range(int(low), int(high or low) + 1))
    return out


def load_cases(sample: Path, wanted: set[int], strata: str) -> list[Case]:
    """The sampled instances of the chosen sizes and strata, with the paper's answers."""
    with (sample / "answers.tsv").open(encoding="utf-8") as handle:
        answers = {(r["n"], r["diagonals"], r["id"]): r for r in csv.DictReader(handle, delimiter="\t")}
    cases = []
    with (sample / "sample.tsv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            n, d, ident = int(row["n"]), int(row["diagonals"]), int(row["id"])
            hardest = row["stratum"] == "hardest"
            if n not in wanted or (strata == "hardest" and not hardest) or (strata == "random" and hardest):
                continue
            paper = answers[(row["n"], row["diagonals"], row["id"])]
            path = sample / "instances" / f"diag-{n}-4-{ident}.param"
            instance = read_excluded_diagonals(path).first(d).instance()
            cases.append(Case(n, d, ident, row["stratum"], paper["satisfiable"] == "1", int(paper["nodes"]),
                              path, instance))
    return cases


def check_board(case: Case, board: tuple[int, ...] | None, outcome: Outcome) -> None:
    """Record the answer, and mark the outcome WRONG when it or the board is wrong."""
    outcome.answer = board is not None
    if outcome.answer != case.satisfiable:
        outcome.status, outcome.detail = "WRONG", f"answered {'SAT' if board else 'UNSAT'}, the paper {case.satisfiable}"
    elif board is not None and solution_problems(case.instance, board):
        outcome.status, outcome.detail = "WRONG", "; ".join(solution_problems(case.instance, board)[:2])


def run_reference(case: Case, timeout: float, outcome: Outcome) -> None:
    try:
        done = subprocess.run([str(BINARY), str(case.path), str(case.diagonals)], capture_output=True,
                              text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        outcome.status = "timeout"
        return
    if done.returncode != 0:
        outcome.status, outcome.detail = "died", f"exit {done.returncode}: {done.stderr.strip()[-200:]}"
        return
    lines = done.stdout.split("\n")
    try:
        verdict, nodes, seconds = lines[0].split()
        board = tuple(int(c) for c in lines[1].split()) if verdict == "SAT" else None
        outcome.times.append(float(seconds))
    except (ValueError, IndexError):
        outcome.status, outcome.detail = "error", f"unreadable output: {done.stdout[:200]!r}"
        return
    check_board(case, board, outcome)
    if int(nodes) != case.nodes and outcome.status == "ok":
        outcome.status, outcome.detail = "WRONG", f"{nodes} nodes, the paper's solver {case.nodes}"


def _child(backend: Backend, instance: Instance, pipe: Any) -> None:
    try:
        start = time.process_time()
        board = backend.first_solution(instance)
        pipe.send(("ok", time.process_time() - start, board))
    except Exception as error:  # reported to the parent, which records it
        pipe.send(("error", 0.0, f"{type(error).__name__}: {error}"))


def run_backend(backend: Backend, case: Case, timeout: float, outcome: Outcome) -> None:
    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(backend, case.instance, sender))
    process.start()
    sender.close()
    if not receiver.poll(timeout):
        if process.pid is not None:
            kill_tree(process.pid)  # the child and any solver program it started (minizinc, java)
        process.join()
        outcome.status = "timeout"
        return
    try:
        status, seconds, payload = receiver.recv()
    except EOFError:  # the child ended without an answer: killed (memory, a signal) or crashed
        process.join()
        code = process.exitcode
        outcome.status = "died"
        outcome.detail = f"killed by signal {-code}" if code is not None and code < 0 else f"exit {code}"
        return
    finally:
        receiver.close()
    process.join()
    if status == "error":
        outcome.status = "unsupported" if "does not support" in str(payload) else "error"
        outcome.detail = str(payload)
        return
    outcome.times.append(seconds)
    check_board(case, payload, outcome)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", default="16-21", help="board sizes, e.g. 16-21 or 10,12 (default 16-21)")
    parser.add_argument("--strata", choices=("hardest", "random", "all"), default="hardest",
                        help="hardest: the 10 hardest instances per n (default); random: the random strata "
                        "of D; all: the whole sample")
    parser.add_argument("--backends", default=DEFAULT_BACKENDS, help=f"configurations (default {DEFAULT_BACKENDS})")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per instance and side (default 3)")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run (default 300)")
    parser.add_argument("--sample", type=Path, default=SAMPLE, help="the sample folder")
    args = parser.parse_args(argv)
    build_reference()
    cases = load_cases(args.sample, sizes(args.n), args.strata)
    labels = [label.strip() for label in args.backends.split(",") if label.strip()]
    backends = {}
    for label in labels:
        name, options = Configuration.split(label)
        backends[label] = create_backend(name, **options)
    warm = Instance(8, blocked=[(0, 0)])
    for backend in backends.values():
        try:
            backend.first_solution(warm)  # compile numba kernels once, before forking
        except Exception as error:  # an unsupported backend is reported per case
            print(f"note: {backend!r} on the warm-up instance: {error}")
    print(f"load before: {load_average()}")
    print(f"machine: {machine()}")
    sides = [REFERENCE, *labels]
    outcomes: dict[tuple[str, str], Outcome] = {}
    for case in cases:
        for rep in range(args.repeat):
            order = sides if rep % 2 == 0 else sides[::-1]
            for side in order:
                outcome = outcomes.setdefault((side, case.name), Outcome())
                if outcome.status != "ok":
                    continue  # a timeout, error or wrong answer is not run again
                if side == REFERENCE:
                    run_reference(case, args.timeout, outcome)
                else:
                    run_backend(backends[side], case, args.timeout, outcome)
        row = [f"{side}: " + (f"{statistics.median(o.times):.4f}s" if (o := outcomes[(side, case.name)]).status == "ok"
                              else o.status) for side in sides]
        print(f"{case.name} [{case.stratum}, paper {'SAT' if case.satisfiable else 'UNSAT'}] " + " | ".join(row),
              flush=True)
    print(f"load after: {load_average()}")
    return report(cases, sides, outcomes, args)


def report(cases: list[Case], sides: list[str], outcomes: dict[tuple[str, str], Outcome], args: Any) -> int:
    def seconds(side: str, case: Case) -> float | None:
        outcome = outcomes[(side, case.name)]
        return statistics.median(outcome.times) if outcome.status == "ok" else None

    reference = {case.name: seconds(REFERENCE, case) for case in cases}
    fastest: dict[str, str] = {}
    for case in cases:
        timed = [(t, side) for side in sides[1:] if (t := seconds(side, case)) is not None]
        if timed:
            fastest[case.name] = min(timed)[1]
    table = []
    wrong = 0
    for side in sides:
        done = [case for case in cases if seconds(side, case) is not None]
        wrong += sum(outcomes[(side, case.name)].status == "WRONG" for case in cases)
        total = sum(seconds(side, case) or 0.0 for case in done)
        both = [case for case in done if reference[case.name] is not None]
        ref_total = sum(reference[case.name] or 0.0 for case in both)
        ours_both = sum(seconds(side, case) or 0.0 for case in both)
        statuses = sorted({outcomes[(side, case.name)].status for case in cases} - {"ok"})
        table.append([
            side, f"{len(done)}/{len(cases)}",
            sum(outcomes[(side, case.name)].answer == case.satisfiable for case in done),
            f"{total:.3f}", f"{ours_both / ref_total:.4f}" if ref_total else "-",
            sum(fastest.get(case.name) == side and case.satisfiable for case in cases),
            sum(fastest.get(case.name) == side and not case.satisfiable for case in cases),
            ", ".join(statuses) or "-",
        ])
    print(f"\n## Excluded Diagonals, n in {args.n}, strata {args.strata}: {len(cases)} instances, "
          f"CPU seconds, median of {args.repeat} runs per instance, timeout {args.timeout:g} s (wall)")
    print(tabulate(table, headers=["side", "settled", "answers = paper", "total CPU s", "ratio to C",
                                   "fastest SAT", "fastest UNSAT", "not ok"], tablefmt="github"))
    failed = 0
    for (side, name), outcome in sorted(outcomes.items()):
        if outcome.status in ("WRONG", "error", "died"):
            failed += 1
            print(f"{outcome.status}: {side} on {name}: {outcome.detail}")
    settled_by_toolkit = [case for case in cases if case.name in fastest]
    best_total = sum(seconds(fastest[case.name], case) or 0.0 for case in settled_by_toolkit)
    ref_total = sum(t for t in reference.values() if t is not None)
    every = len(settled_by_toolkit) == len(cases) and all(t is not None for t in reference.values())
    met = every and best_total <= ref_total
    print(f"\ntarget: the fastest backend per instance, summed, <= the C reference's total: "
          f"{best_total:.3f} s vs {ref_total:.3f} s (ratio {best_total / ref_total if ref_total else float('nan'):.5f}); "
          f"settled by the toolkit {len(settled_by_toolkit)}/{len(cases)}, by C "
          f"{sum(t is not None for t in reference.values())}/{len(cases)}: {'met' if met else 'NOT met'}")
    if failed or not met:
        reasons = [f"{wrong} wrong answers"] if wrong else []
        reasons += [f"{failed - wrong} runs that died or failed"] if failed > wrong else []
        reasons += ["the target was missed"] if not met else []
        print(f"exit 1: {', '.join(reasons)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
