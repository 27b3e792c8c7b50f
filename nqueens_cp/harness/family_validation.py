"""The checks of the family task's answers that the classic tasks do not have: each witness by the
independent checker (``validity``), a first placement against the other configurations' and OEIS
(``answer``, ``count``), and an optimum against the published term, the other configurations'
proofs and every valid witness (``optimum``, ``agreement``, ``contradiction``). A count or every
placement is checked as the classic tasks' are (:mod:`nqueens_cp.harness.validation`, which
dispatches here)."""

from __future__ import annotations

from typing import Sequence, cast

from nqueens_cp.core.family_checker import witness_problems, witness_value
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.problems import Direction
from nqueens_cp.harness.family_tasks import FamilyTask
from nqueens_cp.harness.results import EXAMPLES, FAIL, NOT_RUN, PASS, Check, RunStatus, board_text
from nqueens_cp.harness.runner import RunResult


def check_witnesses(task: FamilyTask, instance: Instance, results: Sequence[RunResult]) -> list[Check]:
    """Each run's witness passed by the independent checker, and of the value the run claims."""
    n, problem = instance.n, task.family_problem
    out: list[Check] = []
    for result in results:
        run, answer = result.record, result.family
        if answer is None or answer.witness is None:
            continue
        problems = witness_problems(problem, n, answer.witness)
        value = witness_value(problem, answer.witness) if not problems else None
        if problems:
            out.append(Check("validity", FAIL, n, run.config, f"the witness is invalid: {problems[0]}",
                             (run.repetition,), tuple(problems[1:EXAMPLES + 1])))
        elif answer.value != value:
            out.append(Check("validity", FAIL, n, run.config, f"claims the value {answer.value} for a witness of "
                             f"value {value}", (run.repetition,)))
        else:
            out.append(Check("validity", PASS, n, run.config, f"witness valid (independent checker), value {value}",
                             (run.repetition,)))
    return out


def check_placements(task: FamilyTask, instance: Instance, answered: Sequence[RunResult]) -> list[Check]:
    """A first placement: "none" only when no configuration found one, and as OEIS says."""
    n, expected, label = instance.n, task.expected_count(instance), task.expected_label

    def placement(result: RunResult) -> Sequence[int] | None:
        witness = None if result.family is None else result.family.witness
        valid = witness is not None and not witness_problems(task.family_problem, n, witness)
        return cast("tuple[int, ...]", witness) if valid else None

    found_by = [(r.record.config, board) for r in answered if (board := placement(r)) is not None]
    out: list[Check] = []
    for result in answered:
        run = result.record
        found = placement(result) is not None
        if found:
            out.append(Check("answer", PASS, n, run.config, "found a valid placement", (run.repetition,)))
        elif found_by:
            config, board = found_by[0]
            out.append(Check("answer", FAIL, n, run.config, "found no placement, but another configuration found one",
                             (run.repetition,), (f"{config}: {board_text(board)}",)))
        else:
            out.append(Check("answer", PASS, n, run.config, "no placement, and no configuration found one",
                             (run.repetition,)))
        if expected is not None:
            said, told = ("a placement" if found else "none"), ("a placement" if expected else "none")
            out.append(Check("count", PASS if found == bool(expected) else FAIL, n, run.config,
                             f"answered {said}; {label} says {told}", (run.repetition,)))
    return out


def _better(direction: Direction, value: int, than: int) -> bool:
    return value < than if direction is Direction.MINIMISE else value > than


def check_optima(task: FamilyTask, instance: Instance, results: Sequence[RunResult]) -> list[Check]:
    """An optimum's checks, beside each witness's validity:

    * ``optimum``: each proved optimum equals the published term (OEIS), and no witness beats it;
    * ``agreement``: the configurations that proved an optimum proved the same one;
    * ``contradiction``: no configuration claims a proved optimum (or, stopped first, a bound)
      that another configuration's valid witness beats: "nothing below 6" beside a witness of 5
      is a false proof, whichever run is right about the rest.
    """
    n, problem, label = instance.n, task.family_problem, task.expected_label
    direction = problem.direction
    assert direction is not None
    expected = task.expected_count(instance)
    out: list[Check] = []
    valid: list[tuple[str, int, int]] = []  # (config, repetition, value) of every valid witness
    claims: list[tuple[str, int, int, str]] = []  # (config, repetition, value, what: a proved optimum or a bound)
    for result in results:
        run, answer = result.record, result.family
        if answer is None:
            continue
        if answer.witness is not None and not witness_problems(problem, n, answer.witness) and answer.value is not None:
            valid.append((run.config, run.repetition, answer.value))
        if run.status == RunStatus.ANSWERED and answer.proved and answer.value is not None:
            claims.append((run.config, run.repetition, answer.value, "a proved optimum"))
        elif answer.bound is not None:
            claims.append((run.config, run.repetition, answer.bound, "a proved bound"))
    for result in results:
        run, answer = result.record, result.family
        if answer is None or answer.value is None:
            continue
        reps = (run.repetition,)
        if expected is not None and _better(direction, answer.value, expected):
            out.append(Check("optimum", FAIL, n, run.config, f"a witness of {answer.value} beats the published "
                             f"{label} {expected}", reps))
        elif run.status != RunStatus.ANSWERED:
            continue
        elif expected is None:
            out.append(Check("optimum", NOT_RUN, n, run.config, f"proved {answer.value}: no published {label} term "
                             "to check against", reps))
        elif answer.value == expected:
            out.append(Check("optimum", PASS, n, run.config, f"proved {answer.value} = {label} {expected}", reps))
        else:
            out.append(Check("optimum", FAIL, n, run.config, f"proved {answer.value}, {label} says {expected}", reps))
    for config, claim_rep, claim, what in claims:
        beaten = [(other, other_rep, value) for other, other_rep, value in valid if _better(direction, value, claim)]
        others = [entry for entry in valid if entry[0] != config]
        if beaten:
            out.append(Check("contradiction", FAIL, n, config, f"claims {what} of {claim}, but a valid witness "
                             f"achieves {beaten[0][2]}", (claim_rep,),
                             tuple(f"{other} (repetition {other_rep}): a witness of {value}"
                                   for other, other_rep, value in beaten[:EXAMPLES])))
        elif others:
            out.append(Check("contradiction", PASS, n, config, f"{what} of {claim}: no witness of another "
                             f"configuration beats it ({len(others)} compared)", (claim_rep,)))
    proved: dict[int, set[str]] = {}
    for config, _, claim, what in claims:
        if what == "a proved optimum":
            proved.setdefault(claim, set()).add(config)
    if len({config for configs in proved.values() for config in configs}) >= 2:
        if len(proved) > 1:
            out.append(Check("agreement", FAIL, n, None, f"the proved optima disagree ({len(proved)} values)", (),
                             tuple(f"{value}: {', '.join(sorted(configs))}" for value, configs in sorted(proved.items()))))
        else:
            value, configs = next(iter(proved.items()))
            out.append(Check("agreement", PASS, n, None, f"every proved optimum is {value} ({len(configs)} "
                             "configurations)"))
    return out
