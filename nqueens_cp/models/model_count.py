"""Counting the models of a board's CNF *without* projection onto the queen variables.

A CNF of N-Queens (``build_cnf``) has the ``n²`` queen variables and the auxiliary variables of
its cardinality encoding. Its models, projected onto the queen variables, are exactly the
solutions; whether each solution has exactly one model (so that the model count equals the solution
count) depends on the encoding: auxiliary variables that are *defined* by the queens (commander,
the ladder) leave one model per solution, others (product, bimander, bitwise, the sequential
counter, ...) can take several values when a line is empty.

:func:`models_per_solution` counts, for one solution, the assignments of the auxiliary variables
that satisfy the CNF: it fixes the queen variables, drops the satisfied clauses, counts each
connected group of auxiliary variables (joined by a remaining clause) by enumeration with a SAT
solver, multiplies, and doubles for every auxiliary variable left in no clause. The lines of the
board have disjoint auxiliary variables, so the groups are small (one line's encoding at most) and
many are the same up to renaming, which is remembered. A group with more than ``cap`` models is
counted as ``cap`` and the result is marked as a lower bound.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

__all__ = ["ModelCount", "ModelCounter", "solution_literals"]


@dataclass(frozen=True)
class ModelCount:
    """A number of models; ``exact`` is False when some part hit the cap (the number is a lower bound)."""

    models: int
    exact: bool = True

    def __mul__(self, other: ModelCount) -> ModelCount:
        return ModelCount(self.models * other.models, self.exact and other.exact)

    def __add__(self, other: ModelCount) -> ModelCount:
        return ModelCount(self.models + other.models, self.exact and other.exact)

    def __str__(self) -> str:
        return f"{self.models}" if self.exact else f">= {self.models}"


def solution_literals(solution: Sequence[int]) -> list[int]:
    """The queen literals of a board: square ``(r, c)`` is variable ``r*n + c + 1``, every other square false."""
    n = len(solution)
    return [r * n + c + 1 if solution[r] == c else -(r * n + c + 1) for r in range(n) for c in range(n)]


@dataclass
class ModelCounter:
    """Counts models of one CNF over ``variables`` variables with the queen variables fixed in turn."""

    clauses: Sequence[Sequence[int]]
    variables: int
    cap: int = 100_000
    solver: str = "minisat22"
    _known: dict[tuple[tuple[int, ...], ...], ModelCount] = field(default_factory=dict, repr=False)

    def models_per_solution(self, queens: Sequence[int]) -> ModelCount:
        """Models of the CNF that agree with ``queens`` (a literal for every queen variable)."""
        fixed = {abs(lit): lit > 0 for lit in queens}
        remaining: list[list[int]] = []
        for clause in self.clauses:
            kept: list[int] = []
            satisfied = False
            for lit in clause:
                if abs(lit) in fixed:
                    if fixed[abs(lit)] == (lit > 0):
                        satisfied = True
                        break
                else:
                    kept.append(lit)
            if satisfied:
                continue
            if not kept:
                return ModelCount(0)
            remaining.append(kept)
        groups = _connected_groups(remaining)
        free = self.variables - len(fixed) - sum(len(variables) for variables, _ in groups)
        total = ModelCount(2**free)
        for variables, group_clauses in groups:
            total = total * self._group_models(variables, group_clauses)
            if total.models == 0:
                break
        return total

    def total(self, solutions: Sequence[Sequence[int]]) -> ModelCount:
        """Models of the CNF summed over ``solutions`` (every board it allows, for the full count)."""
        count = ModelCount(0)
        for solution in solutions:
            count = count + self.models_per_solution(solution_literals(solution))
        return count

    def _group_models(self, variables: list[int], clauses: list[list[int]]) -> ModelCount:
        rename = {v: i for i, v in enumerate(variables, start=1)}
        key = tuple(sorted(tuple(sorted((rename[abs(lit)] if lit > 0 else -rename[abs(lit)]) for lit in clause))
                           for clause in clauses))
        if key not in self._known:
            self._known[key] = self._enumerate([list(clause) for clause in key], len(variables))
        return self._known[key]

    def _enumerate(self, clauses: list[list[int]], variables: int) -> ModelCount:
        from pysat.solvers import Solver

        count = 0
        with Solver(name=self.solver, bootstrap_with=clauses) as solver:
            while solver.solve():
                count += 1
                if count >= self.cap:
                    return ModelCount(count, exact=False)
                model = solver.get_model()
                solver.add_clause([-lit for lit in model[:variables]])
        return ModelCount(count)


def _connected_groups(clauses: list[list[int]]) -> list[tuple[list[int], list[list[int]]]]:
    """The clauses split into groups that share no variable: (sorted variables, clauses) per group."""
    parent: dict[int, int] = {}

    def find(v: int) -> int:
        while parent.setdefault(v, v) != v:
            parent[v] = parent[parent[v]]
            v = parent[v]
        return v

    for clause in clauses:
        first = find(abs(clause[0]))
        for lit in clause[1:]:
            other = find(abs(lit))
            if other != first:
                parent[other] = first
    grouped: dict[int, tuple[set[int], list[list[int]]]] = {}
    for clause in clauses:
        root = find(abs(clause[0]))
        variables, members = grouped.setdefault(root, (set(), []))
        variables.update(abs(lit) for lit in clause)
        members.append(clause)
    return [(sorted(variables), members) for variables, members in grouped.values()]
