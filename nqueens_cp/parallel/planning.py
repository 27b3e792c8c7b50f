"""Deciding a split run once: what to split by, into how many pieces, on which executor, checked how.

:func:`plan_run` makes every decision of a run before anything is sent out, from the
:class:`ParallelConfig`, the backend's declared capabilities
(:attr:`~nqueens_cp.backends.framework.base.Backend.counts_constellation_batches` and the methods it
declares) and the checkpoint's header, read once:

* **split kind**: batches of start constellations for a count of an empty board (n >= 4) by a
  backend that counts them (the full symmetry kept), unless a split depth is asked for or the
  checkpoint being resumed was made by a row split; rows otherwise (:mod:`.split`);
* **size**: the number asked for, else the checkpoint's, else :data:`PER_WORKER` pieces per
  worker of the executor (a depth of at most :data:`MAX_DEFAULT_DEPTH`), :data:`PER_THREAD`
  batches per thread for the ``threads`` executor;
* **executor**: the one asked for, else ``inline`` for one worker, ``threads`` for tasks that
  release the GIL (constellation batches by a compiled kernel) and ``processes`` for the others;
  at most :data:`MAX_WORKERS_PER_CORE` local workers per core;
* **checking**: the configuration that counts every piece a second time (``verify``) or again
  when a total is off OEIS (see :mod:`.verification`): for a row split another backend or
  kernel (:func:`cross_check_config`); for a constellation split the row search of the
  configuration given (default: the run's own backend, whose row search shares no code with its
  constellation counting), each batch recounted constellation by constellation.

The thresholds of the split runs are the constants of this module.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.core.arguments import require_bool, require_int, require_str
from nqueens_cp.core.errors import CheckpointError, InvalidArgumentError, NQueensError
from nqueens_cp.core.instance import Instance
from nqueens_cp.parallel.checkpoint import read_header
from nqueens_cp.parallel.settings import EXECUTOR_NAMES, RETRIES, ExecutorKind
from nqueens_cp.parallel.split import SplitPlan, split_constellations, split_instance

#: Local workers allowed per core: more only adds processes or threads fighting for the cores.
MAX_WORKERS_PER_CORE = 8
#: Pieces (row sub-problems or constellation batches) per worker when the size is not given:
#: enough that a worker finishing early takes over (pieces differ in size), few enough that each
#: task stays far above a Dask task's overhead on big boards.
PER_WORKER = 16
#: Constellation batches per thread when threads of this process count them (the ``threads``
#: executor): there a batch costs the run next to nothing (n = 14, two threads: 0.26-0.28 s with
#: 32 to 512 batches), and the idle end of a run, one thread finishing its last batch while the
#: other waits, shrinks with the batch (n = 17, two threads: 0.09-0.20 s of 2.7-3.3 s with 32
#: batches, 0.01-0.03 s with 128).
PER_THREAD = 64
#: The deepest row split chosen by default.
MAX_DEFAULT_DEPTH = 6


@dataclass(frozen=True)
class ParallelConfig:
    """How to run a split.

    ``workers``: workers (threads, processes of a local pool, or of a local Dask cluster).
    ``executor``: ``"inline"``, ``"threads"``, ``"processes"`` or ``"dask"``; None lets the plan
    choose (see the module documentation). ``scheduler``: address of an existing Dask scheduler
    (implies ``dask``). ``split_depth``: rows fixed per sub-problem; None takes the checkpoint's
    depth when resuming, else a default. ``checkpoint``: SQLite file to commit results to and
    resume from. ``max_attempts``: tries per sub-problem before the run fails. ``symmetry``: use
    the first-row mirror where exact. ``batches``: for a count split into batches of start
    constellations, how many (None: the checkpoint's when resuming, else a default). ``verify``:
    count every sub-problem a second time with ``verify_with`` (a configuration such as
    ``"bitboard:kernel=python"``; None lets the plan choose) and fail on any difference.
    """

    workers: int = 1
    executor: str | None = None
    scheduler: str | None = None
    split_depth: int | None = None
    checkpoint: str | Path | None = None
    max_attempts: int = RETRIES + 1
    symmetry: bool = True
    batches: int | None = None
    verify: bool = False
    verify_with: str | None = None

    def __post_init__(self) -> None:
        """Wrong types or values raise :class:`~nqueens_cp.core.errors.InvalidArgumentError` naming the field."""
        require_int(self.workers, "ParallelConfig.workers", minimum=1)
        require_str(self.executor, "ParallelConfig.executor", optional=True)
        if self.executor is not None and self.executor not in EXECUTOR_NAMES:
            raise InvalidArgumentError(
                f"unknown executor {self.executor!r} (choose from {', '.join(EXECUTOR_NAMES)})"
            )
        require_str(self.scheduler, "ParallelConfig.scheduler", optional=True)
        require_int(self.split_depth, "ParallelConfig.split_depth", minimum=0, optional=True)
        if self.checkpoint is not None and not isinstance(self.checkpoint, (str, os.PathLike)):
            raise InvalidArgumentError(f"ParallelConfig.checkpoint must be a path or None, got {self.checkpoint!r}")
        require_int(self.max_attempts, "ParallelConfig.max_attempts", minimum=1)
        require_bool(self.symmetry, "ParallelConfig.symmetry")
        require_bool(self.verify, "ParallelConfig.verify")
        require_str(self.verify_with, "ParallelConfig.verify_with", optional=True)
        require_int(self.batches, "ParallelConfig.batches", minimum=1, optional=True)

    def executor_name(self, releases_gil: bool = False) -> ExecutorKind:
        """The executor this configuration runs tasks on (``releases_gil``: whether they release the GIL)."""
        if self.executor is not None:
            return ExecutorKind(self.executor)
        if self.scheduler is not None:
            return ExecutorKind.DASK
        if self.workers == 1:
            return ExecutorKind.INLINE
        return ExecutorKind.THREADS if releases_gil else ExecutorKind.PROCESSES


@dataclass(frozen=True)
class RunPlan:
    """Every decision of one split run (see the module documentation).

    ``split``: the sub-problems. ``executor``: its name; ``in_process``: the tasks release the GIL
    (threads, or a Dask cluster of threads in this process). ``checker``: the backend that counts
    sub-problems a second time (for a constellation split, by its row search); ``header``: the
    checkpoint header read, None for a new run.
    """

    split: SplitPlan
    executor: str
    in_process: bool
    checker: Backend
    header: dict[str, Any] | None

    @property
    def by_constellations(self) -> bool:
        """Whether the split is into batches of start constellations."""
        return self.split.batches > 0

    @property
    def checker_label(self) -> str:
        """The checker's configuration with every option (how messages and checkpoints name it)."""
        return Configuration.of(self.checker).label


def cross_check_config(backend: Backend) -> str:
    """The configuration that checks a row split's counts: another kernel or another backend.

    The compiled bitboard is checked by the pure-Python bitboard search and vice versa; every
    other backend by the compiled bitboard (fast, and a different method from all of them).
    """
    if backend.name == "bitboard":
        return "bitboard" if backend.options.get("kernel") == "python" else "bitboard:kernel=python"
    return "bitboard"


def default_batches(available: int, workers: int, *, per_worker: int = PER_WORKER) -> int:
    """``per_worker`` constellation batches per worker, and no more than the ``available``
    constellations (batches are strided, so they take about the same time)."""
    return max(1, min(available, per_worker * max(1, workers)))


def default_depth(
    instance: Instance, workers: int, *, per_worker: int = PER_WORKER, max_depth: int = MAX_DEFAULT_DEPTH
) -> int:
    """The smallest depth giving at least ``per_worker * workers`` sub-problems (at most ``max_depth``)."""
    target = per_worker * max(1, workers)
    for depth in range(1, min(instance.n, max_depth) + 1):
        if len(split_instance(instance, depth)) >= target:
            return depth
    return min(instance.n, max_depth)


def _check_local_workers(config: ParallelConfig, executor: ExecutorKind) -> None:
    """Refuse a local pool or cluster of far more workers than this machine has cores."""
    if executor is ExecutorKind.INLINE or config.scheduler is not None:
        return
    limit = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
    if config.workers > limit:
        raise NQueensError(
            f"--workers {config.workers}: at most {limit} local workers on this machine "
            f"({MAX_WORKERS_PER_CORE} per core); use a Dask cluster (--scheduler) for more"
        )


def _start_constellations(
    instance: Instance, backend: Backend, config: ParallelConfig, enumerate: bool, header: dict[str, Any] | None
) -> int:
    """How many start constellations the run splits into batches of, or 0 for a row split."""
    if enumerate or instance.fixed or not config.symmetry or config.split_depth is not None:
        return 0
    if not backend.counts_constellation_batches:
        return 0
    if header is not None and header.get("split") != "constellations":
        return 0
    return backend.start_constellations(instance.n)


def _from_header(config: ParallelConfig, header: dict[str, Any] | None, key: str, what: str) -> int | None:
    if header is None:
        return None
    value = header.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < (1 if key == "batches" else 0):
        raise CheckpointError(f"{config.checkpoint} has no valid {what} in its header")
    return value


def _checker(backend: Backend, config: ParallelConfig, by_constellations: bool) -> Backend:
    if config.verify_with is not None:
        checker = Configuration.parse(config.verify_with, available=False).create()
    elif by_constellations:
        return backend
    else:
        checker = Configuration.parse(cross_check_config(backend), available=False).create()
    same = Configuration.of(checker).label == Configuration.of(backend).label
    if config.verify and same and not by_constellations:
        raise NQueensError(
            f"verify: {config.verify_with or Configuration.of(checker).label} is the backend being checked; "
            "give another backend or kernel"
        )
    return checker


def plan_run(
    instance: Instance,
    backend: Backend,
    config: ParallelConfig,
    *,
    enumerate: bool,
    capacity: int | None = None,
) -> RunPlan:
    """Decide the run of ``instance`` with ``backend`` (see the module documentation); nothing is
    started here.

    ``capacity``: how many tasks the executor runs at once when the caller has asked it (a shared
    executor, a Dask cluster at ``scheduler`` connected to first); None: the local executor's own,
    ``config.workers`` (1 inline).
    """
    header = read_header(config.checkpoint) if config.checkpoint is not None else None
    available = _start_constellations(instance, backend, config, enumerate, header)
    by_constellations = available > 0
    in_process = by_constellations and backend.batch_count_releases_gil(instance.n)
    executor = config.executor_name(in_process)
    _check_local_workers(config, executor)
    checker = _checker(backend, config, by_constellations)
    if capacity is None:
        capacity = 1 if executor is ExecutorKind.INLINE else config.workers
    if by_constellations:
        batches = config.batches or _from_header(config, header, "batches", "number of constellation batches")
        if batches is None:
            per_worker = PER_THREAD if executor is ExecutorKind.THREADS else PER_WORKER
            batches = default_batches(available, capacity, per_worker=per_worker)
        split = split_constellations(instance, batches)
    else:
        depth = config.split_depth
        if depth is None:
            depth = _from_header(config, header, "split_depth", "split depth")
        if depth is None:
            depth = default_depth(instance, capacity)
        split = split_instance(instance, depth, symmetry=config.symmetry)
    return RunPlan(split, executor, in_process, checker, header)
