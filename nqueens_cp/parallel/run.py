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
:class:`~nqueens_cp.core.errors.SubProblemError`. Results committed to a checkpoint stay there, so the
same command run again retries only what is missing.

Every decision (split kind and size, executor, checker) is made once, before anything runs, by
:func:`~.planning.plan_run`; this module carries the plan out. Counts that cannot be silently
wrong: a checkpoint row that fails its checksum is computed again (and said so through
``notify``); ``verify`` pairs and the total's check against OEIS are :mod:`.verification`'s.
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, TextIO

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.arguments import require_bool, require_instance, require_mapping, require_str
from nqueens_cp.core.errors import InvalidArgumentError, ModelTooLargeError, NQueensError, SubProblemError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.parallel.checkpoint import CheckpointStore, MemoryStore, ResultStore
from nqueens_cp.parallel.executors import WORKER_DIED, Outcome, TaskExecutor, make_executor
from nqueens_cp.parallel.planning import ParallelConfig, RunPlan, plan_run
from nqueens_cp.parallel.settings import ExecutorKind
from nqueens_cp.parallel.split import SplitPlan, SubProblem, expand
from nqueens_cp.parallel.tasks import SubResult, SubTask
from nqueens_cp.parallel.verification import Verification
from nqueens_cp.system.progress import Progress

if TYPE_CHECKING:
    from nqueens_cp.core.fingerprint import Fingerprint

__all__ = ["ParallelConfig", "SolvedSubProblem", "SplitCount", "SplitRun"]


