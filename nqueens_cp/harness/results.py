"""The harness's data model: immutable records of runs, checks and the environment.

A comparison is saved as versioned JSON (``schema_version``, sorted keys) that
``ComparisonResults.from_json`` reads back to an equal object, and exported as CSV (one row per
run). Stored solutions are not part of the saved results: they live only in memory while the
solution sets of one board size are compared; what the comparison found is kept as ``Check``s.
"""

from __future__ import annotations

import csv
import io
import json
import typing
from dataclasses import dataclass
from typing import Any

from nqueens_cp.backends.framework.base import ModelSize
from nqueens_cp.core.errors import ResultsFileError
from nqueens_cp.core.names import Name
from nqueens_cp.harness.configs import Configuration
from nqueens_cp.harness.plain_data import from_plain, to_plain
from nqueens_cp.harness.tasks import TaskInfo

#: Version of the JSON layout (its JSON Schema: :data:`SCHEMA_FILE`; every field: docs/results.md);
#: bump it, and the schema's ``schema_version``, when a field is added, changes meaning or disappears.
#: 2: CPU time includes child processes (``RunRecord.children_cpu_time``), runs of merged files
#: (``ComparisonResults.merged``), the task's timeout policy (``TaskInfo.skips_larger``).
#: 3: ``RunRecord.cgroup_memory_kb`` (``compare --measure cgroups``).
SCHEMA_VERSION = 3
#: Every version this package reads (a field added since is given its default).
READABLE_VERSIONS = (1, 2, 3)
#: The JSON Schema of the results this package writes (shipped with it, next to this module).
SCHEMA_FILE = "results.schema.json"


