"""What happens inside a worker process: one backend, one instance, measured and checked.

The worker

1. records its starting memory, constructs the backend, and warms it up on the 4x4 board so
   that importing the solver package (or loading a compiled kernel) is not part of the timing;
2. records the model size (untimed);
3. pulls solutions from the backend in chunks, timing only the backend's iterator (wall clock
   and CPU time: the worker's own, all threads, plus that of the solver programs it ran and waited
   for), and between chunks, untimed, feeds every solution to the
   fingerprint, to the task's validity check (the independent checker) and to the duplicate
   detection, keeping the first ``store_limit`` distinct solutions for the exact set comparison;
   past that prefix, only 64 bits of each solution's hash are kept (8 bytes per solution, in
   an array), and sorted at the end: a solution repeated beyond the prefix is a repeated hash,
   so a run that drops one solution and yields another twice fails even when its count is
   right (two different boards share 64 hash bits with probability about k**2 / 2**65 for
   k solutions: 6e-6 for the 14.7 million of n = 16);
4. reports peak memory from ``resource.getrusage``: the worker's, and its largest solver program's.

CPU time is measured by ``getrusage`` (:data:`CPU_MEASURE`, saved with the results): a child
process is counted once it has exited and been waited for (a solver program killed at the
timeout leaves no answer to time). With ``compare --measure cgroups`` the job carries a fresh
cgroup (:class:`~nqueens_cp.system.cgroups.CgroupMeter`, BenchExec's cgroups, what its
``runexec`` measures with): the worker joins it first thing, and its CPU time and memory over
the timed window are the whole process tree's, as the kernel counts them.

``execute`` does all of this in the calling process; ``worker_main`` is the entry point of a
worker process and sends the outcome back through a pipe.
"""

from __future__ import annotations

import signal
import time
from array import array
from dataclasses import dataclass
from itertools import islice
from typing import Any, cast

from nqueens_cp.backends.framework.base import Backend, ModelSize
from nqueens_cp.core.errors import (
    ModelTooLargeError,
    SearchBoundError,
    SearchStoppedError,
    describe_exception,
)
from nqueens_cp.core.fingerprint import FingerprintAccumulator
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer
from nqueens_cp.harness.family_tasks import FamilyQuestion, FamilyTask
from nqueens_cp.harness.results import EXAMPLES, RunStatus
from nqueens_cp.harness.tasks import Task
from nqueens_cp.system.cgroups import CgroupMeter
from nqueens_cp.system.processes import children_usage, die_with_parent, limit_address_space, peak_resident_kb

#: Solutions pulled from a backend between two pauses of the clock.
CHUNK = 512
#: How each run's CPU time and memory are measured (saved in the results' settings).
CPU_MEASURE = ("getrusage: CPU time of the worker process (all threads) plus its finished child processes "
               "(solver programs); peak resident memory of the worker and of its largest child")


def cpu_seconds() -> float:
    """CPU seconds so far of this process (all threads) and of its finished, waited-for children."""
    return time.process_time() + children_usage()[0]


@dataclass(frozen=True)
class _Clock:
    """Where a run's CPU time and memory come from: ``getrusage``, or the run's cgroup."""

    meter: CgroupMeter | None

    def cpu(self) -> float:
        return self.meter.cpu_seconds() if self.meter is not None else cpu_seconds()

    def start_memory(self) -> int:
        """The cgroup's memory usage as the timed window starts (0 without a cgroup)."""
        return self.meter.start_window() if self.meter is not None else 0

    def memory_added_kb(self, start: int) -> int | None:
        """The cgroup's peak above ``start`` (None without a cgroup)."""
        return self.meter.added_kb(start) if self.meter is not None else None


@dataclass(frozen=True)
class WorkerJob:
    """Everything a worker needs (sent to the worker process: every field must pickle)."""

    backend_class: type[Backend]
    options: tuple[tuple[str, str], ...]
    task: Task
    instance: Instance
    store_limit: int
    #: The ``time_limit`` option given to a backend that has one and is not given one by the
    #: configuration (:meth:`~.tasks.Task.solver_time_limit`); None: none given.
    solver_time_limit: float | None = None
    #: The run's own cgroup (``compare --measure cgroups``); None: measured by ``getrusage``.
    meter: CgroupMeter | None = None


@dataclass(frozen=True)
class WorkerReport:
    """What a worker found and measured."""

    wall_time: float
    cpu_time: float
    peak_rss_kb: int | None
    baseline_rss_kb: int | None
    count: int
    fingerprint: str
    solutions: tuple[Solution, ...]
    truncated: bool
    invalid: int
    invalid_examples: tuple[tuple[tuple[Any, ...], tuple[str, ...]], ...]
    duplicates: int
    duplicate_examples: tuple[Solution, ...]
    model_size: ModelSize | None
    #: Of ``duplicates``, the repeats found among the solutions past the stored prefix (by hash).
    duplicates_beyond: int = 0
    #: Of ``cpu_time``, the part spent in child processes (solver programs the backend ran).
    children_cpu_time: float = 0.0
    #: Peak resident KiB of the largest child process (None: no child ran, or unknown).
    children_peak_rss_kb: int | None = None
    #: A family run's answer (:class:`~.family_tasks.FamilyTask`), its witness included; None otherwise.
    family: FamilyAnswer | None = None
    #: Peak KiB of the run's cgroup over the timed window, above its usage at the start (None: no cgroup).
    cgroup_memory_kb: int | None = None


