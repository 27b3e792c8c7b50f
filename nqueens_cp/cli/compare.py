"""``nqueens-cp compare``: run configurations side by side, cross-validate them, write the report.

Exit status: see :data:`EXIT_STATUSES`.
"""

from __future__ import annotations

import argparse
import dataclasses
import shlex
import sys
from typing import TYPE_CHECKING, Any, Sequence

from nqueens_cp.cli import EXIT_INTERRUPTED, EXIT_STOPPED
from nqueens_cp.cli.common import PositionalOrFlag, integer, number
from nqueens_cp.core.instance import MAX_N

if TYPE_CHECKING:
    from nqueens_cp.harness.results import ComparisonResults
    from nqueens_cp.reports.files import OutputFiles

#: The default comparison (every backend, the sat encodings side by side): 4 to 8 minutes on 2 cores shared
#: with other jobs (load 4 to 6), measured with and without pb, smt and mip (docs/paradigms.md).
DEFAULT_NS = "4-11"
DEFAULT_REPEAT = 3
#: The repetitions ``report --compare`` needs on both sides at its default alpha (0.05) to find a
#: significant change (``reports.two_runs.repetitions_needed``; a test checks it): said in the help
#: without importing the reports.
SIGNIFICANT_REPEAT = 4
DEFAULT_TIMEOUT = 60.0
DEFAULT_STORE_LIMIT = 100_000
DEFAULT_OUT = "nqueens-report"
#: The default board sizes of ``compare --problem`` (a few seconds each for the default backends).
DEFAULT_FAMILY_NS = "1-7"
#: Kept here (not imported from the core) so that ``--help`` imports nothing more: a test checks
#: they are the family's problems and the tasks' solver time share.
PROBLEM_CHOICES = ("toroidal", "superqueens", "domination", "independent-domination", "colouring", "peaceable")
SOLVER_SHARE_PERCENT = 80
#: What each exit status of ``compare`` means (in its help, and so in the CLI reference).
EXIT_STATUSES = (
    "0: every board size was answered and every check passed; "
    "1: a check failed (a wrong count, an invalid or repeated solution, sets that differ, a run that crashed); "
    "2: bad input (nothing runs); "
    f"{EXIT_STOPPED}: nothing was found wrong, but some board size got no answer from any configuration (every run "
    "timed out, ran out of memory or was refused: NO ANSWER in the verdict); "
    f"{EXIT_INTERRUPTED}: interrupted (the results so far are written, marked incomplete)"
)
#: Bounds that keep a mistyped number from planning more runs than any machine could make.
MAX_REPEAT = 1000
MAX_INSTANCES = 10_000


def board_sizes(text: str) -> tuple[int, ...]:
    """argparse type for ``--n``: ``4-12``, ``4,6,8`` or a mix such as ``4-8,10``."""
    sizes: set[int] = set()
    for part in text.split(","):
        low, sep, high = part.strip().partition("-")
        try:
            first = int(low)
            last = int(high) if sep else first
        except ValueError:
            raise argparse.ArgumentTypeError(f"sizes are written like 4-12 or 4,6,8, got {text!r}") from None
        if first < 0:
            raise argparse.ArgumentTypeError(f"{part.strip()!r}: sizes must be >= 0")
        if last < first:
            raise argparse.ArgumentTypeError(f"{part.strip()!r} is reversed: write {last}-{first}")
        if last > MAX_N:
            raise argparse.ArgumentTypeError(f"sizes must be <= {MAX_N}, got {last}")
        sizes.update(range(first, last + 1))
    return tuple(sorted(sizes))


def diagonal_count(text: str) -> int | str | None:
    """argparse type for ``--diagonals``: an integer >= 0, ``all`` (None) or ``answers``."""
    from nqueens_cp.harness.tasks import LISTED

    if text.strip().lower() == "all":
        return None
    if text.strip().lower() == LISTED:
        return LISTED
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--diagonals takes an integer >= 0, 'all' or 'answers', got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"--diagonals must be >= 0, got {value}")
    return value


