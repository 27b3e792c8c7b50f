"""Cross-validation of the runs of one instance, as ``Check`` records.

For every run that answered:

* ``validity``   - every solution passed the task's check (the independent checker);
* ``duplicates`` - no solution came twice (exact among the stored solutions, and any later
  repeat of a stored one; beyond that a repeat still changes the count and the fingerprint);
* ``count``      - the count equals the published one (OEIS A000170 for all solutions);
* ``set``        - for exhaustive tasks, the solution set equals the reference set;
* ``answer``     - for tasks that ask for one solution, "none" only when no configuration found one;
* ``oracle``     - when the task knows the answer from outside (an answers file), the same answer.

The reference set is every *valid* solution any configuration found: a valid board is a
solution by definition, so a configuration lacking one is *missing* it, and anything a
configuration yields outside the reference is an invalid board, an *extra*. When every run kept
all of its solutions (at most ``--store-limit``), sets are compared exactly and the report names
missing and extra solutions; otherwise every run's fingerprint is compared with the reference
fingerprint (``choose_reference``): that of the clean runs whose count matches the published
one, or failing that the fingerprint a strict majority of *backends* agree on, each backend
counting once whatever its options and repetitions; the odd ones out are named. The ``reference`` check compares the size of the
reference set with the published count, so solutions every configuration missed are caught too.

A run that failed is a failed ``run`` check; a run that timed out or was skipped, a count that
is not published, or a set with nothing to compare against is a check that did ``not run``, and
says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from nqueens_cp.backends.framework.base import count_within_tolerance
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.core.instance import Instance
from nqueens_cp.harness.family_tasks import FamilyQuestion, FamilyTask
from nqueens_cp.harness.family_validation import check_optima, check_placements, check_witnesses
from nqueens_cp.harness.results import (
    EXAMPLES,
    FAIL,
    NOT_RUN,
    PASS,
    Check,
    CheckStatus,
    RunStatus,
    board_text,
)
from nqueens_cp.harness.runner import RunResult
from nqueens_cp.harness.tasks import Task


def _examples(label: str, solutions: Sequence[tuple[int, ...]], total: int) -> str:
    shown = ", ".join(board_text(s) for s in solutions[:EXAMPLES])
    more = f" and {total - EXAMPLES} more" if total > EXAMPLES else ""
    return f"{label} ({total}): {shown}{more}"


def _merge(checks: list[Check]) -> list[Check]:
    """Identical verdicts of several repetitions kept once, with every repetition number."""
    merged: dict[tuple[object, ...], Check] = {}
    for check in checks:
        key = (check.name, check.status, check.n, check.config, check.summary, check.evidence, check.fixed,
               check.source)
        if key in merged:
            previous = merged[key]
            merged[key] = Check(
                previous.name, previous.status, previous.n, previous.config, previous.summary,
                previous.repetitions + check.repetitions, previous.evidence, previous.fixed, previous.source,
            )
        else:
            merged[key] = check
    return list(merged.values())


def validate_instance(task: Task, instance: Instance, results: Sequence[RunResult]) -> list[Check]:
    """Every check for the runs of one instance (any number of configurations and repetitions)."""
    n, fixed, source = instance.n, instance.fixed, task.source(instance)
    checks: list[Check] = []

    def add(name: str, status: CheckStatus, config: str | None, summary: str, rep: int | None = None,
            evidence: Sequence[str] = ()) -> None:
        reps = () if rep is None else (rep,)
        checks.append(Check(name, status, n, config, summary, reps, tuple(evidence), fixed, source))

    answered = [r for r in results if r.record.status == RunStatus.ANSWERED]
    for result in results:
        run = result.record
        if run.status == RunStatus.TIMED_OUT and result.family is not None:
            add("run", NOT_RUN, run.config, f"{run.reason}: its witness checked, no optimum claimed", run.repetition)
        elif run.status == RunStatus.FAILED:
            add("run", FAIL, run.config, f"run failed: {run.reason}", run.repetition)
        elif run.status == RunStatus.TIMED_OUT:
            add("run", NOT_RUN, run.config, f"timed out ({run.reason}): not checked", run.repetition)
        elif run.status in (RunStatus.OUT_OF_MEMORY, RunStatus.REFUSED):
            add("run", NOT_RUN, run.config, f"{run.reason}: not checked", run.repetition)
        elif run.status == RunStatus.SKIPPED:
            add("run", NOT_RUN, run.config, f"skipped ({run.reason}): not checked", run.repetition)

    if isinstance(task, FamilyTask):
        checks.extend(_check_family(task, instance, results))
        return _merge(checks)
    if task.asks_count:
        checks.extend(_check_counts(task, instance, answered))
        return _merge(checks)
    checks.extend(_check_boards(task, instance, answered))
    if task.exhaustive:
        checks.extend(_compare_sets(task, instance, answered))
    else:
        checks.extend(_compare_existence(task, instance, answered))
    return _merge(checks)


def _check_boards(task: Task, instance: Instance, answered: Sequence[RunResult]) -> list[Check]:
    """Each run's boards: all valid (the task's checker), none repeated, their count the published one."""
    n, fixed, source = instance.n, instance.fixed, task.source(instance)
    label = task.expected_label
    checks: list[Check] = []

    def add(name: str, status: CheckStatus, config: str | None, summary: str, rep: int | None = None,
            evidence: Sequence[str] = ()) -> None:
        reps = () if rep is None else (rep,)
        checks.append(Check(name, status, n, config, summary, reps, tuple(evidence), fixed, source))

    for result in answered:
        run = result.record
        count = run.count or 0
        if run.invalid:
            evidence = [f"{board_text(sol)}: {'; '.join(problems)}" for sol, problems in result.invalid_examples]
            if run.invalid > len(evidence):
                evidence.append(f"... {run.invalid} invalid in total")
            add("validity", FAIL, run.config, f"{run.invalid} of {count} solutions invalid", run.repetition,
                evidence)
        else:
            add("validity", PASS, run.config, f"all {count} solutions valid", run.repetition)
        if run.duplicates:
            shown = run.duplicates - result.duplicates_beyond
            evidence = [_examples("repeated", list(result.duplicate_examples), shown)] if shown else []
            if result.duplicates_beyond:
                evidence.append(f"{result.duplicates_beyond} repeat(s) among the solutions past the first "
                                f"{run.stored} stored (found by hash; raise --store-limit above {run.count} to "
                                "name them)")
            add("duplicates", FAIL, run.config, f"{run.duplicates} solutions yielded more than once",
                run.repetition, evidence)
        else:
            scope = f" (exact among the first {run.stored}; beyond, by 64-bit hash)" if run.truncated else ""
            add("duplicates", PASS, run.config, f"no solution repeated{scope}", run.repetition)
        if not task.counts_known:
            pass  # nothing to check the count against, by the nature of the task (the answer check decides)
        elif run.expected is None:
            add("count", NOT_RUN, run.config, f"count {count}: no published count ({label}) to check against",
                run.repetition)
        elif count == run.expected:
            add("count", PASS, run.config, f"count {count} = {label}", run.repetition)
        else:
            add("count", FAIL, run.config, f"count {count}, {label} says {run.expected}", run.repetition)

    return checks


def _compare_sets(task: Task, instance: Instance, answered: Sequence[RunResult]) -> list[Check]:
    n, fixed, source = instance.n, instance.fixed, task.source(instance)
    out: list[Check] = []

    def add(status: CheckStatus, config: str | None, summary: str, rep: int | None = None,
            evidence: Sequence[str] = (), name: str = "set") -> None:
        reps = () if rep is None else (rep,)
        out.append(Check(name, status, n, config, summary, reps, tuple(evidence), fixed, source))

    configs = {r.record.config for r in answered}
    if len(configs) < 2:
        for result in answered:
            add(NOT_RUN, result.record.config, "only one configuration answered: no set to compare with",
                result.record.repetition)
        return out

    expected = task.expected_count(instance)
    label = task.expected_label
    if not any(r.record.truncated for r in answered):
        found_by_any = {sol for r in answered for sol in r.solutions}
        reference = {sol for sol in found_by_any if not task.solution_problems(instance, sol)}
        ordered = sorted(reference)
        if expected is not None:
            status = PASS if len(reference) == expected else FAIL
            relation = "=" if status == PASS else "!="
            add(status, None, f"reference set (every valid solution found) has {len(reference)} {relation} {label} "
                f"{expected}", name="reference")
        for result in answered:
            run = result.record
            found = set(result.solutions)
            missing = [sol for sol in ordered if sol not in found]
            extra = sorted(found - reference, key=repr)
            if not missing and not extra:
                add(PASS, run.config, f"same {len(reference)} solutions as the reference (exact)", run.repetition)
                continue
            evidence = []
            if missing:
                evidence.append(_examples("missing", missing, len(missing)))
            if extra:
                evidence.append(_examples("extra", extra, len(extra)))
            add(FAIL, run.config, f"set differs from the reference (exact): {len(missing)} missing, "
                f"{len(extra)} extra", run.repetition, evidence)
        return out

    # Beyond the bound: compare fingerprints.
    choice = choose_reference(answered, expected, label)
    if choice.fingerprint is None:
        add(FAIL, None, choice.basis, evidence=choice.evidence, name="reference")
        for result in answered:
            add(FAIL, result.record.config, f"fingerprint {result.record.fingerprint}: no reference to compare with",
                result.record.repetition)
        return out
    reference_fp, basis = choice.fingerprint, choice.basis
    add(PASS, None, f"reference fingerprint {reference_fp}: {basis}", name="reference", evidence=choice.evidence)
    for result in answered:
        run = result.record
        if run.fingerprint == reference_fp:
            add(PASS, run.config, "same fingerprint as the reference (more solutions than the store limit)",
                run.repetition)
        else:
            add(FAIL, run.config, f"fingerprint {run.fingerprint} differs from the reference {reference_fp}",
                run.repetition, [f"stored {run.stored} of {run.count} solutions; compare with --store-limit above "
                                 f"{run.count} to name the differing solutions"])
    return out


@dataclass(frozen=True)
class ReferenceChoice:
    """The reference fingerprint of one instance (None when there is none), why, and who disagrees."""

    fingerprint: str | None
    basis: str
    evidence: tuple[str, ...] = ()


def _names(backends: Iterable[str]) -> str:
    return ", ".join(sorted(backends))


def choose_reference(answered: Sequence[RunResult], expected: int | None, label: str) -> ReferenceChoice:
    """The fingerprint the runs of one instance are compared with, when sets are too big to store.

    1. A published count decides first: if exactly one fingerprint belongs to clean runs (no
       invalid board, no repeat) whose count equals it, that is the reference, however few
       backends found it.
    2. Otherwise the backends vote, each once, whatever its configurations and repetitions: a
       backend votes for the fingerprint all its runs share (one that disagrees with itself
       abstains), among the fingerprints with the published count when some have it. The
       reference needs a strict majority of the backends that answered, so nine runs of three
       configurations of one backend with a shared bug are one vote, and a tie has no reference.

    The evidence names the odd ones out: the backends with a run off the reference.
    """
    by_backend: dict[str, set[str]] = {}
    for result in answered:
        by_backend.setdefault(Configuration.backend_of(result.record.config), set()).add(str(result.record.fingerprint))
    clean_and_right = {
        str(r.record.fingerprint) for r in answered
        if expected is not None and r.record.count == expected and not r.record.invalid and not r.record.duplicates
    }

    def odd_ones_out(reference: str) -> tuple[str, ...]:
        odd = {backend: fps - {reference} for backend, fps in by_backend.items() if fps - {reference}}
        return tuple(f"odd one out: {backend} (fingerprint {', '.join(sorted(fps))})" for backend, fps in
                     sorted(odd.items()))

    if len(clean_and_right) == 1:
        reference = next(iter(clean_and_right))
        agree = [b for b, fps in by_backend.items() if reference in fps]
        return ReferenceChoice(reference, f"the only fingerprint of clean runs whose count matches {label} "
                               f"{expected} (found by {_names(agree)})", odd_ones_out(reference))
    allowed = clean_and_right or {fp for fps in by_backend.values() for fp in fps}
    votes: dict[str, list[str]] = {}
    for backend, fps in by_backend.items():
        if len(fps) == 1 and next(iter(fps)) in allowed:
            votes.setdefault(next(iter(fps)), []).append(backend)
    tally = sorted(votes.items(), key=lambda item: -len(item[1]))
    voters = len(by_backend)
    evidence = tuple(f"{fp}: {len(backends)} backend(s): {_names(backends)}" for fp, backends in tally)
    abstained = sorted(b for b, fps in by_backend.items() if len(fps) > 1)
    if abstained:
        evidence += (f"no vote (their runs disagree with each other): {_names(abstained)}",)
    if tally and len(tally[0][1]) * 2 > voters:
        reference, backends = tally[0]
        among = f" among those whose count matches {label}" if clean_and_right else ""
        return ReferenceChoice(reference, f"the fingerprint {len(backends)} of {voters} backends agree on{among} "
                               f"({_names(backends)}; each backend counts once)", odd_ones_out(reference))
    return ReferenceChoice(None, f"fingerprints disagree and none has a strict majority of the {voters} backends "
                           "(each backend counts once): no reference, every run fails", evidence)


def _compare_existence(task: Task, instance: Instance, answered: Sequence[RunResult]) -> list[Check]:
    """For tasks that ask for one solution: a configuration saying "none" is wrong if another found
    one; and when the task knows the answer from an outside oracle, each answer is compared with it."""
    witnesses = [
        (r.record.config, sol) for r in answered for sol in r.solutions
        if not task.solution_problems(instance, sol)
    ]
    oracle = task.expected_satisfiable(instance)
    source = task.source(instance)
    out: list[Check] = []
    for result in answered:
        run = result.record
        evidence: tuple[str, ...] = ()
        found = any(not task.solution_problems(instance, sol) for sol in result.solutions)
        if found:
            summary, status = "found a valid solution", PASS
        elif witnesses:
            config, sol = witnesses[0]
            summary, status = "found no valid solution, but another configuration found one", FAIL
            evidence = (f"{config}: {board_text(sol)}",)
        else:
            summary, status = "no valid solution, and no configuration found one", PASS
        out.append(Check("answer", status, instance.n, run.config, summary, (run.repetition,), evidence,
                         instance.fixed, source))
        if oracle is not None:
            said, told = ("a solution" if found else "none"), ("a solution" if oracle else "none")
            out.append(Check("oracle", PASS if found == oracle else FAIL, instance.n, run.config,
                             f"answered {said}; {task.expected_label} says {told}", (run.repetition,), (),
                             instance.fixed, source))
    return out


def count_tolerance(config: str) -> float:
    """The relative tolerance a configuration states for its counts (0 for an exact counter)."""
    from nqueens_cp.core.errors import NQueensError

    try:
        return Configuration.parse(config, available=False).create().count_tolerance
    except NQueensError:
        return 0.0


def _check_counts(task: Task, instance: Instance, answered: Sequence[RunResult]) -> list[Check]:
    """For counting tasks: each count against the published one (an approximate counter within its
    stated tolerance), and the exact counts of every configuration against each other (``agreement``)."""
    n, fixed, source = instance.n, instance.fixed, task.source(instance)
    label = task.expected_label
    out: list[Check] = []

    def add(name: str, status: CheckStatus, config: str | None, summary: str, rep: int | None = None,
            evidence: Sequence[str] = ()) -> None:
        out.append(Check(name, status, n, config, summary, () if rep is None else (rep,), tuple(evidence), fixed,
                         source))

    exact: dict[int, list[str]] = {}
    for result in answered:
        run = result.record
        count = run.count or 0
        tolerance = count_tolerance(run.config)
        if tolerance == 0:
            exact.setdefault(count, []).append(run.config)
        if run.expected is None:
            add("count", NOT_RUN, run.config, f"count {count}: no published count ({label}) to check against",
                run.repetition)
        elif tolerance == 0:
            status = PASS if count == run.expected else FAIL
            add("count", status, run.config, f"count {count} {'=' if status == PASS else '!='} {label} "
                f"{run.expected}", run.repetition)
        else:
            inside = count_within_tolerance(count, run.expected, tolerance)
            add("count", PASS if inside else FAIL, run.config,
                f"approximate count {count} {'within' if inside else 'outside'} a factor {1 + tolerance:g} of "
                f"{label} {run.expected}", run.repetition)
    configs = {r.record.config for r in answered}
    if len(configs) < 2:
        return out
    if len(exact) > 1:
        evidence = [f"{count}: {', '.join(sorted(set(names)))}" for count, names in sorted(exact.items())]
        add("agreement", FAIL, None, f"the exact counters disagree ({len(exact)} different counts)", evidence=evidence)
    elif exact:
        count, names = next(iter(exact.items()))
        add("agreement", PASS, None, f"every exact count is {count} ({len(set(names))} configurations)")
    return out


def _check_family(task: FamilyTask, instance: Instance, results: Sequence[RunResult]) -> list[Check]:
    """The checks of a family task's runs of one board: a count or every placement as the classic
    tasks' are checked, a first placement or an optimum by :mod:`nqueens_cp.harness.family_validation`."""
    answered = [r for r in results if r.record.status == RunStatus.ANSWERED]
    if task.family_question is FamilyQuestion.COUNT:
        return _check_counts(task, instance, answered)
    if task.family_question is FamilyQuestion.ALL:
        return _check_boards(task, instance, answered) + _compare_sets(task, instance, answered)
    if task.family_question is FamilyQuestion.FIRST:
        return check_witnesses(task, instance, results) + check_placements(task, instance, answered)
    return check_witnesses(task, instance, results) + check_optima(task, instance, results)


def validate(task: Task, results: Sequence[RunResult]) -> list[Check]:
    """Every check for ``results`` (any board sizes), instance by instance."""
    by_instance: dict[Instance, list[RunResult]] = {}
    for result in results:
        instance = result.instance if result.instance is not None else Instance(result.record.n, result.record.fixed)
        by_instance.setdefault(instance, []).append(result)
    checks: list[Check] = []
    for instance, group in by_instance.items():
        checks.extend(validate_instance(task, instance, group))
    return checks

