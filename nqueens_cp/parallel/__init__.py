"""Scaling out: split an instance into sub-problems and solve them on all cores or a Dask cluster.

* :mod:`.split`: sub-problems from fixing the queens of the first rows, with the first-row mirror;
  or, for counts of an empty board, batches of start constellations (the full symmetry kept).
* :mod:`.tasks`: the picklable unit of work and the function a worker runs.
* :mod:`.executors`: this process, threads of it, a local process pool, or Dask ``distributed``.
* :mod:`.checkpoint`: results kept in memory or committed one by one to an SQLite file.
* :mod:`.settings`: the executors' names, the retries and the Dask workers by default.
* :mod:`.planning`: every decision of a run made once (split kind and size, executor, checker).
* :mod:`.verification`: ``verify`` pairs, and the total checked against OEIS with a recount.
* :mod:`.run`: :class:`SplitRun`, which carries a plan out with retries and progress.

Nothing here imports Dask until a Dask executor is made.
"""

from nqueens_cp.parallel.checkpoint import CheckpointStore, MemoryStore, ResultStore
from nqueens_cp.parallel.executors import (
    DaskExecutor,
    InlineExecutor,
    ProcessPoolTaskExecutor,
    ThreadTaskExecutor,
    make_executor,
)
from nqueens_cp.parallel.planning import ParallelConfig, RunPlan, default_batches, default_depth, plan_run
from nqueens_cp.parallel.run import SolvedSubProblem, SplitCount, SplitRun
from nqueens_cp.parallel.settings import EXECUTOR_NAMES, ExecutorKind
from nqueens_cp.parallel.split import (
    SplitPlan,
    SubProblem,
    expand,
    mirror,
    split_constellations,
    split_instance,
)
from nqueens_cp.parallel.tasks import SubResult, SubTask, solve_subproblem

__all__ = [
    "EXECUTOR_NAMES",
    "CheckpointStore",
    "DaskExecutor",
    "ExecutorKind",
    "InlineExecutor",
    "MemoryStore",
    "ParallelConfig",
    "ProcessPoolTaskExecutor",
    "ResultStore",
    "RunPlan",
    "SolvedSubProblem",
    "SplitCount",
    "SplitPlan",
    "SplitRun",
    "SubProblem",
    "SubResult",
    "SubTask",
    "ThreadTaskExecutor",
    "default_batches",
    "default_depth",
    "expand",
    "make_executor",
    "mirror",
    "plan_run",
    "solve_subproblem",
    "split_constellations",
    "split_instance",
]
