"""The unit of work sent to a worker: one sub-problem, the backend to solve it with, and what to find.

:func:`solve_subproblem` is a plain top-level function of picklable frozen dataclasses, so the
same task runs in this process, in a local process pool or on a Dask worker on another machine
(which needs ``nqueens-cp`` installed, since the backend class travels by reference).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import is_canonical


@dataclass(frozen=True)
class SubTask:
    """Solve sub-problem ``index`` (``instance``) with ``backend(**options)``.

    ``enumerate`` asks for the solutions themselves (else only their number); ``unique`` keeps
    only the canonical ones (the smallest of their 8 images). ``batch``, when set to ``(i, B)``,
    makes the task a count of batch ``i`` of ``B`` of the start constellations of the (empty)
    board instead, by the backend's ``count_constellation_batch``; with ``counter`` set, by its
    ``recount_constellation_batch`` with ``counter(**counter_options)`` counting. ``check`` marks
    a second count of the sub-problem (``verify``, or a recount), not the run's own task.
    ``memory_budget_mb`` is the backends' memory budget for models (None: the worker's default).
    """

    index: int
    instance: Instance
    backend: type[Backend]
    options: tuple[tuple[str, Any], ...]
    enumerate: bool = False
    unique: bool = False
    batch: tuple[int, int] | None = None
    check: bool = False
    counter: type[Backend] | None = None
    counter_options: tuple[tuple[str, Any], ...] = ()
    memory_budget_mb: float | None = None


@dataclass(frozen=True)
class SubResult:
    """What a worker found for one sub-problem: the count, and the packed solutions if asked for.

    ``seconds`` is the wall time the worker spent on it, ``cpu_seconds`` the processor time its
    thread got (lower on a busy machine; not kept in checkpoints), ``worker`` is ``host:pid``.
    """

    index: int
    count: int
    packed: bytes | None
    seconds: float
    worker: str
    cpu_seconds: float = 0.0

    def solutions(self, n: int) -> list[Solution]:
        """The solutions carried by this result (empty for a count-only task)."""
        return list(unpack_solutions(self.packed or b"", n, self.count))


def pack_solutions(solutions: Sequence[Solution], n: int) -> bytes:
    """Solutions as bytes, one byte per row (``n`` bytes per solution, so ``n <= 256``)."""
    if n > 256:
        raise NQueensError(f"solutions of n={n} cannot be packed one byte per row (n <= 256)")
    return b"".join(bytes(solution) for solution in solutions)


def unpack_solutions(packed: bytes, n: int, count: int) -> Iterator[Solution]:
    """The inverse of :func:`pack_solutions` for ``count`` solutions of size ``n``.

    ``count`` is needed for ``n = 0``, whose one solution, the empty tuple, packs to no bytes.
    """
    if len(packed) != n * count:
        raise NQueensError(f"packed solutions hold {len(packed)} bytes, expected {count} x {n}")
    if n == 0:
        return iter([()] * count)
    return (tuple(packed[start : start + n]) for start in range(0, len(packed), n))


def solve_subproblem(task: SubTask) -> SubResult:
    """Run one task (in whatever process the executor chose) and return its result."""
    started, cpu_started = time.perf_counter(), time.thread_time()
    backend = task.backend(memory_budget_mb=task.memory_budget_mb, **dict(task.options))
    packed: bytes | None = None
    if task.batch is not None:
        if task.counter is not None:
            counter = task.counter(memory_budget_mb=task.memory_budget_mb, **dict(task.counter_options))
            counted = backend.recount_constellation_batch(task.instance.n, *task.batch, counter)
        else:
            counted = backend.count_constellation_batch(task.instance.n, *task.batch)
        count = counted.classes if task.unique else counted.total
    elif task.enumerate or task.unique:
        found = [s for s in backend.solutions(task.instance) if not task.unique or is_canonical(s)]
        count = len(found)
        if task.enumerate:
            packed = pack_solutions(found, task.instance.n)
    else:
        count = backend.count(task.instance)
    return SubResult(
        index=task.index,
        count=count,
        packed=packed,
        seconds=time.perf_counter() - started,
        worker=f"{_host()}:{os.getpid()}",
        cpu_seconds=time.thread_time() - cpu_started,
    )


def _host() -> str:
    import socket  # here: 0.005 s of every split run's start-up, for a name read once per task

    return socket.gethostname()
