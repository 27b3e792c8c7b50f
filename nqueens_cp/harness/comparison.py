"""A whole comparison: plan the runs, make them, validate each board size, record everything.

Board sizes are done in increasing order; as soon as every run of one size is in, its solution
sets are compared and dropped, so memory holds the stored solutions of one size at a time.
After each size the caller may save a checkpoint (results marked incomplete). Ctrl-C (SIGINT)
or SIGTERM (``timeout`` of the whole command) stops the comparison: the current worker is
killed and the results so far come back, marked incomplete, with a check saying how many runs
were never made.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Callable, Iterator, Mapping

from nqueens_cp.harness.configs import Configuration
from nqueens_cp.harness.environment import collect_environment, now_iso
from nqueens_cp.harness.results import NOT_RUN, Check, ComparisonResults, RunRecord, Settings
from nqueens_cp.harness.runner import Runner, RunRequest, RunResult, plan, run_plan
from nqueens_cp.harness.tasks import Task
from nqueens_cp.harness.validation import validate
from nqueens_cp.harness.worker import CPU_MEASURE
from nqueens_cp.system.interrupts import rearm_python_handlers


@dataclass(frozen=True)
class ComparisonRequest:
    """What to compare, and how."""

    task: Task
    configurations: tuple[Configuration, ...]
    ns: tuple[int, ...]
    repeat: int
    timeout: float
    store_limit: int
    baseline: str | None
    command: str
    start_method: str | None = None
    #: Resident memory each worker may use, in MB, before it is killed and recorded ``oom``.
    memory_limit_mb: float | None = None
    #: Certify each count and each "no solution" with a checked proof (:mod:`.certification`).
    certify: bool = False
    #: Configurations run only up to a board size: label -> (the largest n, why); larger boards are
    #: recorded as skipped with that reason.
    largest_n: Mapping[str, tuple[int, str]] = field(default_factory=dict)
    #: The backends the default selection left out, each with why (see ``default_left_out``).
    left_out: Mapping[str, str] = field(default_factory=dict)
    #: Measure each run in its own cgroup (``compare --measure cgroups``) when this machine allows
    #: it; otherwise ``getrusage``, the settings saying why (:func:`measurement`).
    cgroups: bool = False


def measurement(cgroups: bool) -> tuple[bool, str]:
    """Whether the runs get cgroups, and how the results' settings say the runs were measured:
    asked for cgroups on a machine where they cannot measure, ``getrusage`` and the reason."""
    if not cgroups:
        return False, CPU_MEASURE
    from nqueens_cp.system.cgroups import cgroups_unusable, describe_measure

    reason = cgroups_unusable()
    if reason is not None:
        return False, f"{CPU_MEASURE} (cgroups were asked for but cannot measure here: {reason})"
    return True, describe_measure()


#: Called before each run with (runs done so far, runs planned, the run about to start).
ProgressCallback = Callable[[int, int, RunRequest], None]
#: Called after each board size with the results so far (marked incomplete).
CheckpointCallback = Callable[[ComparisonResults], None]
#: Called when a board size is finished and validated: (n, the results so far, marked incomplete).
SizeCallback = Callable[[int, ComparisonResults], None]


class _Stop(KeyboardInterrupt):
    """Raised by the SIGTERM handler so that a terminated comparison unwinds like Ctrl-C."""


@contextmanager
def _stop_signals_handled() -> Iterator[None]:
    """SIGTERM raises ``_Stop``; SIGINT raises ``KeyboardInterrupt`` (re-armed, see below)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        raise _Stop("terminated (SIGTERM)")

    previous_term = signal.signal(signal.SIGTERM, handler)
    # A native library may have reset SIGINT to the C default behind Python's back (CP-SAT does
    # so after every in-process solve, as it removes its own Ctrl-C handler): Ctrl-C would then
    # kill this process outright and the results so far would be lost. Installing Python's
    # handler again re-arms it (Python's own, or the command line's watch that stands in for it).
    # A SIGINT ignored on purpose (a background job) stays ignored.
    rearm_python_handlers(signal.SIGINT)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous_term)


def run_comparison(
    request: ComparisonRequest,
    *,
    on_progress: ProgressCallback | None = None,
    on_checkpoint: CheckpointCallback | None = None,
    on_size: SizeCallback | None = None,
) -> ComparisonResults:
    """Make every run of ``request``, validate them, and return the results (complete or not)."""
    use_cgroups, measured_by = measurement(request.cgroups)
    runner = Runner(request.task, timeout=request.timeout, store_limit=request.store_limit,
                    start_method=request.start_method, memory_limit_mb=request.memory_limit_mb,
                    cgroups=use_cgroups)
    requests = plan(request.task, request.configurations, request.ns, request.repeat)
    settings = Settings(
        ns=tuple(sorted(set(request.ns))), repeat=request.repeat, timeout=request.timeout,
        store_limit=request.store_limit, baseline=request.baseline, start_method=runner.start_method,
        command=request.command, memory_limit_mb=request.memory_limit_mb, cpu_measure=measured_by,
        left_out=tuple(request.left_out.items()),
    )
    environment = collect_environment()
    started_at = now_iso()
    records: list[RunRecord] = []
    checks: list[Check] = []
    pending: list[RunResult] = []

    def snapshot(complete: bool, interruption: str = "") -> ComparisonResults:
        return ComparisonResults(
            task=request.task.info(), settings=settings, environment=environment,
            configurations=request.configurations, runs=tuple(records), checks=tuple(checks),
            complete=complete, started_at=started_at, finished_at=now_iso(), interruption=interruption,
        )

    def close_size() -> None:
        n = pending[0].record.n
        checks.extend(validate(request.task, pending))
        if request.certify:
            from nqueens_cp.harness.certification import certificate_checks

            checks.extend(certificate_checks(request.task, pending, request.timeout))
        pending.clear()
        if on_checkpoint is not None or on_size is not None:
            partial = snapshot(False, "checkpoint: the comparison was still running")
            if on_checkpoint is not None:
                on_checkpoint(partial)
            if on_size is not None:
                on_size(n, partial)

    def progress(index: int, run: RunRequest) -> None:
        if on_progress is not None:
            on_progress(index, len(requests), run)

    interruption = ""
    with _stop_signals_handled():
        try:
            for result in run_plan(runner, requests, on_start=progress, largest_n=request.largest_n):
                if pending and result.record.n != pending[0].record.n:
                    close_size()
                pending.append(result)
                records.append(result.record)
        except KeyboardInterrupt as stop:
            interruption = str(stop) if isinstance(stop, _Stop) else "interrupted (Ctrl-C)"
    if pending and not interruption:
        close_size()
    elif pending:  # interrupted: the size is validated with what it has, nothing more is reported
        checks.extend(validate(request.task, pending))
        pending.clear()
    if interruption:
        missing = len(requests) - len(records)
        at = requests[len(records)].instance.n if missing else None
        checks.append(
            Check("run", NOT_RUN, at if at is not None else 0, None,
                  f"{interruption}: {missing} of {len(requests)} planned runs were not made")
        )
    return snapshot(not interruption, interruption)
