"""The readable searches of the family's placement problems: n pieces, one per row, none attacking
another under :class:`~nqueens_cp.core.problems.Rules` (toroidal queens, superqueens, both, or the
classic queen).

Two searches, both row by row in lexicographic order:

- :func:`row_solutions`: boolean arrays of taken columns and diagonals, as in
  :mod:`nqueens_cp.searches.rows`; on the torus a diagonal is ``(row - col) mod n`` or
  ``(row + col) mod n``; a knight's jump reaches only the two rows above, so a square is also
  refused when the queen of the row above stands two columns away or the queen two rows above
  one column away.
- :func:`bitboard_solutions` and :func:`bitboard_count`: the same search on bit masks (bit ``c``
  is column ``c``). Moving down a row shifts the diagonal masks by one bit; on the torus they
  rotate within the n bits instead of shifting out. The knight masks are the row above's queen
  shifted by two bits and the queen two rows above shifted by one (never wrapping: the knight does
  not wrap, see :func:`~nqueens_cp.core.problems.attacks`).

:mod:`nqueens_cp.searches.family_kernel` compiles the bitboard search with numba and cuts the
work by the problems' symmetries.
"""

from __future__ import annotations

from itertools import islice
from math import gcd
from typing import Iterator

from nqueens_cp.core.instance import Solution
from nqueens_cp.core.problems import Rules


def row_solutions(rules: Rules, n: int) -> Iterator[Solution]:
    """Every placement of n pieces under ``rules``, in lexicographic order: one iterator of
    candidate columns per row on a stack."""
    if n == 0:
        yield ()
        return
    last = n - 1
    column_taken = [False] * n
    up_taken = [False] * (2 * n - 1)  # row + col (mod n on the torus)
    down_taken = [False] * (2 * n - 1)  # row - col + n - 1 (mod n on the torus)
    placed = [0] * n

    def diagonals(row: int, col: int) -> tuple[int, int]:
        if rules.toroidal:
            return (row + col) % n, (row - col) % n
        return row + col, row - col + last

    def knight_attacked(row: int, col: int) -> bool:
        return rules.knight and (
            (row >= 1 and abs(placed[row - 1] - col) == 2) or (row >= 2 and abs(placed[row - 2] - col) == 1))

    stack = [iter(range(n))]
    while stack:
        row = len(stack) - 1
        for col in stack[row]:
            up, down = diagonals(row, col)
            if column_taken[col] or up_taken[up] or down_taken[down] or knight_attacked(row, col):
                continue
            placed[row] = col
            if row == last:
                yield tuple(placed)
                continue
            column_taken[col] = up_taken[up] = down_taken[down] = True
            stack.append(iter(range(n)))
            break
        else:  # every column of this row tried: take back the queen of the row above
            stack.pop()
            if row > 0:
                col = placed[row - 1]
                up, down = diagonals(row - 1, col)
                column_taken[col] = up_taken[up] = down_taken[down] = False


def next_row_masks(rules: Rules, n: int, columns: int, left: int, right: int, bit: int) -> tuple[int, int, int]:
    """The column and diagonal masks of the next row once ``bit`` is taken: the left-going
    diagonals move one bit up, the right-going one bit down (rotating within n bits on the torus)."""
    full = (1 << n) - 1
    left |= bit
    right |= bit
    if rules.toroidal:
        left = ((left << 1) | (left >> (n - 1))) & full
        right = (right >> 1) | ((right & 1) << (n - 1))
    else:
        left = (left << 1) & full
        right >>= 1
    return columns | bit, left, right


def knight_mask(n: int, above: int, two_above: int) -> int:
    """The columns a knight's jump attacks from the queens (one-bit masks, 0 for none) of the row
    above and of the row two above."""
    return ((above << 2) | (above >> 2) | (two_above << 1) | (two_above >> 1)) & ((1 << n) - 1)


