"""Run every benchmark and measurement script, one after the other, each in its own process.

    python benchmarks/run_all.py --quick                 # small sizes: every script tried (minutes)
    python benchmarks/run_all.py                         # the commands of RESULTS.md (hours on 2 cores)
    python benchmarks/run_all.py --only constellations --outside-c /tmp/004GCC_constellation.c
    python benchmarks/run_all.py --list                  # print the commands, run nothing

Every ``benchmarks/bench_*.py`` is run, also one added since this list was written (with its
default arguments; in ``--quick`` mode such a script is left out, and the line says so, unless
it defines ``QUICK_ARGUMENTS = [...]`` at module level). The measurement scripts that print a
figure of RESULTS.md (``first_solution_scan.py``, ``model_counts.py``, ``encodings_summary.py``)
are run too. ``--outside-c PATH`` is handed to ``bench_constellations.py`` (its yardstick,
``004GCC_constellation.c``; without it that script says the yardstick is left out).

Each command is printed (``$ python benchmarks/...``) before its output, with the load average
before and after, so that every table can be traced to its command. In ``--quick`` mode the
sizes are too small for the targets (C start-up, numba's load and the like dominate there): a
script exiting 1 with its reason (a missed target; the reason is in its output) is reported, and
only a traceback or another exit status makes the quick run fail. The exit status is 0 when every
script exited 0 (``--quick``: 0, or 1 without a traceback), 1 otherwise; the summary table lists
each script's exit status and wall time.
"""

from __future__ import annotations

import argparse
import ast
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import load_average  # noqa: E402


@dataclass(frozen=True)
class Script:
    """One script and its arguments for a full run and for ``--quick`` (None: left out, see ``why``)."""

    file: str
    full: tuple[str, ...]
    quick: tuple[str, ...] | None
    why: str = ""


#: Every script, in the order run. The full arguments are the commands of RESULTS.md.
SCRIPTS: dict[str, Script] = {
    "startup": Script("bench_startup.py", (), ("--repeat", "3")),
    "backtrack": Script("bench_backtrack.py", (), ("--n", "9", "--repeat", "1")),
    "bitboard": Script("bench_bitboard.py", (), ("--n", "12", "--repeat", "1")),
    "constellations": Script("bench_constellations.py", ("--n", "17", "18", "--parallel"),
                             ("--n", "14", "--repeat", "1", "--parallel")),
    "cpsat": Script("bench_cpsat.py", (), ("--n", "8", "--repeat", "1")),
    "sat": Script("bench_sat.py", (), ("--n", "8", "--repeat", "1")),
    "sat-grid": Script("bench_sat.py", ("--grid", "--n", "10"),
                       ("--grid", "--n", "6", "--repeat", "1", "--encodings", "pairwise,seqcounter",
                        "--solvers", "cadical195,minisat22")),
    "defaults": Script("bench_defaults.py", (), ("--n", "4-9", "--repeat", "1")),
    "first": Script("bench_first.py", (), ("--n", "32", "--repeat", "1", "--cap", "60")),
    "parallel": Script("bench_parallel.py", (), ("--n", "12", "--big", "0", "--repeat", "1")),
    "reliability": Script("bench_reliability.py", (), ("--n", "12", "--repeat", "1")),
    "excluded_diagonals": Script("bench_excluded_diagonals.py", (),
                                 ("--n", "10", "--repeat", "1", "--timeout", "30")),
    "certify-csplib": Script("bench_certify.py", ("csplib", "--repeat", "3"),
                             ("csplib", "--repeat", "1", "--low", "10", "--high", "11")),
    "certify-counts": Script("bench_certify.py", ("counts", "--repeat", "3"),
                             ("counts", "--repeat", "1", "--low", "4", "--high", "9")),
    "certify-encodings": Script("bench_certify.py", ("encodings", "--repeat", "3"),
                                ("encodings", "--repeat", "1", "--low", "6", "--high", "6")),
    "first_solution_scan": Script("first_solution_scan.py", ("1", "1500", "--cap", "10"),
                                  ("1", "64", "--cap", "5")),
    "first_solution_scan_localsearch": Script("first_solution_scan.py",
                                              ("200", "5000", "--backend", "localsearch", "--cap", "10"),
                                              ("200", "264", "--backend", "localsearch", "--cap", "5")),
    "model_counts": Script("model_counts.py", ("--n", "4-8"), ("--n", "4-5")),
    "encodings_summary": Script("encodings_summary.py", ("reports/encodings/enumeration/results.json",),
                                ("reports/encodings/enumeration/results.json",)),
}