@dataclass(frozen=True)
class WorkerOutcome:
    """What a worker process sends back: the run's status, why (when it did not answer), and its report."""

    status: RunStatus
    reason: str = ""
    #: The worker's measurements: present when ``status`` is ``ANSWERED``, and for a family
    #: optimisation run that stopped at its time limit (``TIMED_OUT``) with the best it found.
    report: WorkerReport | None = None


def repeated_hashes(hashes: array[int]) -> int:
    """How many entries of ``hashes`` repeat an earlier one (sorted with numpy: O(k log k), no copy as Python ints)."""
    if len(hashes) < 2:
        return 0
    import numpy as np

    ordered = np.sort(np.frombuffer(hashes, dtype=np.uint64))
    return int(np.count_nonzero(ordered[1:] == ordered[:-1]))


def execute(job: WorkerJob) -> WorkerReport:
    """Run ``job`` in this process and report (exceptions from the backend propagate)."""
    baseline = peak_resident_kb()
    options: dict[str, object] = dict(job.options)
    if job.solver_time_limit is not None and "time_limit" not in options and any(
            spec.name == "time_limit" for spec in job.backend_class.option_specs):
        options["time_limit"] = job.solver_time_limit
    backend = job.backend_class(memory_budget_mb=None, **options)  # the default budget
    if job.task.asks_family and not cast(FamilyTask, job.task).asks_boards:
        return _execute_family(job, backend, baseline)
    if job.task.asks_count:
        return _execute_count(job, backend, baseline)
    for _ in job.task.solutions(backend, job.task.warm_up):  # imports, lazy set-up, JIT loading: untimed
        pass
    instance = job.instance
    model_size = job.task.model_size(backend, instance)

    fingerprint = FingerprintAccumulator()
    stored: list[Solution] = []
    seen: set[Solution] = set()
    truncated = False
    invalid = duplicates = 0
    invalid_examples: list[tuple[tuple[Any, ...], tuple[str, ...]]] = []
    duplicate_examples: list[Solution] = []
    beyond = array("Q")  # 64 bits of the hash of each solution past the stored prefix

    clock = _Clock(job.meter)
    memory_start = clock.start_memory()
    children_start = children_usage()[0]
    cpu_start, wall_start = clock.cpu(), time.perf_counter()  # the CPU read first: it may yield
    iterator = job.task.solutions(backend, instance)
    wall = time.perf_counter() - wall_start
    cpu = clock.cpu() - cpu_start
    while True:
        cpu_start, wall_start = clock.cpu(), time.perf_counter()  # the CPU read first: it may yield
        chunk = list(islice(iterator, CHUNK))
        wall += time.perf_counter() - wall_start
        cpu += clock.cpu() - cpu_start
        if not chunk:
            break
        for solution in chunk:
            hashed = fingerprint.add(solution)
            problems = job.task.solution_problems(instance, solution)
            key: Solution = tuple(solution)
            if problems:
                invalid += 1
                if len(invalid_examples) < EXAMPLES:
                    invalid_examples.append((key, tuple(problems)))
            if key in seen:
                duplicates += 1
                if len(duplicate_examples) < EXAMPLES and key not in duplicate_examples:
                    duplicate_examples.append(key)
            elif len(stored) < job.store_limit:
                stored.append(key)
                seen.add(key)
            else:
                truncated = True
                beyond.append(hashed & 0xFFFF_FFFF_FFFF_FFFF)
    children_cpu, children_peak = children_usage()
    repeats_beyond = repeated_hashes(beyond)
    duplicates += repeats_beyond
    value = fingerprint.value()
    return WorkerReport(
        wall_time=wall,
        cpu_time=cpu,
        peak_rss_kb=peak_resident_kb(),
        baseline_rss_kb=baseline,
        count=value.count,
        fingerprint=str(value),
        solutions=tuple(stored),
        truncated=truncated,
        invalid=invalid,
        invalid_examples=tuple(invalid_examples),
        duplicates=duplicates,
        duplicate_examples=tuple(duplicate_examples),
        model_size=model_size,
        duplicates_beyond=repeats_beyond,
        children_cpu_time=children_cpu - children_start,
        children_peak_rss_kb=children_peak or None,
        cgroup_memory_kb=clock.memory_added_kb(memory_start),
    )