def compress_sizes(ns: Sequence[int]) -> str:
    """``(4, 5, 6, 8)`` -> ``"4-6,8"``."""
    parts: list[str] = []
    ordered = sorted(ns)
    start = previous = ordered[0]
    for n in [*ordered[1:], None]:
        if n is not None and n == previous + 1:
            previous = n
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if n is not None:
            start = previous = n
    return ",".join(parts)


def failure_summary(results: Any) -> str:
    """``sat:encoding=ladder n=5,6 (run); bitboard n=8 (count)``: who failed where, in one line."""
    where: dict[str, tuple[set[int], set[str]]] = {}
    for check in results.failures:
        sizes, names = where.setdefault(check.config or "all configurations", (set(), set()))
        sizes.add(check.n)
        names.add(check.name)
    return "; ".join(
        f"{config} n={compress_sizes(sorted(sizes))} ({', '.join(sorted(names))})"
        for config, (sizes, names) in where.items()
    )


def add_parser(subparsers: Any) -> None:
    from nqueens_cp.reports.render import FORMATS

    parser = subparsers.add_parser(
        "compare",
        help="run backends side by side, cross-validate their solution sets, report runtimes",
        description=(
            "Run every configuration on every board size in its own worker process, check every solution, "
            "compare the solution sets exactly (or by fingerprint beyond --store-limit), and write a report "
            "(report.<ext>, results.json, results.csv, runtime.png, cactus.png, scatter.png) to --out. With no options: every backend, "
            f"n = {DEFAULT_NS}, {DEFAULT_REPEAT} repetitions (a few minutes on 2 cores). The verdict is given per board size: PASS (answered, every check "
            "passed), FAIL (a check failed) or NO ANSWER (no configuration answered: nothing was checked)."
        ),
        epilog=f"Exit status: {EXIT_STATUSES}.",
    )
    parser.add_argument("n", type=board_sizes, nargs="?", default=None, metavar="SIZES", action=PositionalOrFlag,
                        help="the same as --n SIZES (as solve N)")
    parser.add_argument("--n", type=board_sizes, default=None, metavar="SIZES", action=PositionalOrFlag,
                        help=f"board sizes: 4-12, 4,6,8 or 4-8,10 (default {DEFAULT_NS}; with --files: the "
                        "sizes of the files, or only those of them given here)")
    parser.add_argument("--backends", metavar="LIST",
                        help="comma-separated configurations, NAME[:KEY=VALUE...], e.g. "
                        "backtrack,cpsat,sat:encoding=pairwise (default: every backend, the sat encodings "
                        "pairwise, seqcounter and totalizer side by side; pb and smt up to n = 9, mip up to n = 7: "
                        "they enumerate by one solver call per solution)")
    parser.add_argument("--largest-n", metavar="LIST",
                        help="comma-separated CONFIG=N: run CONFIG only on boards up to N, its larger ones "
                        "recorded as skipped (default: none with --backends; the default comparison's "
                        "bounds of pb, smt and mip)")
    parser.add_argument("--repeat", type=integer("--repeat", 1, MAX_REPEAT), default=DEFAULT_REPEAT, metavar="R",
                        help=f"repetitions of each run (default {DEFAULT_REPEAT}; report --compare needs "
                        f"{SIGNIFICANT_REPEAT} or more on both sides to find a significant change at its default "
                        "alpha 0.05)")
    parser.add_argument("--timeout", "--time-limit", dest="timeout", type=number("--timeout"), default=DEFAULT_TIMEOUT,
                        metavar="S", help=f"seconds each run may take before it is killed (default {DEFAULT_TIMEOUT:g}; "
                        "--time-limit is the same flag, as in solve)")
    parser.add_argument("--memory-limit", type=number("--memory-limit (MB)"), default=None, metavar="MB",
                        help="resident memory each worker may add to what it started with; one that grows past it is killed and "
                        "recorded as oom (out of memory), like a timeout (default: half of this machine's memory)")
    parser.add_argument("--measure", choices=("getrusage", "cgroups"), default="getrusage",
                        help="how each run's CPU time and memory are measured: getrusage (default: the worker "
                        "and its finished solver programs) or cgroups (BenchExec's, as its runexec measures: "
                        "the whole process tree, pip install 'nqueens-cp[benchexec]', root or a delegated "
                        "cgroup); where cgroups cannot measure, getrusage, and the report says why")
    parser.add_argument("--out", default=DEFAULT_OUT, metavar="DIR",
                        help=f"directory for the report and data (default {DEFAULT_OUT})")
    parser.add_argument("--format", choices=FORMATS, default="github", help="report format (default github)")
    parser.add_argument("--baseline", metavar="CONFIG",
                        help="configuration the speedups are relative to (default: the first)")
    parser.add_argument("--store-limit", type=integer("--store-limit", 1), default=DEFAULT_STORE_LIMIT, metavar="K",
                        help="solutions kept per run for the exact set comparison; beyond K, sets are compared "
                        f"by fingerprint (default {DEFAULT_STORE_LIMIT:,})")
    parser.add_argument("--force", action="store_true",
                        help="replace the earlier comparison in --out whole: its report of any format, results "
                        "and plots, also when stdout's reader has gone (| head) (without --force, a --out "
                        "holding one is refused; empty files, as a shell redirect makes, do not count)")
    parser.add_argument("--problem", choices=PROBLEM_CHOICES, default=None, metavar="P",
                        help="a problem of the N-Queens family instead of the classic one: "
                        f"{', '.join(PROBLEM_CHOICES)}. Each configuration that declares it runs it; an "
                        "optimisation problem's runs are checked (witness valid, proved optima agree with "
                        "each other and with OEIS, none beaten by another's witness), and each solver is given "
                        f"{SOLVER_SHARE_PERCENT}%% of --timeout as its time limit, so a run that does not prove "
                        "its optimum hands back the best found; a placement problem (toroidal, superqueens) "
                        "compares counts (--task count, its default), first placements (--task first) or "
                        "the sets of every placement (--task all: each board checked, the sets equal). "
                        f"Default sizes {DEFAULT_FAMILY_NS}")
    parser.add_argument("--task", choices=("all", "first", "complete", "files", "count"), default=None,
                        help="what each run asks for: every solution (default), the first one, one "
                        "completion of random partial boards (see --preplaced), one solution of each "
                        "instance file (files, implied by --files), or the count (count: the backends' count, "
                        "so count-only backends such as ganak, approxmc and bdd take part; the default "
                        "backends of the other tasks leave them out)")
    parser.add_argument("--files", metavar="GLOB",
                        help="instance files (CSPLib 079 Excluded Diagonals or Essence' completion .param; "
                        "quote the pattern, ** allowed): one solution of each, answers cross-checked")
    parser.add_argument("--diagonals", type=diagonal_count, default=None, metavar="D|all|answers",
                        help="with --files: take the first D diagonals of each Excluded Diagonals file "
                        "(default all; answers: each file once per D its --answers rows list, as "
                        "benchmarks/csplib079/answers.tsv lists the sampled strata)")
    parser.add_argument("--answers", metavar="FILE.tsv",
                        help="with --files: the known answers (columns n, diagonals, id, satisfiable, as CSPLib "
                        "079's results-shiftqueens.tsv, .gz allowed), checked against every configuration")
    parser.add_argument("--preplaced", type=integer("--preplaced", 0), metavar="K",
                        help="with --task complete: queens pre-placed on each random board (0 <= K <= every n)")
    parser.add_argument("--instances", type=integer("--instances", 1, MAX_INSTANCES), default=10, metavar="M",
                        help="with --task complete: random boards per n (default 10)")
    parser.add_argument("--seed", type=integer("--seed", 0), default=0, metavar="S",
                        help="with --task complete: seed of the random boards (default 0)")
    parser.add_argument("--unique", action="store_true",
                        help="with --task all or count: one solution per symmetry class (counts checked against A002562)")
    parser.add_argument("--certify", action="store_true",
                        help="after each board size, certify every count and every 'no solution' a "
                        "configuration reported: the sat backend solves it again writing a DRUP proof, "
                        "checked with the solutions and the CNF (as solve --certify does), within --timeout; "
                        "the validation table marks each answer certified or not")
    parser.set_defaults(run=run)


