"""Interruption latency: how long each backend's long call takes to end after SIGINT or SIGTERM.

For each backend a command that runs well over 10 s is started (in a session of its own), the
signal is sent to the command's process alone once its solver is busy (the process tree has used
``busy`` seconds of CPU beyond start-up), and the time until it has exited is measured, with its
exit status (130 after SIGINT, 143 after SIGTERM) and whether any process of its session was
left behind. A run still going after ``--give-up`` seconds is killed and shown as such.

    python benchmarks/bench_interrupt.py [--repeat 3] [--backends cpsat,sat] [--signals INT,TERM] [--family]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tabulate import tabulate

#: Exit status expected after each signal.
EXPECTED = {signal.SIGINT: 130, signal.SIGTERM: 143}


@dataclass(frozen=True)
class Case:
    """One backend's long command (the arguments after ``nqueens-cp``) and the CPU seconds its
    process tree uses before the solver is under way."""

    backend: str
    argv: tuple[str, ...]
    busy: float = 1.5


#: Commands that each run for well over 10 s on a 2-core machine.
CASES: tuple[Case, ...] = (
    Case("backtrack", ("solve", "16", "--count", "--backend", "backtrack")),
    Case("bitboard", ("solve", "21", "--count", "--backend", "bitboard")),
    Case("cpsat", ("solve", "1000", "--backend", "cpsat", "--time-limit", "600"), 2.5),
    Case("sat", ("solve", "15", "--count", "--backend", "sat")),
    Case("minizinc", ("solve", "16", "--count", "--backend", "minizinc")),
    Case("localsearch", ("solve", "20000000", "--backend", "localsearch", "-O", "method=minconflicts"), 2.5),
    Case("construction", ("solve", "100000000", "--backend", "construction"), 2.5),
    Case("asp", ("solve", "13", "--count", "--backend", "asp")),
    Case("mip", ("solve", "1000", "--backend", "mip", "--time-limit", "600"), 4.0),
    Case("smt", ("solve", "13", "--count", "--backend", "smt")),
    Case("pb", ("solve", "13", "--count", "--backend", "pb")),
    Case("choco", ("solve", "16", "--count", "--backend", "choco"), 3.0),
    Case("xcsp3", ("solve", "16", "--count", "--backend", "xcsp3"), 3.0),
    Case("cpmpy", ("solve", "14", "--count", "--backend", "cpmpy"), 2.5),
    Case("ganak", ("solve", "10", "--count", "--backend", "ganak")),
    Case("approxmc", ("solve", "12", "--count", "--backend", "approxmc")),
    Case("bdd", ("solve", "13", "--count", "--backend", "bdd")),
    # first solutions of large boards: one long call each (parsing and grounding for asp)
    Case("asp", ("solve", "200", "--backend", "asp"), 3.0),
    Case("choco", ("solve", "1000", "--backend", "choco"), 4.0),
    Case("smt", ("solve", "300", "--backend", "smt"), 3.0),
)
#: A family problem's long search per backend that answers the family without the classic path's
#: machinery (an optimisation that proves nothing within minutes: the peaceable armies of n = 14).
FAMILY_CASES: tuple[Case, ...] = tuple(
    Case(backend, ("solve", "14", "--problem", "peaceable", "--backend", backend, "--time-limit", "600"), busy)
    for backend, busy in (("asp", 2.5), ("smt", 2.5), ("minizinc", 2.5))
)


def command_prefix() -> list[str]:
    """How to call nqueens-cp: ``python -m nqueens_cp`` with this interpreter."""
    return [sys.executable, "-m", "nqueens_cp"]


def session_processes(session: int) -> list[int]:
    """The live processes of session ``session`` (Linux ``/proc``)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[3]) == session and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return found


def cpu_seconds(pids: list[int]) -> float:
    """The CPU time (user + system) the processes ``pids`` have used."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


@dataclass(frozen=True)
class Outcome:
    """One interrupted run: seconds from the signal to the exit (None: killed at ``give_up``),
    its exit status, whether it still ran when the signal came, what was left of its session."""

    latency: float | None
    status: int | None
    running: bool
    left: tuple[int, ...]
    stderr: str


def interrupt(argv: list[str], signum: int, busy: float, give_up: float, start_limit: float = 120.0) -> Outcome:
    """Run ``argv`` in a new session, send ``signum`` to its process once the session has used
    ``busy`` s of CPU, and time its exit."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               start_new_session=True, env=env)
    try:
        deadline = time.monotonic() + start_limit
        while cpu_seconds(session_processes(process.pid)) < busy and process.poll() is None:
            if time.monotonic() > deadline:
                break
            time.sleep(0.05)
        running = process.poll() is None
        sent = time.monotonic()
        process.send_signal(signum)
        try:
            _, err = process.communicate(timeout=give_up)
            latency: float | None = time.monotonic() - sent
        except subprocess.TimeoutExpired:
            latency = None
            err = ""
        left: list[int] = []
        for _ in range(30):  # children may take a moment to notice their parent is gone
            left = [pid for pid in session_processes(process.pid) if pid != process.pid]
            if not left:
                break
            time.sleep(0.1)
        return Outcome(latency, process.poll(), running, tuple(left), err.strip())
    finally:
        for pid in session_processes(process.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--backends", default=",".join(case.backend for case in CASES))
    parser.add_argument("--signals", default="INT,TERM")
    parser.add_argument("--family", action="store_true", help="the family's cases (FAMILY_CASES) instead")
    parser.add_argument("--give-up", type=float, default=20.0, help="seconds after the signal before a kill")
    args = parser.parse_args(argv)
    wanted = args.backends.split(",")
    signums = [signal.Signals[f"SIG{name.strip().upper()}"] for name in args.signals.split(",")]
    rows = []
    for case in (case for case in (FAMILY_CASES if args.family else CASES) if case.backend in wanted):
        row: list[object] = [case.backend, " ".join(case.argv)]
        for signum in signums:
            outcomes = [interrupt([*command_prefix(), *case.argv], signum, case.busy, args.give_up)
                        for _ in range(args.repeat)]
            latencies = [o.latency for o in outcomes]
            shown = ("killed" if any(x is None for x in latencies)
                     else f"{statistics.median([x for x in latencies if x is not None]):.2f}")
            statuses = sorted({o.status for o in outcomes}, key=str)
            notes = []
            if not all(o.running for o in outcomes):
                notes.append("ended before the signal")
            if any(o.left for o in outcomes):
                notes.append("left " + ",".join(str(len(o.left)) for o in outcomes))
            wrong = [o.stderr[-80:] for o in outcomes if o.status != EXPECTED[signum] and o.stderr]
            if wrong:
                notes.append(wrong[0].replace("\n", " | "))
            row += [shown, "/".join(str(s) for s in statuses), "; ".join(notes)]
        rows.append(row)
        print(tabulate([row], tablefmt="plain"), flush=True)
    headers = ["backend", "command"]
    for signum in signums:
        name = signal.Signals(signum).name
        headers += [f"{name} s (median)", f"{name} status", "notes"]
    print()
    print(f"load average: {os.getloadavg()}; median of {args.repeat}; signal sent to the command's process alone")
    print(tabulate(rows, headers=headers))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
