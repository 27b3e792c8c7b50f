"""Running a split: sub-problems out to an executor, results back through a store, retries on failure.

>>> from nqueens_cp import Instance
>>> from nqueens_cp.parallel import ParallelConfig, SplitRun
>>> SplitRun(Instance(8), "bitboard", config=ParallelConfig(split_depth=2)).count().count
92

A run yields, for each sub-problem, its result exactly once: first those already in the
checkpoint (in index order), then the others as they finish (completion order). ``count()`` adds
them up, and refuses to answer unless every sub-problem is present exactly once; ``solutions()``
streams the solutions sub-problem by sub-problem, so their order differs from a serial run's
(the set is the same). :meth:`SplitRun.subproblem_results` is the hook for anything that merges
per-sub-problem results, such as a mergeable solution-set fingerprint.

A sub-problem whose attempt fails (the backend raises, or its worker process dies) is put back
and tried again, up to ``max_attempts`` attempts in all; then the run stops with
:class:`~nqueens_cp.errors.SubProblemError`. Results committed to a checkpoint stay there, so the
same command run again retries only what is missing.

Counts that cannot be silently wrong: a checkpoint row that fails its checksum is computed again
(and said so through ``notify``); a finished total of an instance without pre-placed queens is
checked against OEIS (A000170, or A002562 with ``unique``) where known, and a mismatch raises
:class:`~nqueens_cp.errors.WrongCountError` naming the sub-problems whose counts a second backend
does not confirm; with ``verify`` every sub-problem is counted by two different backends (or
kernels) as it runs, and any difference raises the same error.
"""

from __future__ import annotations

import itertools
import os
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, TextIO

from ..arguments import require_bool, require_instance, require_int, require_mapping, require_str
from ..backends.base import Backend
from ..backends.configuration import Configuration
from ..backends.registry import create_backend
from ..errors import CheckpointError, InvalidArgumentError, NQueensError, SubProblemError, WrongCountError
from ..instance import Instance, Solution
from ..oeis import A000170, A002562
from ..progress import Progress
from .checkpoint import CheckpointStore, MemoryStore, ResultStore, read_header
from .executors import EXECUTOR_NAMES, WORKER_DIED, Outcome, TaskExecutor, make_executor
from .split import (
    SplitPlan,
    SubProblem,
    default_batches,
    default_depth,
    expand,
    split_constellations,
    split_instance,
)
from .tasks import SubResult, SubTask

if TYPE_CHECKING:
    from ..fingerprint import Fingerprint


@dataclass(frozen=True)
class ParallelConfig:
    """How to run a split.

    ``workers``: workers (threads, processes of a local pool, or of a local Dask cluster).
    ``executor``: ``"inline"``, ``"threads"``, ``"processes"`` or ``"dask"``; None picks ``inline``
    for one worker, else ``threads`` for tasks that release the GIL and ``processes`` for the others.
    ``scheduler``: address of an existing Dask scheduler (implies ``dask``). ``split_depth``: rows
    fixed per sub-problem; None takes the checkpoint's depth when resuming, else the smallest depth
    giving at least 16 sub-problems per worker. ``checkpoint``: SQLite file to commit results to
    and resume from. ``max_attempts``: tries per sub-problem before the run fails. ``symmetry``:
    use the first-row mirror where exact. ``batches``: for a count split into batches of start
    constellations, how many (None: the checkpoint's when resuming, else 16 per worker).
    ``verify``: count every sub-problem a second time with ``verify_with`` (a configuration such
    as ``"bitboard:kernel=python"``; None picks another backend or kernel, see
    :func:`cross_check_config`) and fail on any difference (a verified count splits by rows).
    """

    workers: int = 1
    executor: str | None = None
    scheduler: str | None = None
    split_depth: int | None = None
    checkpoint: str | Path | None = None
    max_attempts: int = 3
    symmetry: bool = True
    batches: int | None = None
    verify: bool = False
    verify_with: str | None = None

    def __post_init__(self) -> None:
        """Wrong types or values raise :class:`~nqueens_cp.errors.InvalidArgumentError` naming the field."""
        require_int(self.workers, "ParallelConfig.workers", minimum=1)
        require_str(self.executor, "ParallelConfig.executor", optional=True)
        require_str(self.scheduler, "ParallelConfig.scheduler", optional=True)
        require_int(self.split_depth, "ParallelConfig.split_depth", minimum=0, optional=True)
        if self.checkpoint is not None and not isinstance(self.checkpoint, (str, os.PathLike)):
            raise InvalidArgumentError(f"ParallelConfig.checkpoint must be a path or None, got {self.checkpoint!r}")
        require_int(self.max_attempts, "ParallelConfig.max_attempts", minimum=1)
        require_bool(self.symmetry, "ParallelConfig.symmetry")
        require_bool(self.verify, "ParallelConfig.verify")
        require_str(self.verify_with, "ParallelConfig.verify_with", optional=True)
        require_int(self.batches, "ParallelConfig.batches", minimum=1, optional=True)

    def executor_name(self, releases_gil: bool = False) -> str:
        """The executor this configuration runs tasks on (``releases_gil``: whether they release the GIL)."""
        if self.executor is not None:
            return self.executor
        if self.scheduler is not None:
            return "dask"
        if self.workers == 1:
            return "inline"
        return "threads" if releases_gil else "processes"


