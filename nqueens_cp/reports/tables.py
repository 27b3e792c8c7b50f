"""The report's sections and tables, built from a comparison's data (no formatting syntax here)."""

from __future__ import annotations

import statistics
from typing import Callable, Iterable, Sequence

from nqueens_cp.harness.results import FAIL, NOT_RUN, PASS, Check, ComparisonResults, RunStatus
from nqueens_cp.reports.document import (
    Block,
    Bullets,
    Code,
    Document,
    Figure,
    Heading,
    Image,
    Item,
    Paragraph,
    Table,
)
from nqueens_cp.reports.score_tables import scores_section
from nqueens_cp.reports.summary import CellStats, labels, sizes, table_of_cells
from nqueens_cp.reports.times import DASH, format_time, format_time_range

#: The mark of the fastest configuration in a row of the runtime table.
BEST = "(best)"


def _not_answered(cell: CellStats | None) -> str:
    if cell is None:
        return DASH
    return cell.outcome if cell.ok == 0 else ""


def _partial(cell: CellStats) -> str:
    return "" if cell.ok == cell.runs else f" ({cell.ok}/{cell.runs} ok)"


# -- tables --------------------------------------------------------------------------------


def _rows_by_size(
    results: ComparisonResults, answered: Callable[[CellStats], bool], text: Callable[[int, CellStats], str]
) -> tuple[tuple[str, ...], ...]:
    """One row per board size: n, then for each configuration ``text(n, cell)`` when its cell
    ``answered``, else why it has no answer."""
    cells = table_of_cells(results)
    rows = []
    for n in sizes(results):
        row = [str(n)]
        for config in labels(results):
            cell = cells.get((config, n))
            row.append(text(n, cell) if cell is not None and answered(cell) else _not_answered(cell))
        rows.append(tuple(row))
    return tuple(rows)


def runtime_table(results: ComparisonResults) -> Table:
    """Median wall time per n (rows) and configuration (columns), with min and max, best marked."""
    configs = labels(results)
    medians: dict[int, list[float]] = {}
    for (_, n), cell in table_of_cells(results).items():
        if cell.median_wall is not None:
            medians.setdefault(n, []).append(cell.median_wall)
    fastest = {n: min(times) for n, times in medians.items() if len(times) > 1}

    def text(n: int, cell: CellStats) -> str:
        assert cell.median_wall is not None and cell.min_wall is not None and cell.max_wall is not None
        shown = format_time_range(cell.median_wall, cell.min_wall, cell.max_wall) + _partial(cell)
        return f"{shown} {BEST}" if fastest.get(n) == cell.median_wall else shown

    rows = _rows_by_size(results, lambda cell: cell.median_wall is not None, text)
    note = (
        f"Wall time of the backend's iterator, median [min-max] over {results.settings.repeat} repetition(s) "
        f"in fresh worker processes; {BEST} marks the fastest median of each row. timeout: no answer within "
        f"{results.settings.timeout:g} s; oom: over the memory limit; skipped: not run after a timeout "
        f"or oom at a smaller n; error: see Failures."
    )
    return Table(("n", *configs), rows, note)


def speedup_table(results: ComparisonResults) -> Table | None:
    """Baseline median / configuration median per n: above 1 means faster than the baseline."""
    baseline = results.settings.baseline
    configs = labels(results)
    if baseline is None or baseline not in configs:
        return None
    cells = table_of_cells(results)

    def text(n: int, cell: CellStats) -> str:
        base = cells.get((baseline, n))
        if base is None or base.median_wall is None or cell.median_wall is None or cell.median_wall <= 0:
            return DASH
        return f"{base.median_wall / cell.median_wall:.3g}x"

    rows = _rows_by_size(results, lambda cell: cell.median_wall is not None, text)
    note = f"Median time of {baseline} divided by the median time of each configuration: above 1x is faster."
    return Table(("n", *configs), rows, note)


def asks_optimum(results: ComparisonResults) -> bool:
    """Whether the comparison's runs answered an optimum of the family (``compare --problem``)."""
    return results.task.name == "family" and dict(results.task.parameters).get("question") == "optimum"


def _values(values: Iterable[int | None]) -> str:
    shown = sorted({value for value in values if value is not None})
    return "/".join(map(str, shown)) or DASH


