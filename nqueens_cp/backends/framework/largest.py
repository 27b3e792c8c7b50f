"""The largest board each backend takes before refusing it with one line (the bounds of
:mod:`~nqueens_cp.backends.framework.limits`), found by bisection; apart from ``limits`` because it looks the
backends up, and the backends' base class checks those bounds."""

from __future__ import annotations

from typing import Mapping

from nqueens_cp.backends.framework.limits import (
    COUNT_MAX_N,
    CPSAT_MAX_N,
    ROW_ORDER_FIRST_MAX_N,
    ModelEstimate,
    asp_estimate,
    budget_mb,
    cnf_estimate,
    cpsat_estimate,
    first_solution_bound,
    linear_estimate,
    mip_estimate,
    pb_estimate,
    row_model_estimate,
    smt_estimate,
)
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cpsat import resolve_strategy


def largest_accepted_n(backend: str, options: Mapping[str, str] | None = None) -> int:
    """The largest board a backend (with the default options, or ``options``) takes before refusing
    it with one line: for a first solution, or for a count if it only counts. It is found by
    bisection over the bounds of this module (the memory estimates against the budget,
    :func:`budget_mb`, and the time bounds); a backend with none takes every board its class's
    ``max_n`` allows."""
    from nqueens_cp.backends.framework.base import Answer
    from nqueens_cp.backends.framework.registry import backend_class

    options = options or {}
    counts_only = Answer.FIRST not in backend_class(backend).answers
    bound = COUNT_MAX_N.get(backend) if counts_only else first_solution_bound(backend, options)
    if backend == "bdd":
        from nqueens_cp.backends.bdd import BDD_MAX_N

        bound = BDD_MAX_N

    def estimate(board: Instance) -> ModelEstimate | None:
        if backend in ("sat", "ganak", "approxmc"):
            from nqueens_cp.models.cnf import DEFAULT_ENCODING

            return cnf_estimate(board, options.get("encoding", DEFAULT_ENCODING))
        if backend in ("choco", "xcsp3", "cpmpy"):
            return row_model_estimate(board, backend)
        if backend == "cpsat":
            median = resolve_strategy(options.get("strategy", "auto"), "first").encodes_every_value
            return cpsat_estimate(board.n, options.get("model", "alldiff"), median_branching=median)
        if backend == "asp":
            return asp_estimate(board, options.get("formulation", "lines"))
        if backend == "pb":
            return pb_estimate(board, options.get("formulation", "lines"))
        if backend == "smt":
            return smt_estimate(board, options.get("model", "bool"))
        if backend == "mip":
            return mip_estimate(board, options.get("formulation", "lines"))
        if backend == "localsearch":
            from nqueens_cp.backends.localsearch import BYTES_PER_ROW as SEARCH_BYTES

            return linear_estimate("", board.n, SEARCH_BYTES[options.get("method", "swap")], as_tuple=False, instead="")
        if backend == "construction":
            from nqueens_cp.backends.construction import BYTES_PER_ROW as CONSTRUCTION_BYTES

            return linear_estimate("", board.n, CONSTRUCTION_BYTES, as_tuple=False, instead="")
        return None

    def fits(n: int) -> bool:
        if bound is not None and n > bound:
            return False
        if backend == "cpsat" and options.get("model", "alldiff") == "alldiff" and n > CPSAT_MAX_N:
            return False
        row_order = options.get("search", "rows" if backend == "bitboard" else "auto") == "rows"
        if backend in ("bitboard", "backtrack") and row_order and not counts_only and n > ROW_ORDER_FIRST_MAX_N:
            return False
        found = estimate(Instance(n))
        return found is None or found.megabytes <= budget_mb()

    low, high = 0, backend_class(backend).max_n  # fits(low) holds: an empty board takes nothing
    if fits(high):
        return high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if fits(middle) else (low, middle)
    return low