#: Local workers allowed per core: more only adds processes or threads fighting for the cores.
MAX_WORKERS_PER_CORE = 8


def _check_local_workers(config: ParallelConfig) -> None:
    """Refuse a local pool or cluster of far more processes than this machine has cores."""
    if config.executor_name() == "inline" or config.scheduler is not None:
        return
    limit = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
    if config.workers > limit:
        raise NQueensError(
            f"--workers {config.workers}: at most {limit} local workers on this machine "
            f"({MAX_WORKERS_PER_CORE} per core); use a Dask cluster (--scheduler) for more"
        )


def _one_by_one(tasks: deque[SubTask]) -> Iterator[Outcome]:
    """The outcomes of ``tasks`` (filled while the run's own executor works), each run alone in a
    one-process pool: a worker that dies now was killed by that task, and by no other."""
    if tasks:
        with make_executor("processes", workers=1) as single:
            yield from single.outcomes(tasks)


def cross_check_config(backend: Backend) -> str:
    """The configuration that checks ``backend``'s counts: another kernel or another backend.

    The compiled bitboard is checked by the pure-Python bitboard search and vice versa; every
    other backend by the compiled bitboard (fast, and a different method from all of them).
    """
    if backend.name == "bitboard":
        return "bitboard" if backend.options.get("kernel") == "python" else "bitboard:kernel=python"
    return "bitboard"


@dataclass(frozen=True)
class SolvedSubProblem:
    """One sub-problem's result, with the solutions it stands for when enumerating.

    ``solutions`` includes the mirror images of a mirrored sub-problem's solutions (not with
    ``unique``); it is empty for a count. ``from_checkpoint`` marks results resumed from the file.
    """

    subproblem: SubProblem
    result: SubResult
    from_checkpoint: bool
    solutions: tuple[Solution, ...] = ()


@dataclass(frozen=True)
class SplitCount:
    """The count of a split run and how it was obtained."""

    count: int
    depth: int
    subproblems: int
    resumed: int
    seconds: float
    executor: str


