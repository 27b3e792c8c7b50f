"""Every backend's long call ends on SIGINT (exit status 130, "interrupted") and on SIGTERM (143,
"terminated"), well before it would have finished, and leaves no process behind: also a solver
that keeps Python's handlers from running until it returns (CP-SAT, HiGHS, Exact, a compiled kernel).

Each command runs in a session of its own; the signal goes to its process alone (``kill PID``,
the harder case: no child gets it from the terminal) once the session has used ``busy`` seconds
of CPU (start-up is about 0.2 s of it, the solver's imports and model about 1 s more).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from nqueens_cp.core.errors import SolverError
from nqueens_cp.system.interrupts import StopSignals, Terminated, exit_status, is_interruption, native_call

from .conftest import REPO, load_file, require_backend

ENV = {**os.environ, "PYTHONPATH": str(REPO)}

#: The interruption benchmark: its long command per backend and its way of interrupting one.
BENCH = load_file(REPO / "benchmarks" / "bench_interrupt.py", "bench_interrupt")
#: Per backend, its first case in the benchmark: a command that runs for well over 10 s, and the
#: CPU seconds of its session by which its solver is under way.
LONG_RUNS: dict[str, Any] = {}
for _case in BENCH.CASES:
    LONG_RUNS.setdefault(_case.backend, _case)

#: Run by default under SIGINT (the issue's own case, CP-SAT's search in C++); the rest with the slow tests.
DEFAULT = frozenset({"cpsat"})

WORDS = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}


def _params() -> list[object]:
    return [pytest.param(backend, signum, id=f"{backend}-{signal.Signals(signum).name}",
                         marks=[] if backend in DEFAULT and signum == signal.SIGINT else [pytest.mark.slow])
            for backend in LONG_RUNS for signum in (signal.SIGINT, signal.SIGTERM)]


@pytest.mark.parametrize(("backend", "signum"), _params())
def test_a_long_run_ends_on_the_signal(backend: str, signum: int) -> None:
    require_backend(backend)
    case = LONG_RUNS[backend]
    outcome = BENCH.interrupt([sys.executable, "-m", "nqueens_cp", *case.argv], signum, case.busy, give_up=60)
    assert outcome.running, f"{case.argv} ended before it could be stopped"
    assert (outcome.status, outcome.stderr) == (exit_status(signum), f"nqueens-cp: {WORDS[signum]}")
    assert outcome.latency is not None and outcome.latency < 10, outcome  # a bound for a hang: the benchmark measures it
    assert not outcome.left, f"left behind: {outcome.left}"


@pytest.mark.slow
@pytest.mark.parametrize(("backend", "signum"), [
    pytest.param(case.backend, signum, id=f"{case.backend}-family-{signal.Signals(signum).name}")
    for case in BENCH.FAMILY_CASES for signum in (signal.SIGINT, signal.SIGTERM)])
def test_a_long_family_search_ends_on_the_signal(backend: str, signum: int) -> None:
    require_backend(backend)
    case = next(case for case in BENCH.FAMILY_CASES if case.backend == backend)
    outcome = BENCH.interrupt([sys.executable, "-m", "nqueens_cp", *case.argv], signum, case.busy, give_up=60)
    assert outcome.running, f"{case.argv} ended before it could be stopped"
    assert (outcome.status, outcome.stderr) == (exit_status(signum), f"nqueens-cp: {WORDS[signum]}")
    assert outcome.latency is not None and outcome.latency < 10, outcome
    assert not outcome.left, f"left behind: {outcome.left}"


class _SignalledInDel:
    """Sends ``signum`` to its own process from its ``__del__`` and stays there until Python has
    run the handler: the stop is raised inside ``__del__``, where Python drops exceptions (z3
    frees a term there thousands of times a second; SIGTERM landing in one was lost)."""

    def __init__(self, signum: int) -> None:
        self.signum = signum

    def __del__(self) -> None:
        os.kill(os.getpid(), self.signum)
        for _ in range(1000):  # bytecodes, between which the handler runs
            pass


@pytest.mark.parametrize(("signum", "raised"), [(signal.SIGTERM, Terminated), (signal.SIGINT, KeyboardInterrupt)])
def test_a_stop_raised_in_a_del_is_delivered_again(signum: int, raised: type[BaseException],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    with StopSignals() as stops:
        with pytest.raises(raised):
            _SignalledInDel(signum)  # freed at once
            time.sleep(5)
        assert stops.signum == signum
    assert "Exception ignored" not in capsys.readouterr().err


def test_a_stop_wrapped_by_ctypes_is_recognised() -> None:
    import ctypes

    from nqueens_cp.system.interrupts import _stop_in

    assert _stop_in(ctypes.ArgumentError("argument 1: Terminated: terminated (SIGTERM)")) == signal.SIGTERM
    assert _stop_in(ctypes.ArgumentError("argument 2: KeyboardInterrupt: ")) == signal.SIGINT
    assert _stop_in(ctypes.ArgumentError("argument 1: TypeError: wrong type")) is None
    assert _stop_in(ValueError("Terminated")) is None


def test_exit_status_is_128_plus_the_signal() -> None:
    assert (exit_status(signal.SIGINT), exit_status(signal.SIGTERM)) == (130, 143)


def test_z3_stopped_by_its_own_ctrl_c_handler_is_an_interruption() -> None:
    assert is_interruption(SolverError("z3 stopped without an answer (interrupted from keyboard)"))


def test_stop_signals_raise_and_put_everything_back() -> None:
    before = (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM))
    with StopSignals() as stops:
        with pytest.raises(Terminated):
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)
        assert stops.signum == signal.SIGTERM
        with pytest.raises(KeyboardInterrupt):
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        assert stops.signum == signal.SIGTERM  # the first that came
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    assert signal.set_wakeup_fd(-1) == -1  # no wakeup file descriptor left behind


#: A call into C that does not return on a signal (as a solver's search): locking, from the main
#: thread, a glibc mutex it already holds, until another thread unlocks it.
STUCK_IN_C = """
import ctypes, os, signal, subprocess, sys, threading, time
from nqueens_cp.system.interrupts import NATIVE_GRACE, StopSignals, native_call
libc = ctypes.CDLL(None)
mutex = ctypes.create_string_buffer(64)  # zeroed: PTHREAD_MUTEX_INITIALIZER
libc.pthread_mutex_lock(mutex)
child = subprocess.Popen(["sleep", "60"])
print(child.pid, flush=True)
def announce(signum):
    sys.stderr.write(f"stopped by {signum}\\n")
    if sys.argv[1] == "late":  # a slow stderr: the line is out, the announcement not over
        time.sleep(0.5)
    return 100 + signum
