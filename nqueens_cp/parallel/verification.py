"""Checks of a split run's counts: ``verify`` pairs, and the total against OEIS with a recount.

With ``verify`` every sub-problem is counted twice, by the run's backend and by the plan's
checker (see :mod:`.planning`): a row sub-problem by another backend or kernel, a batch of start
constellations by the checker's row search of each constellation
(:meth:`~nqueens_cp.backends.framework.base.Backend.recount_constellation_batch`), none of the
constellation finishing code. The first of the two counts waits for the other; any difference
raises :class:`~nqueens_cp.core.errors.WrongCountError`.

A finished total of an instance without pre-placed queens is checked against OEIS (A000170, or
A002562 with ``unique``) where known. On a mismatch every sub-problem is counted again the same
independent way; the sub-problems whose counts differ are named (and removed from the checkpoint,
so that the same command computes them anew), and the error is raised in every case.
"""

from __future__ import annotations

from collections import deque
from typing import Callable, Iterator

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.core.errors import WrongCountError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import published_count
from nqueens_cp.parallel.executors import Outcome
from nqueens_cp.parallel.planning import RunPlan
from nqueens_cp.parallel.split import SubProblem
from nqueens_cp.parallel.tasks import SubResult, SubTask


class Verification:
    """The second counts of one run: how to ask for them, and what to make of them."""

    def __init__(self, instance: Instance, backend: Backend, plan: RunPlan, *, unique: bool, verify: bool) -> None:
        self.instance = instance
        self.backend = backend
        self.plan = plan
        self.unique = unique
        self.verify = verify
        self._unconfirmed: dict[int, SubResult] = {}  # verify: the first of the two counts to arrive

    def check_task(self, sub: SubProblem) -> SubTask:
        """The task that counts ``sub`` a second time, independently of the run's own task."""
        checker = self.plan.checker
        options = tuple(sorted(checker.options.items()))
        if sub.batches:
            return SubTask(
                index=sub.index, instance=sub.instance, backend=type(self.backend),
                options=tuple(sorted(self.backend.options.items())), memory_budget_mb=self.backend.memory_budget_mb,
                unique=self.unique,
                batch=(sub.index, sub.batches), check=True, counter=type(checker), counter_options=options,
            )
        return SubTask(index=sub.index, instance=sub.instance, backend=type(checker), options=options,
                       memory_budget_mb=self.backend.memory_budget_mb, unique=self.unique, check=True)

    def confirm(self, sub: SubProblem, task: SubTask, result: SubResult) -> SubResult | None:
        """``verify``: the run's result once both counts of ``sub`` are in and agree, else None.

        Raises :class:`WrongCountError` when the two counts differ.
        """
        other = self._unconfirmed.pop(sub.index, None)
        if other is None:
            self._unconfirmed[sub.index] = result
            return None
        checked, own = (result, other) if task.check else (other, result)
        if checked.count != own.count:
            raise WrongCountError(
                f"verify: sub-problem {sub.label()} of {self.instance}: {Configuration.of(self.backend).label} "
                f"counted {own.count}, {self._checking()} counted {checked.count}; no result reported"
            )
        return own

    def _checking(self) -> str:
        label = self.plan.checker_label
        return f"the row search of {label}" if self.plan.by_constellations else label

    def check_total(
        self,
        total: int,
        counts: list[tuple[int, int]],
        *,
        run: Callable[[deque[SubTask]], Iterator[Outcome]],
        notify: Callable[[str], None] | None,
        forget: Callable[[list[int]], str] | None,
    ) -> None:
        """Raise :class:`WrongCountError` when ``total`` differs from OEIS, naming the sub-problems.

        ``run`` runs the recount tasks; ``forget`` removes the wrong sub-problems' results from the
        checkpoint and says where (None without one).
        """
        known = published_count(self.instance, unique=self.unique)
        if known is None or total == known[0]:
            return
        expected, name = known
        what = f"total {total} of {self.instance} differs from OEIS {name}({self.instance.n}) = {expected}"
        if self.verify:
            raise WrongCountError(f"{what}, although {self._checking()} confirmed every sub-problem; no result reported")
        if notify is not None:
            notify(f"{what}: counting every sub-problem again with {self._checking()}")
        queue = deque(self.check_task(sub) for sub in self.plan.split.subproblems)
        recounted = {o.task.index: o.result.count for o in run(queue) if o.result is not None}
        by_index = {sub.index: sub for sub in self.plan.split.subproblems}
        wrong = [(index, count) for index, count in counts if index in recounted and recounted[index] != count]
        if not wrong:
            unchecked = len(self.plan.split) - len(recounted)
            detail = (f"{unchecked} sub-problem(s) could not be counted again" if unchecked
                      else f"{self._checking()} agrees on every sub-problem")
            raise WrongCountError(f"{what}; {detail}; no result reported")
        shown = [f"{by_index[index].label()} counted {count}, {self._checking()} counts {recounted[index]}"
                 for index, count in wrong]
        text = "; ".join(shown[:10]) + (f"; ... {len(shown)} in all" if len(shown) > 10 else "")
        forgotten = forget([index for index, _ in wrong]) if forget is not None else ""
        raise WrongCountError(f"{what}; wrong sub-problem(s){forgotten}: {text}; no result reported")
