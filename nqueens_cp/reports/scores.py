"""The scores solver papers and competitions publish, per configuration over a set of instances.

An *instance* is one board a task ran (a board size, a random partial board, an instance file
with its diagonals). A configuration *solved* an instance when every repetition of it answered
and no check of that answer failed; its time there is the median wall time of the repetitions.
Otherwise the instance is unsolved, by the first of: a wrong answer (a failed check), an error,
a timeout, out of memory, a refusal, a skipped run, no run at all (a merged file that did not
run it).

* PAR-k (penalised average runtime, SAT Competition): the mean over every instance of the time
  when solved, else k times the time limit (PAR-2 and PAR-10 are reported).
* The virtual best solver: on each instance, the fastest configuration that solved it.
* A configuration's *unique* solves: the instances no other configuration solved; its *marginal
  contribution* (Xu, Hutter, Hoos, Leyton-Brown, 2012): how much the virtual best's PAR-2 grows
  without it (a configuration that is never the fastest contributes 0, one that alone solves an
  instance contributes at least that instance's penalty).
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass
from typing import Mapping, Sequence

from nqueens_cp.harness.results import FAIL, ComparisonResults, InstanceKey, RunRecord, RunStatus
from nqueens_cp.reports.summary import labels

#: The label of the virtual best solver wherever it stands beside the configurations.
VIRTUAL_BEST = "virtual best"
#: Why an instance is unsolved, in the order a configuration's runs are told (the worst first).
UNSOLVED_KINDS = ("wrong", "error", "timeout", "oom", "refused", "skipped", "not run")
#: The penalty factors reported: PAR-2 (SAT Competition) and PAR-10.
PENALTIES = (2, 10)

def instance_name(key: InstanceKey) -> str:
    """``diag-10-4-468.param D=5``, ``n=12 fixed=0:3,4:1`` or ``n=12``."""
    n, fixed, source = key
    if source:
        return source
    return f"n={n}" + (" fixed=" + ",".join(f"{r}:{c}" for r, c in fixed) if fixed else "")


@dataclass(frozen=True)
class Outcome:
    """What one configuration did on one instance."""

    config: str
    instance: InstanceKey
    solved: bool
    #: ``ok`` when solved, else one of :data:`UNSOLVED_KINDS`.
    kind: str
    #: Median wall and CPU seconds of the repetitions (when solved).
    wall: float | None = None
    cpu: float | None = None


@dataclass(frozen=True)
class Score:
    """One configuration's (or the virtual best's) totals over the instance set."""

    config: str
    instances: int
    solved: int
    #: (kind, how many) for each kind of :data:`UNSOLVED_KINDS` that occurred.
    unsolved: tuple[tuple[str, int], ...]
    #: (k, PAR-k in seconds) for each k of :data:`PENALTIES`.
    par: tuple[tuple[int, float], ...]
    #: Totals and medians over the solved instances (None when nothing was solved or not measured).
    wall_total: float | None
    wall_median: float | None
    cpu_total: float | None
    cpu_median: float | None
    #: Instances only this configuration solved (0 for the virtual best).
    unique: int = 0
    #: Seconds the virtual best's PAR-2 would grow by without this configuration.
    marginal: float = 0.0

    def par_k(self, k: int) -> float:
        """PAR-``k`` in seconds."""
        return dict(self.par)[k]

    def unsolved_by(self, kind: str) -> int:
        """How many instances are unsolved for ``kind``."""
        return dict(self.unsolved).get(kind, 0)


@dataclass(frozen=True)
class Scores:
    """Every configuration's score, the virtual best, and who alone solved what."""

    #: The time limit the penalties are multiples of (seconds).
    timeout: float
    instances: tuple[InstanceKey, ...]
    configs: tuple[str, ...]
    outcomes: Mapping[tuple[str, InstanceKey], Outcome]
    scores: tuple[Score, ...]
    virtual_best: Score
    #: The configuration that solved each instance on the virtual best's behalf (the fastest).
    best_of: Mapping[InstanceKey, str]
    #: (instance, the one configuration that solved it).
    only_solved_by: tuple[tuple[InstanceKey, str], ...]

    def score(self, config: str) -> Score:
        """The score of ``config`` (or :data:`VIRTUAL_BEST`)."""
        if config == VIRTUAL_BEST:
            return self.virtual_best
        for score in self.scores:
            if score.config == config:
                return score
        raise KeyError(config)

    def solved_times(self, config: str) -> list[float]:
        """The wall times of the instances ``config`` (or :data:`VIRTUAL_BEST`) solved, ascending."""
        if config == VIRTUAL_BEST:
            times = [self.outcomes[(best, key)].wall for key, best in self.best_of.items()]
        else:
            times = [o.wall for (c, _), o in self.outcomes.items() if c == config and o.solved]
        return sorted(t for t in times if t is not None)