def _family_task(args: argparse.Namespace, make_task: Any) -> Any:
    """The family task of ``--problem``, or a ``UsageError`` for options that do not fit it."""
    from nqueens_cp.cli import UsageError
    from nqueens_cp.core.problems import Problem

    problem = Problem.named(args.problem)
    given = [flag for flag, value in (("--files", args.files), ("--unique", args.unique or None),
                                      ("--preplaced", args.preplaced), ("--certify", args.certify or None),
                                      ("--diagonals", args.diagonals), ("--answers", args.answers))
             if value is not None]
    if given or args.instances != 10 or args.seed != 0:
        flag = given[0] if given else "--instances" if args.instances != 10 else "--seed"
        raise UsageError(f"{flag} is for the classic problem; --problem takes --n, --backends, --task (first, "
                         "count or all, for a placement problem), --timeout, --repeat and the report's options")
    if problem.counts_placements:
        question = args.task or "count"
        if question not in ("first", "count", "all"):
            raise UsageError(f"--problem {problem.value} places pieces: --task first, count or all, not {question}")
    else:
        if args.task is not None:
            raise UsageError(f"--problem {problem.value} asks for an optimum: leave out --task")
        question = "optimum"
    if args.n is None:
        args.n = board_sizes(DEFAULT_FAMILY_NS)
    if 0 in args.n:
        raise UsageError("--problem takes board sizes >= 1")
    args.task = question
    return make_task("family", problem=problem.value, question=question)


