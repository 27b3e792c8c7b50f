"""The independent validity checker.

It shares no code with any backend on purpose: it re-derives every rule from the definition
(n queens, one per row, no two in a column or on a diagonal, pre-placed queens respected, no
queen on a blocked square). Up to ``PAIRWISE_MAX_N`` rows it compares every pair of queens; on
larger boards (and for numpy arrays, as the local search and the constructions give) it marks,
for each column and each diagonal, the queens standing on it (numpy, O(n): a board of 10^8 rows
in seconds), and names two queens of a line that holds more than one.

What ``solve`` prints goes through the fast paths: :func:`board_problem` (a tuple, valid ones
passed by three set sizes), :func:`columns_problem` (one numpy board, compiled from
``COMPILED_CHECK_FROM_N`` rows) and :func:`first_invalid_board` (a batch of boards, compiled, with
the order of the batch); the compiled loops are in :mod:`nqueens_cp.core.checker_kernel` (numba) and
:mod:`nqueens_cp.core.clash_kernel` (stored machine code, no numba at run time). Each says what
failed with :func:`solution_problems`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from nqueens_cp.core.instance import Instance, Solution

if TYPE_CHECKING:
    import numpy.typing as npt

#: Boards up to this size are checked pair by pair; larger ones line by line (O(n)).
PAIRWISE_MAX_N = 200

#: From this size on :func:`columns_problem` checks a numpy board by compiled code (machine code).
COMPILED_CHECK_FROM_N = 100_000


def solution_problems(instance: Instance, solution: Sequence[int] | npt.NDArray[Any]) -> list[str]:
    """Every reason ``solution`` is not a solution of ``instance``; empty when it is valid (a tuple, or
    a numpy array of columns on the O(n) path)."""
    from nqueens_cp.core.arguments import require_instance, require_solution

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


def board_problem(instance: Instance, board: Solution) -> str | None:
    """The first reason the tuple ``board`` does not solve ``instance``; None when it does (a valid
    board is passed by three set sizes, without the pair by pair comparison)."""
    n = instance.n
    if (
        type(board) is tuple and len(board) == n and all(type(col) is int for col in board)
        and set(board) == set(range(n))
        and len({col + row for row, col in enumerate(board)}) == n
        and len({col - row for row, col in enumerate(board)}) == n
        and all(board[row] == col for row, col in instance.fixed)
        and not any(board[row] == col for row, col in instance.blocked)
    ):
        return None
    problems = solution_problems(instance, board)
    return problems[0] if problems else None


def columns_problem(instance: Instance, columns: npt.NDArray[Any]) -> str | None:
    """The first reason the board ``columns`` (a numpy array) does not solve ``instance``; None when
    it does. From ``COMPILED_CHECK_FROM_N`` rows one compiled pass (10^8 rows in about 0.3 s)."""
    if (columns.ndim == 1 and columns.dtype.kind in "iu" and len(columns) == instance.n
            and instance.n >= COMPILED_CHECK_FROM_N):
        from nqueens_cp.core.clash_kernel import first_clash

        if (first_clash(columns) < 0 and all(columns[row] == col for row, col in instance.fixed)
                and not any(columns[row] == col for row, col in instance.blocked)):
            return None
    problems = solution_problems(instance, columns)
    return problems[0] if problems else None


def first_invalid_board(instance: Instance, boards: npt.NDArray[Any],
                        previous: npt.NDArray[Any] | None = None) -> tuple[int, str] | None:
    """The first board (row) of the 2-D array ``boards`` that does not solve ``instance``, with the
    reason; given ``previous`` (the board before the batch), also the first that does not come
    strictly after the board before it in lexicographic order (reason ``""``). None when all pass.
    Compiled, O(size)."""
    import numpy as np

    from nqueens_cp.core.checker_kernel import INVALID, first_failure

    if boards.ndim != 2 or boards.dtype.kind not in "iu" or boards.shape[1] != instance.n:
        return 0, f"not an array of boards of {instance.n} columns: {boards.dtype} of shape {boards.shape}"
    index, what = first_failure(boards, previous)
    if instance.fixed or instance.blocked:
        rows = [row for row, _ in instance.fixed] + [row for row, _ in instance.blocked]
        wanted = np.array([col for _, col in instance.fixed] + [-1] * len(instance.blocked))
        refused = np.array([-1] * len(instance.fixed) + [col for _, col in instance.blocked])
        chosen = boards[:, rows]
        wrong = np.flatnonzero(np.any((chosen != wanted) & (wanted >= 0) | (chosen == refused), axis=1))
        if wrong.size and (index < 0 or wrong[0] <= index):
            index, what = int(wrong[0]), INVALID
    if index < 0:
        return None
    if what == INVALID:
        return index, board_problem(instance, tuple(boards[index].tolist())) or "invalid"
    return index, ""


def is_valid_solution(instance: Instance, solution: Sequence[int] | npt.NDArray[Any]) -> bool:
    """Whether ``solution`` solves ``instance``."""
    return not solution_problems(instance, solution)
