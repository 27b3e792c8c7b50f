"""Excluded Diagonals instances (CSPLib problem 079) and their translation to n-Queens Completion.

An Excluded Diagonals instance is an n x n board on which some whole diagonals may hold no queen;
otherwise it is the n-Queens problem. Gent, Jefferson and Nightingale ("Complexity of n-Queens
Completion", JAIR 59, 2017) generate hard instances of it and show how to turn each one into an
n-Queens Completion instance on a much larger board with all but n queens pre-placed. This module
holds the instance type and that construction, written from the paper's description; the result
is checked here (the pre-placed queens never attack each other) and in the tests (reducing the
translated board back gives the original instance, and both forms have the same answers).

The construction has two steps.

1. **Diagonals to pre-placed queens** on a board of size ``7n - 3``. Square ``(r, c)`` of the
   original board becomes ``(r + 3n - 2, c)``. The difference diagonal ``r - c = d`` is excluded
   by a queen at ``(6n - 3 - d, 3n - 1 - 2d)``, the sum diagonal ``r + c = s`` by a queen at
   ``(2n - 2 - s, n + 2s)``: each attacks exactly its diagonal of the original board and nothing
   else there, shares no row or column with it, and no two of them attack each other. Only the
   rows and columns of the original board and of these queens are "required"; the other rows and
   columns of the ``7n - 3`` board must be filled by step 2.
2. **Filling the unused lines.** With ``p = 2(7n - 3) ± 1`` (``p`` prime to 6, so ``(i, 2i mod
   p)`` is a solution of the toroidal p-Queens problem), the final board has ``19p + m`` rows,
   ``m`` the number of required rows. It is cut into blocks of ``p`` x ``p`` squares, laid out
   like a placement of queens on a 20 x 20 grid of blocks (:data:`_BLOCK_PATTERN`). Seventeen
   blocks hold a full toroidal solution; the block right of the original board holds the rows the
   original problem does not need, the block below it the unused columns, and the last ``m`` rows
   and columns take the lines those two blocks leave empty. Every row and column but the ``n`` of
   the original board then holds a pre-placed queen, and the free squares not attacked are exactly
   the original board's squares off the excluded diagonals.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Iterable, Sequence

from nqueens_cp.core.errors import InvalidInstanceError
from nqueens_cp.core.instance import DiagonalKind, Instance, Solution, diagonal_squares


@dataclass(frozen=True)
class Diagonal:
    """One diagonal: ``"sum"`` (squares with row + col == value) or ``"difference"`` (row - col == value)."""

    kind: DiagonalKind
    value: int

    def squares(self, n: int) -> tuple[tuple[int, int], ...]:
        """Its squares on the n x n board (an error when it misses the board)."""
        return diagonal_squares(n, self.kind, self.value)

    def __str__(self) -> str:
        return f"row {'+' if self.kind == 'sum' else '-'} col = {self.value}"


@dataclass(frozen=True)
class ExcludedDiagonals:
    """An n x n board whose ``diagonals`` may hold no queen (every row and column is required)."""

    n: int
    diagonals: tuple[Diagonal, ...]

    def __post_init__(self) -> None:
        for diagonal in self.diagonals:
            diagonal.squares(self.n)  # raises for a diagonal off the board

    def instance(self) -> Instance:
        """The instance with every square of the excluded diagonals blocked."""
        return Instance(self.n, blocked=[sq for diagonal in self.diagonals for sq in diagonal.squares(self.n)])

    def _repr_svg_(self) -> str:
        """The board with the excluded diagonals' squares crossed out, shown by Jupyter."""
        return self.instance()._repr_svg_()

    def first(self, count: int) -> ExcludedDiagonals:
        """The instance made of the first ``count`` diagonals (CSPLib: only prefixes are valid samples)."""
        if not 0 <= count <= len(self.diagonals):
            raise InvalidInstanceError(f"asked for {count} diagonals, the instance has {len(self.diagonals)}")
        return ExcludedDiagonals(self.n, self.diagonals[:count])


@dataclass(frozen=True)
class CompletionTranslation:
    """An Excluded Diagonals instance as n-Queens Completion: ``instance`` is the large board with
    its pre-placed queens; the original square ``(r, c)`` is ``(r + row_offset, c)`` on it."""

    source: ExcludedDiagonals
    instance: Instance
    row_offset: int

    def to_original(self, solution: Sequence[int]) -> Solution:
        """The original board's solution inside a solution of the large board."""
        n = self.source.n
        return tuple(solution[row + self.row_offset] for row in range(n))

    def from_original(self, solution: Sequence[int]) -> Solution:
        """The large board's solution that extends a solution of the original board."""
        board = dict(self.instance.fixed)
        for row, col in enumerate(solution):
            board[row + self.row_offset] = col
        return tuple(board[row] for row in range(self.instance.n))


#: The layout of step 2, as (block row, block column) of a 20 x 20 grid of p x p blocks. Block
#: (0, 8) holds the unused rows of the 7n - 3 board (which sits in block (0, 0)), block (17, 0)
#: its unused columns; (19, 8) and (17, 19) are the last m rows and columns that fill the lines
#: those two blocks leave empty; the other seventeen hold a full toroidal solution each.
_UNUSED_ROWS_BLOCK = (0, 8)
_UNUSED_COLUMNS_BLOCK = (17, 0)
_FILL_ROWS_BLOCK = (19, 8)
_FILL_COLUMNS_BLOCK = (17, 19)
_FULL_BLOCKS = (
    (1, 12), (2, 17), (3, 7), (4, 10), (5, 15), (6, 1), (7, 16), (8, 13), (9, 2),
    (10, 6), (11, 18), (12, 3), (13, 5), (14, 11), (15, 9), (16, 14), (18, 4),
)