def optima_table(results: ComparisonResults) -> Table:
    """Per n and configuration: the optimum proved (or the best found, with the bound proved, by
    runs that stopped first), the time to the witness and the time to the proof."""
    configs = labels(results)
    rows = []
    for n in sizes(results):
        runs = [r for r in results.runs if r.n == n]
        expected = next((r.expected for r in runs if r.expected is not None), None)
        row = [str(n), DASH if expected is None else str(expected)]
        for config in configs:
            mine = [r for r in runs if r.config == config]
            proved = [r for r in mine if r.status == RunStatus.ANSWERED and r.proved]
            stopped = [r for r in mine if r.status == RunStatus.TIMED_OUT and r.value is not None]
            parts = []
            if proved:
                share = "" if len(proved) == len(mine) else f" ({len(proved)}/{len(mine)})"
                walls = [r.wall_time for r in proved if r.wall_time is not None]
                found = [r.best_at for r in proved if r.best_at is not None]
                at = f"optimum at {format_time(statistics.median(found))}, " if len(found) == len(proved) else ""
                parts.append(f"{_values(r.value for r in proved)} proved{share}; {at}"
                             f"proof {format_time(statistics.median(walls)) if walls else DASH}")
            if stopped:
                found = [r.best_at for r in stopped if r.best_at is not None]
                at = f" at {format_time(statistics.median(found))}" if len(found) == len(stopped) else ""
                parts.append(f"best {_values(r.value for r in stopped)}{at}, bound {_values(r.bound for r in stopped)}"
                             f", not proved ({len(stopped)}/{len(mine)})")
            if not parts:
                cell = table_of_cells(results).get((config, n))
                parts.append(_not_answered(cell) or DASH)
            row.append("; ".join(parts))
        rows.append(tuple(row))
    note = (
        "Each cell: the optimum the configuration proved, then 'optimum at' (when the solver found the witness "
        "it returned, by its own clock from the start of its search: CP-SAT's solution callback, clingo's model "
        "callback, MiniZinc's time at the solution less its flattening, the sat backend's search; left out where "
        "the solver does not report it) and 'proof' (the wall time of the whole solve, the model's building "
        "included: the time to the proof), medians over the proved repetitions. A run that did not prove its "
        f"optimum within its solver time limit ({_solver_share(results)} of --timeout "
        f"{results.settings.timeout:g} s) shows the best value it found and the bound it proved; it counts as "
        "a timeout (unsolved) in the scores. Every witness is checked by the independent checker."
    )
    return Table(("n", results.task.expected_label, *configs), tuple(rows), note)


def _solver_share(results: ComparisonResults) -> str:
    share = dict(results.task.parameters).get("solver_time_share")
    return f"{share:.0%}" if isinstance(share, float) else "a share"


def _cell_checks(checks: Sequence[Check], config: str, n: int) -> list[Check]:
    return [c for c in checks if c.config == config and c.n == n]


