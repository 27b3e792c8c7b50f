"""Running each (configuration, instance, repetition) in its own worker process.

A worker that does not answer within the timeout is killed and the run recorded as
``timeout``; a worker that raises, calls ``os._exit`` or dies from a signal (a crash inside a
native solver) is recorded as ``error`` with the reason; either way the next run goes on. Once
a configuration timed out at some board size, its remaining repetitions there and every larger
board size are recorded as ``skipped`` without running; so are those after a run the backend refused
up front (``ModelTooLargeError``: a model over the memory budget, a search that cannot reach n).

Start method: on Linux workers are *forked*, which is fast (no re-import per run) and means a
backend registered at run time (``register_backend`` in a test) is visible in the worker as it
is. Elsewhere the ``spawn`` method is used; the backend class is then pickled by reference, so
it must be importable (a module-level class, or registered as ``"module:Class"``).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Sequence

from ..instance import Instance, Solution
from .configs import Configuration
from .results import RunRecord
from .tasks import Task
from .worker import WorkerJob, WorkerReport, worker_main

#: Seconds a worker gets to exit after it reported, before it is killed.
EXIT_GRACE = 5.0


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
    """``fork`` on Linux, ``spawn`` elsewhere (see the module docstring)."""
    return "fork" if sys.platform.startswith("linux") else "spawn"


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
        self, task: Task, *, timeout: float, store_limit: int, start_method: str | None = None
    ) -> None:
        self.task = task
        self.timeout = timeout
        self.store_limit = store_limit
        self.start_method = start_method or default_start_method()
        self._context: Any = multiprocessing.get_context(self.start_method)

    def run(self, request: RunRequest) -> RunResult:
        """Run one request in a fresh worker process and record what became of it."""
        config, instance = request.config, request.instance
        expected = self.task.expected_count(instance)

        def record(status: str, reason: str = "", **fields: Any) -> RunRecord:
            return RunRecord(
                config=config.label, n=instance.n, repetition=request.repetition, status=status,
                reason=reason, fixed=instance.fixed, expected=expected, source=self.task.source(instance),
                **fields,
            )

        job = WorkerJob(config.backend_class(), config.options, self.task, instance, self.store_limit)
        receiver, sender = self._context.Pipe(duplex=False)
        process = self._context.Process(target=worker_main, args=(sender, job, os.getpid()), daemon=True)
        grace = 0.0  # how long the worker may take to exit by itself once we are done with it
        try:
            with _stop_signals_blocked():
                process.start()  # a Ctrl-C now waits until the worker is known, so it can be killed
            sender.close()  # the parent's copy: the worker's end alone keeps the pipe open
            if not receiver.poll(self.timeout):
                return RunResult(record("timeout", f"no answer within {self.timeout:g} s; worker killed"), instance)
            grace = EXIT_GRACE
            try:
                kind, payload = receiver.recv()
            except (EOFError, OSError):
                process.join(EXIT_GRACE)
                return RunResult(record("error", _death_reason(process.exitcode)), instance)
            if kind == "refused":
                return RunResult(record("skipped", f"refused: {payload}"), instance)
            if kind != "ok":
                return RunResult(record("error", str(payload)), instance)
            report: WorkerReport = payload
            return RunResult(
                record(
                    "ok", wall_time=report.wall_time, cpu_time=report.cpu_time,
                    peak_rss_kb=report.peak_rss_kb, baseline_rss_kb=report.baseline_rss_kb,
                    count=report.count, fingerprint=report.fingerprint, stored=len(report.solutions),
                    truncated=report.truncated, invalid=report.invalid, duplicates=report.duplicates,
                    model_size=report.model_size,
                ),
                instance, report.solutions, report.invalid_examples, report.duplicate_examples,
                report.duplicates_beyond,
            )
        finally:
            receiver.close()
            if process.pid is not None:
                process.join(grace)
                if process.is_alive():
                    process.kill()
                    process.join()

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
) -> Iterator[RunResult]:
    """Run ``requests`` in order, yielding each result; after a configuration's first timeout or
    refusal, skip its other repetitions of that instance and, when the task says so, every larger board."""
    # configuration label -> the instance it timed out on, or that its backend refused
    timed_out: dict[str, Instance] = {}
    for index, request in enumerate(requests):
        label, instance = request.config.label, request.instance
        failed = timed_out.get(label)
        larger = failed is not None and runner.task.skip_larger_after_timeout and instance.n > failed.n
        if failed is not None and (larger or instance == failed):
            yield RunResult(
                RunRecord(
                    config=label, n=instance.n, repetition=request.repetition, status="skipped",
                    reason=f"timed out or refused at {runner.task.source(failed) or failed}", fixed=instance.fixed,
                    expected=runner.task.expected_count(request.instance), source=runner.task.source(instance),
                ),
                instance,
            )
            continue
        if on_start is not None:
            on_start(index, request)
        result = runner.run(request)
        if result.record.status in ("timeout", "skipped"):
            timed_out[label] = instance
        yield result
