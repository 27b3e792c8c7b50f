"""Where sub-problems run: in this process, in threads of it, in a local process pool, or on a Dask cluster.

Every executor offers one operation, :meth:`TaskExecutor.outcomes`: it takes tasks from the left
of a deque, keeps a bounded number of them in flight, and yields an :class:`Outcome` for each as
it finishes (in completion order). The caller may append tasks to the deque between outcomes (a
failed task is put back this way to be retried), and the iteration ends when the deque is empty
and nothing is in flight. A task that raises, or whose worker process dies, comes back as an
outcome with ``error`` set; it never ends the iteration.

Threads serve tasks whose search releases the GIL (the compiled constellation kernel): they share
this process's imports and compiled code, where each pool worker loads its own. Every other task
needs processes to run side by side.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import queue as queues
import signal
import threading
from abc import ABC, abstractmethod
from collections import deque
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any, Iterator

from nqueens_cp.core.arguments import require_int
from nqueens_cp.core.errors import ModelTooLargeError, NQueensError
from nqueens_cp.core.names import Name
from nqueens_cp.parallel.settings import DASK_WORKERS, EXECUTOR_NAMES, ExecutorKind
from nqueens_cp.parallel.tasks import SubResult, SubTask, solve_subproblem
from nqueens_cp.system.processes import die_with_parent, exit_when_gone, start_method

if TYPE_CHECKING:  # the process pool's modules are imported when a pool is made (0.02 s)
    import concurrent.futures
    import multiprocessing.context

class Lost(Name):
    """An attempt's error that is not something the task raised: the process running it is gone."""

    #: The error of every task in flight when a local worker process died (which one killed it is unknown).
    WORKER_DIED = "a worker process died while this sub-problem was running"



WORKER_DIED = Lost.WORKER_DIED



@dataclass(frozen=True)
class Outcome:
    """How one attempt at a task ended: a result, or the failure (a one-line description of what the
    task raised, or how its process was lost)."""

    task: SubTask
    result: SubResult | None
    error: str | Lost | None = None
    #: The backend refused the sub-problem's model as too large for its memory budget: the same
    #: refusal on every try, so the run ends with it (exit status 2 on the command line), no retry.
    refusal: str | None = None


