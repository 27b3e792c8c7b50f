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
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, TextIO

from ..backends.registry import create_backend
from ..errors import CheckpointError, NQueensError, SubProblemError
from ..instance import Instance, Solution
from ..progress import Progress
from .checkpoint import CheckpointStore, MemoryStore, ResultStore, read_header
from .executors import EXECUTOR_NAMES, TaskExecutor, make_executor
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

    ``workers``: worker processes (local pool or local Dask cluster). ``executor``: ``"inline"``,
    ``"processes"`` or ``"dask"``; None picks ``processes`` when ``workers > 1``, else ``inline``.
    ``scheduler``: address of an existing Dask scheduler (implies ``dask``). ``split_depth``: rows
    fixed per sub-problem; None takes the checkpoint's depth when resuming, else the smallest depth
    giving at least 16 sub-problems per worker. ``checkpoint``: SQLite file to commit results to
    and resume from. ``max_attempts``: tries per sub-problem before the run fails. ``symmetry``:
    use the first-row mirror where exact. ``batches``: for a count split into batches of start
    constellations, how many (None: the checkpoint's when resuming, else 16 per worker).
    """

    workers: int = 1
    executor: str | None = None
    scheduler: str | None = None
    split_depth: int | None = None
    checkpoint: str | Path | None = None
    max_attempts: int = 3
    symmetry: bool = True
    batches: int | None = None

    def executor_name(self) -> str:
        """The executor this configuration runs on."""
        if self.executor is not None:
            return self.executor
        if self.scheduler is not None:
            return "dask"
        return "processes" if self.workers > 1 else "inline"


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
        self.instance = instance
        self.backend_name = backend
        self.config = config if config is not None else ParallelConfig()
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
        }

    def _counts_constellations(self) -> bool:
        """Whether this run splits into batches of start constellations (see :mod:`.split`):
        a count of an empty board (n >= 4) with a backend that counts constellations, no
        ``split_depth`` asked for, and no checkpoint made by a row split to resume."""
        from ..searches.constellations import MIN_N

        if self.enumerate or self.instance.fixed or self.instance.n < MIN_N or not self.config.symmetry:
            return False
        if self.config.split_depth is not None:
            return False
        if not hasattr(self._backend, "count_constellation_batch"):
            return False
        header = read_header(self.config.checkpoint) if self.config.checkpoint is not None else None
        return header is None or header.get("split") == "constellations"

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
        return deque(
            SubTask(
                index=sub.index,
                instance=sub.instance,
                backend=type(self._backend),
                options=options,
                enumerate=self.enumerate,
                unique=self.unique,
                batch=(sub.index, sub.batches) if sub.batches else None,
            )
            for sub in plan.subproblems
            if sub.index not in done
        )

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
            attempts: dict[int, int] = {}
            for outcome in executor.outcomes(queue):
                sub = by_index[outcome.task.index]
                if outcome.result is None:
                    tries = attempts[sub.index] = attempts.get(sub.index, 0) + 1
                    if tries >= self.config.max_attempts:
                        kept = (
                            f"; the {len(store.done())} finished sub-problems are kept in "
                            f"{self.config.checkpoint}, run the same command again to retry the rest"
                            if self.config.checkpoint is not None
                            else ""
                        )
                        raise SubProblemError(
                            f"sub-problem {sub.label()} of {self.instance} failed {tries} time(s), "
                            f"last: {outcome.error}; no result reported{kept}"
                        )
                    if self.notify is not None:
                        with bar.paused():
                            self.notify(
                                f"sub-problem {sub.label()} failed ({outcome.error}); "
                                f"retrying (attempt {tries + 1} of {self.config.max_attempts})"
                            )
                    queue.append(outcome.task)
                    continue
                solved = self._solved(sub, outcome.result, False)
                store.record(sub, outcome.result)
                bar.advance()
                yield solved
        finally:
            if bar is not None:
                bar.close()
            if executor is not None and executor is not self._shared_executor:
                executor.close()
            if store is not None:
                store.close()

    def _make_executor(self) -> TaskExecutor:
        if self._shared_executor is not None:
            return self._shared_executor
        return make_executor(
            self.config.executor_name(), workers=self.config.workers, scheduler=self.config.scheduler
        )

    def _executor_description(self) -> str:
        if self._shared_executor is not None:
            return self._shared_executor.description
        return self.config.executor_name()

    def _finished_plan(self) -> SplitPlan:
        if self.plan is None:
            raise NQueensError("the run has not split its instance yet")
        return self.plan

    def count(self) -> SplitCount:
        """The number of solutions (of symmetry classes with ``unique``), every sub-problem counted once."""
        started = time.perf_counter()
        counts = [(solved.subproblem.index, solved.result.count) for solved in self.subproblem_results()]
        total = self._finished_plan().total_count(counts, weighted=not self.unique)
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
        self._finished_plan().total_count(seen, weighted=False)

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
        self._finished_plan().total_count(seen, weighted=False)
        return total
