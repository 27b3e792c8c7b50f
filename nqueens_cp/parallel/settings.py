"""The split runs' named choices and defaults, defined once for the planner, the executors and the
command line (a light module: the command line reads it at start-up without loading the rest)."""

from __future__ import annotations

from nqueens_cp.core.names import Name


class ExecutorKind(Name):
    """Where sub-problems run; the value is the name ``--executor`` and ``ParallelConfig`` take."""

    INLINE = "inline"
    """This process, one task after the other (the plan's choice for one worker)."""
    THREADS = "threads"
    PROCESSES = "processes"
    DASK = "dask"



#: Every executor's name.
EXECUTOR_NAMES: tuple[str, ...] = tuple(kind.value for kind in ExecutorKind)
#: The executors a user chooses with ``--executor`` (``inline`` is the plan's own choice).
CHOOSABLE_EXECUTORS: tuple[str, ...] = tuple(kind.value for kind in ExecutorKind if kind is not ExecutorKind.INLINE)

#: How often a failing sub-problem is tried again before the run stops (``--retries``).
RETRIES = 2
#: The workers of a local Dask cluster when ``--workers`` is not given.
DASK_WORKERS = 2
