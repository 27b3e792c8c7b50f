"""The at-most-one encoders of nqueens_cp.models.amo on their own, checked exhaustively.

For every small number of literals ``m`` and several option values: every assignment of the
inputs with at most one true extends to a model and none with two or more does (projection onto
the inputs), by brute force over every assignment of inputs and auxiliary variables, with no
solver; and the models are counted, to say whether the model count equals the count of allowed
input assignments without projection (it does for commander, not for product and bimander). For
larger ``m`` a SAT solver checks the same projection on every assignment with 0, 1 or 2 true
inputs (two true inputs forbidden means any more are too). The size formulas are checked against
the generated clauses.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, product
from typing import Any

import pytest

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.models.amo import (
    AMO_ENCODERS,
    DEFAULT_OPTIONS,
    Cost,
    atmost_one,
    atmost_one_size,
    bimander,
    commander,
    pairwise,
)

#: Every encoder with its default and with other values of its option.
CASES: list[tuple[str, dict[str, int]]] = [
    ("commander", {}),
    ("commander", {"group_size": 2}),
    ("commander", {"group_size": 4}),
    ("product", {}),
    ("product", {"pairwise_up_to": 2}),
    ("product", {"pairwise_up_to": 3}),
    ("bimander", {}),
    ("bimander", {"group_size": 1}),
    ("bimander", {"group_size": 3}),
]


def case_id(case: Any) -> str:
    encoding, options = case
    return ":".join([encoding, *(f"{k}={v}" for k, v in options.items())])


class Pool:
    """A minimal variable pool: ``id()`` returns the next free variable (the interface IDPool offers)."""

    def __init__(self, top: int) -> None:
        self.top = top

    def id(self, obj: object = None) -> int:
        assert obj is None, "the encoders ask for fresh variables only"
        self.top += 1
        return self.top


def encode(encoding: str, options: dict[str, int], m: int) -> tuple[list[list[int]], int]:
    """The clauses for at most one of variables 1..m, and the highest variable used."""
    pool = Pool(m)
    clauses = atmost_one(encoding, list(range(1, m + 1)), pool, options)
    return clauses, pool.top


def extensions_by_input(encoding: str, options: dict[str, int], m: int) -> dict[tuple[bool, ...], int]:
    """For each assignment of variables 1..m: how many assignments of the auxiliaries satisfy every clause."""
    return _extensions(encoding, tuple(sorted(options.items())), m)


@cache
def _extensions(encoding: str, options: tuple[tuple[str, int], ...], m: int) -> dict[tuple[bool, ...], int]:
    clauses, top = encode(encoding, dict(options), m)
    if top > 16:  # too many variables to try every assignment: enumerate the auxiliaries with a solver
        return {inputs: solver_extensions(clauses, m, top, inputs) for inputs in product((False, True), repeat=m)}
    aux = top - m
    counts: dict[tuple[bool, ...], int] = {}
    for inputs in product((False, True), repeat=m):
        count = 0
        for extra in product((False, True), repeat=aux):
            value = (False, *inputs, *extra)  # value[v] for variable v
            if all(any(value[lit] if lit > 0 else not value[-lit] for lit in clause) for clause in clauses):
                count += 1
        counts[inputs] = count
    return counts


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("m", range(0, 8))
def test_projection_is_exactly_at_most_one(case: tuple[str, dict[str, int]], m: int) -> None:
    encoding, options = case
    clauses, top = encode(encoding, options, m)
    assert all(0 < abs(lit) <= top for clause in clauses for lit in clause)
    for inputs, count in extensions_by_input(encoding, options, m).items():
        if sum(inputs) <= 1:
            assert count >= 1, (inputs, "an allowed assignment has no model")
        else:
            assert count == 0, (inputs, "two true inputs have a model")


def product_models(m: int, base: int) -> int:
    """Models of product(m literals) over inputs and auxiliaries: with all inputs false the two
    sub-encodings are free, each with (its models) assignments; with one input true everything is fixed."""
    if m <= base:
        return m + 1
    p = next(r for r in range(1, m + 1) if r * r >= m)
    q = -(-m // p)
    return product_models(p, base) * product_models(q, base) + m


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("m", range(0, 8))
def test_model_counts_without_projection(case: tuple[str, dict[str, int]], m: int) -> None:
    """commander: one model per allowed input assignment (m + 1 models, its auxiliaries are defined).
    product and bimander: one model when an input is true, several when none is."""
    encoding, options = case
    top = encode(encoding, options, m)[1]
    counts = extensions_by_input(encoding, options, m)
    allowed = {inputs: count for inputs, count in counts.items() if sum(inputs) <= 1}
    empty = allowed.pop((False,) * m)
    assert all(count == 1 for count in allowed.values()), "one true input fixes every auxiliary variable"
    chosen = {**DEFAULT_OPTIONS[encoding], **options}
    if encoding == "commander":
        assert empty == 1
    elif encoding == "bimander":
        assert empty == 2 ** (top - m), "with no true input, the group-code bits are free"
    else:
        assert empty + m == product_models(m, chosen["pairwise_up_to"])
    if top > m and encoding != "commander":
        assert empty > 1, "the model count exceeds the allowed input assignments"


def solver_extensions(clauses: list[list[int]], m: int, top: int, inputs: tuple[bool, ...]) -> int:
    """How many assignments of variables m+1..top extend ``inputs``, by a solver blocking each one found."""
    from pysat.solvers import Solver

    fixed = [v if value else -v for v, value in enumerate(inputs, start=1)]
    count = 0
    assert top > m, "called for encodings with auxiliary variables only"
    with Solver(name="minisat22", bootstrap_with=[*clauses, *([lit] for lit in fixed)]) as solver:
        while solver.solve():
            count += 1
            solver.add_clause([-lit for lit in solver.get_model()[m:top]])
    return count


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("m", [8, 9, 12, 13, 17, 26])
def test_projection_by_solver_for_longer_lines(case: tuple[str, dict[str, int]], m: int) -> None:
    from pysat.solvers import Solver

    encoding, options = case
    clauses, _ = encode(encoding, options, m)
    lits = list(range(1, m + 1))
    with Solver(name="minisat22", bootstrap_with=clauses) as solver:
        assert solver.solve(assumptions=[-x for x in lits])
        for x in lits:
            assert solver.solve(assumptions=[x, *(-y for y in lits if y != x)]), x
        for x, y in combinations(lits, 2):
            assert not solver.solve(assumptions=[x, y]), (x, y)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_size_formula_matches_generation(case: tuple[str, dict[str, int]]) -> None:
    encoding, options = case
    for m in range(0, 70):
        clauses, top = encode(encoding, options, m)
        assert Cost(top - m, len(clauses)) == atmost_one_size(encoding, m, options), m


def test_pairwise_size_and_clauses() -> None:
    assert pairwise([1, 2, 3], Pool(3)) == [[-1, -2], [-1, -3], [-2, -3]]
    assert atmost_one_size("pairwise", 7) == Cost(0, 21)


@pytest.mark.parametrize("encoding", sorted(AMO_ENCODERS))
def test_short_lines_are_the_one_binary_clause(encoding: str) -> None:
    for options in ({}, *(opts for name, opts in CASES if name == encoding)):
        assert encode(encoding, options, 0) == ([], 0)
        assert encode(encoding, options, 1) == ([], 1)
        assert encode(encoding, options, 2) == ([[-1, -2]], 2)


def test_auxiliaries_come_from_the_shared_idpool() -> None:
    """With PySAT's IDPool, auxiliary variables follow the ones already named, and a second call
    continues after the first (so several lines share one numbering, as build_cnf needs)."""
    from pysat.formula import IDPool

    pool = IDPool()
    lits = [pool.id(("q", i)) for i in range(10)]
    first = commander(lits, pool)
    after_first = pool.top
    second = bimander(lits, pool)
    assert {abs(lit) for clause in first for lit in clause} - set(lits) == set(range(11, after_first + 1))
    assert {abs(lit) for clause in second for lit in clause} - set(lits) == set(range(after_first + 1, pool.top + 1))


def test_commander_default_example() -> None:
    """Seven literals, groups of 3: {1,2,3}→8, {4,5,6}→9, {7} commands itself; then 8, 9, 7 pairwise."""
    clauses = commander([1, 2, 3, 4, 5, 6, 7], Pool(7))
    expected = [
        [-1, -2], [-1, -3], [-2, -3], [-1, 8], [-2, 8], [-3, 8], [-8, 1, 2, 3],
        [-4, -5], [-4, -6], [-5, -6], [-4, 9], [-5, 9], [-6, 9], [-9, 4, 5, 6],
        [-8, -9], [-8, -7], [-9, -7],
    ]
    assert clauses == expected


def test_bimander_with_groups_of_one_is_the_binary_encoding() -> None:
    clauses = bimander([1, 2, 3, 4], Pool(4), group_size=1)
    assert clauses == [[-1, -5], [-1, -6], [-2, 5], [-2, -6], [-3, -5], [-3, 6], [-4, 5], [-4, 6]]


@pytest.mark.parametrize(("encoding", "options"), [
    ("commander", {"group_size": 1}),
    ("product", {"pairwise_up_to": 1}),
    ("bimander", {"group_size": 0}),
    ("commander", {"groups": 3}),
    ("nosuch", {}),
])
def test_bad_options_are_refused(encoding: str, options: dict[str, int]) -> None:
    with pytest.raises(BackendOptionError):
        atmost_one(encoding, [1, 2, 3, 4, 5], Pool(5), options)