class SplitRun:
    """Count or enumerate ``instance`` with backend ``backend`` split into sub-problems.

    ``options`` are the backend's options (checked here, before anything starts). With
    ``enumerate`` the workers return solutions, else only counts; ``unique`` keeps one solution
    per symmetry class (needs an instance without pre-placed queens). ``notify`` receives one-line
    messages about retried sub-problems; ``progress``, when given, gets a progress bar.
    ``executor``, when given, is used instead of one made from ``config`` (and is left open, so
    several runs can share one pool or Dask client).
    """

    def __init__(
        self,
        instance: Instance,
        backend: str,
        options: Mapping[str, Any] | None = None,
        *,
        enumerate: bool = False,
        unique: bool = False,
        config: ParallelConfig | None = None,
        notify: Callable[[str], None] | None = None,
        progress: TextIO | None = None,
        executor: TaskExecutor | None = None,
    ) -> None:
        self.instance = require_instance(instance)
        self.backend_name = require_str(backend, "backend")
        options = require_mapping(options, "options")
        if config is not None and not isinstance(config, ParallelConfig):
            raise InvalidArgumentError(f"config must be a ParallelConfig, got {config!r}")
        self.config = config if config is not None else ParallelConfig()
        require_bool(enumerate, "enumerate")
        require_bool(unique, "unique")
        self.enumerate = enumerate
        self.unique = unique
        self.notify = notify
        self.progress = progress
        self._shared_executor = executor
        self._backend = create_backend(backend, **dict(options or {}))
        self._backend.ensure_available()
        if unique and instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        if instance.blocked:
            raise NQueensError("split runs do not take blocked squares (their checkpoints record pre-placed queens "
                               "only): run without --workers/--split-depth")
        if self.config.max_attempts < 1:
            raise NQueensError(f"max_attempts must be >= 1, got {self.config.max_attempts}")
        if self.config.executor_name() not in EXECUTOR_NAMES:
            raise NQueensError(
                f"unknown executor {self.config.executor!r} (choose from {', '.join(EXECUTOR_NAMES)})"
            )
        if self.config.batches is not None and self.config.batches < 1:
            raise NQueensError(f"the number of constellation batches must be >= 1, got {self.config.batches}")
        if self.config.split_depth is not None and self.config.split_depth < 0:
            raise NQueensError(f"split depth must be >= 0, got {self.config.split_depth}")
        _check_local_workers(self.config)
        self._checker = self._cross_checker()
        self.plan: SplitPlan | None = None
        self.resumed = 0

    @property
    def task_name(self) -> str:
        """``count``, ``all``, ``count-unique`` or ``all-unique``: what the checkpoint is for."""
        return ("all" if self.enumerate else "count") + ("-unique" if self.unique else "")

    def header(self, plan: SplitPlan) -> dict[str, Any]:
        """What identifies this run in a checkpoint file."""
        split = {"split": "constellations", "batches": plan.batches} if plan.batches else {}
        return split | {
            "n": self.instance.n,
            "fixed": [list(pair) for pair in self.instance.fixed],
            "backend": self.backend_name,
            "options": dict(sorted(self._backend.options.items())),
            "split_depth": plan.depth,
            "symmetric": plan.symmetric,
            "task": self.task_name,
            "subproblems": len(plan),
            **({"verify": Configuration.of(self._checker).label} if self.config.verify else {}),
        }

    def _cross_checker(self) -> Backend:
        """The backend that counts sub-problems a second time (``verify``, or a count off OEIS)."""
        text = self.config.verify_with or cross_check_config(self._backend)
        checker = Configuration.parse(text, available=False).create()
        if self.config.verify and Configuration.of(checker).label == Configuration.of(self._backend).label:
            raise NQueensError(
                f"verify: {text} is the backend being checked; give another backend or kernel"
            )
        return checker

    def _is_check(self, task: SubTask) -> bool:
        """Whether ``task`` is a ``verify`` count (rather than the run's own task)."""
        return (task.backend, task.options) == (type(self._checker), tuple(sorted(self._checker.options.items())))

    def _check_task(self, sub: SubProblem) -> SubTask:
        return SubTask(
            index=sub.index,
            instance=sub.instance,
            backend=type(self._checker),
            options=tuple(sorted(self._checker.options.items())),
            unique=self.unique,
            batch=(sub.index, sub.batches) if sub.batches else None,
        )

    def _counts_constellations(self) -> bool:
        """Whether this run splits into batches of start constellations (see :mod:`.split`):
        a count of an empty board (n >= 4) with a backend that counts constellations, no
        ``split_depth`` asked for, and no checkpoint made by a row split to resume."""
        from ..searches.constellations import MIN_N

        if self.enumerate or self.instance.fixed or self.instance.n < MIN_N or not self.config.symmetry:
            return False
        if self.config.verify:
            return False
        if self.config.split_depth is not None:
            return False
        if not hasattr(self._backend, "count_constellation_batch"):
            return False
        header = read_header(self.config.checkpoint) if self.config.checkpoint is not None else None
        return header is None or header.get("split") == "constellations"

    def _releases_gil(self, checking: bool = False) -> bool:
        """Whether this run's tasks (``checking``: the cross-checker's) release the GIL, so threads
        run them side by side: counts of constellation batches by a compiled kernel."""
        backend = self._checker if checking else self._backend
        compiled = getattr(backend, "batch_count_releases_gil", None)
        return self._counts_constellations() and callable(compiled) and bool(compiled(self.instance.n))

    def _batches_from_checkpoint(self) -> int | None:
        header = read_header(self.config.checkpoint) if self.config.checkpoint is not None else None
        if header is None:
            return None
        batches = header.get("batches")
        if not isinstance(batches, int) or batches < 1:
            raise CheckpointError(f"{self.config.checkpoint} has no valid number of constellation batches")
        return batches

    def _plan(self) -> tuple[SplitPlan, TaskExecutor | None]:
        """The split of this run, and the executor when one had to be started to size it."""
        executor: list[TaskExecutor] = []

        def size(given: int | None, from_checkpoint: Callable[[], int | None],
                 default: Callable[[Instance, int], int]) -> int:
            """The size given, else the checkpoint's, else the default for the executor's capacity."""
            chosen = given if given is not None else from_checkpoint()
            if chosen is None:
                executor.append(self._make_executor())
                chosen = default(self.instance, executor[0].capacity)
            return chosen

        if self._counts_constellations():
            batches = size(self.config.batches, self._batches_from_checkpoint, default_batches)
            plan = split_constellations(self.instance, batches)
        else:
            depth = size(self.config.split_depth, self._depth_from_checkpoint, default_depth)
            plan = split_instance(self.instance, depth, symmetry=self.config.symmetry)
        return plan, (executor[0] if executor else None)

    def _depth_from_checkpoint(self) -> int | None:
        if self.config.checkpoint is None:
            return None
        header = read_header(self.config.checkpoint)
        if header is None:
            return None
        depth = header.get("split_depth")
        if not isinstance(depth, int):
            raise CheckpointError(f"{self.config.checkpoint} has no valid split depth in its header")
        return depth

    def _open_store(self, plan: SplitPlan) -> ResultStore:
        if self.config.checkpoint is None:
            return MemoryStore()
        return CheckpointStore(self.config.checkpoint, self.header(plan))

    def _tasks(self, plan: SplitPlan, done: set[int]) -> deque[SubTask]:
        options = tuple(sorted(self._backend.options.items()))
        tasks: deque[SubTask] = deque()
        for sub in plan.subproblems:
            if sub.index in done:
                continue
            tasks.append(
                SubTask(
                    index=sub.index,
                    instance=sub.instance,
                    backend=type(self._backend),
                    options=options,
                    enumerate=self.enumerate,
                    unique=self.unique,
                    batch=(sub.index, sub.batches) if sub.batches else None,
                )
            )
            if self.config.verify:
                tasks.append(self._check_task(sub))
        return tasks

    def _solved(self, sub: SubProblem, result: SubResult, from_checkpoint: bool) -> SolvedSubProblem:
        if result.index != sub.index:
            raise NQueensError(f"result for sub-problem #{result.index} returned for {sub.label()}")
        solutions: tuple[Solution, ...] = ()
        if self.enumerate:
            found = result.solutions(self.instance.n)
            solutions = tuple(found) if self.unique else tuple(expand(sub, found))
        return SolvedSubProblem(sub, result, from_checkpoint, solutions)

    def subproblem_results(self) -> Iterator[SolvedSubProblem]:
        """Every sub-problem's result once: resumed ones first, then new ones as they finish."""
        executor: TaskExecutor | None = None
        store: ResultStore | None = None
        bar: Progress | None = None
        try:
            plan, executor = self._plan()
            self.plan = plan
            store = self._open_store(plan)
            by_index = {sub.index: sub for sub in plan.subproblems}
            self._report_rejected(store, by_index)
            done = store.done()
            self.resumed = len(done)
            if self.enumerate:
                for result in store.results():
                    yield self._solved(by_index[result.index], result, True)
            else:
                for index, count in store.counts():
                    sub = by_index[index]
                    yield SolvedSubProblem(sub, SubResult(index, count, None, 0.0, "checkpoint"), True)
            queue = self._tasks(plan, done)
            if not queue:
                return
            if executor is None:
                executor = self._make_executor()
            bar = Progress(self.progress, len(plan), done=len(done), unit="sub-problem")
            attempts: dict[tuple[int, bool], int] = {}
            failed: list[str] = []
            unconfirmed: dict[int, SubResult] = {}  # verify: the first of the two counts to arrive
            alone: deque[SubTask] = deque()  # given up while others ran beside it: one try alone
            for outcome in itertools.chain(executor.outcomes(queue), _one_by_one(alone)):
                sub = by_index[outcome.task.index]
                if outcome.result is None:
                    key = (sub.index, self.config.verify and self._is_check(outcome.task))
                    tries = attempts[key] = attempts.get(key, 0) + 1
                    if tries == self.config.max_attempts and outcome.error == WORKER_DIED and executor.capacity > 1:
                        # It may only have shared the pool with the sub-problem that crashed it.
                        alone.append(outcome.task)
                        if self.notify is not None:
                            with bar.paused():
                                self.notify(f"sub-problem {sub.label()}: {WORKER_DIED} {tries} time(s); "
                                            "trying it once more, alone, after the others")
                        continue
                    if tries >= self.config.max_attempts:
                        # Given up; the others go on (and are kept), the run fails at the end.
                        last = " (the last one alone)" if tries > self.config.max_attempts else ""
                        failed.append(f"sub-problem {sub.label()} of {self.instance} failed {tries} time(s){last}, "
                                      f"last: {outcome.error}")
                        if self.notify is not None and self.config.checkpoint is not None:
                            self.notify(f"{failed[-1]}; finishing the other sub-problems")
                        continue
                    if self.notify is not None:
                        with bar.paused():
                            self.notify(
                                f"sub-problem {sub.label()} failed ({outcome.error}); "
                                f"retrying (attempt {tries + 1} of {self.config.max_attempts})"
                            )
                    queue.append(outcome.task)
                    continue
                result = outcome.result
                if self.config.verify:
                    confirmed = self._confirm(sub, outcome.task, result, unconfirmed)
                    if confirmed is None:
                        continue
                    result = confirmed
                solved = self._solved(sub, result, False)
                store.record(sub, result)
                bar.advance()
                yield solved
            if failed:
                raise SubProblemError(self._failure_message(failed, len(store.done())))
        finally:
            if bar is not None:
                bar.close()
            if executor is not None and executor is not self._shared_executor:
                executor.close()
            if store is not None:
                store.close()

    def _failure_message(self, failed: list[str], finished: int) -> str:
        """One line for the sub-problems given up on (every one named), and what was kept."""
        kept = (
            f"; the {finished} finished sub-problems are kept in {self.config.checkpoint}, "
            "run the same command again to retry the rest"
            if self.config.checkpoint is not None
            else ""
        )
        more = f" (and {len(failed) - 1} more: {'; '.join(failed[1:])})" if len(failed) > 1 else ""
        return f"{failed[0]}{more}; no result reported{kept}"

    def _report_rejected(self, store: ResultStore, by_index: Mapping[int, SubProblem]) -> None:
        """Say which checkpoint rows failed their checksum (they are computed again)."""
        for index, prefix in getattr(store, "rejected", ()):
            sub = by_index.get(index)
            label = sub.label() if sub is not None else f"#{index} (prefix {prefix})"
            if self.notify is not None:
                self.notify(
                    f"checkpoint {self.config.checkpoint}: the row of sub-problem {label} fails its "
                    "checksum; not trusted, computing it again"
                )

    def _confirm(
        self, sub: SubProblem, task: SubTask, result: SubResult, unconfirmed: dict[int, SubResult]
    ) -> SubResult | None:
        """``verify``: the run's result once both counts of ``sub`` are in and agree, else None.

        Raises :class:`WrongCountError` when the two counts differ.
        """
        other = unconfirmed.pop(sub.index, None)
        if other is None:
            unconfirmed[sub.index] = result
            return None
        checked, own = (result, other) if self._is_check(task) else (other, result)
        if checked.count != own.count:
            raise WrongCountError(
                f"verify: sub-problem {sub.label()} of {self.instance}: {Configuration.of(self._backend).label} "
                f"counted {own.count}, {Configuration.of(self._checker).label} counted {checked.count}; "
                "no result reported"
            )
        return own

    def _expected_total(self) -> tuple[int, str] | None:
        """The published count of this run's instance and its name, or None (pre-placed queens, n > 27)."""
        if self.instance.fixed:
            return None
        table, name = (A002562, "A002562") if self.unique else (A000170, "A000170")
        expected = table.get(self.instance.n)
        return None if expected is None else (expected, name)

    def _check_total(self, total: int, counts: list[tuple[int, int]]) -> None:
        """Raise :class:`WrongCountError` when ``total`` differs from OEIS, naming the sub-problems."""
        known = self._expected_total()
        if known is None or total == known[0]:
            return
        expected, name = known
        plan = self._finished_plan()
        what = f"total {total} of {self.instance} differs from OEIS {name}({self.instance.n}) = {expected}"
        if self.config.verify:
            raise WrongCountError(
                f"{what}, although {Configuration.of(self._checker).label} confirmed every sub-problem; "
                "no result reported"
            )
        if self.notify is not None:
            self.notify(f"{what}: counting every sub-problem again with {Configuration.of(self._checker).label}")
        rechecked = self._recount(plan)
        by_index = {sub.index: sub for sub in plan.subproblems}
        wrong = [
            f"{by_index[index].label()} counted {count}, {Configuration.of(self._checker).label} counts "
            f"{rechecked[index]}"
            for index, count in counts
            if index in rechecked and rechecked[index] != count
        ]
        if not wrong:
            unchecked = len(plan) - len(rechecked)
            detail = (
                f"{unchecked} sub-problem(s) could not be counted again"
                if unchecked
                else f"{Configuration.of(self._checker).label} agrees on every sub-problem"
            )
            raise WrongCountError(f"{what}; {detail}; no result reported")
        shown = "; ".join(wrong[:10]) + (f"; ... {len(wrong)} in all" if len(wrong) > 10 else "")
        forgotten = ""
        if self.config.checkpoint is not None:
            store = CheckpointStore(self.config.checkpoint, self.header(plan))
            try:
                store.forget([index for index, count in counts if index in rechecked and rechecked[index] != count])
            finally:
                store.close()
            forgotten = f" (removed from {self.config.checkpoint}: the same command computes them anew)"
        raise WrongCountError(f"{what}; wrong sub-problem(s){forgotten}: {shown}; no result reported")

    def _recount(self, plan: SplitPlan) -> dict[int, int]:
        """Every sub-problem's count by the cross-checking backend (failed ones left out)."""
        queue = deque(self._check_task(sub) for sub in plan.subproblems)
        executor = self._make_executor(checking=True)
        try:
            return {o.task.index: o.result.count for o in executor.outcomes(queue) if o.result is not None}
        finally:
            if executor is not self._shared_executor:
                executor.close()

    def _make_executor(self, checking: bool = False) -> TaskExecutor:
        if self._shared_executor is not None:
            return self._shared_executor
        releases_gil = self._releases_gil(checking)
        return make_executor(
            self.config.executor_name(releases_gil),
            workers=self.config.workers,
            scheduler=self.config.scheduler,
            in_process=releases_gil,
        )

    def _executor_description(self) -> str:
        if self._shared_executor is not None:
            return self._shared_executor.description
        return self.config.executor_name(self._releases_gil())

    def _finished_plan(self) -> SplitPlan:
        if self.plan is None:
            raise NQueensError("the run has not split its instance yet")
        return self.plan

    def count(self) -> SplitCount:
        """The number of solutions (of symmetry classes with ``unique``), every sub-problem counted once."""
        started = time.perf_counter()
        counts = [(solved.subproblem.index, solved.result.count) for solved in self.subproblem_results()]
        total = self._finished_plan().total_count(counts, weighted=not self.unique)
        self._check_total(total, counts)
        return SplitCount(
            count=total,
            depth=self._finished_plan().depth,
            subproblems=len(self._finished_plan()),
            resumed=self.resumed,
            seconds=time.perf_counter() - started,
            executor=self._executor_description(),
        )

    def solutions(self) -> Iterator[Solution]:
        """Every solution once, sub-problem by sub-problem (needs ``enumerate=True``).

        Raises ``NQueensError`` at the end if any sub-problem is missing (it cannot be, short of a
        bug: a failing sub-problem raises ``SubProblemError`` first).
        """
        if not self.enumerate:
            raise NQueensError("solutions() needs a run made with enumerate=True")
        seen: list[tuple[int, int]] = []
        for solved in self.subproblem_results():
            seen.append((solved.subproblem.index, solved.result.count))
            yield from solved.solutions
        self._check_total(self._finished_plan().total_count(seen, weighted=not self.unique), seen)

    def fingerprint(self) -> Fingerprint:
        """The fingerprint of every solution (needs ``enumerate=True``), merged sub-problem by sub-problem.

        Fingerprints add over disjoint collections (see :mod:`nqueens_cp.fingerprint`), so
        this equals the fingerprint of a serial enumeration, whatever the split and the order.
        """
        from ..fingerprint import Fingerprint, fingerprint_of

        if not self.enumerate:
            raise NQueensError("fingerprint() needs a run made with enumerate=True")
        total = Fingerprint()
        seen: list[tuple[int, int]] = []
        for solved in self.subproblem_results():
            seen.append((solved.subproblem.index, solved.result.count))
            total = total + fingerprint_of(solved.solutions)
        self._check_total(self._finished_plan().total_count(seen, weighted=not self.unique), seen)
        return total