def _one_by_one(tasks: deque[SubTask]) -> Iterator[Outcome]:
    """The outcomes of ``tasks`` (filled while the run's own executor works), each run alone in a
    one-process pool: a worker that dies now was killed by that task, and by no other."""
    if tasks:
        with make_executor(ExecutorKind.PROCESSES, workers=1) as single:
            yield from single.outcomes(tasks)


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

    ``options`` are the backend's options (checked here, before anything starts), and
    ``memory_budget_mb`` its memory budget for models (None: the default), which every worker's
    backend is given. With
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
        memory_budget_mb: float | None = None,
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
        self.enumerate = require_bool(enumerate, "enumerate")
        self.unique = require_bool(unique, "unique")
        self.notify = notify
        self.progress = progress
        self._shared_executor = executor
        self._backend = create_backend(backend, memory_budget_mb=memory_budget_mb, **dict(options or {}))
        self._backend.ensure_available()
        if unique and instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        if instance.blocked:
            raise NQueensError("split runs do not take blocked squares (their checkpoints record pre-placed queens "
                               "only): run without --workers/--split-depth")
        self._executor: TaskExecutor | None = None  # a cluster at ``scheduler`` now, any other at the first task
        self.run_plan: RunPlan = plan_run(
            self.instance, self._backend, self.config, enumerate=self.enumerate, capacity=self._asked_capacity()
        )
        self._verification = Verification(
            self.instance, self._backend, self.run_plan, unique=self.unique, verify=self.config.verify
        )
        self.resumed = 0

    @property
    def plan(self) -> SplitPlan:
        """The split of this run (its sub-problems)."""
        return self.run_plan.split

    @property
    def task_name(self) -> str:
        """``count``, ``all``, ``count-unique`` or ``all-unique``: what the checkpoint is for."""
        return ("all" if self.enumerate else "count") + ("-unique" if self.unique else "")

    def header(self) -> dict[str, Any]:
        """What identifies this run in a checkpoint file."""
        split = self.run_plan.split
        kind = {"split": "constellations", "batches": split.batches} if split.batches else {}
        return kind | {
            "n": self.instance.n,
            "fixed": [list(pair) for pair in self.instance.fixed],
            "backend": self.backend_name,
            "options": dict(sorted(self._backend.options.items())),
            "split_depth": split.depth,
            "symmetric": split.symmetric,
            "task": self.task_name,
            "subproblems": len(split),
            **({"verify": self.run_plan.checker_label} if self.config.verify else {}),
        }

    # -- executors ----------------------------------------------------------------------------

    def _asked_capacity(self) -> int | None:
        """How many tasks run at once where only the executor knows it, asked before the plan: a
        shared executor, or a Dask cluster at ``scheduler`` (connected to now: its workers are not
        ours to count). None: a local executor, sized by the plan from ``workers``; it starts later."""
        if self._shared_executor is not None:
            return self._shared_executor.capacity
        if self.config.scheduler is not None and self.config.executor_name() is ExecutorKind.DASK:
            return self._make_executor(ExecutorKind.DASK, in_process=False).capacity
        return None

    def _make_executor(self, executor: str, in_process: bool) -> TaskExecutor:
        if self._shared_executor is not None:
            return self._shared_executor
        if self._executor is None:
            self._executor = make_executor(
                executor, workers=self.config.workers, scheduler=self.config.scheduler, in_process=in_process
            )
        return self._executor

    def _close_executor(self) -> None:
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def _run_tasks(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        """The outcomes of ``queue`` on the plan's executor (for a recount: no retries)."""
        try:
            yield from self._make_executor(self.run_plan.executor, self.run_plan.in_process).outcomes(queue)
        finally:
            self._close_executor()

    # -- the run ------------------------------------------------------------------------------

    def _open_store(self) -> ResultStore:
        if self.config.checkpoint is None:
            return MemoryStore()
        return CheckpointStore(self.config.checkpoint, self.header())

    def _tasks(self, done: set[int]) -> deque[SubTask]:
        options = tuple(sorted(self._backend.options.items()))
        tasks: deque[SubTask] = deque()
        for sub in self.run_plan.split.subproblems:
            if sub.index in done:
                continue
            tasks.append(SubTask(
                index=sub.index, instance=sub.instance, backend=type(self._backend), options=options,
                memory_budget_mb=self._backend.memory_budget_mb, enumerate=self.enumerate, unique=self.unique,
                batch=(sub.index, sub.batches) if sub.batches else None,
            ))
            if self.config.verify:
                tasks.append(self._verification.check_task(sub))
        return tasks

    def _solved(self, sub: SubProblem, result: SubResult, from_checkpoint: bool) -> SolvedSubProblem:
        if result.index != sub.index:
            raise NQueensError(f"result for sub-problem #{result.index} returned for {sub.label()}")
        solutions: tuple[Solution, ...] = ()
        if self.enumerate:
            found = result.solutions(self.instance.n)
            solutions = tuple(found) if self.unique else tuple(expand(sub, found))
        return SolvedSubProblem(sub, result, from_checkpoint, solutions)

    def _resumed(self, store: ResultStore, by_index: Mapping[int, SubProblem]) -> Iterator[SolvedSubProblem]:
        if self.enumerate:
            for result in store.results():
                yield self._solved(by_index[result.index], result, True)
        else:
            for index, count in store.counts():
                yield SolvedSubProblem(by_index[index], SubResult(index, count, None, 0.0, "checkpoint"), True)

    def subproblem_results(self) -> Iterator[SolvedSubProblem]:
        """Every sub-problem's result once: resumed ones first, then new ones as they finish."""
        store: ResultStore | None = None
        bar: Progress | None = None
        try:
            plan = self.run_plan.split
            store = self._open_store()
            by_index = {sub.index: sub for sub in plan.subproblems}
            self._report_rejected(store, by_index)
            done = store.done()
            self.resumed = len(done)
            yield from self._resumed(store, by_index)
            queue = self._tasks(done)
            if not queue:
                return
            executor = self._make_executor(self.run_plan.executor, self.run_plan.in_process)
            bar = Progress(self.progress, len(plan), done=len(done), unit="sub-problem")
            failed: list[str] = []
            for sub, result in self._finished(executor, queue, by_index, bar, failed):
                solved = self._solved(sub, result, False)
                store.record(sub, result)
                bar.advance()
                yield solved
            if failed:
                raise SubProblemError(self._failure_message(failed, len(store.done())))
        finally:
            if bar is not None:
                bar.close()
            self._close_executor()
            if store is not None:
                store.close()

    def _finished(
        self, executor: TaskExecutor, queue: deque[SubTask], by_index: Mapping[int, SubProblem],
        bar: Progress, failed: list[str],
    ) -> Iterator[tuple[SubProblem, SubResult]]:
        """Each sub-problem's result as it is in (confirmed by its check with ``verify``); a failed
        attempt is retried up to ``max_attempts`` in all, the last try of one whose worker died
        alone after the others; one given up on is added to ``failed``."""
        attempts: dict[tuple[int, bool], int] = {}
        alone: deque[SubTask] = deque()  # given up while others ran beside it: one try alone
        most = self.config.max_attempts
        for outcome in itertools.chain(executor.outcomes(queue), _one_by_one(alone)):
            sub = by_index[outcome.task.index]
            if outcome.refusal is not None:
                raise ModelTooLargeError(outcome.refusal)
            if outcome.result is None:
                key = (sub.index, outcome.task.check)
                tries = attempts[key] = attempts.get(key, 0) + 1
                if tries == most and outcome.error is WORKER_DIED and executor.capacity > 1:
                    # It may only have shared the pool with the sub-problem that crashed it.
                    alone.append(outcome.task)
                    self._say(bar, f"sub-problem {sub.label()}: {WORKER_DIED} {tries} time(s); "
                                   "trying it once more, alone, after the others")
                elif tries >= most:
                    # Given up; the others go on (and are kept), the run fails at the end.
                    last = " (the last one alone)" if tries > most else ""
                    failed.append(f"sub-problem {sub.label()} of {self.instance} failed {tries} time(s){last}, "
                                  f"last: {outcome.error}")
                    if self.config.checkpoint is not None:
                        self._say(None, f"{failed[-1]}; finishing the other sub-problems")
                else:
                    self._say(bar, f"sub-problem {sub.label()} failed ({outcome.error}); "
                                   f"retrying (attempt {tries + 1} of {most})")
                    queue.append(outcome.task)
                continue
            result: SubResult | None = outcome.result
            if self.config.verify:
                result = self._verification.confirm(sub, outcome.task, outcome.result)
            if result is not None:
                yield sub, result

    def _say(self, bar: Progress | None, message: str) -> None:
        if self.notify is None:
            return
        if bar is None:
            self.notify(message)
            return
        with bar.paused():
            self.notify(message)

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
        for index, prefix in store.rejected:
            sub = by_index.get(index)
            label = sub.label() if sub is not None else f"#{index} (prefix {prefix})"
            self._say(None, f"checkpoint {self.config.checkpoint}: the row of sub-problem {label} fails its "
                            "checksum; not trusted, computing it again")

    # -- totals -------------------------------------------------------------------------------

    def _forget(self, indices: list[int]) -> str:
        """Remove the results of ``indices`` from the checkpoint; says where."""
        assert self.config.checkpoint is not None
        store = CheckpointStore(self.config.checkpoint, self.header())
        try:
            store.forget(indices)
        finally:
            store.close()
        return f" (removed from {self.config.checkpoint}: the same command computes them anew)"

    def _check_total(self, seen: list[tuple[int, int]]) -> int:
        """The total of ``seen`` (every sub-problem once), checked against OEIS where published."""
        total = self.run_plan.split.total_count(seen, weighted=not self.unique)
        self._verification.check_total(
            total, seen, run=self._run_tasks, notify=self.notify,
            forget=self._forget if self.config.checkpoint is not None else None,
        )
        return total

    def _executor_description(self) -> str:
        if self._shared_executor is not None:
            return self._shared_executor.description
        return self.run_plan.executor

    def count(self) -> SplitCount:
        """The number of solutions (of symmetry classes with ``unique``), every sub-problem counted once."""
        started = time.perf_counter()
        counts = [(solved.subproblem.index, solved.result.count) for solved in self.subproblem_results()]
        total = self._check_total(counts)
        return SplitCount(
            count=total,
            depth=self.run_plan.split.depth,
            subproblems=len(self.run_plan.split),
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
        self._check_total(seen)

    def fingerprint(self) -> Fingerprint:
        """The fingerprint of every solution (needs ``enumerate=True``), merged sub-problem by sub-problem.

        Fingerprints add over disjoint collections (see :mod:`nqueens_cp.core.fingerprint`), so
        this equals the fingerprint of a serial enumeration, whatever the split and the order.
        """
        from nqueens_cp.core.fingerprint import Fingerprint, fingerprint_of

        if not self.enumerate:
            raise NQueensError("fingerprint() needs a run made with enumerate=True")
        total = Fingerprint()
        seen: list[tuple[int, int]] = []
        for solved in self.subproblem_results():
            seen.append((solved.subproblem.index, solved.result.count))
            total = total + fingerprint_of(solved.solutions)
        self._check_total(seen)
        return total