def validation_table(results: ComparisonResults) -> Table:
    """Per n: the published count, how sets were compared, and per configuration count and verdict."""
    cells = table_of_cells(results)
    configs = labels(results)
    label = results.task.expected_label
    certifying = any(c.name == "certificate" for c in results.checks)
    optimum = asks_optimum(results)
    rows = []
    for n in sizes(results):
        runs = [r for r in results.runs if r.n == n]
        expected = next((r.expected for r in runs if r.expected is not None), None)
        answered = [r for r in runs if r.status == RunStatus.ANSWERED]
        question = dict(results.task.parameters).get("question") if results.task.name == "family" else None
        if question is not None and question != "all":  # a family's every placement: sets, as below
            method = {"optimum": "optimum", "count": "counts"}.get(str(question), "existence")
        elif results.task.name == "count":
            method = "counts"  # each count against the published one, the exact counts against each other
        elif not results.task.exhaustive and question is None:
            method = "existence"
        elif len({r.config for r in answered}) < 2:
            method = "not compared"
        elif any(r.truncated for r in answered):
            method = "fingerprint"
        else:
            method = "exact"
        row = [str(n), DASH if expected is None else str(expected), method]
        if certifying:
            row.append(_certified(results.checks, n))
        for config in configs:
            cell = cells.get((config, n))
            if cell is None:
                row.append(DASH)
                continue
            checks = _cell_checks(results.checks, config, n)
            failed = sorted({c.name for c in checks if c.status == FAIL})
            unchecked = sorted({c.name for c in checks if c.status == NOT_RUN and c.name != "run"})
            count = DASH if cell.count is None else str(cell.count)
            if optimum:
                count = _values(r.value for r in runs if r.config == config and r.status == RunStatus.ANSWERED)
            if failed:
                row.append(f"{count} FAIL: {', '.join(failed)}")
            elif cell.ok == 0:
                row.append(f"{cell.outcome} (not checked)")
            elif unchecked:
                row.append(f"{count} ok ({', '.join(unchecked)} not checked){_partial(cell)}")
            else:
                row.append(f"{count} ok{_partial(cell)}")
        rows.append(tuple(row))
    if optimum:
        note = (
            f"Each cell: the optimum proved, then ok when every check of every repetition passed: each witness "
            f"valid by the independent checker (the best found by a run that stopped first too), each proved "
            f"optimum = {label}, the proved optima of the configurations equal, and no proved optimum or bound "
            "beaten by another configuration's witness (contradiction)."
        )
        return Table(("n", label, "compared", *configs), tuple(rows), note)
    if results.task.name == "family" and dict(results.task.parameters).get("question") != "all":
        note = (
            f"Each cell: the count (existence: 1 a placement found, 0 none), then ok when every check of every "
            f"repetition passed: each placement valid by the independent checker, the count = {label}, the exact "
            "counts of the configurations equal (counts), 'none' only when no configuration found a placement "
            "(existence)."
        )
        return Table(("n", label, "compared", *configs), tuple(rows), note)
    note = (
        f"Each cell: the count, then ok when every check of every repetition passed (each solution valid by "
        f"the independent checker, no repeats, count = {label}, same set as the reference). 'compared' is exact "
        f"(full solution sets) or fingerprint (more solutions than --store-limit {results.settings.store_limit}); "
        "counts (a counting task: each count against the published one, an approximate counter within its stated "
        "factor, and the exact counts against each other)."
    )
    if certifying:
        note += (" 'certified': each count and each 'no solution' solved again with a DRUP proof and checked "
                 "(compare --certify); 'boards checked' where every answer was a board.")
    return Table(("n", label, "compared", *(("certified",) if certifying else ()), *configs), tuple(rows), note)


def _certified(checks: Sequence[Check], n: int) -> str:
    """Whether the counts and negative answers of size ``n`` were certified (``compare --certify``)."""
    mine = [c for c in checks if c.name == "certificate" and c.n == n]
    if not mine:
        return "boards checked"
    failed = [c for c in mine if c.status == FAIL]
    if failed:
        return f"FAIL ({len(failed)})"
    passed = sum(1 for c in mine if c.status == PASS)
    if passed == len(mine):
        return "yes" if passed == 1 else f"yes ({passed} instances)"
    return f"no: {len(mine) - passed} of {len(mine)} not certified ({mine[-1].summary})" if passed == 0 else \
        f"{passed} of {len(mine)} instances ({len(mine) - passed} not certified)"


def completion_table(results: ComparisonResults) -> Table:
    """For completion runs: per n, how many boards each configuration settled within the timeout.

    A board is settled by a configuration when every repetition answered (a completion found, or
    "none" proved); the ``boards`` column says how many boards have a completion (found by some
    configuration), how many were proved to have none, and how many no configuration settled.
    """
    configs = labels(results)
    rows = []
    for n in sizes(results):
        runs = [r for r in results.runs if r.n == n]
        boards = sorted({(r.fixed, r.source) for r in runs})
        found = {b for b in boards if any((r.fixed, r.source) == b and r.status == RunStatus.ANSWERED and r.count for r in runs)}
        none = {b for b in boards if b not in found and any((r.fixed, r.source) == b and r.status == RunStatus.ANSWERED
                                                            for r in runs)}
        open_ = len(boards) - len(found) - len(none)
        row = [str(n), f"{len(boards)}: {len(found)} completable, {len(none)} none, {open_} open"]
        for config in configs:
            mine = [r for r in runs if r.config == config]
            settled = [b for b in boards if (reps := [r for r in mine if (r.fixed, r.source) == b])
                       and all(r.status == RunStatus.ANSWERED for r in reps)]
            with_completion = sum(1 for b in settled if b in found)
            row.append(f"{len(settled)}/{len(boards)} ({with_completion} found, {len(settled) - with_completion} none)")
        rows.append(tuple(row))
    note = (
        "Boards settled within the timeout per configuration: a completion found, or none proved (every "
        "repetition answered). Answers are cross-checked: each completion passes the independent checker, and "
        "'none' from one configuration while another found a completion fails the answer check."
    )
    return Table(("n", "boards", *configs), tuple(rows), note)


