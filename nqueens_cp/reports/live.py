"""One line per finished board size, for following a long comparison as it runs (``compare`` prints it on stderr)."""

from __future__ import annotations

from nqueens_cp.harness.results import FAIL, SIZE_FAIL, SIZE_NO_ANSWER, ComparisonResults, RunStatus
from nqueens_cp.reports.summary import labels, table_of_cells
from nqueens_cp.reports.times import format_time


def size_line(results: ComparisonResults, n: int) -> str:
    """``n=11: 2680 solutions (A000170 2680), 8 runs; PASS; fastest bitboard 2.83 ms`` for board size ``n``
    (its verdict is that of the report, ``NO ANSWER: every configuration timed out`` included)."""
    cells = {config: cell for (config, size), cell in table_of_cells(results).items() if size == n}
    runs = [r for r in results.runs if r.n == n]
    expected = next((r.expected for r in runs if r.expected is not None), None)
    counts = sorted({r.count for r in runs if r.status == RunStatus.ANSWERED and r.count is not None})
    proved = sorted({r.value for r in runs if r.status == RunStatus.ANSWERED and r.value is not None})
    best = sorted({r.value for r in runs if r.status == RunStatus.TIMED_OUT and r.value is not None})
    found = (f"optimum {'/'.join(map(str, proved))} proved" if proved else
             f"best found {'/'.join(map(str, best))}, not proved" if best else "no answer") if not counts else (
        f"{counts[0]} solution{'s' if counts[0] != 1 else ''}" if len(counts) == 1
        else "counts " + "/".join(map(str, counts)))
    published = f" ({results.task.expected_label} {expected})" if expected is not None else ""
    failed = sorted({f"{c.config or 'all'} {c.name}" for c in results.checks if c.n == n and c.status == FAIL})
    size = results.size_verdict(n)
    if size.verdict == SIZE_FAIL:
        verdict = f"FAIL ({', '.join(failed)})"
    elif size.verdict == SIZE_NO_ANSWER:
        verdict = f"NO ANSWER: {size.reason}"
    else:
        verdict = "PASS"
    timed = [(cell.median_wall, config) for config in labels(results)
             if (cell := cells.get(config)) is not None and cell.median_wall is not None]
    fastest = ""
    if timed:
        best_time, best_config = min(timed)
        fastest = f"; fastest {best_config} {format_time(best_time)}"
    not_answered = sorted(config for config, cell in cells.items() if cell.ok == 0)
    tail = f"; no answer from {', '.join(not_answered)}" if not_answered else ""
    return f"n={n}: {found}{published}, {len(runs)} runs; {verdict}{fastest}{tail}"
