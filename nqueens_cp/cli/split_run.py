"""The ``solve`` flags for split runs (``--workers``, ``--executor``, ``--split-depth``, ...) and their run.

Not a sub-command of its own: ``solve`` adds these flags with :func:`add_parallel_arguments` and
hands ``--count`` / ``--all`` runs that use them to :func:`run_split`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from nqueens_cp.cli.checked import AnswerCheck, InvalidAnswerError
from nqueens_cp.cli.common import integer
from nqueens_cp.cli.output import emit_solution
from nqueens_cp.core.errors import NQueensError, SubProblemError
from nqueens_cp.core.instance import Instance
from nqueens_cp.parallel.settings import CHOOSABLE_EXECUTORS, DASK_WORKERS, RETRIES, ExecutorKind

#: The flags that make a ``--count`` / ``--all`` run a split run, by argparse destination.
SPLIT_FLAGS = {
    "workers": "--workers",
    "executor": "--executor",
    "scheduler": "--scheduler",
    "split_depth": "--split-depth",
    "batches": "--batches",
    "checkpoint": "--checkpoint",
    "retries": "--retries",
    "verify": "--verify",
    "verify_with": "--verify-with",
}


def add_parallel_arguments(parser: argparse.ArgumentParser) -> None:
    """The split-run flags of ``solve``."""
    group = parser.add_argument_group(
        "split runs (with --count or --all; see the docs, 'Scaling out')",
        "The instance is split into sub-problems by fixing the queens of the first rows; their "
        "results are added up. With --all the solutions are streamed as sub-problems finish, so "
        "their order differs from a serial run (the set is the same).",
    )
    _integer_flag(
        group, "--workers", 1, "W",
        "the number of parallel workers of a split run, for every backend (W > 1 splits the "
        "instance; default 1). A backend's own search threads have their own flag (cpsat: --search-workers)",
    )
    group.add_argument(
        "--executor",
        choices=CHOOSABLE_EXECUTORS,
        help="where sub-problems run: threads of this process (default with --workers > 1 for a "
        "--count by the compiled constellation kernel, which releases the GIL), a local process pool "
        f"(default for the others), or Dask distributed (a local cluster of --workers, default {DASK_WORKERS}, "
        "threads or processes as above, or the one at --scheduler)",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="address of a running Dask scheduler, e.g. tcp://host:8786 (implies --executor dask)",
    )
    _integer_flag(
        group, "--split-depth", 0, "K",
        "fix the queens of the first K rows in each sub-problem (default: the checkpoint's "
        "depth when resuming, else the smallest K giving at least 16 sub-problems per worker)",
    )
    _integer_flag(
        group, "--batches", 1, "B",
        "--count of an empty board with the bitboard backend: split into B batches of start "
        "constellations, which keep all 8 symmetries (default: the checkpoint's when resuming, else "
        "16 per worker, 64 per thread of this process; give more for a big cluster). Rows are split "
        "instead with --split-depth",
    )
    group.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="SQLite file: each finished sub-problem is committed to it, and the same command run "
        "again resumes from it; a file made for another instance, backend, options, split depth "
        "or task is refused. With --all the solutions are stored too (n bytes each, compressed)",
    )
    _integer_flag(
        group, "--retries", 0, "R",
        f"retry a failing sub-problem up to R times (default {RETRIES}), then stop with exit status 1 "
        "and no result",
    )
    group.add_argument(
        "--verify",
        action="store_const",
        const=True,
        default=None,
        help="count every sub-problem a second time by another algorithm and fail (exit status 1) on "
        "any difference: a row split with another backend or kernel (the compiled bitboard with the "
        "pure-Python one, any other backend with the compiled bitboard), a batch of start "
        "constellations constellation by constellation with the row-by-row search (of --verify-with, "
        "default the backend's own); totals with a published count are checked anyway, and a "
        "mismatch is recounted the same independent way to name the wrong sub-problems",
    )
    group.add_argument(
        "--verify-with",
        metavar="CONFIG",
        help="the configuration --verify counts with, NAME[:KEY=VALUE...] (implies --verify); for a "
        "constellation split its count of the board with each constellation's queens pre-placed",
    )


def _integer_flag(group: argparse._ArgumentGroup, flag: str, minimum: int, metavar: str, help: str) -> None:
    """Add ``flag``, an integer >= ``minimum`` (its errors name the flag), to ``group``."""
    group.add_argument(flag, type=integer(flag, minimum), metavar=metavar, help=help)


def wants_split(args: argparse.Namespace) -> bool:
    """Whether this ``solve`` is a split run; raises for split flags without ``--count``/``--all``."""
    given = [flag for dest, flag in SPLIT_FLAGS.items() if getattr(args, dest, None) is not None]
    if not (args.count or args.all):
        if given:
            raise NQueensError(f"{given[0]} needs --count or --all")
        return False
    if given == ["--workers"]:  # alone, --workers 1 is a serial run
        return bool(args.workers > 1)
    return bool(given)


def run_split(args: argparse.Namespace, instance: Instance, options: dict[str, Any]) -> int:
    """Run ``solve --count`` / ``--all`` as a split run; returns the exit status."""
    from nqueens_cp.parallel import ParallelConfig, SplitRun

    if args.limit is not None:
        raise NQueensError("--limit cannot be combined with a split run (--workers > 1, --split-depth, ...)")
    if args.batches is not None and not args.count:
        raise NQueensError("--batches splits a --count (use --split-depth to split --all)")
    if args.scheduler is not None and args.executor in (ExecutorKind.THREADS, ExecutorKind.PROCESSES):
        raise NQueensError("--scheduler is a Dask address: use it with --executor dask (or alone)")
    executor = args.executor
    workers = args.workers if args.workers is not None else 1
    if executor == ExecutorKind.DASK and args.workers is None:
        workers = DASK_WORKERS
    config = ParallelConfig(
        workers=workers,
        executor=executor,
        scheduler=args.scheduler,
        split_depth=args.split_depth,
        batches=args.batches,
        checkpoint=args.checkpoint,
        max_attempts=(args.retries if args.retries is not None else RETRIES) + 1,
        verify=bool(args.verify or args.verify_with),
        verify_with=args.verify_with,
    )
    out = sys.stdout
    # The bar shares the terminal with --all's output only when that goes elsewhere.
    show_bar = sys.stderr.isatty() and (args.count or not out.isatty())

    def notify(message: str) -> None:
        sys.stderr.write(f"nqueens-cp: {message}\n")

    run = SplitRun(
        instance,
        args.backend,
        options,
        memory_budget_mb=args.max_model_mb,
        enumerate=args.all,
        unique=args.unique,
        config=config,
        notify=notify,
        progress=sys.stderr if show_bar else None,
    )
    try:
        if args.count:
            result = run.count()
            print(result.count)
            if show_bar:
                sys.stderr.write(
                    f"{result.subproblems} sub-problems (split depth {result.depth}, {result.resumed} "
                    f"resumed) in {result.seconds:.1f} s\n"
                )
            return 0
        found = 0
        check = AnswerCheck(instance, args.backend, str(instance))
        try:
            for solution in check.boards(run.solutions()):  # each checked before it is printed
                emit_solution(solution, out, output_format=args.format, show=args.show)
                found += 1
            out.flush()
            check.finish()
        finally:
            check.close()
    except (SubProblemError, InvalidAnswerError) as error:
        out.flush()
        sys.stderr.write(f"nqueens-cp: error: {error}\n")
        return 1
    if found == 0:
        sys.stderr.write(f"no solution for {instance}\n")
        return 1
    return 0