def unlock():
    libc.pthread_mutex_unlock(mutex)
late = lambda: threading.Timer(NATIVE_GRACE + 0.02, unlock).start()
stop = {"stop": unlock, "late": late}.get(sys.argv[1])
with StopSignals(announce) as stops:
    try:
        with native_call(stop=stop):
            threading.Timer(0.3, os.kill, (os.getpid(), int(sys.argv[2]))).start()
            libc.pthread_mutex_lock(mutex)
        time.sleep(5)
    except KeyboardInterrupt as stopped:
        child.kill()
        if sys.argv[1] == "late":  # had the watcher not kept this thread in the call: a second line
            raise SystemExit(announce(stops.signum))
        print(type(stopped).__name__, stops.signum, flush=True)
        raise SystemExit(0)
"""


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_native_call_is_told_to_stop_then_python_raises(signum: int) -> None:
    done = subprocess.run([sys.executable, "-c", STUCK_IN_C, "stop", str(int(signum))], env=ENV, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    raised = "Terminated" if signum == signal.SIGTERM else "KeyboardInterrupt"
    assert (done.returncode, done.stdout.split()[1:], done.stderr) == (0, [raised, str(int(signum))], "")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_native_call_without_a_stop_ends_the_process_and_its_children(signum: int) -> None:
    done = subprocess.run([sys.executable, "-c", STUCK_IN_C, "none", str(int(signum))], env=ENV, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (100 + signum, f"stopped by {int(signum)}\n")
    child = int(done.stdout.split()[0])
    for _ in range(50):  # killed, then reaped by init
        if not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split(")")[1][:3]:
            break
        time.sleep(0.1)
    else:
        os.kill(child, signal.SIGKILL)
        raise AssertionError("the child outlived the process")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_native_call_returning_as_its_grace_ends_waits_for_the_end(signum: int) -> None:
    # The watcher, past the call's grace, ends the process and says so; the call returns meanwhile,
    # and must not unwind and say so too (it did: two lines, in a CI run of asp under SIGTERM).
    done = subprocess.run([sys.executable, "-c", STUCK_IN_C, "late", str(int(signum))], env=ENV, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (100 + signum, f"stopped by {int(signum)}\n")


#: The DRUP checker's compiled parsing or checking (the one named first), made to run on and on as
#: for a proof of gigabytes: a call into C that does not return.
CHECKING_A_HUGE_PROOF = """
import ctypes, os, signal, sys, threading
from nqueens_cp.proofs import drup, rup_kernel
from nqueens_cp.system.interrupts import StopSignals
libc = ctypes.CDLL(None)
mutex = ctypes.create_string_buffer(64)
libc.pthread_mutex_lock(mutex)
setattr(rup_kernel, sys.argv[1], lambda *arguments: libc.pthread_mutex_lock(mutex))
def announce(signum):
    sys.stderr.write(f"stopped by {signum}\\n")
    return 100 + signum
with StopSignals(announce):
    threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM)).start()
    drup.check_drup("p cnf 1 2\\n1 0\\n-1 0\\n", "0\\n")
"""


@pytest.mark.parametrize("kernel", ["parse_clauses", "check_rup"])
def test_a_signal_ends_the_check_of_a_long_proof(kernel: str) -> None:
    done = subprocess.run([sys.executable, "-c", CHECKING_A_HUGE_PROOF, kernel], env=ENV, cwd=REPO,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stderr) == (100 + signal.SIGTERM, f"stopped by {int(signal.SIGTERM)}\n")


def test_outside_the_command_line_a_native_call_changes_nothing() -> None:
    stopped = threading.Event()
    with pytest.raises(KeyboardInterrupt), native_call(stop=stopped.set):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)
    assert not stopped.is_set()
