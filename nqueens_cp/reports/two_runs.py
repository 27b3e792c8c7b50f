"""Two saved comparisons side by side: did a change make things faster or slower?

``compare_runs(base, new)`` matches the runs of two ``results.json`` files by configuration and
board size and, for each pair of cells, gives the ratio of the median wall times (new / base,
below 1 is faster), a two-sided Mann–Whitney U test on the repetitions' wall times, and the
verdict ``faster``, ``slower`` or ``not significant``; per configuration, the geometric mean of
the ratios. The environments' differences (machine, Python, library versions) come first, and
whether each run passed its validation. Comparing runs of different tasks (all solutions,
fundamental solutions, first solution, completion of other boards) is refused: the times would
not measure the same work.

The rank test makes no assumption on the distribution of the times; it needs enough repetitions
to reach significance: with 3 repetitions on each side the smallest two-sided p-value possible
is 0.1, with 4 it is 0.029. A pair that cannot reach ``alpha`` is ``not significant`` and the
report says why. pyperf's ``compare_to`` is the model (it uses a t-test on many more values).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.errors import NQueensError
from nqueens_cp.harness.results import FAIL, ComparisonResults, Environment, RunStatus
from nqueens_cp.reports.document import Block, Bullets, Document, Heading, Item, Paragraph, Table
from nqueens_cp.reports.times import DASH, format_time

#: Default significance level of the rank test.
DEFAULT_ALPHA = 0.05
FASTER, SLOWER, NOT_SIGNIFICANT = "faster", "slower", "not significant"


class IncomparableRunsError(NQueensError):
    """The two runs do not measure the same work (different tasks or checks)."""


@dataclass(frozen=True)
class CellComparison:
    """One configuration at one board size in both runs."""

    config: str
    n: int
    base_times: tuple[float, ...]
    new_times: tuple[float, ...]
    #: new median / base median (below 1: the new run is faster); None when a side has no time.
    ratio: float | None
    #: Two-sided Mann–Whitney U p-value; None when a side has no time.
    p_value: float | None
    #: The smallest p-value the test can give with these numbers of repetitions.
    min_p_value: float | None
    verdict: str
    #: Checks of this cell that failed, per side ("base", "new").
    failed_in: tuple[str, ...] = ()

    @property
    def base_median(self) -> float | None:
        return _median(self.base_times)

    @property
    def new_median(self) -> float | None:
        return _median(self.new_times)


@dataclass(frozen=True)
class RunsComparison:
    """Everything ``compare_runs`` found."""

    base_name: str
    new_name: str
    alpha: float
    environment_differences: tuple[tuple[str, str, str], ...]
    #: One line per run that did not pass its validation (empty when both passed).
    validation: tuple[str, ...]
    cells: tuple[CellComparison, ...]
    #: Geometric mean of the ratios of each configuration (over the sizes both runs timed).
    geometric_means: tuple[tuple[str, float | None], ...]
    only_in_base: tuple[str, ...]
    only_in_new: tuple[str, ...]

    def slower_than(self, percent: float) -> tuple[CellComparison, ...]:
        """The cells significantly slower by more than ``percent`` per cent."""
        return tuple(
            c for c in self.cells
            if c.verdict == SLOWER and c.ratio is not None and c.ratio > 1 + percent / 100
        )

    @property
    def underpowered(self) -> tuple[CellComparison, ...]:
        """Cells whose repetitions are too few for the test ever to reach ``alpha``."""
        return tuple(c for c in self.cells if c.min_p_value is not None and c.min_p_value >= self.alpha)

    def power_note(self) -> str | None:
        """What the :attr:`underpowered` cells need, in one sentence; None when there are none."""
        cells = self.underpowered
        if not cells:
            return None
        smallest = min(c.min_p_value for c in cells if c.min_p_value is not None)
        fewest = min(min(len(c.base_times), len(c.new_times)) for c in cells)
        return (f"{len(cells)} row(s) have too few repetitions ({fewest} on a side) to ever reach p < {self.alpha:g} "
                f"(smallest possible p {smallest:.3g}): run both comparisons with --repeat "
                f"{repetitions_needed(self.alpha)} or more")


def repetitions_needed(alpha: float) -> int:
    """The fewest repetitions, the same on both sides, with which the two-sided rank test can reach
    p < ``alpha`` (its smallest p-value, 2 / C(2r, r), is 0.1 with 3 and 0.029 with 4)."""
    repetitions = 1
    while 2 / math.comb(2 * repetitions, repetitions) >= alpha:
        repetitions += 1
    return repetitions


def _median(values: Sequence[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def environment_differences(base: Environment, new: Environment) -> tuple[tuple[str, str, str], ...]:
    """``(what, base value, new value)`` for every property of the machine and software that differs."""
    fields = [
        ("Python", f"{base.implementation} {base.python}", f"{new.implementation} {new.python}"),
        ("OS", base.os, new.os),
        ("machine", base.machine, new.machine),
        ("CPU", base.cpu_model, new.cpu_model),
        ("usable CPUs", str(base.cpu_count), str(new.cpu_count)),
    ]
    base_packages, new_packages = dict(base.packages), dict(new.packages)
    for name in sorted(set(base_packages) | set(new_packages)):
        fields.append((name, base_packages.get(name, "not recorded"), new_packages.get(name, "not recorded")))
    return tuple((what, old, now) for what, old, now in fields if old != now)


def ensure_comparable(base: ComparisonResults, new: ComparisonResults) -> None:
    """``IncomparableRunsError`` (one line) when the two runs measured different work."""
    if base.task != new.task:
        raise IncomparableRunsError(
            f"the runs measured different tasks ({_task_text(base)} vs {_task_text(new)}): not comparable"
        )


def _task_text(results: ComparisonResults) -> str:
    params = ", ".join(f"{k}={v}" for k, v in results.task.parameters)
    checked = f"checked against {results.task.expected_label}"
    return f"{results.task.title}" + (f" [{params}]" if params else "") + f", {checked}"


def _validation_lines(name: str, results: ComparisonResults) -> list[str]:
    lines = []
    if results.failures:
        lines.append(f"{name} did NOT pass validation: {len(results.failures)} check(s) failed "
                     f"(nqueens-cp report {name} shows them); its times are of wrong answers")
    if not results.complete:
        lines.append(f"{name} is incomplete ({results.interruption})")
    return lines


def _rank_test(base: Sequence[float], new: Sequence[float]) -> tuple[float, float]:
    """(p-value, smallest possible p-value) of a two-sided Mann–Whitney U test."""
    from scipy.stats import mannwhitneyu

    if len(set(base) | set(new)) == 1:
        p_value = 1.0  # every time identical: nothing to tell apart
    else:
        p_value = float(mannwhitneyu(base, new, alternative="two-sided").pvalue)
    # Exact test, complete separation of the two samples: 2 / C(m + k, m).
    smallest = min(1.0, 2 / math.comb(len(base) + len(new), len(base)))
    return p_value, smallest


def _times(results: ComparisonResults, config: str, n: int) -> tuple[float, ...]:
    return tuple(
        r.wall_time for r in results.runs
        if r.config == config and r.n == n and r.status == RunStatus.ANSWERED and r.wall_time is not None
    )


def _failed_cell(results: ComparisonResults, config: str, n: int) -> bool:
    return any(c.status == FAIL and c.config == config and c.n == n for c in results.checks)


def compare_runs(
    base: ComparisonResults, new: ComparisonResults, *, base_name: str = "BASE", new_name: str = "NEW",
    alpha: float = DEFAULT_ALPHA,
) -> RunsComparison:
    """Compare ``new`` with ``base`` (see the module docstring); refuses incomparable runs."""
    ensure_comparable(base, new)
    base_labels = [c.label for c in base.configurations]
    new_labels = [c.label for c in new.configurations]
    shared = [label for label in base_labels if label in new_labels]
    cells: list[CellComparison] = []
    for config in shared:
        sizes = sorted({r.n for r in base.runs if r.config == config} & {r.n for r in new.runs if r.config == config})
        for n in sizes:
            base_times, new_times = _times(base, config, n), _times(new, config, n)
            failed_in = tuple(side for side, res in (("base", base), ("new", new)) if _failed_cell(res, config, n))
            if not base_times or not new_times:
                cells.append(CellComparison(config, n, base_times, new_times, None, None, None,
                                            "no time on " + ("both sides" if not base_times and not new_times
                                                             else "the base side" if not base_times
                                                             else "the new side"), failed_in))
                continue
            base_median, new_median = _median(base_times), _median(new_times)
            assert base_median is not None and new_median is not None
            ratio = new_median / base_median if base_median > 0 else None
            p_value, smallest = _rank_test(base_times, new_times)
            if p_value < alpha and new_median != base_median:
                verdict = FASTER if new_median < base_median else SLOWER
            else:
                verdict = NOT_SIGNIFICANT
            cells.append(CellComparison(config, n, base_times, new_times, ratio, p_value, smallest, verdict,
                                        failed_in))
    means: list[tuple[str, float | None]] = []
    for config in shared:
        ratios = [c.ratio for c in cells if c.config == config and c.ratio is not None and c.ratio > 0]
        means.append((config, math.exp(sum(map(math.log, ratios)) / len(ratios)) if ratios else None))
    return RunsComparison(
        base_name=base_name, new_name=new_name, alpha=alpha,
        environment_differences=environment_differences(base.environment, new.environment),
        validation=tuple(_validation_lines(base_name, base) + _validation_lines(new_name, new)),
        cells=tuple(cells), geometric_means=tuple(means),
        only_in_base=tuple(label for label in base_labels if label not in new_labels),
        only_in_new=tuple(label for label in new_labels if label not in base_labels),
    )


# -- the report -----------------------------------------------------------------------------


def _ratio_text(ratio: float | None) -> str:
    if ratio is None:
        return DASH
    if ratio <= 1:
        return f"{ratio:.3f} ({1 / ratio:.2f}x faster)" if ratio > 0 else DASH
    return f"{ratio:.3f} ({ratio:.2f}x slower)"


def _median_text(values: Sequence[float]) -> str:
    median = _median(values)
    return DASH if median is None else f"{format_time(median)} (x{len(values)})"


def verdict_line(comparison: RunsComparison, fail_slower: float | None = None) -> str:
    """The one-line summary at the top."""
    faster = sum(1 for c in comparison.cells if c.verdict == FASTER)
    slower = sum(1 for c in comparison.cells if c.verdict == SLOWER)
    same = sum(1 for c in comparison.cells if c.verdict == NOT_SIGNIFICANT)
    text = (f"{comparison.new_name} vs {comparison.base_name}: {faster} faster, {slower} slower, {same} not "
            f"significant (Mann-Whitney U, two-sided, alpha {comparison.alpha:g})")
    if fail_slower is not None:
        regressions = comparison.slower_than(fail_slower)
        text += (f"; FAIL: {len(regressions)} slower by more than {fail_slower:g}%" if regressions
                 else f"; none slower by more than {fail_slower:g}%")
    validity = "; validation: both runs passed" if not comparison.validation else "; validation: NOT both passed"
    return text + validity


def build_comparison_report(comparison: RunsComparison, *, fail_slower: float | None = None) -> Document:
    """The comparison as a report ``Document`` (any renderer of ``render.py`` formats it)."""
    blocks: list[Block] = [Heading(f"nqueens-cp: {comparison.new_name} compared with {comparison.base_name}", 1),
                           Paragraph(verdict_line(comparison, fail_slower), strong=True)]
    blocks.append(Heading("Environment differences"))
    if comparison.environment_differences:
        rows = tuple((what, old, now) for what, old, now in comparison.environment_differences)
        blocks.append(Table(("", comparison.base_name, comparison.new_name), rows,
                            "Times measured on different machines or software are compared all the same: "
                            "read the ratios with these differences in mind."))
    else:
        blocks.append(Paragraph("None: same machine, Python and library versions."))
    blocks.append(Heading("Validation"))
    if comparison.validation:
        blocks.append(Bullets(tuple(Item(line) for line in comparison.validation)))
    else:
        blocks.append(Paragraph(f"Both runs passed every check ({comparison.base_name} and {comparison.new_name})."))
    regressions = {(c.config, c.n) for c in comparison.slower_than(fail_slower)} if fail_slower is not None else set()
    cell_rows: list[tuple[str, ...]] = []
    for cell in comparison.cells:
        verdict = cell.verdict + (f" (> {fail_slower:g}%)" if (cell.config, cell.n) in regressions else "")
        if cell.failed_in:
            verdict += f"; checks FAILED in {' and '.join(cell.failed_in)}"
        cell_rows.append((
            cell.config, str(cell.n), _median_text(cell.base_times), _median_text(cell.new_times),
            _ratio_text(cell.ratio), DASH if cell.p_value is None else f"{cell.p_value:.3g}", verdict,
        ))
    note = (f"Median wall time (number of repetitions). ratio = {comparison.new_name} median / "
            f"{comparison.base_name} median. p: two-sided Mann-Whitney U test of the repetitions' times; "
            f"faster/slower when p < {comparison.alpha:g}.")
    power = comparison.power_note()
    if power is not None:
        note += f" {power[0].upper()}{power[1:]}."
    blocks += [Heading("Runtime by configuration and n"),
               Table(("configuration", "n", comparison.base_name, comparison.new_name, "ratio", "p", "verdict"),
                     tuple(cell_rows), note)]
    means = tuple((config, DASH if mean is None else _ratio_text(mean)) for config, mean in comparison.geometric_means)
    blocks += [Heading("Geometric mean of the ratios"),
               Table(("configuration", "geometric mean"), means,
                     "Over the board sizes both runs timed; below 1 the new run is faster.")]
    if comparison.only_in_base or comparison.only_in_new:
        items = []
        if comparison.only_in_base:
            items.append(Item(f"only in {comparison.base_name}: {', '.join(comparison.only_in_base)}"))
        if comparison.only_in_new:
            items.append(Item(f"only in {comparison.new_name}: {', '.join(comparison.only_in_new)}"))
        blocks += [Heading("Not compared"), Bullets(tuple(items))]
    return tuple(blocks)
