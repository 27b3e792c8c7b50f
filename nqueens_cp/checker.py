"""The independent validity checker.

It shares no code with any backend on purpose: it re-derives every rule from the definition
(n queens, one per row, no two in a column or on a diagonal, pre-placed queens respected, no
queen on a blocked square) by
comparing every pair of queens, so a bug in a backend's bookkeeping cannot hide here too.
"""

from __future__ import annotations

from typing import Sequence

from .instance import Instance


def solution_problems(instance: Instance, solution: Sequence[int]) -> list[str]:
    """Every reason ``solution`` is not a solution of ``instance``; empty when it is valid."""
    from .arguments import require_instance, require_solution

    require_instance(instance)
    require_solution(solution)
    n = instance.n
    problems: list[str] = []
    if not isinstance(solution, tuple):
        problems.append(f"not a tuple: {type(solution).__name__}")
    if len(solution) != n:
        return [*problems, f"has {len(solution)} entries, expected {n}"]
    for row, col in enumerate(solution):
        if isinstance(col, bool) or not isinstance(col, int):
            problems.append(f"row {row}: column {col!r} is not an int")
        elif not 0 <= col < n:
            problems.append(f"row {row}: column {col} is off the board")
    if problems:
        return problems
    for row_a in range(n):
        for row_b in range(row_a + 1, n):
            col_a, col_b = solution[row_a], solution[row_b]
            if col_a == col_b:
                problems.append(f"rows {row_a} and {row_b} share column {col_a}")
            elif abs(col_a - col_b) == row_b - row_a:
                problems.append(f"rows {row_a} and {row_b} share a diagonal")
    for row, col in instance.fixed:
        if solution[row] != col:
            problems.append(f"row {row}: pre-placed queen at column {col}, solution has {solution[row]}")
    blocked = set(instance.blocked)
    for row, col in enumerate(solution):
        if (row, col) in blocked:
            problems.append(f"row {row}: queen on the blocked square at column {col}")
    return problems


def is_valid_solution(instance: Instance, solution: Sequence[int]) -> bool:
    """Whether ``solution`` solves ``instance``."""
    return not solution_problems(instance, solution)
