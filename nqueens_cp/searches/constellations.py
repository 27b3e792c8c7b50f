"""Counting by start constellations: the border queens fixed, one constellation per symmetry class.

Every solution has exactly one queen in each border line of the board: row 0 (column ``top``),
row n-1 (column ``bottom``), column 0 (row ``left``) and column n-1 (row ``right``). A corner
queen stands in two border lines at once (at most one corner is taken: two corners always share a
line or a diagonal), so a solution has 3 or 4 border queens. Those queens are its *start
constellation*, written ``(top, bottom, left, right)``; the solutions of the board are partitioned
by their constellation.

The 8 symmetries of the square map constellations to constellations, and a symmetry maps the
completions of a constellation one to one onto the completions of its image. So it is enough to
finish one constellation per class (the *canonical* one: the lexicographically smallest of its
images as ``(top, bottom, left, right)``), weighting its count by the class size. No reflection
fixes a constellation (its two queens on the mirrored lines would attack each other), so the
*stabiliser* (the symmetries mapping a constellation to itself) is the identity alone (class of 8,
weight 8), also the 180-degree rotation (weight 4), or every rotation (weight 2):

* the number of solutions (OEIS A000170) is ``sum(weight * completions)``;
* the number of solution classes (OEIS A002562) follows from Burnside's lemma applied to the
  stabiliser acting on the completions of the canonical constellation: it has
  ``(completions + fixed_by_rot180 + 2 * fixed_by_rot90) / |stabiliser|`` orbits, and each orbit
  is exactly one class of solutions. For the common weight-8 constellations that is simply the
  number of completions; only the rare rotation-symmetric constellations need the completions
  that are themselves symmetric, which :func:`finish` counts along the way.

This is the "constellations" method of Q27 / NQueensFAF (the facts, not their code). This module is
the readable pure-Python version (used for small boards, where importing a JIT costs more than
it saves, and as the reference); ``constellations_kernel`` runs the numba-compiled one. Both finish a
constellation the same way: the border queens' attacks on every inner row are precomputed as one
fixed mask per row (:func:`inner_rows`), then a bitboard search fills the free inner rows top
down, shifting the two diagonal masks by the gap between consecutive free rows.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Solution
from nqueens_cp.core.symmetry import SYMMETRIES, Symmetry

#: A constellation as ``(top, bottom, left, right)``: the column of the queen of row 0, the column
#: of the queen of row n-1, the row of the queen of column 0, the row of the queen of column n-1.
Key = tuple[int, int, int, int]

#: Smallest board the constellation split applies to (smaller boards are counted directly).
MIN_N = 4

Point = tuple[int, int]


def _point_maps(n: int) -> tuple[Callable[[Point], Point], ...]:
    """The 8 symmetries of the square on squares ``(row, col)``, from the one table of
    :data:`nqueens_cp.core.symmetry.SYMMETRIES` (same order: identity, mirror, flip, rotate 180,
    transpose, rotate 90, rotate 270, anti-transpose)."""
    return tuple(functools.partial(_map_square, symmetry, n) for symmetry in SYMMETRIES)


def _map_square(symmetry: Symmetry, n: int, square: Point) -> Point:
    return symmetry.map_square(n, *square)


#: Indices in :data:`~nqueens_cp.core.symmetry.SYMMETRIES` of the rotations by 180 and by 90 degrees.
ROT180 = next(s.index for s in SYMMETRIES if s.name == "rotate180")
ROT90 = next(s.index for s in SYMMETRIES if s.name == "rotate90")


def queens_of(n: int, key: Key) -> frozenset[Point]:
    """The border queens of constellation ``key`` as squares (a corner queen once)."""
    top, bottom, left, right = key
    last = n - 1
    return frozenset({(0, top), (last, bottom), (left, 0), (right, last)})


def key_of(n: int, queens: Iterable[Point]) -> Key:
    """The ``(top, bottom, left, right)`` of a set of border queens (one per border line)."""
    last = n - 1
    top = bottom = left = right = -1
    for row, col in queens:
        if row == 0:
            top = col
        if row == last:
            bottom = col
        if col == 0:
            left = row
        if col == last:
            right = row
    return top, bottom, left, right


def _attack(a: Point, b: Point) -> bool:
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def images(n: int, key: Key) -> list[Key]:
    """The images of constellation ``key`` under the 8 symmetries (same order as the transforms)."""
    queens = queens_of(n, key)
    return [key_of(n, map(point_map, queens)) for point_map in _point_maps(n)]


def key_images(n: int, key: Key) -> list[Key]:
    """:func:`images` in closed form on ``(top, bottom, left, right)`` (about 20 times faster; the
    tests check that both agree on every constellation). Each symmetry sends each border line to a
    border line, reversed or not: the mirror swaps the side columns and reverses the rows' columns,
    the transpose swaps rows 0 / n-1 with columns 0 / n-1, and so on."""
    top, bottom, left, right = key
    last = n - 1
    return [
        key,
        (last - top, last - bottom, right, left),
        (bottom, top, last - left, last - right),
        (last - bottom, last - top, last - right, last - left),
        (left, right, top, bottom),
        (last - left, last - right, bottom, top),
        (right, left, last - top, last - bottom),
        (last - right, last - left, last - bottom, last - top),
    ]


@dataclass(frozen=True)
class Constellation:
    """A canonical start constellation and the symmetries that fix it.

    ``weight`` is the size of its class (8, 4 or 2), so ``weight * completions`` solutions of the
    board have a constellation in that class. ``rot90`` / ``rot180`` say whether the rotation by
    90 / 180 degrees maps it to itself (``rot90`` implies ``rot180``). ``search_key`` is the
    member of the class that the finishing search completes (see :func:`search_orientation`):
    every member has the same number of completions, and as many symmetric ones.
    """

    key: Key
    weight: int
    rot180: bool
    rot90: bool
    search_key: Key


    @property
    def stabiliser_order(self) -> int:
        """How many symmetries fix the constellation: ``8 // weight``."""
        return 8 // self.weight


