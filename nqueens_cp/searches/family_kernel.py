"""The compiled (numba) counters of the family's placement problems, cut by symmetry and split
over threads, and beside them their streamed enumeration (:func:`placements`).

This module imports numba and numpy at import time; import it only where a count is wanted. The
readable version of the search is :mod:`nqueens_cp.searches.family`; here it runs iteratively on
int64 bit masks (bit ``c`` is column ``c``) from a fixed prefix of rows: row by row
(``_count_from``, every rule set) or, for toroidal queens without the knight, on the line with the
fewest free squares (:func:`nqueens_cp.searches.torus_count.plain_count_from`). :func:`count`
hands the two problems with published counts to searches that use more symmetry:
:mod:`~nqueens_cp.searches.torus_count` (toroidal queens, the torus's affine symmetries) and
:mod:`~nqueens_cp.searches.superqueens_count` (superqueens, the square's whole group);
:func:`search_count` keeps the searches below, the reference they are tested against.

Symmetries used, each tested in ``tests/test_family_searches.py``:

* **Toroidal queens, the column shift.** ``(row, col) -> (row, col + 1 mod n)`` maps the torus's
  rows, columns and wrapping diagonals onto themselves, so it maps solutions to solutions, and its
  powers map the solutions with the row-0 queen in column 0 bijectively onto those with it in any
  other column: ``count(n) = n * (solutions with the row-0 queen in column 0)``. (Not with the
  knight, whose jumps do not wrap.)
* **Toroidal queens, Polya's theorem** (G. Polya, 1918; see Rivin, Vardi and Zimmermann, "The
  n-queens problem", Amer. Math. Monthly 101 (1994)): the n x n torus holds n non-attacking queens
  only when gcd(n, 6) = 1. :func:`count` answers 0 for the other n without searching (with the
  knight too: those placements are toroidal placements); :func:`search_count` always searches.
* **Every rule set but the toroidal queen, the left/right mirror.** ``col -> n - 1 - col`` maps solutions to
  solutions (queen lines, wrapping diagonals and knight jumps alike), so the solutions with the
  row-0 queen in the left half are counted twice and those with it in the middle column (odd n)
  once.
* **Solutions up to the 8 symmetries of the square** (:func:`unique_count`, OEIS A051224 for
  superqueens) by Burnside's lemma: the classes number ``(1/8) * sum over g of Fix(g)``, where
  ``Fix(g)`` counts the solutions ``g`` maps onto themselves. ``Fix(identity)`` is the count;
  every other ``Fix(g)`` is counted by :func:`orbit_fixed_count`, a search that places whole orbits of
  squares under ``g`` (a rotation by 180 degrees fixes far fewer solutions than there are, so
  these searches are short). Nothing is enumerated.

The counting is split over the prefixes of the first rows (two for the mirror, three with the
row-0 queen in column 0 on the torus); each prefix is one call of the compiled counter, which
releases the GIL (``nogil=True``), so ``workers`` threads count in parallel.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from itertools import product
from math import gcd
from typing import Iterator

import numpy as np
import numpy.typing as npt

from nqueens_cp.core.problems import Rules
from nqueens_cp.core.symmetry import INVERSE, MIRROR, REVERSE, SYMMETRIES
from nqueens_cp.searches import superqueens_count, torus_count
from nqueens_cp.searches.bitboard_kernel import _column_of, _push
from nqueens_cp.system.compiled import compiled, inline
from nqueens_cp.system.interrupts import native_call

Int64Array = npt.NDArray[np.int64]

#: The largest board the kernel takes: a mask of n bits shifted by two still fits in an int64,
#: and every published count up to here fits too.
MAX_N = 32

# Rows of the search's frames: the diagonal masks, the columns taken, the free squares not yet tried.
_LEFT, _DOWN, _RIGHT, _AVAIL = 0, 1, 2, 3


@compiled
def _next_diagonals(left: int, right: int, bit: int, n: int, full: int, toroidal: bool) -> tuple[int, int]:
    """The diagonal masks of the next row once ``bit`` is taken (rotating within n bits on the torus)."""
    left |= bit
    right |= bit
    if toroidal:
        return ((left << 1) | (left >> (n - 1))) & full, (right >> 1) | ((right & 1) << (n - 1))
    return (left << 1) & full, right >> 1


@compiled
def _below(left: int, down: int, right: int, bit: int, above: int, n: int, full: int, toroidal: bool,
           knight: bool) -> tuple[int, int, int, int]:
    """One step down the row-by-row search: from a row's attacks (``left``, ``down``, ``right``)
    with ``bit`` taken in it (``above``: the piece of the row before it), the next row's attacks and
    its free squares (0: a dead end)."""
    down |= bit
    left, right = _next_diagonals(left, right, bit, n, full, toroidal)
    free = full & ~(left | down | right)
    if knight:
        free &= ~((bit << 2) | (bit >> 2) | (above << 1) | (above >> 1))
    return left, down, right, free


@compiled
def _count_from(n: int, toroidal: bool, knight: bool, prefix: Int64Array) -> int:
    """The placements of n pieces whose first rows hold the columns of ``prefix`` (0 when the
    prefix itself has two pieces attacking each other), for ``1 <= len(prefix) <= n``.

    ``board[row + 1]`` is the queen of ``row`` as a one-bit mask (``board[0]`` stays 0), for the
    knight's jumps from the two rows above.
    """
    full = (1 << n) - 1
    last = n - 1
    board = np.zeros(n + 1, np.int64)
    frames = np.zeros((4, n), np.int64)
    left = 0
    down = 0
    right = 0
    start = prefix.shape[0]
    for row in range(start):
        bit = 1 << prefix[row]
        taken = left | down | right
        if knight:
            taken |= (board[row] << 2) | (board[row] >> 2)
            if row >= 1:
                taken |= (board[row - 1] << 1) | (board[row - 1] >> 1)
        if bit & taken:
            return 0
        board[row + 1] = bit
        down |= bit
        left, right = _next_diagonals(left, right, bit, n, full, toroidal)
    if start == n:
        return 1
    free = full & ~(left | down | right)
    if knight:
        free &= ~((board[start] << 2) | (board[start] >> 2) | (board[start - 1] << 1) | (board[start - 1] >> 1))
    _push(frames, start, left, down, right, free)
    total = 0
    row = start
    while row >= start:
        avail = frames[_AVAIL, row]
        if avail == 0:
            row -= 1
            continue
        bit = avail & -avail
        frames[_AVAIL, row] = avail ^ bit
        if row == last:
            total += 1
            continue
        board[row + 1] = bit
        left, down, right, free = _below(frames[_LEFT, row], frames[_DOWN, row], frames[_RIGHT, row], bit,
                                         int(board[row]), n, full, toroidal, knight)
        if free:
            row += 1
            _push(frames, row, left, down, right, free)
    return total


@compiled
def _placement_batch(n: int, toroidal: bool, knight: bool, state: Int64Array, board: Int64Array,
                     frames: Int64Array, out: Int64Array) -> int:
    """The next placements of the row-by-row search (as :func:`_count_from`'s, from the empty
    board), at most ``out.shape[0]``, written to ``out``'s rows in lexicographic order; returns how
    many. The search resumes where the last call left it: ``state[0]`` is the row it is on (-1 once
    it is done), ``board`` and ``frames`` its stack, both set up by :func:`placements`."""
    full = (1 << n) - 1
    last = n - 1
    found = 0
    row = state[0]
    while row >= 0 and found < out.shape[0]:
        avail = frames[_AVAIL, row]
        if avail == 0:
            row -= 1
            continue
        bit = avail & -avail
        frames[_AVAIL, row] = avail ^ bit
        board[row + 1] = bit
        if row == last:
            for r in range(n):
                out[found, r] = _column_of(board[r + 1])
            found += 1
            continue
        left, down, right, free = _below(frames[_LEFT, row], frames[_DOWN, row], frames[_RIGHT, row], bit,
                                         board[row], n, full, toroidal, knight)
        if free:
            row += 1
            _push(frames, row, left, down, right, free)
    state[0] = row
    return found


#: Placements :func:`placements` takes from the compiled search at a time (its memory: this many rows of n).
PLACEMENT_BATCH = 4096


def placements(rules: Rules, n: int, batch: int = PLACEMENT_BATCH) -> Iterator[tuple[int, ...]]:
    """Every placement of n pieces under ``rules``, in lexicographic order, streamed: the compiled
    search hands over ``batch`` at a time and resumes where it stopped, so memory stays O(batch * n).
    None at once on a torus whose side is not coprime to 6 (Polya's theorem, as :func:`count`)."""
    _check_size(n)
    if n == 0:
        yield ()
        return
    if rules.toroidal and n > 1 and gcd(n, 6) != 1:
        return
    state = np.zeros(1, np.int64)
    board = np.zeros(n + 1, np.int64)
    frames = np.zeros((4, n), np.int64)
    frames[_AVAIL, 0] = (1 << n) - 1
    out = np.zeros((batch, n), np.int64)
    while state[0] >= 0:
        with native_call():  # a compiled call: Ctrl-C or SIGTERM ends the process (see interrupts)
            found = int(_placement_batch(n, rules.toroidal, rules.knight, state, board, frames, out))
        yield from map(tuple, out[:found].tolist())


@inline
def _orbit_fixed_count(n: int, toroidal: bool, knight: bool, a: int, b: int, c: int, d: int, t_row: int,
                       t_col: int) -> int:
    """The placements of n pieces (``toroidal``: the diagonals wrap; ``knight``: no two pieces a
    knight's jump apart) that the map ``(r, q) -> (a r + b q + t_row, c r + d q + t_col)`` (mod n
    on the torus) sends onto themselves; the map must send the board onto itself.

    The search behind both Burnside sums, this module's :func:`unique_count` and
    :mod:`~nqueens_cp.searches.torus_classes`: rows are filled in order; the first empty row takes a
    queen on each column in turn together with the whole orbit of that square under the map (rows
    the orbit fills are skipped later), each square checked against every queen placed: row,
    column, both diagonals, knight jumps.
    """
    row_used = np.zeros(n, np.bool_)
    col_used = np.zeros(n, np.bool_)
    up_used = np.zeros(2 * n, np.bool_)  # row + col (mod n on the torus)
    down_used = np.zeros(2 * n, np.bool_)  # row - col + n (mod n on the torus)
    occupied = np.zeros((n, n), np.bool_)
    level_row = np.zeros(n + 2, np.int64)  # the row each level fills
    level_col = np.zeros(n + 2, np.int64)  # the next column it tries
    level_placed = np.zeros(n + 2, np.int64)  # how many squares its current choice placed
    placed_row = np.zeros(n, np.int64)
    placed_col = np.zeros(n, np.int64)
    placed = 0
    total = 0
    depth = 0
    while depth >= 0:
        while level_placed[depth] > 0:  # take back this level's previous choice
            placed -= 1
            level_placed[depth] -= 1
            r = placed_row[placed]
            q = placed_col[placed]
            up = (r + q) % n if toroidal else r + q
            dn = (r - q) % n if toroidal else r - q + n
            row_used[r] = col_used[q] = up_used[up] = down_used[dn] = False
            if knight:
                occupied[r, q] = False
        row = level_row[depth]
        if row == n:
            total += 1
            depth -= 1
            continue
        col = level_col[depth]
        if col == n:
            depth -= 1
            continue
        level_col[depth] = col + 1
        r = row
        q = col
        ok = True
        while True:
            up = (r + q) % n if toroidal else r + q
            dn = (r - q) % n if toroidal else r - q + n
            if row_used[r] or col_used[q] or up_used[up] or down_used[dn]:
                ok = False
                break
            if knight:
                for dr, dq in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
                    rr = r + dr
                    qq = q + dq
                    if 0 <= rr < n and 0 <= qq < n and occupied[rr, qq]:
                        ok = False
                if not ok:
                    break
            row_used[r] = col_used[q] = up_used[up] = down_used[dn] = True
            if knight:
                occupied[r, q] = True
            placed_row[placed] = r
            placed_col[placed] = q
            placed += 1
            level_placed[depth] += 1
            r, q = a * r + b * q + t_row, c * r + d * q + t_col
            if toroidal:
                r %= n
                q %= n
            if r == row and q == col:
                break
        if not ok:
            continue
        nxt = row + 1
        while nxt < n and row_used[nxt]:
            nxt += 1
        depth += 1
        level_row[depth] = nxt
        level_col[depth] = 0
        level_placed[depth] = 0
    return total


@compiled
def orbit_fixed_count(n: int, toroidal: bool, knight: bool, a: int, b: int, c: int, d: int, t_row: int,
                      t_col: int) -> int:
    """:func:`_orbit_fixed_count`, the rules chosen at run time."""
    return _orbit_fixed_count(n, toroidal, knight, a, b, c, d, t_row, t_col)


@compiled
def torus_orbit_fixed_count(n: int, a: int, b: int, c: int, d: int, t_row: int, t_col: int) -> int:
    """:func:`_orbit_fixed_count` of toroidal queens, compiled for that case alone (its tests of the
    rules folded away)."""
    return _orbit_fixed_count(n, True, False, a, b, c, d, t_row, t_col)


def square_map(n: int, symmetry: int) -> tuple[int, int, int, int, int, int]:
    """The square's symmetry of index ``symmetry`` as the affine map ``(a, b, c, d, t_row, t_col)``
    of :func:`orbit_fixed_count`: :meth:`~nqueens_cp.core.symmetry.Symmetry.map_square` (the rows
    and columns swapped, then the rows reversed, then the columns)."""
    a, b, c, d = (0, 1, 1, 0) if symmetry & INVERSE else (1, 0, 0, 1)
    t_row = t_col = 0
    if symmetry & REVERSE:
        a, b, t_row = -a, -b, n - 1
    if symmetry & MIRROR:
        c, d, t_col = -c, -d, n - 1
    return a, b, c, d, t_row, t_col


def _tasks(rules: Rules, n: int) -> list[tuple[int, tuple[int, ...]]]:
    """The prefixes the count is split over, each with the number of solutions every solution under
    it stands for (see the module docstring)."""
    if rules.toroidal and not rules.knight:
        depth = min(3, n)
        return [(n, (0, *rest)) for rest in product(range(n), repeat=depth - 1)]
    depth = min(2, n)
    return [(1 if 2 * first + 1 == n else 2, (first, *rest))
            for first in range((n + 1) // 2) for rest in product(range(n), repeat=depth - 1)]


def search_count(rules: Rules, n: int, workers: int = 2) -> int:
    """The placements of n pieces under ``rules``, by search alone (no theorem), on ``workers``
    threads."""
    _check_size(n)
    if n == 0:
        return 1
    tasks = _tasks(rules, n)

    def one(task: tuple[int, tuple[int, ...]]) -> int:
        weight, prefix = task
        columns = np.array(prefix, np.int64)
        if rules.toroidal and not rules.knight:
            return weight * torus_count.plain_count_from(n, prefix)
        return weight * int(_count_from(n, rules.toroidal, rules.knight, columns))

    if workers <= 1:
        return sum(map(one, tasks))
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return sum(pool.map(one, tasks))


def count(rules: Rules, n: int, workers: int = 2) -> int:
    """The placements of n pieces under ``rules`` (0 at once on a torus whose side is not coprime
    to 6, by Polya's theorem), on ``workers`` threads: toroidal queens by the orbits of the torus's
    affine symmetries (:mod:`~nqueens_cp.searches.torus_count`), superqueens by the square's whole
    group (:mod:`~nqueens_cp.searches.superqueens_count`), the other rules by :func:`search_count`."""
    if rules.toroidal and n > 1 and gcd(n, 6) != 1:
        _check_size(n)
        return 0
    if rules.toroidal and not rules.knight and n > 1:
        _check_size(n)
        return torus_count.count(n, workers)
    if rules.knight and not rules.toroidal and n >= superqueens_count.MIN_N:
        _check_size(n)
        return superqueens_count.count(n, workers).placements
    return search_count(rules, n, workers)


def fixed_count(rules: Rules, n: int, symmetry: int) -> int:
    """The placements under ``rules`` that the square's symmetry of index ``symmetry`` maps onto
    themselves (with ``symmetry`` 0, the identity, every placement: a slow plain search)."""
    _check_size(n)
    if n == 0:
        return 1
    return int(orbit_fixed_count(n, rules.toroidal, rules.knight, *square_map(n, symmetry)))


def unique_count(rules: Rules, n: int, workers: int = 2, total: int | None = None) -> int:
    """The placements under ``rules`` up to the 8 symmetries of the square, by Burnside's lemma:
    the count (``total`` when the caller has it, else counted on ``workers`` threads) plus the
    placements each other symmetry fixes, over 8."""
    fixed = (count(rules, n, workers) if total is None else total) + sum(fixed_count(rules, n, g.index) for g in SYMMETRIES[1:])
    classes, remainder = divmod(fixed, 8)
    assert remainder == 0, f"Burnside's sum {fixed} is not a multiple of 8"
    return classes


def _check_size(n: int) -> None:
    if not 0 <= n <= MAX_N:
        raise ValueError(f"the compiled family kernel handles 0 <= n <= {MAX_N}, got {n}")