def _task(args: argparse.Namespace, make_task: Any) -> Any:
    """The task the options ask for, or a ``UsageError`` for options that do not fit it."""
    from nqueens_cp.cli import UsageError

    if args.problem is not None:
        return _family_task(args, make_task)
    if args.task is None:
        args.task = "all"
    if args.files is not None or args.task == "files":
        if args.files is None:
            raise UsageError("--task files needs --files GLOB")
        if args.task not in ("all", "files") or args.unique or args.preplaced is not None:
            raise UsageError("--files runs its own task: it takes no --task, --unique or --preplaced")
        from nqueens_cp.harness.tasks import load_instance_files

        task = load_instance_files(args.files, args.diagonals, args.answers)
        if args.n is not None:
            kept = tuple(entry for entry in task.entries if entry.instance.n in args.n)
            if not kept:
                raise UsageError(f"--files {args.files!r}: no instance of the sizes given by --n")
            task = dataclasses.replace(task, entries=kept)
        args.task = "files"
        args.n = task.sizes
        return task
    if args.diagonals is not None or args.answers is not None:
        raise UsageError("--diagonals and --answers apply to --files only")
    if args.n is None:
        args.n = board_sizes(DEFAULT_NS)
    if args.task == "complete":
        if args.preplaced is None:
            raise UsageError("--task complete needs --preplaced K (queens pre-placed on each random board)")
        too_small = [n for n in args.n if n < args.preplaced]
        if args.preplaced < 0 or too_small:
            raise UsageError(f"--preplaced {args.preplaced}: need 0 <= K <= n for every n (n = {too_small[0]})"
                             if too_small else f"--preplaced must be >= 0, got {args.preplaced}")
        task = make_task("complete", preplaced=args.preplaced, instances_per_n=args.instances, seed=args.seed)
        for n in args.n:
            task.instances(n)  # refuses impossible requests now, before anything runs
        return task
    if args.preplaced is not None or args.instances != 10 or args.seed != 0:
        raise UsageError("--preplaced, --instances and --seed apply to --task complete only")
    return make_task(args.task, unique=True) if args.unique else make_task(args.task)