def search_orientation(n: int, members: Iterable[Key]) -> Key:
    """The member of a constellation class that is fastest to finish.

    The search fills the free rows top down, and its tree is widest in the lower rows; a queen of
    the bottom row near a corner constrains those rows most, and so do side queens standing low.
    The member with the smallest ``n * d - 2 * (left + right)`` is taken, ``d`` the bottom queen's
    distance to its nearest corner (NQueensFAF's "jasmin" orientation ranks by ``d`` alone).
    Measured in search nodes, this takes 1.05 and 1.04 times the nodes of the best member of
    each class at n = 14 and 16; ranking by ``d``, then ``left + right``, took 1.06 times.
    """
    last = n - 1
    return min([(n * min(key[1], last - key[1]) - 2 * (key[2] + key[3]), key) for key in members])[1]


@functools.lru_cache(maxsize=4)
def constellations(n: int) -> tuple[Constellation, ...]:
    """The canonical start constellations of the n x n board, in a fixed order (for ``n >= 4``).

    Cached (a few boards): a worker of a split run generates them once, not once per batch.

    A canonical constellation's ``top`` is the smallest of the 8 distances of its border queens
    to a corner along their border line, so ``top <= (n - 1) / 2`` and the other three lie in
    ``top .. n-1-top``; only those candidates are tested, queen by queen (a queen attacking one
    placed before ends that branch). Two border lines share only a corner, so "no two attack"
    alone makes a constellation (one queen on each border line): a corner queen named by one of
    its lines and not the other (``top = 0``, ``left != 0``) is attacked along the other line.
    """
    if n < MIN_N:
        raise NQueensError(f"start constellations need n >= {MIN_N}, got {n}")
    found: list[Constellation] = []
    last = n - 1
    for top in range(last // 2 + 1):
        span = range(top, n - top)
        top_queen = (0, top)
        for bottom in span:
            bottom_queen = (last, bottom)
            if _attack(top_queen, bottom_queen):
                continue
            for left in span:
                left_queen = (left, 0)
                if _attack(left_queen, top_queen) or _attack(left_queen, bottom_queen):
                    continue
                for right in span:
                    right_queen = (right, last)
                    if (
                        _attack(right_queen, top_queen)
                        or _attack(right_queen, bottom_queen)
                        or _attack(right_queen, left_queen)
                    ):
                        continue
                    key = (top, bottom, left, right)
                    mapped = key_images(n, key)
                    if min(mapped) != key:
                        continue
                    found.append(
                        Constellation(
                            key=key,
                            weight=len(set(mapped)),
                            rot180=mapped[ROT180] == key,
                            rot90=mapped[ROT90] == key,
                            search_key=search_orientation(n, mapped),
                        )
                    )
    return tuple(found)


def batch(items: Sequence[Constellation], index: int, batches: int) -> list[Constellation]:
    """Batch ``index`` of ``batches``: every ``batches``-th constellation from ``index`` on.

    Striding (rather than cutting into runs) mixes easy and hard constellations in every batch,
    so batches take about the same time.
    """
    if not 0 <= index < batches:
        raise NQueensError(f"batch index {index} is not in 0..{batches - 1}")
    return list(items[index::batches])


@dataclass(frozen=True)
class InnerRows:
    """What the finishing search of one constellation needs.

    ``rows`` are the free inner rows (no border queen) top down; ``blocked[t]`` the columns of
    ``rows[t]`` that border queens take or attack; ``gaps[t] = rows[t + 1] - rows[t]``.
    """

    rows: tuple[int, ...]
    blocked: tuple[int, ...]
    gaps: tuple[int, ...]


def inner_rows(n: int, key: Key) -> InnerRows:
    """The free rows of constellation ``key`` and, per row, the columns its border queens block."""
    full = (1 << n) - 1
    queens = queens_of(n, key)
    taken_rows = {row for row, _ in queens}
    columns = 0
    for _, col in queens:
        columns |= 1 << col
    rows = tuple(row for row in range(1, n - 1) if row not in taken_rows)
    blocked = []
    for row in rows:
        mask = columns
        for queen_row, queen_col in queens:
            distance = abs(row - queen_row)
            mask |= (1 << (queen_col + distance)) | (1 << queen_col >> distance)
        blocked.append(mask & full)
    gaps = tuple(b - a for a, b in itertools.pairwise(rows))
    return InnerRows(rows, tuple(blocked), gaps)


def board_of(n: int, key: Key, inner: InnerRows, columns: Sequence[int]) -> Solution:
    """The full solution: the border queens of ``key`` and ``columns[t]`` in row ``inner.rows[t]``."""
    board = [0] * n
    for row, col in queens_of(n, key):
        board[row] = col
    for row, col in zip(inner.rows, columns, strict=True):
        board[row] = col
    return tuple(board)


def is_rot180_symmetric(board: Solution) -> bool:
    """Whether the 180-degree rotation maps the solution to itself."""
    last = len(board) - 1
    return all(board[last - row] == last - col for row, col in enumerate(board))


def is_rot90_symmetric(board: Solution) -> bool:
    """Whether the 90-degree rotation maps the solution to itself."""
    last = len(board) - 1
    return all(board[col] == last - row for row, col in enumerate(board))


@dataclass(frozen=True)
class Finished:
    """The completions of one constellation: how many, and how many are fixed by each rotation
    (counted only when the constellation itself is fixed by it, else 0)."""

    completions: int
    fixed_rot180: int = 0
    fixed_rot90: int = 0


def _completions(n: int, inner: InnerRows) -> Iterator[list[int]]:
    """The column choices of the free inner rows that complete the constellation (a generator)."""
    full = (1 << n) - 1
    depth = len(inner.rows)
    if depth == 0:
        yield []
        return
    chosen = [0] * depth

    def fill(t: int, left: int, down: int, right: int) -> Iterator[list[int]]:
        free = full & ~(left | down | right | inner.blocked[t])
        while free:
            bit = free & -free
            free ^= bit
            chosen[t] = bit.bit_length() - 1
            if t + 1 == depth:
                yield chosen
            else:
                gap = inner.gaps[t]
                yield from fill(t + 1, (left | bit) << gap, down | bit, (right | bit) >> gap)

    yield from fill(0, 0, 0, 0)


def count_completions(n: int, inner: InnerRows) -> int:
    """The number of completions: the plain bitboard count over the free inner rows."""
    full = (1 << n) - 1
    depth = len(inner.rows)
    if depth == 0:
        return 1
    blocked, gaps = inner.blocked, inner.gaps
    last = depth - 1

    def count_from(t: int, left: int, down: int, right: int) -> int:
        free = full & ~(left | down | right | blocked[t])
        if t == last:
            return 1 if free else 0
        gap = gaps[t]
        total = 0
        while free:
            bit = free & -free
            free ^= bit
            total += count_from(t + 1, (left | bit) << gap, down | bit, (right | bit) >> gap)
        return total

    return count_from(0, 0, 0, 0)


def finish(n: int, constellation: Constellation) -> Finished:
    """Complete one constellation: its completions, and its rotation-symmetric completions."""
    key = constellation.search_key
    inner = inner_rows(n, key)
    if not (constellation.rot180 or constellation.rot90):
        return Finished(count_completions(n, inner))
    completions = fixed180 = fixed90 = 0
    for columns in _completions(n, inner):
        board = board_of(n, key, inner, columns)
        completions += 1
        fixed180 += is_rot180_symmetric(board)
        fixed90 += constellation.rot90 and is_rot90_symmetric(board)
    return Finished(completions, fixed180, fixed90)


@dataclass(frozen=True)
class ConstellationCount:
    """Solutions (OEIS A000170) and solution classes (OEIS A002562) of some constellations."""

    total: int
    classes: int

    def __add__(self, other: ConstellationCount) -> ConstellationCount:
        return ConstellationCount(self.total + other.total, self.classes + other.classes)


def tally(constellation: Constellation, finished: Finished) -> ConstellationCount:
    """What one finished canonical constellation adds to the solutions and to the classes."""
    total = constellation.weight * finished.completions
    orbits_times_order = finished.completions + finished.fixed_rot180 + 2 * finished.fixed_rot90
    order = constellation.stabiliser_order
    if orbits_times_order % order:
        raise NQueensError(f"Burnside sum {orbits_times_order} of {constellation} is not divisible by {order}")
    return ConstellationCount(total, orbits_times_order // order)


def small_board_count(n: int) -> ConstellationCount:
    """Solutions and classes of the boards below :data:`MIN_N` (no constellation split there)."""
    if n < 0:
        raise NQueensError(f"n must be >= 0, got {n}")
    return ConstellationCount(1, 1) if n <= 1 else ConstellationCount(0, 0)


def count_batch(n: int, items: Iterable[Constellation]) -> ConstellationCount:
    """Solutions and classes contributed by ``items`` (canonical constellations of size n)."""
    result = ConstellationCount(0, 0)
    for constellation in items:
        result = result + tally(constellation, finish(n, constellation))
    return result


def count(n: int) -> ConstellationCount:
    """Solutions and classes of the empty n x n board, in pure Python."""
    if n < MIN_N:
        return small_board_count(n)
    return count_batch(n, constellations(n))
