"""``compare --certify``: each count and each "no solution" of a board size, certified or not.

After a board size is validated, every instance on which a configuration answered with a count
(tasks that enumerate) or with "no solution" (tasks that ask for one) is solved once more by the
``sat`` backend with a DRUP proof, and the proof, the solutions and the CNF are checked
(:mod:`nqueens_cp.proofs.certificate`, ``docs/certified.md``). That run is made in a child
process stopped after the comparison's ``--timeout``. Its verdict is a ``certificate`` check:

- PASS for the instance when the certified count is the count every configuration reported
  (or "no solution" is certified for every configuration that said so);
- FAIL for a configuration whose answer differs from the certified one, and for a certificate
  that failed its check;
- NOT_RUN when the certification did not finish in time, or cannot apply (``--unique``).

An instance on which every configuration found a board needs no certificate: the boards are
checked by the independent checker (the ``validity`` check).
"""

from __future__ import annotations

import enum
import multiprocessing
from dataclasses import dataclass
from typing import Any, Sequence

from nqueens_cp.core.instance import Instance
from nqueens_cp.harness.results import FAIL, NOT_RUN, PASS, Check, RunStatus
from nqueens_cp.harness.runner import RunResult
from nqueens_cp.harness.tasks import Task
from nqueens_cp.system.processes import start_method


class Certification(enum.Enum):
    """What became of one instance's certification."""

    #: The count (or "no solution") came with a proof, and the proof checked.
    CERTIFIED = "certified"
    #: The task asks for one board and one was found (checked by the independent checker: no proof needed).
    FOUND = "found"
    #: The certifying solver failed, its certificate failed its check, or its process died.
    FAILED = "failed"
    #: The certification did not finish within the comparison's timeout.
    TIMED_OUT = "timeout"


@dataclass(frozen=True)
class CertificationOutcome:
    """A certification's kind, the count it certified (0 unless ``CERTIFIED`` or ``FOUND``) and what it says."""

    kind: Certification
    count: int
    text: str


def _certify_child(connection: Any, instance: Instance, every: bool) -> None:
    """In the child: certify ``instance`` and send a :class:`CertificationOutcome` back."""
    from nqueens_cp.backends.sat import SatBackend
    from nqueens_cp.core.errors import NQueensError

    try:
        found: list[object] = []
        certificate = SatBackend().certified(instance, every=every, on_solution=found.append)
        if certificate is None:
            outcome = CertificationOutcome(Certification.FOUND, 1, f"a solution exists: {found[0]}, checked")
        else:
            outcome = CertificationOutcome(Certification.CERTIFIED, certificate.solutions, certificate.summary())
        connection.send(outcome)
    except NQueensError as error:
        connection.send(CertificationOutcome(Certification.FAILED, 0, str(error)))
    finally:
        connection.close()


def certify_in_child(instance: Instance, every: bool, timeout: float) -> CertificationOutcome:
    """Certify ``instance`` in a child process stopped after ``timeout`` s (``TIMED_OUT`` then)."""
    context: Any = multiprocessing.get_context(start_method())
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_certify_child, args=(sender, instance, every), daemon=True)
    child.start()
    sender.close()
    try:
        if receiver.poll(timeout):
            outcome: CertificationOutcome = receiver.recv()
            return outcome
        return CertificationOutcome(
            Certification.TIMED_OUT, 0, f"the certification did not finish within {timeout:g} s")
    except EOFError:
        return CertificationOutcome(
            Certification.FAILED, 0, f"the certifying process died (exit status {child.exitcode})")
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        receiver.close()


def certificate_checks(task: Task, results: Sequence[RunResult], timeout: float) -> list[Check]:
    """The ``certificate`` checks of one board size's runs (see the module docstring)."""
    by_instance: dict[Instance, list[RunResult]] = {}
    for result in results:
        if result.instance is not None and result.record.status == RunStatus.ANSWERED:
            by_instance.setdefault(result.instance, []).append(result)
    checks: list[Check] = []
    for instance, runs in by_instance.items():
        n, fixed, source = instance.n, instance.fixed, runs[0].record.source
        if task.per_symmetry_class:
            checks.append(Check("certificate", NOT_RUN, n, None,
                                "counts of symmetry classes are not certified (lex-leader clauses)", fixed=fixed, source=source))
            continue
        negative = [r for r in runs if r.record.count == 0]
        if not task.exhaustive and not negative:
            continue  # boards found: the independent checker checked them
        outcome = certify_in_child(instance, task.exhaustive, timeout)
        count, text = outcome.count, outcome.text
        if outcome.kind is Certification.TIMED_OUT:
            checks.append(Check("certificate", NOT_RUN, n, None, text, fixed=fixed, source=source))
            continue
        if outcome.kind is Certification.FAILED:
            checks.append(Check("certificate", FAIL, n, None, f"certification failed: {text}", fixed=fixed, source=source))
            continue
        wrong = [r for r in runs if (r.record.count != count if task.exhaustive else
                                     (r.record.count == 0) != (count == 0))]
        for run in wrong:
            said = f"count {run.record.count}" if task.exhaustive else "no solution"
            checks.append(Check("certificate", FAIL, n, run.record.config,
                                f"{said}, but {text}", (run.record.repetition,), fixed=fixed, source=source))
        if not wrong:
            answer = f"count {count}" if task.exhaustive else "no solution"
            checks.append(Check("certificate", PASS, n, None, f"{answer}: {text}", fixed=fixed, source=source))
    return checks