def run(args: argparse.Namespace) -> int:
    from nqueens_cp.backends.framework.configuration import Configuration
    from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
    from nqueens_cp.harness.configs import (
        default_configuration_texts,
        default_family_left_out,
        default_family_texts,
        default_largest_n,
        default_left_out,
        parse_configurations,
        parse_largest_n,
        refuse_unanswered,
        refuse_undeclared,
        refuse_unfixable,
        split_list,
    )
    from nqueens_cp.harness.runner import RunRequest, default_memory_limit_mb
    from nqueens_cp.harness.task_registry import make_task
    from nqueens_cp.reports.files import OutputFiles
    from nqueens_cp.system.progress import Progress

    memory_limit = args.memory_limit if args.memory_limit is not None else default_memory_limit_mb()
    if args.unique and args.problem is None and args.task not in (None, "all", "count"):
        from nqueens_cp.cli import UsageError

        raise UsageError("--unique applies to --task all and count only")
    task = _task(args, make_task)
    answer = task.answer
    completing = args.task == "complete"
    if task.asks_family:
        texts = split_list(args.backends) if args.backends is not None else default_family_texts(task)
        left_out = {} if args.backends is not None else default_family_left_out(task)
    else:
        texts = (split_list(args.backends) if args.backends is not None
                 else default_configuration_texts(answer, fixed=completing))
        left_out = {} if args.backends is not None else default_left_out(answer, fixed=completing)
    configurations = parse_configurations(texts)
    if task.asks_family:
        refuse_undeclared(configurations, task)
    else:
        refuse_unanswered(configurations, answer)
    if completing:
        refuse_unfixable(configurations)
    largest_n = (parse_largest_n(args.largest_n, configurations) if args.largest_n is not None
                 else default_largest_n(configurations) if args.backends is None and not task.asks_family else {})
    labels = [c.label for c in configurations]
    baseline = labels[0]
    if args.baseline is not None:
        baseline = Configuration.parse(args.baseline).label
        if baseline not in labels:
            from nqueens_cp.cli import UsageError

            raise UsageError(f"--baseline {args.baseline!r} is not one of the configurations ({', '.join(labels)})")
    outputs = OutputFiles.in_directory(args.out, args.format)
    if not args.force:
        outputs.refuse_to_overwrite()
    earlier = outputs.earlier()  # replaced whole once the new report is written (--force)
    outputs.prepare()

    command = _repeat_command(args, labels, baseline, memory_limit, largest_n)
    request = ComparisonRequest(
        task=task, configurations=configurations, ns=args.n, repeat=args.repeat,
        timeout=args.timeout, store_limit=args.store_limit, baseline=baseline, command=command,
        memory_limit_mb=memory_limit, certify=args.certify, largest_n=largest_n, left_out=left_out,
        cgroups=args.measure == "cgroups",
    )
    if args.measure == "cgroups":
        from nqueens_cp.system.cgroups import cgroups_unusable

        unusable = cgroups_unusable()
        if unusable is not None:
            sys.stderr.write(f"nqueens-cp: --measure cgroups: cgroups cannot measure here ({unusable}); "
                             "measuring with getrusage, as the report says\n")
    if left_out:
        from nqueens_cp.reports.tables import left_out_line

        sys.stderr.write(f"nqueens-cp: {left_out_line(left_out.items())}\n")
    bar: Progress | None = None

    def progress(done: int, total: int, run: RunRequest) -> None:
        nonlocal bar
        if bar is None:
            bar = Progress(sys.stderr, total, unit="run")
        bar.advance_to(done)
        bar.label(f"n={run.instance.n} {run.config.label} rep {run.repetition + 1}")

    warned: list[OSError] = []

    def size_done(n: int, partial: ComparisonResults) -> None:
        from nqueens_cp.reports.live import size_line

        line = f"nqueens-cp: {size_line(partial, n)}\n"
        if bar is None:
            sys.stderr.write(line)
        else:
            with bar.paused():  # the bar is erased, the line written above it, the bar drawn again
                sys.stderr.write(line)
        sys.stderr.flush()

    def checkpoint(partial: ComparisonResults) -> None:
        try:
            outputs.write_data(partial)
        except OSError as error:  # a checkpoint is a convenience: say so (once) and go on
            if not warned:
                sys.stderr.write(
                    f"nqueens-cp: warning: partial results not saved in {outputs.directory} "
                    f"({error.strerror or error}); going on\n"
                )
            warned.append(error)

    try:
        results = run_comparison(request, on_progress=progress, on_checkpoint=checkpoint, on_size=size_done)
    finally:
        if bar is not None:
            bar.close()
    reader_left = _write_outputs(args, outputs, results)
    outputs.remove_earlier(earlier)
    if reader_left:  # | head: the files hold the report whole; stdout goes nowhere from here on
        from nqueens_cp.cli import silence_stdout

        silence_stdout()
    return _exit_status(results)


