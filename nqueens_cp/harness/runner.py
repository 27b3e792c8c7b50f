"""Running each (configuration, instance, repetition) in its own worker process.

A worker that does not answer within the timeout is killed and the run recorded as
``TIMED_OUT``; a worker whose resident memory grows past the memory limit (watched every
:data:`MEMORY_POLL` seconds, with an address-space ``RLIMIT_AS`` backstop against a sudden huge
allocation) is killed and recorded as ``OUT_OF_MEMORY``: what it grows above its size at its start,
since a forked worker's resident size begins with its parent's pages, which are not its own use
(a comparison started from a process holding 480 MB had every worker killed at a limit of 400 MB); a worker that raises, calls ``os._exit``
or dies from a signal (a crash inside a native solver) is recorded as ``FAILED`` with the reason;
a run the backend refused up front (``ModelTooLargeError``: a model over the memory budget, a
search that cannot reach n) as ``REFUSED`` (see :class:`~.results.RunStatus`); either way the
next run goes on. Once a configuration gave up at some board size (any of
:data:`~.results.GAVE_UP`), its remaining repetitions there and, when the task says so, every
larger board size are recorded as ``SKIPPED`` without running.

Start method: :func:`~nqueens_cp.system.processes.start_method` with ``fork``: on Linux workers
are *forked*, which is fast (no re-import per run) and means a backend registered at run time
(``register_backend`` in a test) is visible in the worker as it is. Elsewhere ``forkserver`` or
``spawn`` is used; the backend class is then pickled by reference, so it must be importable (a
module-level class, or registered as ``"module:Class"``).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer
from nqueens_cp.harness.configs import Configuration
from nqueens_cp.harness.results import GAVE_UP, RunRecord, RunStatus
from nqueens_cp.harness.tasks import Task
from nqueens_cp.harness.worker import WorkerJob, WorkerOutcome, worker_main
from nqueens_cp.system.cgroups import open_meter
from nqueens_cp.system.processes import kill_tree, physical_memory_mb, resident_kb, start_method

#: Seconds a worker gets to exit after it reported, before it is killed.
EXIT_GRACE = 5.0
#: Seconds between two looks at a worker's resident memory.
MEMORY_POLL = 0.05


def default_memory_limit_mb() -> int:
    """Half of this machine's physical memory, in MB (4096 where it cannot be read)."""
    total = physical_memory_mb()
    return 4096 if total is None else max(256, int(total // 2))


#: Signals that stop a comparison; held back while a worker is being started.
STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


@contextmanager
def _stop_signals_blocked() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def default_start_method() -> str:
    """How the runner starts its workers (see the module docstring)."""
    return start_method(fork=True)


@dataclass(frozen=True)
class RunResult:
    """A run's record plus what only the validation of its board size needs (kept in memory)."""

    record: RunRecord
    #: The instance that ran (the record holds only its size, pre-placed queens and source).
    instance: Instance | None = None
    solutions: tuple[Solution, ...] = ()
    invalid_examples: tuple[tuple[tuple[Any, ...], tuple[str, ...]], ...] = ()
    duplicate_examples: tuple[Solution, ...] = ()
    #: Repeats found past the stored prefix (by hash: not in ``duplicate_examples``).
    duplicates_beyond: int = 0
    #: A family run's answer with its witness (:class:`~.family_tasks.FamilyTask`; None otherwise).
    family: FamilyAnswer | None = None


@dataclass(frozen=True)
class RunRequest:
    """One planned run."""

    config: Configuration
    instance: Instance
    repetition: int


def _death_reason(exitcode: int | None) -> str:
    if exitcode is None:
        return "worker process did not exit"
    if exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"worker process killed by {name} before reporting (a crash in the backend or its solver)"
    return f"worker process exited with status {exitcode} before reporting"


class Runner:
    """Runs single runs of one task in worker processes."""

    def __init__(
        self,
        task: Task,
        *,
        timeout: float,
        store_limit: int,
        start_method: str | None = None,
        memory_limit_mb: float | None = None,
        cgroups: bool = False,
    ) -> None:
        self.task = task
        #: Whether each run gets its own cgroup (``compare --measure cgroups``; the caller has
        #: checked that cgroups are usable, :func:`~nqueens_cp.system.cgroups.cgroups_unusable`).
        self.cgroups = cgroups
        self.timeout = timeout
        self.memory_limit_mb = memory_limit_mb
        self.store_limit = store_limit
        self.start_method = start_method or default_start_method()
        self._context: Any = multiprocessing.get_context(self.start_method)

    def run(self, request: RunRequest) -> RunResult:
        """Run one request in a fresh worker process and record what became of it."""
        config, instance = request.config, request.instance
        expected = self.task.expected_count(instance)

        def record(status: RunStatus, reason: str = "", **fields: Any) -> RunRecord:
            return RunRecord(
                config=config.label, n=instance.n, repetition=request.repetition, status=status,
                reason=reason, fixed=instance.fixed, expected=expected, source=self.task.source(instance),
                **fields,
            )

        meter = open_meter() if self.cgroups else None
        job = WorkerJob(config.backend_class(), config.options, self.task, instance, self.store_limit,
                        self.task.solver_time_limit(self.timeout), meter)
        receiver, sender = self._context.Pipe(duplex=False)
        limit = None if self.memory_limit_mb is None else int(self.memory_limit_mb * 2**20)
        process = self._context.Process(
            target=worker_main, args=(sender, job, os.getpid(), limit), daemon=True
        )
        grace = 0.0  # how long the worker may take to exit by itself once we are done with it
        try:
            with _stop_signals_blocked():
                process.start()  # a Ctrl-C now waits until the worker is known, so it can be killed
            inherited_kb = resident_kb(process.pid) if process.pid is not None else None  # forked: the parent's pages
            sender.close()  # the parent's copy: the worker's end alone keeps the pipe open
            over = self._wait(receiver, process.pid, inherited_kb or 0)
            if over is not None:
                return RunResult(record(RunStatus.OUT_OF_MEMORY, over), instance)
            if not receiver.poll(0):
                return RunResult(record(RunStatus.TIMED_OUT, f"no answer within {self.timeout:g} s; worker killed"), instance)
            grace = EXIT_GRACE
            try:
                outcome: WorkerOutcome = receiver.recv()
            except (EOFError, OSError):
                process.join(EXIT_GRACE)
                return RunResult(record(RunStatus.FAILED, _death_reason(process.exitcode)), instance)
            report = outcome.report
            if report is None:
                return RunResult(record(outcome.status, outcome.reason), instance)
            family = report.family
            optimum = family is not None and family.problem.direction is not None
            answer: dict[str, Any] = (
                {"count": None, "value": family.value, "proved": family.proved, "bound": family.bound,
                 "best_at": family.found_at}
                if optimum and family is not None else {"count": report.count})
            return RunResult(
                record(
                    outcome.status, outcome.reason, wall_time=report.wall_time, cpu_time=report.cpu_time,
                    peak_rss_kb=report.peak_rss_kb, baseline_rss_kb=report.baseline_rss_kb,
                    fingerprint=report.fingerprint, stored=len(report.solutions),
                    truncated=report.truncated, invalid=report.invalid, duplicates=report.duplicates,
                    model_size=report.model_size, children_cpu_time=report.children_cpu_time,
                    children_peak_rss_kb=report.children_peak_rss_kb, cgroup_memory_kb=report.cgroup_memory_kb,
                    **answer,
                ),
                instance, report.solutions, report.invalid_examples, report.duplicate_examples,
                report.duplicates_beyond, family,
            )
        finally:
            receiver.close()
            if process.pid is not None:
                process.join(grace)
                if process.is_alive():
                    kill_tree(process.pid)  # the worker and any solver program it started
                    process.join()
            if meter is not None:
                meter.close()  # kills what is left in the run's cgroup, then removes it

    def _wait(self, receiver: Any, pid: int | None, inherited_kb: int) -> str | None:
        """Wait for the worker's answer until the timeout; the reason if its resident memory grew past
        the memory limit above ``inherited_kb``, its size when it started."""
        if self.memory_limit_mb is None or pid is None:
            receiver.poll(self.timeout)
            return None
        limit_kb = self.memory_limit_mb * 1024
        deadline = time.monotonic() + self.timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or receiver.poll(min(remaining, MEMORY_POLL)):
                return None
            rss = resident_kb(pid)
            if rss is not None and rss - inherited_kb > limit_kb:
                return (
                    f"out of memory: the worker's resident memory grew by {(rss - inherited_kb) / 1024:.0f} MB "
                    f"(to {rss / 1024:.0f} MB), over the limit of {self.memory_limit_mb:g} MB; worker killed"
                )

def plan(
    task: Task, configurations: Sequence[Configuration], ns: Sequence[int], repeat: int
) -> list[RunRequest]:
    """Every run, in the order they are made: by board size, then repetition, then configuration.

    Interleaving the configurations within each repetition spreads the machine's noise over all
    of them rather than over whichever happened to run during a busy moment.
    """
    return [
        RunRequest(config, instance, repetition)
        for n in sorted(set(ns))
        for instance in task.instances(n)
        for repetition in range(repeat)
        for config in configurations
    ]


def run_plan(
    runner: Runner,
    requests: Sequence[RunRequest],
    *,
    on_start: Callable[[int, RunRequest], None] | None = None,
    largest_n: Mapping[str, tuple[int, str]] | None = None,
) -> Iterator[RunResult]:
    """Run ``requests`` in order, yielding each result; after a configuration's first timeout,
    out-of-memory or refusal, skip its other repetitions of that instance and, when the task says so,
    every larger board. A configuration of ``largest_n`` (label -> the largest n, and why) is skipped
    on larger boards, with that reason."""
    # configuration label -> the instance it gave up on (timed out, ran out of memory, was refused), and how
    gave_up_on: dict[str, tuple[Instance, RunStatus]] = {}
    for index, request in enumerate(requests):
        label, instance = request.config.label, request.instance
        bound = (largest_n or {}).get(label)
        gave_up = gave_up_on.get(label)
        skipped: str | None = None
        if bound is not None and instance.n > bound[0]:
            skipped = f"not run above n = {bound[0]}: {bound[1]}"
        elif gave_up is not None and (instance == gave_up[0] or (
                runner.task.skip_larger_after_timeout and instance.n > gave_up[0].n)):
            failed = gave_up[0]
            skipped = f"{GAVE_UP[gave_up[1]]} at {runner.task.source(failed) or failed}"
        if skipped is not None:
            yield RunResult(
                RunRecord(
                    config=label, n=instance.n, repetition=request.repetition, status=RunStatus.SKIPPED,
                    reason=skipped, fixed=instance.fixed, expected=runner.task.expected_count(instance),
                    source=runner.task.source(instance),
                ),
                instance,
            )
            continue
        if on_start is not None:
            on_start(index, request)
        result = runner.run(request)
        if result.record.status in GAVE_UP:
            gave_up_on[label] = (instance, result.record.status)
        yield result