def quick_arguments(path: Path) -> tuple[str, ...] | None:
    """A new script's ``QUICK_ARGUMENTS = [...]`` (read from its source, not imported), if any."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(target, ast.Name) and target.id == "QUICK_ARGUMENTS" for target in targets):
            value = ast.literal_eval(node.value) if node.value is not None else None
            if isinstance(value, (list, tuple)) and all(isinstance(item, str) for item in value):
                return tuple(value)
    return None


def every_script(folder: Path = HERE) -> dict[str, Script]:
    """The known scripts, then every ``bench_*.py`` of ``folder`` not among them (with its defaults)."""
    scripts = dict(SCRIPTS)
    known = {script.file for script in SCRIPTS.values()}
    for path in sorted(folder.glob("bench_*.py")):
        if path.name not in known:
            quick = quick_arguments(path)
            scripts[path.stem.removeprefix("bench_")] = Script(
                path.name, (), quick, "" if quick is not None else "no quick arguments known (no QUICK_ARGUMENTS)")
    return scripts


def command_of(script: Script, quick: bool, outside_c: Path | None) -> list[str] | None:
    """The command line of ``script`` (None when it is left out of a quick run)."""
    arguments = script.quick if quick else script.full
    if arguments is None:
        return None
    extra = ["--outside-c", str(outside_c)] if outside_c is not None and script.file == "bench_constellations.py" else []
    return [sys.executable, str(HERE / script.file), *arguments, *extra]


def shown(command: list[str]) -> str:
    """The command as a reader types it from the repository's root."""
    return " ".join(["python", f"benchmarks/{Path(command[1]).name}", *command[2:]])


def run(command: list[str]) -> tuple[int, bool]:
    """Run ``command`` from the repository's root, its output passed through; its exit status and
    whether it printed a Python traceback."""
    process = subprocess.Popen(command, cwd=HERE.parent, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    assert process.stderr is not None
    traceback = False
    for line in process.stderr:
        traceback = traceback or line.startswith("Traceback (most recent call last)")
        sys.stderr.write(line)
        sys.stderr.flush()
    return process.wait(), traceback


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    scripts = every_script()
    parser.add_argument("--quick", action="store_true", help="small sizes, one run each: a smoke test")
    parser.add_argument("--only", nargs="+", choices=list(scripts), default=list(scripts), metavar="NAME",
                        help=f"run only these: {', '.join(scripts)}")
    parser.add_argument("--outside-c", type=Path, metavar="PATH",
                        help="004GCC_constellation.c (source or binary), for bench_constellations.py")
    parser.add_argument("--list", action="store_true", help="print the commands and what is left out, run nothing")
    args = parser.parse_args(argv)
    rows = []
    failed = []
    for name in args.only:
        script = scripts[name]
        command = command_of(script, args.quick, args.outside_c)
        if command is None:
            print(f"left out of --quick: {script.file}: {script.why}", flush=True)
            rows.append([name, "left out", "", script.why])
            continue
        print(f"$ {shown(command)}", flush=True)
        if args.list:
            continue
        print(f"load before: {load_average()}", flush=True)
        start = time.perf_counter()
        status, traceback = run(command)
        seconds = time.perf_counter() - start
        print(f"load after: {load_average()}; exit status {status}; {seconds:.1f} s wall\n", flush=True)
        # Quick sizes miss targets (exit 1 with a line saying why); a traceback or another status is a failure.
        tolerated = args.quick and status == 1 and not traceback
        if status != 0 and not tolerated:
            failed.append(name)
        note = ("target missed or a check failed: see its output" if tolerated
                else "" if status == 0 else "FAILED" + (" (traceback)" if traceback else ""))
        rows.append([name, str(status), f"{seconds:.1f}", note])
    if args.list:
        return 0
    print(tabulate(rows, headers=["script", "exit status", "wall s", "note"], tablefmt="github"))
    if failed:
        print(f"failed: {', '.join(failed)}")
        return 1
    print("every script ran" + (" without a failure (quick sizes: targets not judged)" if args.quick
                                else " and met its targets"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
