"""Statistics per (configuration, board size), computed from run records."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from nqueens_cp.harness.results import ComparisonResults, RunRecord, RunStatus


@dataclass(frozen=True)
class CellStats:
    """What the runs of one configuration at one board size add up to."""

    config: str
    n: int
    runs: int
    ok: int
    statuses: tuple[RunStatus, ...]
    median_wall: float | None
    min_wall: float | None
    max_wall: float | None
    median_cpu: float | None
    max_memory_added_kb: int | None
    count: int | None

    @property
    def outcome(self) -> RunStatus:
        """``ANSWERED``, or the status that kept runs from answering (failed first, then timed out,
        out of memory, refused, skipped)."""
        if self.ok == self.runs:
            return RunStatus.ANSWERED
        for status in (RunStatus.FAILED, RunStatus.TIMED_OUT, RunStatus.OUT_OF_MEMORY, RunStatus.REFUSED,
                       RunStatus.SKIPPED):
            if status in self.statuses:
                return status
        return RunStatus.ANSWERED


def cell_stats(runs: list[RunRecord], config: str, n: int) -> CellStats:
    """Statistics of ``runs`` (all of one configuration and board size)."""
    answered = [r for r in runs if r.status == RunStatus.ANSWERED]
    walls = [r.wall_time for r in answered if r.wall_time is not None]
    cpus = [r.cpu_time for r in answered if r.cpu_time is not None]
    memory = [r.memory_added_kb for r in answered if r.memory_added_kb is not None]
    counts = [r.count for r in answered if r.count is not None]
    return CellStats(
        config=config, n=n, runs=len(runs), ok=len(answered), statuses=tuple(r.status for r in runs),
        median_wall=statistics.median(walls) if walls else None,
        min_wall=min(walls) if walls else None,
        max_wall=max(walls) if walls else None,
        median_cpu=statistics.median(cpus) if cpus else None,
        max_memory_added_kb=max(memory) if memory else None,
        count=counts[0] if counts and len(set(counts)) == 1 else None,
    )


def table_of_cells(results: ComparisonResults) -> dict[tuple[str, int], CellStats]:
    """``CellStats`` for every (configuration label, n) that has runs."""
    grouped: dict[tuple[str, int], list[RunRecord]] = {}
    for run in results.runs:
        grouped.setdefault((run.config, run.n), []).append(run)
    return {key: cell_stats(runs, *key) for key, runs in grouped.items()}


def sizes(results: ComparisonResults) -> list[int]:
    """The board sizes that have runs, ascending."""
    return sorted({run.n for run in results.runs})


def labels(results: ComparisonResults) -> list[str]:
    """The configuration labels, in the order they were given."""
    return [c.label for c in results.configurations]