def _repeat_command(args: argparse.Namespace, labels: list[str], baseline: str, memory_limit: float,
                    largest_n: dict[str, tuple[int, str]]) -> str:
    """A command line that repeats this comparison (saved with the results)."""
    return shlex.join([
        "nqueens-cp", "compare", "--n", compress_sizes(args.n), "--backends", ",".join(labels),
        "--repeat", str(args.repeat), "--timeout", f"{args.timeout:g}",
        "--memory-limit", f"{memory_limit:g}", "--store-limit", str(args.store_limit),
        "--baseline", baseline, "--format", args.format, "--out", args.out, "--force",
        *(["--problem", args.problem] if args.problem else []),
        *(["--task", args.task] if args.task not in (("count", "optimum") if args.problem else ("all",)) else []), *(["--unique"] if args.unique else []),
        *(["--preplaced", str(args.preplaced), "--instances", str(args.instances), "--seed", str(args.seed)]
          if args.task == "complete" else []),
        *(["--files", args.files, "--diagonals", "all" if args.diagonals is None else str(args.diagonals)]
          if args.task == "files" else []),
        *(["--answers", args.answers] if args.answers else []),
        *(["--certify"] if args.certify else []),
        *(["--measure", args.measure] if args.measure != "getrusage" else []),
        *(["--largest-n", ",".join(f"{label}={n}" for label, (n, _) in largest_n.items())] if largest_n else []),
    ])


def _write_outputs(args: argparse.Namespace, outputs: OutputFiles, results: ComparisonResults) -> bool:
    """The report on stdout, then every output file as one atomic set; True when stdout's reader went
    away (``| head``): the files are written all the same, so that ``--force`` replaces the earlier
    comparison whole whatever became of stdout."""
    from nqueens_cp.core.errors import OutputError

    boards = None
    if args.format == "html":  # solved here, outside reports/ (which solves nothing)
        from nqueens_cp.harness.gallery import solve_gallery
        from nqueens_cp.reports.summary import sizes

        boards = solve_gallery(sizes(results))
    rendered = outputs.render(results, args.format, boards)
    reader_left = False
    try:
        sys.stdout.write(rendered[0])  # first: the report is not lost if the files cannot be written
        sys.stdout.flush()
    except BrokenPipeError:
        reader_left = True
    try:
        outputs.write_all(results, args.format, rendered)
    except OSError as error:
        raise OutputError(
            f"cannot write the report to {outputs.directory} ({error.strerror or error}); "
            "it is on stdout, and the files there are as they were"
        ) from None
    written = ", ".join(str(p) for p in outputs.all() if p.exists())
    sys.stderr.write(f"nqueens-cp: wrote {written}\n")
    return reader_left


def _exit_status(results: ComparisonResults) -> int:
    """0 all checked and passed; EXIT_INTERRUPTED interrupted; 1 a check failed; EXIT_STOPPED not everything answered."""
    if not results.complete:
        sys.stderr.write(f"nqueens-cp: {results.interruption}: the report is incomplete\n")
        return EXIT_INTERRUPTED
    if results.failures:
        sys.stderr.write(
            f"nqueens-cp: {len(results.failures)} check(s) failed ({failure_summary(results)}): "
            "see the Failures section\n"
        )
        return 1
    from nqueens_cp.harness.results import SIZE_NO_ANSWER

    if results.outcome == SIZE_NO_ANSWER:
        sys.stderr.write(f"nqueens-cp: {results.verdict_line()}: not everything was answered\n")
        return EXIT_STOPPED
    return 0
