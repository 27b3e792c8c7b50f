"""The readable reference search: queens placed one row at a time, rows in order.

Three boolean arrays record which columns and which diagonals are taken, so each conflict check
is O(1): the squares of one "up" diagonal share ``row + col`` and those of one "down" diagonal
share ``row - col`` (offset by n - 1 to index from 0). A pre-placed queen's row offers only its
column; blocked squares are never offered. The search is iterative, one iterator of candidate columns per row on a stack, so it
needs no recursion (and changes no interpreter setting) however large the board.
"""

from __future__ import annotations

from typing import Iterator

from nqueens_cp.core.instance import Instance, Solution


def row_solutions(instance: Instance, *, first_row_max: int | None = None) -> Iterator[Solution]:
    """Every solution of ``instance`` in lexicographic order, lazily.

    ``first_row_max`` (used for symmetry breaking) limits row 0 to columns ``<= first_row_max``.
    """
    n = instance.n
    if n == 0:
        yield ()
        return
    fixed_by_row = instance.fixed_by_row
    last = n - 1
    column_taken = [False] * n
    up_taken = [False] * (2 * n - 1)  # indexed by row + col
    down_taken = [False] * (2 * n - 1)  # indexed by row - col + n - 1
    placed = [0] * n
    # The columns each row may try, built once: all of them, or the pre-placed one, less blocked squares.
    every_column = tuple(range(n))
    blocked = set(instance.blocked)
    candidates = [
        tuple(c for c in ((fixed_by_row[row],) if row in fixed_by_row else every_column) if (row, c) not in blocked)
        for row in range(n)
    ]
    if first_row_max is not None and 0 not in fixed_by_row:
        candidates[0] = tuple(c for c in candidates[0] if c <= first_row_max)  # symmetry: the left half of row 0

    # stack[row] iterates over the columns row still has to try; rows above it hold their queens.
    stack = [iter(candidates[0])]
    while stack:
        row = len(stack) - 1
        for col in stack[row]:
            up, down = row + col, row - col + last
            if column_taken[col] or up_taken[up] or down_taken[down]:
                continue
            placed[row] = col
            if row == last:  # the board is full: no need to go one level deeper
                yield tuple(placed)
                continue
            column_taken[col] = up_taken[up] = down_taken[down] = True
            stack.append(iter(candidates[row + 1]))
            break
        else:  # every column of this row tried: take back the queen of the row above
            stack.pop()
            if row > 0:
                col = placed[row - 1]
                column_taken[col] = up_taken[row - 1 + col] = down_taken[row - 1 - col + last] = False