def model_size_table(results: ComparisonResults) -> Table | None:
    """Variables and constraints (or clauses) of each model-based configuration per n."""
    sized = [c for c in labels(results) if any(r.config == c and r.model_size for r in results.runs)]
    if not sized:
        return None
    rows = []
    for n in sizes(results):
        row = [str(n)]
        for config in sized:
            size = next((r.model_size for r in results.runs if r.config == config and r.n == n and r.model_size),
                        None)
            row.append(DASH if size is None else f"{size.variables:,} vars, {size.constraints:,} {size.unit}")
        rows.append(tuple(row))
    plain = [c for c in labels(results) if c not in sized]
    note = "Size of the model each backend builds (the hand-written searches build none"
    note += f": {', '.join(plain)})." if plain else ")."
    return Table(("n", *sized), tuple(rows), note)


def resources_table(results: ComparisonResults) -> Table:
    """Median CPU time and the largest memory increase per configuration and n."""
    configs = labels(results)

    def text(n: int, cell: CellStats) -> str:
        assert cell.median_cpu is not None
        memory = cell.max_memory_added_kb
        return f"{format_time(cell.median_cpu)}, {DASH if memory is None else f'+{memory / 1024:.1f} MB'}"

    rows = _rows_by_size(results, lambda cell: cell.median_cpu is not None, text)
    if any(run.cgroup_memory_kb is not None for run in results.runs):
        note = ("Median CPU time of the worker's whole process tree while the backend ran (its cgroup: every "
                "thread and child process), and the largest peak of the tree's memory above its usage when the "
                "solve started.")
    else:
        note = (
            "Median CPU time of the worker process while the backend ran (all its threads"
            + (", and the solver programs it ran" if results.settings.cpu_measure else "")
            + "), and the largest rise of the worker's peak resident memory above its size at start (solver "
            "libraries included)."
        )
    return Table(("n", *configs), rows, note)


# -- verdict, failures and what was not checked ---------------------------------------------


def _where(check: Check) -> str:
    parts = [check.config or "all configurations", f"n={check.n}"]
    if check.source:
        parts.append(check.source)  # the file says which queens are pre-placed
    elif check.fixed:
        parts.append("fixed=" + ",".join(f"{r}:{c}" for r, c in check.fixed))
    if check.repetitions:
        reps = ", ".join(map(str, check.repetitions))
        parts.append(f"repetition{'s' if len(check.repetitions) > 1 else ''} {reps}")
    return " ".join(parts)


def verdict(results: ComparisonResults) -> list[Block]:
    """The first lines of a report: the verdict of every board size (see
    :meth:`~nqueens_cp.harness.results.ComparisonResults.verdict_line`), the checks behind it, and
    whether the comparison is complete."""
    failures, not_run = results.failures, results.not_run
    passed = sum(1 for c in results.checks if c.status == PASS)
    blocks: list[Block] = []
    if not results.complete:
        blocks.append(Paragraph(f"INCOMPLETE: {results.interruption}. This report covers only the runs made.",
                                strong=True))
    tally = [f"{len(failures)} check(s) failed (see Failures below)"] if failures else []
    tally.append(f"{passed} passed" if failures or not_run else f"all {passed} checks passed")
    if not_run:
        tally.append(f"{len(not_run)} could not run (see Not checked below)")
    blocks.append(Paragraph(f"RESULT: {results.verdict_line()} - {', '.join(tally)}.", strong=True))
    if results.settings.left_out:
        blocks.append(Paragraph(left_out_line(results.settings.left_out)))
    return blocks


def left_out_line(left_out: Iterable[tuple[str, str]]) -> str:
    """``Left out of the default selection: minizinc (backend minizinc needs ...); ganak, bdd (it
    answers count only).``: the backends with the same reason together."""
    names: dict[str, list[str]] = {}
    for name, why in left_out:
        names.setdefault(why, []).append(name)
    return "Left out of the default selection: " + "; ".join(
        f"{', '.join(backends)} ({why})" for why, backends in names.items()) + "."


def failures_section(results: ComparisonResults) -> list[Block]:
    """Every failed check with its evidence (empty when nothing failed)."""
    if not results.failures:
        return []
    items = tuple(Item(f"[{c.name}] {_where(c)}: {c.summary}", c.evidence) for c in results.failures)
    return [Heading("Failures"), Bullets(items)]