def _attack_free(queens: Iterable[tuple[int, int]]) -> bool:
    """Whether no two of ``queens`` share a row, a column or a diagonal."""
    rows: set[int] = set()
    cols: set[int] = set()
    sums: set[int] = set()
    diffs: set[int] = set()
    for row, col in queens:
        if row in rows or col in cols or row + col in sums or row - col in diffs:
            return False
        rows.add(row)
        cols.add(col)
        sums.add(row + col)
        diffs.add(row - col)
    return True


def _diagonal_queens(problem: ExcludedDiagonals) -> list[tuple[int, int]]:
    """Step 1: one queen per excluded diagonal on the 7n - 3 board (see the module docstring)."""
    n = problem.n
    queens = []
    for diagonal in dict.fromkeys(problem.diagonals):  # a repeated diagonal needs one queen
        d = diagonal.value
        queens.append((6 * n - 3 - d, 3 * n - 1 - 2 * d) if diagonal.kind == "difference" else (2 * n - 2 - d, n + 2 * d))
    return queens


def to_completion(problem: ExcludedDiagonals) -> CompletionTranslation:
    """The paper's translation of ``problem`` into n-Queens Completion (same solutions, one to one)."""
    n = problem.n
    if n == 0:
        return CompletionTranslation(problem, Instance(0), 0)
    size = 7 * n - 3
    row_offset = 3 * n - 2
    placed = _diagonal_queens(problem)
    used_rows = sorted([r + row_offset for r in range(n)] + [r for r, _ in placed])
    used_cols = sorted(list(range(n)) + [c for _, c in placed])
    p = 2 * size + 1 if size % 3 == 2 else 2 * size - 1
    m = len(used_rows)

    def block(corner: tuple[int, int], squares: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
        return [(corner[0] * p + r, corner[1] * p + c) for r, c in squares]

    toroidal = [(i, 2 * i % p) for i in range(p)]
    transposed = [(c, r) for r, c in toroidal]
    row_set, col_set = set(used_rows), set(used_cols)
    queens = list(placed)
    queens += block(_UNUSED_ROWS_BLOCK, [(r, c) for r, c in toroidal if r not in row_set])
    queens += block(_UNUSED_COLUMNS_BLOCK, [(r, c) for r, c in transposed if c not in col_set])
    queens += block(_FILL_ROWS_BLOCK, [(i, 2 * row) for i, row in enumerate(used_rows)])
    queens += block(_FILL_COLUMNS_BLOCK, [(2 * col, i) for i, col in enumerate(used_cols)])
    for corner in _FULL_BLOCKS:
        queens += block(corner, toroidal)
    if not _attack_free(queens):  # the construction guarantees it; checked because it is cheap
        raise AssertionError(f"translation of an n={n} instance placed attacking queens")
    return CompletionTranslation(problem, Instance(19 * p + m, queens), row_offset)


def generate(n: int, min_free: int, seed: int) -> ExcludedDiagonals:
    """A random Excluded Diagonals instance, as CSPLib 079's generator ``queens-diag-gen.py N K SEED``
    makes it (same algorithm, same random calls, so the same output for the same arguments).

    Both families of diagonals are shuffled (sum diagonals by their sum, difference diagonals by
    ``row - col + n - 1``); then, until both lists are used up, a family is chosen at random (the
    other when one is empty), its next diagonal taken, and kept unless a row or column that one of
    its free squares lies on has ``min_free`` or fewer free squares left; a kept diagonal takes its
    free squares from their rows' and columns' counts (a square on a diagonal kept before is no
    longer free). So every row and column keeps at least ``min_free`` free squares. Use prefixes
    of the result: the first D diagonals are a valid sample.
    """
    if n < 1 or min_free < 0:
        raise InvalidInstanceError(f"the generator needs n >= 1 and min_free >= 0, got n={n}, min_free={min_free}")
    rng = random.Random(seed)
    sums = list(range(2 * n - 1))
    differences = list(range(2 * n - 1))
    rng.shuffle(sums)
    rng.shuffle(differences)
    free_in_row = [n] * n
    free_in_col = [n] * n
    kept: list[Diagonal] = []
    kept_sums: set[int] = set()
    kept_diffs: set[int] = set()
    while sums or differences:
        if not sums:
            direction = -1
        elif not differences:
            direction = 1
        else:
            direction = rng.randrange(-1, 2, 2)
        index = sums.pop() if direction == 1 else differences.pop()
        squares = [(r, index - r if direction == 1 else r - index + n - 1) for r in range(n)]
        squares = [(r, c) for r, c in squares if 0 <= c < n and r + c not in kept_sums and r - c not in kept_diffs]
        if any(free_in_row[r] <= min_free or free_in_col[c] <= min_free for r, c in squares):
            continue
        for r, c in squares:
            free_in_row[r] -= 1
            free_in_col[c] -= 1
        diagonal = Diagonal("sum", index) if direction == 1 else Diagonal("difference", index - (n - 1))
        (kept_sums if direction == 1 else kept_diffs).add(diagonal.value)
        kept.append(diagonal)
    return ExcludedDiagonals(n, tuple(kept))


def to_param(problem: ExcludedDiagonals) -> str:
    """``problem`` in CSPLib 079's ``.param`` format (``[d, 1]`` sum, ``[d + n - 1, 0]`` difference)."""
    n = problem.n
    pairs = ", ".join(f"[{d.value}, 1]" if d.kind == "sum" else f"[{d.value + n - 1}, 0]" for d in problem.diagonals)
    return f"n =  {n}\nnumdiags =  {len(problem.diagonals)}\ndiags =  [{pairs}]\n"
