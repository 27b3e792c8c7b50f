"""The independent validity checker.

It shares no code with any backend on purpose: it re-derives every rule from the definition
(n queens, one per row, no two in a column or on a diagonal, pre-placed queens respected, no
queen on a blocked square). Up to ``PAIRWISE_MAX_N`` rows it compares every pair of queens; on
larger boards (and for numpy arrays, as the local search and the constructions give) it marks,
for each column and each diagonal, the queens standing on it (numpy, O(n): a board of 10^8 rows
in seconds), and names two queens of a line that holds more than one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from .instance import Instance

if TYPE_CHECKING:
    import numpy.typing as npt

#: Boards up to this size are checked pair by pair; larger ones line by line (O(n)).
PAIRWISE_MAX_N = 200


def solution_problems(instance: Instance, solution: Sequence[int] | npt.NDArray[Any]) -> list[str]:
    """Every reason ``solution`` is not a solution of ``instance``; empty when it is valid (a tuple, or
    a numpy array of columns on the O(n) path)."""
    from .arguments import require_instance, require_solution

    require_instance(instance)
    require_solution(solution)
    n = instance.n
    problems: list[str] = []
    if not isinstance(solution, tuple) and type(solution).__module__ != "numpy":
        problems.append(f"not a tuple: {type(solution).__name__}")
    if len(solution) != n:
        return [*problems, f"has {len(solution)} entries, expected {n}"]
    if n > PAIRWISE_MAX_N or not isinstance(solution, (tuple, list)):
        return problems + _line_problems(instance, solution)
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


def _line_problems(instance: Instance, solution: Sequence[int] | npt.NDArray[Any]) -> list[str]:
    """The checks of :func:`solution_problems`, line by line in O(n) (numpy)."""
    import numpy as np

    n = instance.n
    problems: list[str] = []
    if isinstance(solution, np.ndarray):
        if solution.ndim != 1 or solution.dtype.kind not in "iu":
            return [f"not a 1-d array of integers: {solution.dtype} of shape {solution.shape}"]
    else:
        for row, col in enumerate(solution):
            if isinstance(col, bool) or not isinstance(col, int):
                return [f"row {row}: column {col!r} is not an int"]
    cols = np.asarray(solution, dtype=np.int64)
    off = np.flatnonzero((cols < 0) | (cols >= n))
    if off.size:
        return [f"row {int(off[0])}: column {int(cols[off[0]])} is off the board"]
    index = np.int32 if 2 * n + 1 < 2**31 else np.int64  # half the memory traffic of int64
    cols = cols.astype(index)
    rows = np.arange(n, dtype=index)
    for line, values in (("column", cols), ("sum diagonal", rows + cols), ("difference diagonal", rows - cols + n)):
        seen = np.zeros(2 * n + 1, dtype=np.bool_)
        seen[values] = True
        if int(np.count_nonzero(seen)) != n:  # a line holds two queens: name the first such pair
            del seen
            counts = np.bincount(values)
            value = int(np.flatnonzero(counts > 1)[0])
            first, second = (int(r) for r in np.flatnonzero(values == value)[:2])
            where = f"column {value}" if line == "column" else f"a {line}"
            problems.append(f"rows {first} and {second} share {where}")
        del values
    for row, col in instance.fixed:
        if cols[row] != col:
            problems.append(f"row {row}: pre-placed queen at column {col}, solution has {int(cols[row])}")
    for row, col in instance.blocked:
        if cols[row] == col:
            problems.append(f"row {row}: queen on the blocked square at column {col}")
    return problems


def is_valid_solution(instance: Instance, solution: Sequence[int] | npt.NDArray[Any]) -> bool:
    """Whether ``solution`` solves ``instance``."""
    return not solution_problems(instance, solution)