def bitboard_solutions(rules: Rules, n: int) -> Iterator[Solution]:
    """Every placement of n pieces under ``rules``, in lexicographic order: an explicit stack of
    (row, free bits left, columns, left, right)."""
    if n == 0:
        yield ()
        return
    full = (1 << n) - 1
    bits = [0] * n  # the queen of each row as a one-bit mask
    stack = [(0, full, 0, 0, 0)]
    while stack:
        row, free, columns, left, right = stack.pop()
        if not free:
            continue
        bit = free & -free
        stack.append((row, free ^ bit, columns, left, right))
        bits[row] = bit
        if row == n - 1:
            yield tuple(b.bit_length() - 1 for b in bits)
            continue
        next_columns, next_left, next_right = next_row_masks(rules, n, columns, left, right, bit)
        taken = next_columns | next_left | next_right
        if rules.knight:
            taken |= knight_mask(n, bit, bits[row - 1] if row else 0)
        stack.append((row + 1, full & ~taken, next_columns, next_left, next_right))


def bitboard_count(rules: Rules, n: int) -> int:
    """The number of placements: a depth-first count that counts the free squares of the last row."""
    if n == 0:
        return 1
    full = (1 << n) - 1
    last = n - 1
    total = 0
    stack = [(0, 0, 0, 0, 0, 0)]  # (row, columns, left, right, queen above, queen two above)
    while stack:
        row, columns, left, right, above, two_above = stack.pop()
        taken = columns | left | right
        if rules.knight:
            taken |= knight_mask(n, above, two_above)
        free = full & ~taken
        if row == last:
            total += free.bit_count()
            continue
        while free:
            bit = free & -free
            free ^= bit
            stack.append((row + 1, *next_row_masks(rules, n, columns, left, right, bit), bit, above))
    return total


def count(rules: Rules, n: int) -> int:
    """How many placements of n pieces ``rules`` allow (pure Python: small boards)."""
    return bitboard_count(rules, n)


def solutions(rules: Rules, n: int, limit: int | None = None) -> list[Solution]:
    """The placements in lexicographic order, at most ``limit`` of them."""
    return list(islice(bitboard_solutions(rules, n), limit))


def first(rules: Rules, n: int) -> Solution | None:
    """The lexicographically first placement, or None when there is none."""
    return next(bitboard_solutions(rules, n), None)


def toroidal_placement(n: int) -> Solution | None:
    """A placement of n toroidal queens without search: row ``i``'s queen in column ``2i mod n``
    (the knight's-move solution). Its columns ``2i``, up diagonals ``3i`` and down diagonals ``-i``
    are all distinct mod n exactly when n is coprime to 6, and by Polya's theorem (Ahrens 1921, see
    OEIS A007705) there is no placement at all otherwise: None then."""
    if not toroidal_placements_exist(n):
        return None
    return tuple(2 * i % n for i in range(n)) if n else ()


def toroidal_placements_exist(n: int) -> bool:
    """Whether n toroidal queens fit on the n x n torus: exactly when n = 1 or n is coprime to 6
    (Polya's theorem; OEIS A007705)."""
    return n <= 1 or gcd(n, 6) == 1


def superqueens_placement(n: int) -> Solution | None:
    """A placement of n superqueens without search, or None when this construction has none for n.

    For n coprime to 6, row ``i``'s queen in column ``3i mod n``: a toroidal placement (columns
    ``3i``, diagonals ``4i`` and ``2i`` distinct mod n), so no two queens share a line; the queens
    of neighbouring rows stand 3 or n - 3 columns apart and those two rows apart 6 or n - 6, so
    from n = 11 no knight's jump joins two. For n + 1 coprime to 6 (n >= 10), that placement of
    n + 1 has its row 0 queen in the corner: the board without row 0 and column 0 holds the other n,
    moved one square up and left, which keeps every line and jump. n = 1: its one square. Other n
    (2 or 3 mod 6) need a search; below 10 there is no placement at all (OEIS A051223)."""
    if not superqueens_constructible(n):
        return None
    if n == 1:
        return (0,)
    if gcd(n, 6) == 1:
        return tuple(3 * i % n for i in range(n))
    return tuple(3 * i % (n + 1) - 1 for i in range(1, n + 1))


def superqueens_constructible(n: int) -> bool:
    """Whether :func:`superqueens_placement` constructs a placement of n superqueens."""
    return n == 1 or (n >= 11 and gcd(n, 6) == 1) or (n >= 10 and gcd(n + 1, 6) == 1)
