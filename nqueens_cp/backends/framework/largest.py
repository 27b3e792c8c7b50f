"""The largest board each backend takes before refusing it with one line (the bounds of
:mod:`~nqueens_cp.backends.framework.limits` and what the backend declares), found by bisection;
apart from ``limits`` because it looks the backends up, and the backends' base class checks those
bounds."""

from __future__ import annotations

from typing import Mapping

from nqueens_cp.backends.framework.limits import COUNT_MAX_N, budget_mb, first_solution_bound
from nqueens_cp.core.instance import Instance


def largest_accepted_n(
    backend: str, options: Mapping[str, str] | None = None, *, memory_budget_mb: float | None = None
) -> int:
    """The largest board a backend (with the default options, or ``options``) takes before refusing
    it with one line: for a first solution, or for a count if it only counts. It is found by
    bisection over the backend's declared bounds (its ``memory_estimate`` against the budget,
    ``memory_budget_mb`` or by default :func:`~nqueens_cp.backends.framework.limits.default_budget_mb`,
    and its ``reach``) and the time bounds; a backend with none takes every board its class's
    ``max_n`` allows."""
    from nqueens_cp.backends.framework.registry import backend_class

    options = options or {}
    cls = backend_class(backend)
    made = cls(memory_budget_mb=memory_budget_mb, **options)
    counts_only = cls.counts_only()
    bounds = [COUNT_MAX_N.get(backend) if counts_only else first_solution_bound(backend, options),
              made.reach(first=not counts_only)]
    budget = budget_mb(memory_budget_mb)

    def fits(n: int) -> bool:
        if any(bound is not None and n > bound for bound in bounds):
            return False
        found = made.memory_estimate(Instance(n))
        return found is None or found.megabytes <= budget

    low, high = 0, cls.max_n  # fits(low) holds: an empty board takes nothing
    if fits(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low
