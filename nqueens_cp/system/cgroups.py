"""CPU time and memory of a process tree, measured by the kernel's cgroups through BenchExec.

BenchExec's ``runexec`` measures a run in a fresh cgroup: the CPU time of every process of the
tree (threads, children still running or killed, grandchildren that escaped their parent) and
its peak memory. ``runexec`` itself starts a command; a comparison's worker is a forked Python
process that times only its solve (not its start-up or warm-up) and reports through a pipe, so
the harness uses the cgroups layer ``runexec`` is built on (``benchexec.cgroups``) instead: the
parent makes one fresh child cgroup per run (:func:`open_meter`), the worker moves itself into
it before it does anything (:meth:`CgroupMeter.join`), reads its counters around the timed
window, and the parent kills whatever is left in it and removes it (:meth:`CgroupMeter.close`).

:func:`cgroups_unusable` says why a machine cannot (BenchExec not installed, no cgroups, no
permission to create one: the exact words), so that a comparison can fall back to ``getrusage``
and say why.
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

#: What the results' settings say when a comparison measured with cgroups.
CGROUPS_MEASURE = ("cgroups (BenchExec {version}, cgroups v{cgroups}): CPU time of the worker's whole process tree "
                   "(all threads, every child process, running, finished or killed) over the timed solve; "
                   "memory: the tree's peak above its usage when the solve started{memory_note}")


class CgroupsUnusable(Exception):
    """BenchExec's cgroups cannot measure here (the message says why, in BenchExec's words)."""


@contextmanager
def _benchexec_quiet() -> Iterator[None]:
    """BenchExec logs through the root logger (its warnings would reach stderr): silenced here."""
    previous = logging.root.manager.disable
    logging.disable(logging.CRITICAL)
    try:
        yield
    finally:
        logging.disable(previous)


def _system_cgroups() -> Any:
    """The cgroup BenchExec finds for this process, with CPU and memory accounting usable."""
    try:
        from benchexec.cgroups import Cgroups
    except ImportError:
        raise CgroupsUnusable("BenchExec is not installed (pip install 'nqueens-cp[benchexec]')") from None
    with _benchexec_quiet():
        try:
            cgroups = Cgroups.initialize()
        except Exception as error:  # BenchExec raises several kinds; its message is the reason
            raise CgroupsUnusable(f"BenchExec could not set up cgroups: {error}") from None
        missing: list[str] = []
        for subsystem in (getattr(cgroups, "CPU", "cpu"), getattr(cgroups, "MEMORY", "memory")):
            if not cgroups.require_subsystem(subsystem, log_method=lambda *args: None):
                missing.append(subsystem)
    if missing:
        raise CgroupsUnusable(f"the cgroup subsystem{'s' if len(missing) > 1 else ''} {', '.join(missing)} "
                              f"cannot be used here (not mounted, or no permission to create a cgroup in {cgroups})")
    return cgroups


def cgroups_unusable() -> str | None:
    """Why cgroups cannot measure here (None: they can; a trial cgroup is made and removed)."""
    try:
        open_meter().close()
    except CgroupsUnusable as error:
        return str(error)
    return None


def describe_measure() -> str:
    """The line the results' settings hold for a comparison measured with cgroups."""
    from importlib import metadata

    cgroups = _system_cgroups()
    version = 2 if type(cgroups).__name__.endswith("V2") else 1
    note = "" if version == 1 else " (cgroups v2 cannot reset a peak: the peak may be the warm-up's)"
    return CGROUPS_MEASURE.format(version=metadata.version("benchexec"), cgroups=version, memory_note=note)


#: The open CPU-usage file of each meter read in this process (by ``id``): the worker's one meter.
_usage_files: dict[int, int] = {}


@dataclass(frozen=True)
class CgroupMeter:
    """One fresh cgroup for one run (made by the parent, joined by the worker)."""

    #: BenchExec's object for the cgroup (picklable: a map from subsystem to path).
    cgroup: Any

    def join(self) -> None:
        """Move this process into the cgroup (call it first thing: its later children follow)."""
        import os

        with _benchexec_quiet():
            self.cgroup.add_task(os.getpid())

    def cpu_seconds(self) -> float:
        """CPU seconds so far of every process that was in the cgroup (this thread's time brought
        up to date first: the kernel adds a running thread's time at ticks and switches)."""
        import os

        os.sched_yield()
        usage = _usage_files.get(id(self))
        if usage is None and self.cgroup.has_value(self.cgroup.CPU, "usage"):  # cgroups v1: nanoseconds
            usage = _usage_files[id(self)] = os.open(os.path.join(self.cgroup[self.cgroup.CPU], "cpuacct.usage"),
                                                     os.O_RDONLY)
        if usage is not None:  # kept open: a read costs about 1 us, against 12 us opening it each time
            return int(os.pread(usage, 64, 0)) / 1e9
        return float(self.cgroup.read_cputime())

    def start_window(self) -> int:
        """Start measuring memory: reset the peak where the kernel allows it (cgroups v1); the
        usage now, in bytes."""
        memory = self.cgroup.MEMORY
        if self.cgroup.has_value(memory, "max_usage_in_bytes"):  # v1
            self.cgroup.set_value(memory, "max_usage_in_bytes", 0)
            return int(self.cgroup.get_value(memory, "usage_in_bytes"))
        return int(self.cgroup.get_value(memory, "current"))

    def added_kb(self, start_bytes: int) -> int | None:
        """The peak memory since :meth:`start_window` above the usage then, in KiB."""
        memory = self.cgroup.MEMORY
        name = "max_usage_in_bytes" if self.cgroup.has_value(memory, "max_usage_in_bytes") else "peak"
        if not self.cgroup.has_value(memory, name):  # cgroups v2 before Linux 5.19: no peak kept
            return None
        return max(0, int(self.cgroup.get_value(memory, name)) - start_bytes) // 1024

    def close(self) -> None:
        """Kill every process left in the cgroup and remove it."""
        with _benchexec_quiet():
            try:
                self.cgroup.kill_all_tasks()
            finally:
                self.cgroup.remove()


def open_meter() -> CgroupMeter:
    """A fresh child cgroup for CPU and memory (``CgroupsUnusable`` with the reason if none can be made)."""
    cgroups = _system_cgroups()
    with _benchexec_quiet():
        try:
            child = cgroups.create_fresh_child_cgroup([cgroups.CPU, cgroups.MEMORY], prefix="nqueens_cp_")
        except Exception as error:
            raise CgroupsUnusable(f"BenchExec could not create a cgroup: {error}") from None
    return CgroupMeter(child)