def _outcome(config: str, key: InstanceKey, runs: Sequence[RunRecord], failed: bool) -> Outcome:
    if not runs:
        return Outcome(config, key, False, "not run")
    if failed:
        return Outcome(config, key, False, "wrong")
    if any(run.status != RunStatus.ANSWERED for run in runs):
        for kind in UNSOLVED_KINDS:
            if any(str(run.status) == kind for run in runs):
                return Outcome(config, key, False, kind)
    walls = [run.wall_time for run in runs if run.wall_time is not None]
    cpus = [run.cpu_time for run in runs if run.cpu_time is not None]
    return Outcome(config, key, True, "ok", statistics.median(walls) if walls else 0.0,
                   statistics.median(cpus) if cpus else None)


def _score(config: str, outcomes: Sequence[Outcome], timeout: float) -> Score:
    solved = [o for o in outcomes if o.solved]
    walls = [o.wall for o in solved if o.wall is not None]
    cpus = [o.cpu for o in solved if o.cpu is not None]
    unsolved = tuple((kind, sum(1 for o in outcomes if o.kind == kind)) for kind in UNSOLVED_KINDS
                     if any(o.kind == kind for o in outcomes))
    count = len(outcomes)
    par = tuple((k, (sum(walls) + k * timeout * (count - len(solved))) / count if count else 0.0) for k in PENALTIES)
    return Score(
        config, count, len(solved), unsolved, par,
        wall_total=sum(walls) if walls else None, wall_median=statistics.median(walls) if walls else None,
        cpu_total=sum(cpus) if len(cpus) == len(solved) and cpus else None,
        cpu_median=statistics.median(cpus) if len(cpus) == len(solved) and cpus else None,
    )


def compute_scores(results: ComparisonResults) -> Scores:
    """The scores of every configuration of ``results`` over every instance it has runs of."""
    configs = tuple(labels(results))
    runs: dict[tuple[str, InstanceKey], list[RunRecord]] = {}
    instances: dict[InstanceKey, None] = {}
    for run in results.runs:
        key = run.instance_key
        instances.setdefault(key, None)
        runs.setdefault((run.config, key), []).append(run)
    failed = {(check.config, check.instance_key) for check in results.checks
              if check.status == FAIL and check.config is not None}
    ordered = tuple(sorted(instances, key=lambda k: (k[0], k[2], k[1])))
    outcomes = {(c, key): _outcome(c, key, runs.get((c, key), []), (c, key) in failed)
                for c in configs for key in ordered}
    timeout = results.settings.timeout
    best_of: dict[InstanceKey, str] = {}
    for key in ordered:
        solvers = [outcomes[(c, key)] for c in configs if outcomes[(c, key)].solved]
        if solvers:
            best_of[key] = min(solvers, key=lambda o: o.wall if o.wall is not None else 0.0).config
    solved_by = {key: {c for c in configs if outcomes[(c, key)].solved} for key in ordered}
    only = tuple((key, next(iter(who))) for key, who in solved_by.items() if len(who) == 1)
    scores = []
    best_par2 = _par2_without(outcomes, configs, ordered, None, timeout)
    for c in configs:
        score = _score(c, [outcomes[(c, key)] for key in ordered], timeout)
        unique = sum(1 for _, who in only if who == c)
        marginal = _par2_without(outcomes, configs, ordered, c, timeout) - best_par2
        scores.append(dataclasses.replace(score, unique=unique, marginal=marginal))
    best = [Outcome(VIRTUAL_BEST, key, key in best_of, "ok" if key in best_of else _vbs_kind(outcomes, configs, key),
                    outcomes[(best_of[key], key)].wall if key in best_of else None,
                    outcomes[(best_of[key], key)].cpu if key in best_of else None) for key in ordered]
    return Scores(timeout, ordered, configs, outcomes, tuple(scores), _score(VIRTUAL_BEST, best, timeout),
                  best_of, only)


def _par2_without(outcomes: Mapping[tuple[str, InstanceKey], Outcome], configs: Sequence[str],
                  instances: Sequence[InstanceKey], left_out: str | None, timeout: float) -> float:
    """The PAR-2 of the virtual best of ``configs`` without ``left_out``."""
    total = 0.0
    for key in instances:
        walls = [o.wall for c in configs if c != left_out and (o := outcomes[(c, key)]).solved and o.wall is not None]
        total += min(walls) if walls else 2 * timeout
    return total / len(instances) if instances else 0.0


#: Why the virtual best did not solve an instance: the first of these among the configurations'
#: kinds (a timeout beside an error is a timeout: more time might have solved it).
_BEST_KINDS = ("timeout", "oom", "refused", "skipped", "error", "wrong", "not run")


def _vbs_kind(outcomes: Mapping[tuple[str, InstanceKey], Outcome], configs: Sequence[str], key: InstanceKey) -> str:
    """Why no configuration solved ``key`` (see :data:`_BEST_KINDS`)."""
    kinds = {outcomes[(c, key)].kind for c in configs}
    return next((kind for kind in _BEST_KINDS if kind in kinds), "not run")


def ranked(scores: Scores) -> list[Score]:
    """The configurations as the field ranks them: most solved first, then the lowest PAR-2."""
    return sorted(scores.scores, key=lambda s: (-s.solved, s.par_k(2), s.config))