def _describe(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__


def _failed(task: SubTask, error: BaseException) -> Outcome:
    """The outcome of ``task`` that raised ``error``."""
    refusal = str(error) if isinstance(error, ModelTooLargeError) else None
    return Outcome(task, None, _describe(error), refusal)


class TaskExecutor(ABC):
    """Runs :class:`SubTask` s and reports their outcomes as they finish; a context manager."""

    #: Short description for messages, e.g. ``"process pool (2 workers)"``.
    description: str = ""

    @property
    @abstractmethod
    def capacity(self) -> int:
        """How many tasks can run at the same time (worker processes or threads)."""

    @abstractmethod
    def outcomes(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        """Run the tasks of ``queue`` (which may grow while this runs); yield outcomes as they finish."""

    @abstractmethod
    def close(self) -> None:
        """Release the workers; tasks still running are abandoned."""

    def __enter__(self) -> TaskExecutor:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class InlineExecutor(TaskExecutor):
    """Runs each task in this process, one after the other (``--workers 1``)."""

    description = "this process"

    @property
    def capacity(self) -> int:
        return 1

    def outcomes(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        while queue:
            yield _attempt(queue.popleft())

    def close(self) -> None:
        """Nothing to release: tasks ran in this process."""


def _attempt(task: SubTask) -> Outcome:
    """Run ``task`` here and now; whatever it raises becomes the outcome's error."""
    try:
        return Outcome(task, solve_subproblem(task))
    except Exception as error:
        return _failed(task, error)


class _Crew:
    """Daemon threads taking tasks from one inbox and putting outcomes in one outbox.

    A crew whose run stopped early is abandoned, not joined: its threads finish the task at hand
    (a compiled search cannot be interrupted), drop the outcome and end, or end with the process.
    """

    def __init__(self, workers: int) -> None:
        self.inbox: queues.SimpleQueue[SubTask | None] = queues.SimpleQueue()
        self.outbox: queues.SimpleQueue[Outcome] = queues.SimpleQueue()
        self.threads = [
            threading.Thread(target=self._work, name=f"nqueens-cp-worker-{i}", daemon=True) for i in range(workers)
        ]
        for thread in self.threads:
            thread.start()

    def _work(self) -> None:
        while (task := self.inbox.get()) is not None:
            try:
                outcome = _attempt(task)
            except BaseException as error:  # SystemExit and the like: reported, or the run would wait forever
                outcome = _failed(task, error)
            self.outbox.put(outcome)

    def dismiss(self) -> None:
        """Let every thread end once its current task (if any) is done: tasks not yet taken are
        dropped."""
        with contextlib.suppress(queues.Empty):
            while True:
                self.inbox.get_nowait()
        for _ in self.threads:
            self.inbox.put(None)


class ThreadTaskExecutor(TaskExecutor):
    """``workers`` threads of this process (default for counts by the compiled constellation kernel).

    No process to start, to load the kernel into, or to outlive the run; only tasks that release
    the GIL run side by side. A task that raises is reported like in a pool; a crash of the
    search itself would end the process (the compiled kernels check their inputs before they run).
    """

    def __init__(self, workers: int) -> None:
        self.workers: int = require_int(workers, "workers", minimum=1)
        self.description = f"{workers} thread{'s' if workers != 1 else ''}"
        self._crew: _Crew | None = None  # started at the first task
        self._in_flight = 0

    @property
    def capacity(self) -> int:
        return self.workers

    def outcomes(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        if self._in_flight:
            # Left over from a run that stopped early: their results belong to nobody now.
            self._dismiss()
        while queue or self._in_flight:
            if self._crew is None:
                self._crew = _Crew(self.workers)
            while queue and self._in_flight < 2 * self.workers:  # one waiting per thread: no idle gap
                self._crew.inbox.put(queue.popleft())
                self._in_flight += 1
            outcome = self._crew.outbox.get()
            self._in_flight -= 1
            yield outcome

    def close(self) -> None:
        self._dismiss()

    def _dismiss(self) -> None:
        if self._crew is not None:
            self._crew.dismiss()
        self._crew = None
        self._in_flight = 0


#: Seconds between two looks of a pool worker's watchdog at the process that runs the split.
WATCHDOG_INTERVAL = 0.5


def guard_worker(run_pid: int) -> None:
    """Initializer of every pool worker: make sure it never outlives the run of process ``run_pid``.

    On Linux the worker asks for SIGKILL when its parent (the forkserver, which exits when the run
    does) dies (``prctl(PR_SET_PDEATHSIG)``); and on every platform a daemon thread looks at the
    run's process every ``WATCHDOG_INTERVAL`` seconds and ends the worker when it is gone, however
    it ended (exit, exception, Ctrl-C, SIGKILL). Ctrl-C in a terminal reaches the whole process
    group: the workers ignore it and leave the clean-up to the run (or to the watchdog).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    die_with_parent()  # without prctl the watchdog below still applies
    exit_when_gone(run_pid, WATCHDOG_INTERVAL)


def _process_context() -> multiprocessing.context.BaseContext:
    """The pool's context: :func:`~nqueens_cp.system.processes.start_method` (no fork of a threaded parent)."""
    import multiprocessing

    return multiprocessing.get_context(start_method())


class ProcessPoolTaskExecutor(TaskExecutor):
    """A local pool of ``workers`` processes (``concurrent.futures.ProcessPoolExecutor``).

    At most ``workers`` tasks are handed to the pool at a time, so when a worker process dies
    (which breaks the whole pool) only the tasks actually running are reported as failed; the
    pool is then replaced by a fresh one and the run goes on.
    """

    def __init__(self, workers: int) -> None:
        self.workers: int = require_int(workers, "workers", minimum=1)
        self.description = f"process pool ({workers} worker{'s' if workers != 1 else ''})"
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None  # started at the first submit
        self._in_flight: dict[concurrent.futures.Future[SubResult], SubTask] = {}

    def _new_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        import concurrent.futures

        pool = concurrent.futures.ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=_process_context(),
            initializer=guard_worker,
            initargs=(os.getpid(),),
        )
        # Without fork, CPython starts a worker at each submit, after waking the pool's manager
        # thread: a worker started while that thread waits is not watched, and its death goes
        # unnoticed until some other task finishes. Starting them all now (private, but present
        # since 3.9) lets the manager watch every worker from the start.
        launch = getattr(pool, "_launch_processes", None)
        if callable(launch):
            launch()
        return pool

    @property
    def capacity(self) -> int:
        return self.workers

    def outcomes(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        import concurrent.futures
        from concurrent.futures.process import BrokenProcessPool

        in_flight = self._in_flight
        if in_flight:
            # Left over from a run that stopped early: their results belong to nobody now.
            self._terminate()
            in_flight.clear()
        while queue or in_flight:
            broken = False
            while queue and len(in_flight) < self.workers:
                try:
                    if self._pool is None:
                        self._pool = self._new_pool()
                    future = self._pool.submit(solve_subproblem, task := queue[0])
                except BrokenProcessPool:
                    # A worker died after the last wait returned (its task is still in flight).
                    broken = True
                    break
                queue.popleft()
                in_flight[future] = task
            if not broken:
                done, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
                for future in done:
                    task = in_flight.pop(future)
                    error = future.exception()
                    if error is None:
                        yield Outcome(task, future.result())
                    elif isinstance(error, BrokenProcessPool):
                        broken = True
                        yield Outcome(task, None, WORKER_DIED)
                    else:
                        yield _failed(task, error)
            if broken:
                # Every other future of the dead pool fails the same way; report them and start over.
                for future, task in list(in_flight.items()):
                    try:
                        result = future.result()
                    except BrokenProcessPool:
                        yield Outcome(task, None, WORKER_DIED)
                    except Exception as error:
                        yield _failed(task, error)
                    else:
                        yield Outcome(task, result)
                    del in_flight[future]
                self._terminate()  # its workers are dead or being killed; the next submit starts a new pool

    def close(self) -> None:
        if self._pool is None:
            return
        if not self._in_flight:
            self._pool.shutdown(wait=True)
            self._pool = None
            return
        self._terminate()

    def _terminate(self) -> None:
        # Abandoned tasks would keep their workers (and the interpreter's exit) busy to the end.
        # ``_processes`` is private to ProcessPoolExecutor but stable since Python 3.2.
        if self._pool is None:
            return
        processes = list((getattr(self._pool, "_processes", None) or {}).values())
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        for process in processes:
            if process.is_alive():
                process.terminate()


class DaskExecutor(TaskExecutor):
    """Tasks on a Dask ``distributed`` cluster: a new local one, or an existing one at ``scheduler``.

    Without ``scheduler`` a ``LocalCluster`` is started and shut down afterwards: ``workers``
    single-threaded worker processes, or with ``in_process`` (for tasks that release the GIL) one
    worker of ``workers`` threads inside this process. With ``scheduler`` (``tcp://host:8786``) the
    client connects to that cluster, whose workers must have ``nqueens-cp`` installed; ``workers``
    is then ignored. Up to twice the cluster's thread count of tasks is submitted at a time.
    """

    def __init__(self, scheduler: str | None = None, workers: int = DASK_WORKERS, *, in_process: bool = False) -> None:
        try:
            # Imported as Any: distributed's own annotations are partial.
            distributed: Any = importlib.import_module("distributed")
        except ImportError:
            raise NQueensError(
                "--executor dask needs Dask: pip install 'nqueens-cp[dask]'"
            ) from None
        self._cluster: Any = None
        try:
            if scheduler is None:
                require_int(workers, "workers", minimum=1)
                shape: dict[str, Any] = (
                    {"n_workers": 1, "threads_per_worker": workers, "processes": False}
                    if in_process
                    else {"n_workers": workers, "threads_per_worker": 1, "processes": True,
                          "preload": ["nqueens_cp.parallel.dask_preload"]}  # Ctrl-C: no worker tracebacks
                )
                self._cluster = distributed.LocalCluster(dashboard_address=None, silence_logs=50, **shape)
                self._client: Any = distributed.Client(self._cluster)
                self.description = (
                    f"Dask local cluster (one worker of {workers} threads in this process)"
                    if in_process
                    else f"Dask local cluster ({workers} worker processes)"
                )
            else:
                self._client = distributed.Client(scheduler, timeout="20s")
                self.description = f"Dask cluster at {scheduler}"
        except NQueensError:
            self.close()
            raise
        except (OSError, TimeoutError, ValueError) as error:  # ValueError: a malformed address
            self.close()
            raise NQueensError(f"cannot reach the Dask scheduler {scheduler}: {_describe(error)}") from None
        self._as_completed = distributed.as_completed

    @property
    def client(self) -> Any:
        """The ``distributed.Client`` (for inspecting the cluster)."""
        return self._client

    @property
    def scheduler_address(self) -> str:
        """The address of the scheduler, e.g. ``tcp://127.0.0.1:40123``: what another run's
        ``--scheduler`` takes to share this cluster."""
        address: str = self._client.scheduler.address
        return address

    @property
    def capacity(self) -> int:
        threads: dict[str, int] = self._client.nthreads()
        return max(1, sum(threads.values()))

    def outcomes(self, queue: deque[SubTask]) -> Iterator[Outcome]:
        import asyncio  # here, not at the top: 0.03 s of every split run's start-up, and Dask loads it anyway

        window = 2 * self.capacity
        pending: dict[Any, SubTask] = {}
        completed = self._as_completed()

        def top_up() -> None:
            while queue and len(pending) < window:
                task = queue.popleft()
                future = self._client.submit(solve_subproblem, task, pure=False)
                pending[future] = task
                completed.add(future)

        top_up()
        while pending:
            future = next(completed)
            task = pending.pop(future)
            try:
                result = future.result()
            except (Exception, asyncio.CancelledError) as error:
                yield _failed(task, error)
            else:
                yield Outcome(task, result)
            finally:
                future.release()
            top_up()

    def close(self) -> None:
        client = getattr(self, "_client", None)
        if client is not None:
            client.close()
        if self._cluster is not None:
            self._cluster.close()


def make_executor(
    name: str, *, workers: int = 1, scheduler: str | None = None, in_process: bool = False
) -> TaskExecutor:
    """The executor called ``name`` (one of :data:`EXECUTOR_NAMES`); ``in_process``: a local Dask
    cluster of threads in this process (for tasks that release the GIL)."""
    if name == ExecutorKind.INLINE:
        return InlineExecutor()
    if name == ExecutorKind.THREADS:
        return ThreadTaskExecutor(workers)
    if name == ExecutorKind.PROCESSES:
        return ProcessPoolTaskExecutor(workers)
    if name == ExecutorKind.DASK:
        return DaskExecutor(scheduler, workers, in_process=in_process)
    raise NQueensError(f"unknown executor {name!r} (choose from {', '.join(EXECUTOR_NAMES)})")
