"""The report's section for a set of instances: solved counts, PAR-2 and PAR-10, the virtual best,
the instances one configuration alone solved, and the cactus and scatter plots."""

from __future__ import annotations

from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.reports.document import Block, Figure, Heading, Image, Paragraph, Table
from nqueens_cp.reports.scores import (
    PENALTIES,
    UNSOLVED_KINDS,
    VIRTUAL_BEST,
    Scores,
    compute_scores,
    instance_name,
    ranked,
)
from nqueens_cp.reports.times import DASH, format_time


def _seconds(value: float | None) -> str:
    return DASH if value is None else format_time(value)


#: The unsolved kinds the scores table heads with other words (the others are headed by their name).
_KIND_HEADERS = {"oom": "out of memory"}


def timeout_policy(results: ComparisonResults) -> str:
    """What a timeout did to a configuration's other runs (the task's policy), in one sentence."""
    skips = results.task.skips_larger
    if skips is None:
        return ""
    if skips:
        return ("Policy: a size sweep; after a timeout, out of memory or refusal, the configuration's other "
                "repetitions of that board and every larger board were skipped (counted unsolved).")
    return ("Policy: a set of instances; every instance ran for every configuration (a timeout skipped only "
            "the other repetitions of that instance).")


def scores_table(scores: Scores) -> Table:
    """Per configuration (most solved first) and the virtual best: solved, unsolved by kind, PAR-2,
    PAR-10, total and median wall and CPU time, unique solves and marginal contribution."""
    kinds = [kind for kind in UNSOLVED_KINDS if kind in ("error", "timeout", "oom", "refused")
             or any(score.unsolved_by(kind) for score in scores.scores)]
    headers = ("configuration", "solved", *(_KIND_HEADERS.get(k, k) for k in kinds), *(f"PAR-{k}" for k in PENALTIES),
               "wall total", "wall median", "CPU total", "CPU median", "only it", "marginal")
    rows = []
    for score in [*ranked(scores), scores.virtual_best]:
        vbs = score.config == VIRTUAL_BEST
        rows.append((
            score.config, f"{score.solved}/{score.instances}", *(str(score.unsolved_by(k)) for k in kinds),
            *(format_time(score.par_k(k)) for k in PENALTIES), _seconds(score.wall_total), _seconds(score.wall_median),
            _seconds(score.cpu_total), _seconds(score.cpu_median),
            DASH if vbs else str(score.unique), DASH if vbs else "0" if score.marginal <= 0 else format_time(score.marginal),
        ))
    note = (
        f"An instance is solved when every repetition answered within the {scores.timeout:g} s limit and no check "
        "of the answer failed (wrong: a check failed); its time is the median wall time of the repetitions. "
        + f"PAR-k (PAR-2: SAT Competition; PAR-10): the mean over the {len(scores.instances)} instances of that "
        "time, or k x the limit when unsolved. Totals and medians are over the solved instances. virtual best: on each instance "
        "the fastest configuration that solved it. only it: instances no other configuration solved; marginal: how "
        "much the virtual best's PAR-2 grows without the configuration."
    )
    return Table(headers, tuple(rows), note)


def unique_solves_table(scores: Scores) -> Table | None:
    """The instances only one configuration solved, with its time (None when there are none)."""
    if not scores.only_solved_by:
        return None
    rows = tuple((instance_name(key), config, _seconds(scores.outcomes[(config, key)].wall))
                 for key, config in scores.only_solved_by)
    return Table(("instance", "solved only by", "wall time"), rows)


def scores_section(results: ComparisonResults, *, cactus: str | Figure | None = None,
                   scatter: str | Figure | None = None) -> list[Block]:
    """Solved counts, PAR-2, the virtual best, the unique solves and the cactus and scatter plots."""
    if not results.runs:
        return []
    scores = compute_scores(results)
    blocks: list[Block] = [Heading("Solved instances, PAR-2 and the virtual best"), scores_table(scores)]
    policy = timeout_policy(results)
    if policy:
        blocks.append(Paragraph(policy))
    unique = unique_solves_table(scores)
    if unique is not None:
        blocks += [Heading("Solved by one configuration only", 3), unique]
    for title, plot, alt in (
        ("Cactus plot", cactus, "instances solved against time, every configuration and the virtual best"),
        ("Scatter plot", scatter, "wall time per instance, one configuration against another, log-log"),
    ):
        if isinstance(plot, Figure):
            blocks += [Heading(title, 3), plot]
        elif plot:
            blocks += [Heading(title, 3), Image(plot, alt)]
    return blocks