def results_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of ``results.json`` as this version writes it."""
    from importlib import resources

    return typing.cast(dict[str, Any], json.loads(
        resources.files(__package__ or "nqueens_cp.harness").joinpath(SCHEMA_FILE).read_text(encoding="utf-8")))

#: An instance a comparison ran: board size, pre-placed queens, and the instance file (with the
#: number of diagonals taken) it was read from, empty when the board size alone says it.
InstanceKey = tuple[int, tuple[tuple[int, int], ...], str]


class RunStatus(Name):
    """What became of a run (the values are what saved results hold)."""

    #: The backend answered (the answer is then checked, see :class:`Check`).
    ANSWERED = "ok"
    #: The backend raised, or its worker died (a crash inside a native solver).
    FAILED = "error"
    #: No answer within the timeout; the worker was killed.
    TIMED_OUT = "timeout"
    #: The worker went over the memory limit (or raised ``MemoryError``).
    OUT_OF_MEMORY = "oom"
    #: The backend refused the run before building anything (``ModelTooLargeError``).
    REFUSED = "refused"
    #: Not run: the configuration gave up (timed out, ran out of memory, was refused) on this
    #: instance or a smaller board; the reason says where.
    SKIPPED = "skipped"


#: The statuses after which a configuration gives up, with how a skipped run's reason says it.
GAVE_UP: dict[RunStatus, str] = {
    RunStatus.TIMED_OUT: "timed out",
    RunStatus.OUT_OF_MEMORY: "out of memory",
    RunStatus.REFUSED: "refused",
}


class CheckStatus(Name):
    """What became of a check (the values are what saved results hold)."""

    PASS = "pass"
    FAIL = "fail"
    #: The check could not be made (no answer to check, no published count, one answer alone).
    NOT_RUN = "not run"


PASS, FAIL, NOT_RUN = CheckStatus.PASS, CheckStatus.FAIL, CheckStatus.NOT_RUN


class SizeStatus(Name):
    """The verdict on one board size."""

    #: A check failed.
    FAIL = "FAIL"
    #: Some instance of it got no answer from any configuration: nothing was found wrong, but not
    #: everything was checked.
    NO_ANSWER = "NO ANSWER"
    #: Every instance was answered and no check failed.
    PASS = "PASS"


SIZE_FAIL, SIZE_NO_ANSWER, SIZE_PASS = SizeStatus.FAIL, SizeStatus.NO_ANSWER, SizeStatus.PASS
#: How a run that gave no answer is told, by its status.
_NO_ANSWER_WORDS: dict[RunStatus, str] = {
    RunStatus.TIMED_OUT: "timed out", RunStatus.OUT_OF_MEMORY: "ran out of memory",
    RunStatus.REFUSED: "was refused", RunStatus.SKIPPED: "was skipped", RunStatus.FAILED: "failed",
}


@dataclass(frozen=True)
class RunRecord:
    """One run: a configuration on one instance, one repetition, in its own worker process.

    Times are those of the backend's iterator alone (the harness's own checking and hashing is
    excluded); ``peak_rss_kb`` is the worker's peak resident set size and ``baseline_rss_kb``
    what the worker had when it started (a forked worker starts with its parent's pages).
    """

    config: str
    n: int
    repetition: int
    status: RunStatus
    reason: str = ""
    fixed: tuple[tuple[int, int], ...] = ()
    wall_time: float | None = None
    cpu_time: float | None = None
    peak_rss_kb: int | None = None
    baseline_rss_kb: int | None = None
    count: int | None = None
    #: The count a correct run yields (from the task, e.g. OEIS A000170), None when unknown.
    expected: int | None = None
    fingerprint: str | None = None
    #: How many distinct solutions the worker kept for the exact set comparison.
    stored: int = 0
    #: Whether there were more solutions than the bound, so the set was compared by fingerprint.
    truncated: bool = False
    invalid: int = 0
    duplicates: int = 0
    model_size: ModelSize | None = None
    #: Where the instance came from when it is not the board size alone (an instance file and the
    #: number of diagonals taken, ``diag-21-4-75.param D=18``); empty otherwise.
    source: str = ""
    #: Of ``cpu_time``, the seconds of child processes (solver programs); None in files before schema 2.
    children_cpu_time: float | None = None
    #: Peak resident KiB of the largest child process; None when none ran (or before schema 2).
    children_peak_rss_kb: int | None = None
    #: Which merged file the run comes from (an index into ``ComparisonResults.merged``); None: this
    #: comparison's own run.
    origin: int | None = None
    #: A family optimisation run's answer: the value its witness achieves (the witness checked),
    #: whether the optimum was ``proved``, and the ``bound`` the solver proved when it stopped
    #: first (a run that timed out with the best it found has all three); None otherwise.
    value: int | None = None
    proved: bool | None = None
    bound: int | None = None
    #: Seconds from the start of the solver's search to the witness it returned, by the solver's
    #: own clock (``FamilyAnswer.found_at``: CP-SAT's at its last improving solution); None when
    #: the solver does not report it.
    best_at: float | None = None
    #: Measured with cgroups (``compare --measure cgroups``): the peak KiB of the worker's process
    #: tree over the timed solve, above its usage when the solve started; None otherwise.
    cgroup_memory_kb: int | None = None

    @property
    def instance_key(self) -> InstanceKey:
        """The instance this run ran."""
        return (self.n, self.fixed, self.source)

    @property
    def memory_added_kb(self) -> int | None:
        """Peak memory above the worker's starting size (what the run itself needed): the
        cgroup's when the run was measured with one, else from the worker's ``getrusage``."""
        if self.cgroup_memory_kb is not None:
            return self.cgroup_memory_kb
        if self.peak_rss_kb is None or self.baseline_rss_kb is None:
            return None
        return max(0, self.peak_rss_kb - self.baseline_rss_kb)


#: How many offending boards a run record or a check names in full (the totals are always given).
EXAMPLES = 5


def board_text(solution: typing.Iterable[object]) -> str:
    """A board as a check's evidence names it: ``(1, 3, 0, 2)``."""
    return "(" + ", ".join(map(str, solution)) + ")"


@dataclass(frozen=True)
class Check:
    """One verdict of the cross-validation, with the evidence a reader needs.

    ``name`` is one of ``run``, ``validity``, ``duplicates``, ``count``, ``set`` and ``reference``;
    ``config`` is None for checks about a board size as a whole. Identical verdicts of several
    repetitions are kept once, with all their repetition numbers.
    """

    name: str
    status: CheckStatus
    n: int
    config: str | None
    summary: str
    repetitions: tuple[int, ...] = ()
    evidence: tuple[str, ...] = ()
    #: The pre-placed queens of the instance checked (empty for the plain n x n board).
    fixed: tuple[tuple[int, int], ...] = ()
    #: The instance file checked (``RunRecord.source``), empty when the instance is not from a file.
    source: str = ""

    @property
    def instance_key(self) -> InstanceKey:
        """The instance this check is about."""
        return (self.n, self.fixed, self.source)


@dataclass(frozen=True)
class SizeVerdict:
    """The verdict of one board size, and why."""

    n: int
    verdict: SizeStatus
    #: ``every configuration timed out`` (no answer), ``2 checks failed`` (fail); empty for a pass.
    reason: str = ""


def size_ranges(ns: typing.Iterable[int]) -> str:
    """``(4, 5, 6, 8)`` -> ``"4..6, 8"``."""
    runs: list[list[int]] = []
    for n in sorted(set(ns)):
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(low) if low == high else f"{low}..{high}" for low, high in runs)


