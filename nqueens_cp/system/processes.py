"""Process hygiene: children that never outlive their run, the memory of the machine and of a process,
and a native library's chatter on the process's standard output.

Used by the comparison's worker processes (:mod:`nqueens_cp.harness.worker`, watched by
:mod:`nqueens_cp.harness.runner`) and by the split runs' process pool
(:mod:`nqueens_cp.parallel.executors`). Linux first (``prctl``, ``/proc``); elsewhere each helper
degrades to what the platform offers and says so in its docstring.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import threading
import time
from typing import Iterator

#: ``prctl`` option: the signal a process gets when its parent exits (linux/prctl.h).
PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int | None = None) -> None:
    """On Linux, have the kernel SIGKILL this process when its parent exits (even by SIGKILL).

    With ``parent`` (the pid the parent had), exit at once if the parent is already gone, since
    the request only covers a parent alive when it is made. Elsewhere nothing happens.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl here
        return
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def descendants(pid: int) -> list[int]:
    """The pids of every process below ``pid`` (children, their children, ...), read from Linux's
    ``/proc/PID/task/TID/children``; elsewhere, or for a process gone, an empty list."""
    found: list[int] = []
    pending = [pid]
    while pending:
        current = pending.pop()
        try:
            threads = os.listdir(f"/proc/{current}/task")
        except OSError:
            continue
        for thread in threads:
            try:
                with open(f"/proc/{current}/task/{thread}/children", encoding="ascii") as children:
                    below = [int(child) for child in children.read().split()]
            except (OSError, ValueError):
                continue
            found.extend(below)
            pending.extend(below)
    return found


def kill_tree(pid: int) -> None:
    """SIGKILL process ``pid`` and every process below it (a solver program it started would
    otherwise be left running, adopted by init: a MiniZinc solver went on for 47 minutes so)."""
    below = descendants(pid)  # before the kill: afterwards they belong to init and cannot be found
    for target in [pid, *below]:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(target, signal.SIGKILL)


def is_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a zombie, dead but not yet reaped, counts as gone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True  # no /proc: trust kill(pid, 0)
    return state not in ("Z", "X")


def exit_when_gone(pid: int, interval: float) -> None:
    """End this process now if process ``pid`` is gone, else as soon as a daemon thread, looking
    every ``interval`` seconds, finds it gone (however it ended: exit, exception, SIGKILL)."""
    if not is_alive(pid):
        os._exit(1)

    def watch() -> None:
        while is_alive(pid):
            time.sleep(interval)
        os._exit(1)

    threading.Thread(target=watch, name="nqueens-cp-watchdog", daemon=True).start()


def physical_memory_mb() -> float | None:
    """This machine's physical memory in MB (None where it cannot be read)."""
    try:
        return float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20)
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not on Linux
        return None


def _status_kb(pid: int, field: str) -> int | None:
    """A size in KiB from ``/proc/PID/status`` (``VmRSS``, ``VmSize``; None where it cannot tell)."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def resident_kb(pid: int) -> int | None:
    """The resident set size of process ``pid`` in KiB (None where ``/proc`` cannot tell)."""
    return _status_kb(pid, "VmRSS")


def peak_resident_kb() -> int | None:
    """This process's peak resident set size in KiB (None where ``resource`` is missing)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak // 1024) if sys.platform == "darwin" else int(peak)


def children_usage() -> tuple[float, int | None]:
    """CPU seconds (user + system) of this process's finished, waited-for child processes (a solver
    program run by a backend), and the peak resident KiB of the largest of them (None where
    ``resource`` is missing: then 0.0 seconds)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return 0.0, None
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = int(usage.ru_maxrss // 1024) if sys.platform == "darwin" else int(usage.ru_maxrss)
    return usage.ru_utime + usage.ru_stime, peak


def limit_address_space(limit_bytes: int) -> None:
    """A backstop ``RLIMIT_AS``: the address space mapped already, plus twice ``limit_bytes`` plus
    1 GiB (address space is not memory: solver libraries reserve much more than they touch; the
    parent watches the resident size).

    What is mapped already counts apart: a forked worker inherits its parent's mappings, and a
    parent that has loaded pychoco holds a 32 GiB reservation of GraalVM's heap. A limit below
    what is mapped lets no new mapping through: not even a thread's stack (a worker hung in
    ``Thread.start`` until the harness's timeout killed it)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on Unix
        return
    backstop = (_status_kb(os.getpid(), "VmSize") or 0) * 1024 + 2 * limit_bytes + 2**30
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        backstop = min(backstop, hard)
    if soft == resource.RLIM_INFINITY or soft > backstop:
        resource.setrlimit(resource.RLIMIT_AS, (backstop, hard))



def start_method(*, fork: bool = False) -> str:
    """The ``multiprocessing`` start method of the worker processes this package starts.

    ``forkserver`` where the platform has it, else ``spawn``: no plain fork of a process that may
    already run threads (numba's, OR-Tools', a Dask client's), since a thread holding a lock at the
    fork leaves it held forever in the child, a known cause of hangs (a long test run showed
    comparison tests waiting out their 60-s timeout in a full suite and passing in 4 s alone).

    ``fork``: ``fork`` on Linux, for a caller whose worker must see its parent exactly as it is
    (the comparison's runner: a backend registered or patched at run time reaches the worker
    without being importable, and no re-import is paid per run); that caller takes the risk above.
    """
    import multiprocessing

    if fork and sys.platform.startswith("linux"):
        return "fork"
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


@functools.cache
def prepare_highspy() -> None:
    """Once per process, before its first ``highspy.Highs()``: HiGHS's thread pool forgotten in
    every child forked from now on, and HiGHS's banner kept off the command's answer.

    HiGHS keeps one global task scheduler whose worker threads a fork does not copy: a child that
    solves a MIP after its parent solved one waits forever on those threads (a comparison's forked
    worker timing out at n = 1 after the test run solved in-process). The child drops the copied
    scheduler (``Highs.resetGlobalScheduler``, not blocking: there are no threads to join) and
    starts its own. The banner, printed on file descriptor 1 by the first ``Highs()`` of a
    process, is spent here.
    """
    import highspy

    with quiet_stdout():
        highspy.Highs()  # type: ignore[no-untyped-call]
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=lambda: highspy.Highs.resetGlobalScheduler(False))


@contextlib.contextmanager
def quiet_stdout() -> Iterator[None]:
    """Send what native code writes on file descriptor 1 to /dev/null while the block runs (a
    solver's banner or progress lines would mix with the command's answer); Python's own
    ``sys.stdout`` is flushed first and written as usual afterwards."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