def worker_main(
    connection: Any, job: WorkerJob, parent: int | None = None, memory_limit: int | None = None
) -> None:
    """Entry point of a worker process: run ``job`` and send a :class:`WorkerOutcome`: ``ANSWERED``
    with the report, ``REFUSED`` (the backend declined the instance up front: too large a model, a
    search that cannot reach it), ``TIMED_OUT`` (the backend stopped at a bound it was given, a time
    limit), ``OUT_OF_MEMORY`` (a ``MemoryError`` under the address-space backstop of ``memory_limit``
    bytes) or ``FAILED``."""
    if job.meter is not None:
        job.meter.join()  # before anything runs: every thread and child made later is counted
    if parent is not None:
        die_with_parent(parent)
    if memory_limit is not None:
        # Some solver libraries reserve address space they never touch (pychoco's GraalVM heap: 32 GiB).
        limit_address_space(memory_limit + job.backend_class.reserved_address_space)
    # Ctrl-C goes to the whole process group: the parent decides, the worker ignores it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})  # blocked while forking
    try:
        report = execute(job)
        family = report.family
        if family is not None and family.problem.direction is not None and not family.proved:
            stopped = f"stopped at its time limit of {job.solver_time_limit:g} s" if job.solver_time_limit else "stopped"
            outcome = WorkerOutcome(RunStatus.TIMED_OUT, f"{stopped} before it proved the optimum: best found "
                                    f"{family.value}, bound {family.bound}", report)
        else:
            outcome = WorkerOutcome(RunStatus.ANSWERED, report=report)
    except ModelTooLargeError as error:
        outcome = WorkerOutcome(RunStatus.REFUSED, f"refused: {error}")
    except (SearchStoppedError, SearchBoundError) as error:  # its own time limit: a timeout like the harness's
        outcome = WorkerOutcome(RunStatus.TIMED_OUT, f"stopped at its bound: {error}")
    except MemoryError as error:
        outcome = WorkerOutcome(RunStatus.OUT_OF_MEMORY, f"out of memory: {describe_exception(error)}")
    except BaseException as error:
        outcome = WorkerOutcome(RunStatus.FAILED, describe_exception(error))
    try:
        connection.send(outcome)
    except Exception as error:
        connection.send(WorkerOutcome(
            RunStatus.FAILED, f"could not send the result back: {describe_exception(error)}"))
    finally:
        connection.close()


def _execute_count(job: WorkerJob, backend: Backend, baseline: int | None) -> WorkerReport:
    """A counting task's run: the backend's ``count``, timed (no boards to check or store)."""
    job.task.count(backend, job.task.warm_up)  # imports and lazy set-up: untimed
    model_size = job.task.model_size(backend, job.instance)
    clock = _Clock(job.meter)
    memory_start = clock.start_memory()
    children_start = children_usage()[0]
    cpu_start, wall_start = clock.cpu(), time.perf_counter()  # the CPU read first: it may yield
    count = job.task.count(backend, job.instance)
    wall, cpu = time.perf_counter() - wall_start, clock.cpu() - cpu_start
    children_cpu, children_peak = children_usage()
    return WorkerReport(
        wall_time=wall, cpu_time=cpu, peak_rss_kb=peak_resident_kb(), baseline_rss_kb=baseline, count=count,
        fingerprint=f"count {count}", solutions=(), truncated=False, invalid=0, invalid_examples=(), duplicates=0,
        duplicate_examples=(), model_size=model_size, children_cpu_time=children_cpu - children_start,
        children_peak_rss_kb=children_peak or None, cgroup_memory_kb=clock.memory_added_kb(memory_start),
    )


def _execute_family(job: WorkerJob, backend: Backend, baseline: int | None) -> WorkerReport:
    """A family run: the task's question (``solve_family`` or ``count_family``), timed, after the
    same question on the task's warm-up board, untimed. The witness is checked by the independent checker
    inside ``solve_family`` (an invalid one raises: a failed run) and again by the validation."""
    task = cast(FamilyTask, job.task)
    task.ask(backend, task.warm_up.n)  # imports, lazy set-up, JIT loading: untimed
    clock = _Clock(job.meter)
    memory_start = clock.start_memory()
    children_start = children_usage()[0]
    cpu_start, wall_start = clock.cpu(), time.perf_counter()  # the CPU read first: it may yield
    answer = task.ask(backend, job.instance.n)
    wall, cpu = time.perf_counter() - wall_start, clock.cpu() - cpu_start
    children_cpu, children_peak = children_usage()
    if isinstance(answer, int):
        count, family, fingerprint = answer, None, f"count {answer}"
    else:
        found = answer.witness is not None
        count = int(found) if task.family_question is FamilyQuestion.FIRST else 0
        family, fingerprint = answer, f"value {answer.value}" if found else "no witness"
    return WorkerReport(
        wall_time=wall, cpu_time=cpu, peak_rss_kb=peak_resident_kb(), baseline_rss_kb=baseline, count=count,
        fingerprint=fingerprint, solutions=(), truncated=False, invalid=0, invalid_examples=(), duplicates=0,
        duplicate_examples=(), model_size=None, children_cpu_time=children_cpu - children_start,
        children_peak_rss_kb=children_peak or None, family=family,
        cgroup_memory_kb=clock.memory_added_kb(memory_start),
    )