def not_run_section(results: ComparisonResults) -> list[Block]:
    """Every check that could not run, and why."""
    if not results.not_run:
        return []
    items = tuple(Item(f"[{c.name}] {_where(c)}: {c.summary}") for c in results.not_run)
    return [Heading("Not checked"), Bullets(items)]


# -- context ------------------------------------------------------------------------------


def configurations_table(results: ComparisonResults) -> Table:
    """Each configuration with its backend, every option value used, and the backend's summary."""
    rows = tuple(
        (c.label, c.backend, ", ".join(f"{k}={v}" for k, v in c.resolved) or DASH, c.summary)
        for c in results.configurations
    )
    return Table(("configuration", "backend", "options (with defaults)", "backend summary"), rows)


def environment_table(results: ComparisonResults) -> Table:
    """Where it ran: Python, OS, CPU, package versions, dates."""
    env = results.environment
    rows = [
        ("date", env.date),
        ("python", f"{env.python} ({env.implementation})"),
        ("os", env.os),
        ("cpu", f"{env.cpu_model} ({env.cpu_count} usable cores, {env.machine})"),
        *((name, version) for name, version in env.packages),
        ("started / finished", f"{results.started_at} / {results.finished_at}"),
        ("worker start method", results.settings.start_method),
        ("CPU time and memory", results.settings.cpu_measure or "getrusage of the worker process alone"),
        ("invoked as", env.invoked_as),
    ]
    for index, part in enumerate(results.merged):  # report --merge: where each file's runs were made
        other = part.environment
        rows.append((f"merged file {index + 1}", f"{part.file}: {part.started_at} / {part.finished_at}, "
                     f"{other.cpu_model} ({other.cpu_count} usable cores), python {other.python}, {other.os}; "
                     f"{part.settings.command}"))
    return Table(("", ""), tuple(rows))


def build_report(
    results: ComparisonResults, *, plot: str | Figure | None = None, files: Sequence[str] = (),
    gallery: Sequence[Block] = (), cactus: str | Figure | None = None, scatter: str | Figure | None = None,
) -> Document:
    """The full report of ``results``.

    ``plot``, ``cactus`` and ``scatter`` are the runtime, cactus and scatter plots: each a path
    relative to the report, or the plot itself as a ``Figure`` (inline SVG, for a self-contained
    page); ``gallery`` is a section of boards drawn.
    """
    settings = results.settings
    ns = settings.ns
    span = f"n = {ns[0]}..{ns[-1]}" if ns and list(ns) == list(range(ns[0], ns[-1] + 1)) else (
        "n = " + ", ".join(map(str, ns)))
    blocks: list[Block] = [Heading(f"nqueens-cp comparison: {results.task.title}, {span}", 1)]
    blocks += verdict(results)
    blocks += failures_section(results)
    instance_set = results.task.name in ("complete", "files")
    scores = scores_section(results, cactus=cactus, scatter=scatter)
    if instance_set:  # what an instance set is compared by comes before the list of what was not checked
        blocks += scores
        blocks += [Heading("Completion: boards settled"), completion_table(results)]
    blocks += not_run_section(results)
    if asks_optimum(results):
        blocks += [Heading("Optima"), optima_table(results)]
    blocks += [Heading("Runtime"), runtime_table(results)]
    speedup = speedup_table(results)
    if speedup is not None:
        blocks += [Heading(f"Speedup against {settings.baseline}"), speedup]
    blocks += [Heading("Validation"), validation_table(results)]
    size = model_size_table(results)
    if size is not None:
        blocks += [Heading("Model size"), size]
    blocks += [Heading("CPU time and memory"), resources_table(results)]
    if not instance_set:
        blocks += scores
    if isinstance(plot, Figure):
        blocks += [Heading("Runtime plot"), plot]
    elif plot:
        blocks += [Heading("Runtime plot"), Image(plot, "median runtime against n per configuration, log scale")]
    blocks += gallery
    blocks += [Heading("Configurations"), configurations_table(results)]
    blocks += [Heading("Environment"), environment_table(results)]
    blocks += [Heading("Reproduce"), Paragraph("This comparison is repeated by:"), Code(settings.command)]
    if files:
        blocks += [Paragraph("Files: " + ", ".join(files) + ".")]
    return tuple(blocks)