@dataclass(frozen=True)
class Settings:
    """How the comparison was asked for."""

    ns: tuple[int, ...]
    repeat: int
    timeout: float
    store_limit: int
    baseline: str | None
    start_method: str
    #: A command line that repeats this comparison.
    command: str
    #: Resident memory each worker may use, in MB (None: not limited; older files).
    memory_limit_mb: float | None = None
    #: How CPU time and memory were measured (empty in files before schema 2: the worker's own CPU time).
    cpu_measure: str = ""
    #: The backends the default selection left out, each with why (empty when ``--backends`` chose).
    left_out: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Environment:
    """Where the comparison ran."""

    python: str
    implementation: str
    os: str
    machine: str
    cpu_model: str
    cpu_count: int | None
    packages: tuple[tuple[str, str], ...]
    date: str
    #: The command line as it was typed.
    invoked_as: str


@dataclass(frozen=True)
class MergedRun:
    """One saved comparison merged into a report (``report --merge``): where it came from and ran."""

    file: str
    environment: Environment
    settings: Settings
    started_at: str
    finished_at: str


@dataclass(frozen=True)
class ComparisonResults:
    """Everything a comparison produced: what ran, where, every run and every check."""

    task: TaskInfo
    settings: Settings
    environment: Environment
    configurations: tuple[Configuration, ...]
    runs: tuple[RunRecord, ...]
    checks: tuple[Check, ...]
    #: False when the comparison was interrupted before every run finished.
    complete: bool
    started_at: str
    finished_at: str
    interruption: str = ""
    schema_version: int = SCHEMA_VERSION
    #: The comparisons this one merges (``report --merge``); each run's ``origin`` indexes them.
    merged: tuple[MergedRun, ...] = ()

    # -- verdicts ------------------------------------------------------------------------

    @property
    def failures(self) -> tuple[Check, ...]:
        """The checks that failed (a failed run counts as a failed check)."""
        return tuple(check for check in self.checks if check.status == FAIL)

    @property
    def not_run(self) -> tuple[Check, ...]:
        """The checks that could not run (timeouts, skipped runs, unknown counts, ...)."""
        return tuple(check for check in self.checks if check.status == NOT_RUN)

    @property
    def passed(self) -> bool:
        """Whether no check failed (checks that could not run are listed separately)."""
        return not self.failures

    def size_verdicts(self) -> tuple[SizeVerdict, ...]:
        """The verdict of every board size that has runs, smallest first.

        A size fails when one of its checks failed. Otherwise it has no answer when some instance
        of it (the board, a random partial board, an instance file) was answered by no
        configuration: nothing was found wrong there because nothing was checked. Else it passes.
        """
        return tuple(self.size_verdict(n) for n in sorted({run.n for run in self.runs}))

    def size_verdict(self, n: int) -> SizeVerdict:
        """The verdict of board size ``n`` (see :meth:`size_verdicts`)."""
        failed = sum(1 for check in self.checks if check.n == n and check.status == FAIL)
        if failed:
            return SizeVerdict(n, SIZE_FAIL, f"{failed} check{'s' if failed != 1 else ''} failed")
        by_instance: dict[tuple[tuple[tuple[int, int], ...], str], list[RunRecord]] = {}
        for run in self.runs:
            if run.n == n:
                by_instance.setdefault((run.fixed, run.source), []).append(run)
        unanswered = [runs for runs in by_instance.values() if not any(run.status == RunStatus.ANSWERED for run in runs)]
        if not unanswered:
            return SizeVerdict(n, SIZE_PASS)
        statuses = {run.status for runs in unanswered for run in runs}
        if len(statuses) == 1:
            why = f"every configuration {_NO_ANSWER_WORDS.get(next(iter(statuses)), 'gave no answer')}"
        else:
            why = "no configuration answered (" + ", ".join(
                f"{_NO_ANSWER_WORDS.get(status, status)}: {', '.join(sorted({r.config for rs in unanswered for r in rs if r.status == status}))}"
                for status in sorted(statuses)) + ")"
        if len(by_instance) > 1:
            why = f"{len(unanswered)} of {len(by_instance)} instances unanswered, {why}"
        return SizeVerdict(n, SIZE_NO_ANSWER, why)

    @property
    def outcome(self) -> SizeStatus:
        """The comparison's verdict: ``SIZE_FAIL`` if any size failed, else ``SIZE_NO_ANSWER`` if
        any size got no answer, else ``SIZE_PASS``."""
        if self.failures:
            return SIZE_FAIL
        verdicts = {size.verdict for size in self.size_verdicts()}
        return SIZE_NO_ANSWER if SIZE_NO_ANSWER in verdicts or not verdicts else SIZE_PASS

    def verdict_line(self) -> str:
        """``FAIL for n = 5 (2 checks failed); NO ANSWER for n = 14: every configuration timed out;
        PASS for n = 4, 6..11``: the worst verdict first, each with its sizes."""
        sizes = self.size_verdicts()
        parts: list[str] = []
        failed = [size for size in sizes if size.verdict == SIZE_FAIL]
        if failed:
            parts.append(f"FAIL for n = {size_ranges(s.n for s in failed)}")
        reasons: dict[str, list[int]] = {}
        for size in sizes:
            if size.verdict == SIZE_NO_ANSWER:
                reasons.setdefault(size.reason, []).append(size.n)
        parts += [f"NO ANSWER for n = {size_ranges(ns)}: {reason}" for reason, ns in reasons.items()]
        passed = [size.n for size in sizes if size.verdict == SIZE_PASS]
        if passed:
            parts.append(f"PASS for n = {size_ranges(passed)}")
        return "; ".join(parts) or "NO ANSWER: nothing ran"

    def config(self, label: str) -> Configuration:
        """The configuration labelled ``label``."""
        for configuration in self.configurations:
            if configuration.label == label:
                return configuration
        raise KeyError(label)

    # -- JSON ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The results as plain JSON-ready data."""
        return typing.cast(dict[str, Any], to_plain(self))

    def to_json(self) -> str:
        """Versioned JSON with sorted keys."""
        return json.dumps(self.to_dict(), sort_keys=True, indent=1) + "\n"

    @classmethod
    def from_dict(cls, data: Any) -> ComparisonResults:
        """Results from ``to_dict`` output; ``ResultsFileError`` if the data does not fit."""
        if not isinstance(data, dict):
            raise ResultsFileError("not a nqueens-cp results file (expected a JSON object)")
        version = data.get("schema_version")
        if version not in READABLE_VERSIONS:
            raise ResultsFileError(
                f"unsupported schema_version {version!r} (this nqueens-cp reads "
                f"{', '.join(map(str, READABLE_VERSIONS))})"
            )
        return typing.cast(ComparisonResults, from_plain(cls, data, "results"))

    @classmethod
    def from_json(cls, text: str) -> ComparisonResults:
        """Results from ``to_json`` output."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ResultsFileError(f"not valid JSON: {error}") from None
        return cls.from_dict(data)

    # -- tables of runs ------------------------------------------------------------------

    def to_dataframe(self) -> Any:
        """A pandas ``DataFrame``, one row per run, with the columns of :data:`CSV_COLUMNS` (times
        in seconds, empty values as missing); needs pandas (``pip install 'nqueens-cp[analysis]'``),
        ``NQueensError`` saying so when it is missing."""
        try:
            import pandas
        except ImportError:
            from nqueens_cp.core.errors import NQueensError

            raise NQueensError("the DataFrame needs pandas: pip install 'nqueens-cp[analysis]'") from None
        return pandas.read_csv(io.StringIO(self.to_csv()), keep_default_na=False,
                               na_values={c: [""] for c in _NUMERIC_COLUMNS}, dtype=dict.fromkeys(_TEXT_COLUMNS, str))

    # -- CSV -----------------------------------------------------------------------------

    def to_csv(self) -> str:
        """One row per run, with the expected count next to the count."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        backends = {c.label: c.backend for c in self.configurations}
        for run in self.runs:
            size = run.model_size
            writer.writerow(
                [
                    self.schema_version, self.task.name, run.config, backends.get(run.config, ""), run.n,
                    " ".join(f"{r}:{c}" for r, c in run.fixed), run.repetition, run.status, run.reason,
                    _num(run.wall_time), _num(run.cpu_time), _num(run.peak_rss_kb), _num(run.memory_added_kb),
                    _num(run.count), _num(run.expected), run.fingerprint or "", run.stored, int(run.truncated), run.invalid,
                    run.duplicates, size.variables if size else "", size.constraints if size else "",
                    size.unit if size else "", run.source, _num(run.children_cpu_time),
                    _num(run.children_peak_rss_kb), "" if run.origin is None else self.merged[run.origin].file,
                    _num(run.value), "" if run.proved is None else int(run.proved), _num(run.bound),
                    _num(run.best_at),
                ]
            )
        return out.getvalue()


#: Columns of the CSV export.
CSV_COLUMNS = (
    "schema_version", "task", "config", "backend", "n", "fixed", "repetition", "status", "reason",
    "wall_time_s", "cpu_time_s", "peak_rss_kb", "memory_added_kb", "count", "expected", "fingerprint", "stored",
    "truncated", "invalid", "duplicates", "model_variables", "model_constraints", "model_unit", "source",
    "children_cpu_time_s", "children_peak_rss_kb", "merged_from", "value", "proved", "bound",
    "best_at_s",
)
#: The CSV's columns of numbers that may be empty (missing in a DataFrame), and of text.
_NUMERIC_COLUMNS = ("wall_time_s", "cpu_time_s", "peak_rss_kb", "memory_added_kb", "count", "expected",
                    "model_variables", "model_constraints", "children_cpu_time_s", "children_peak_rss_kb",
                    "value", "proved", "bound", "best_at_s")
_TEXT_COLUMNS = ("task", "config", "backend", "fixed", "status", "reason", "fingerprint", "model_unit", "source",
                 "merged_from")


def _num(value: float | int | None) -> str:
    if value is None:
        return ""
    return f"{value:.6f}" if isinstance(value, float) else str(value)
