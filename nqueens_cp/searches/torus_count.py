"""Toroidal queens (OEIS A051906) counted one orbit of the torus's affine symmetries at a time.

The maps ``z -> A z + t (mod n)`` of the torus, with ``A`` in the group ``L`` of
:mod:`nqueens_cp.searches.torus_group` (the linear maps that send each of the four line families
onto a family) and ``t`` any shift, map toroidal solutions to solutions; the group ``G`` of these
maps has ``n² |L|`` elements.

**The count by orbits.** Each difference ``d`` of two squares gets the key ``key(d)``: the smallest
column m with ``(1, m)`` in the orbit ``L d`` (none: n); keys are ``L``-invariant and
``key(-d) = key(d)``; the differences of key 0 and 1 are attacks. For a solution ``q`` let ``m(q)``
be the smallest key of ``y - x`` over its ordered pairs of queens ``(x, y)``, and ``A(q)`` the
triples ``(x, y, A)``: ``key(y - x) = m(q)`` and ``A`` in ``L`` with ``A (y - x) = (1, m(q))``. Each
triple gives ``g: z -> A (z - x)`` in ``G``, and ``g q`` holds ``(0, 0)`` and ``(1, m(q))``; the
triple's *value* is the column of the row-2 queen of ``g q`` (g's preimage of row 2 is a line of one
of the four families, which holds exactly one queen ``w`` of ``q``: the value is the column of
``g w``). Let ``C`` be the solutions holding ``(0, 0)`` and ``(1, m(q))`` whose own row-2 column is
the least value over ``A(q)``, and ``k(q)`` the number of triples reaching it. The elements ``g``
of ``G`` with ``g q`` in ``C`` are exactly those of the triples of least value, ``k(q)`` of them,
the same number for every member of the orbit ``G q``; counting the pairs ``(q, g)`` with ``g q``
in ``C`` both ways:

    ``count(n) = sum over q in C of n² |L| / k(q)``.

So the search (:func:`canonical_histograms`) runs one task per canonical column ``m`` (a column
that is its own key; for n = 25 they are 2, 4, 5 and 7) and row-2 column ``v``: the corner,
``(1, m)`` and ``(2, v)`` placed, and each new queen refused when it makes, with one of the first
:data:`WINDOW` queens placed, a pair of key below ``m`` or a pair of key ``m`` of value below ``v``;
the squares that would complete such a pair of value below ``v`` are blocked. Every finished board
is checked against all its pairs (:func:`_least_pairs`), which also gives ``k``. With some hundred
triples per solution, the least value is nearly always the smallest one possible: the tasks of the
larger ``v`` are cut short, and the row-1 queen stands on one of about ``n / 8`` columns.

The search itself (:func:`_torus_count_from`) branches on the line with the fewest free squares
(rows, columns and, for odd n, both diagonal families: on the torus all four play the same part);
the plain count (:func:`plain_count_from`, used by
:func:`nqueens_cp.searches.family_kernel.search_count`) is the same search with nothing forbidden.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from nqueens_cp.searches.bitboard_kernel import _column_of
from nqueens_cp.searches.torus_group import Orbits, apply, inverse_matrix, line_to_row_two, orbits
from nqueens_cp.system.compiled import compiled, inline

Int64Array = npt.NDArray[np.int64]



@inline
def _popcount(x: int) -> int:
    """The set bits of ``x`` (0 <= x < 2**63)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@inline
def _rotate(x: int, shift: int, n: int, full: int) -> int:
    """``x`` rotated left by ``shift`` (0 <= shift < n) within n bits."""
    return ((x << shift) | (x >> (n - shift))) & full


@inline
def _fewest_line(lines: int, taken: int, ups: int, downs: int, allowed: Int64Array, n: int, full: int,
                 best: int) -> tuple[int, int, int]:
    """Of the free ``lines`` (rows, or columns; ``taken``: the other kind's taken lines;
    ``allowed[x]``: the squares line ``x`` may hold), the one with fewer free squares than ``best``
    and the fewest: their number, the line, its mask of free squares (``best`` and zeros when none);
    stops at a line of one square or none."""
    best_line = 0
    best_mask = 0
    while lines:
        b = lines & -lines
        lines ^= b
        x = _column_of(b)
        mask = allowed[x] & ~taken & ~_rotate(ups, (n - x) % n, n, full) & ~_rotate(downs, x, n, full)
        size = _popcount(mask)
        if size < best:
            best, best_line, best_mask = size, x, mask
            if size <= 1:
                break
    return best, best_line, best_mask


@inline
def _block(square: int, delta: int, n: int, blocked: Int64Array, ok: Int64Array) -> None:
    """Add ``delta`` (1 or -1) to the blocks on ``square``; its four bits in ``ok`` (see
    :func:`_torus_count_from`) are set exactly while it has none."""
    before = blocked[square]
    blocked[square] = before + delta
    r = square // n
    c = square % n
    up = (r + c) % n
    down = (c - r) % n
    if before == 0:
        ok[0, r] &= ~(1 << c)
        ok[1, c] &= ~(1 << r)
        ok[2, up] &= ~(1 << down)
        ok[3, down] &= ~(1 << up)
    elif before + delta == 0:
        ok[0, r] |= 1 << c
        ok[1, c] |= 1 << r
        ok[2, up] |= 1 << down
        ok[3, down] |= 1 << up


@inline
def _pair_line(n: int, xr: int, xc: int, entry: Int64Array) -> int:
    """The line (its index among the 4n: row r is r, column c is n + c, up-diagonal ``r + c = k``
    is 2n + k, down-diagonal ``c - r = k`` is 3n + k) that the map ``w -> A (w - x)`` of this
    ``entry`` sends onto row 2: ``entry[0]`` its family, ``entry[1]`` its shift from x's line."""
    family = entry[0]
    if family == 0:
        base = xr
    elif family == 1:
        base = xc
    elif family == 2:
        base = xr + xc
    else:
        base = xc - xr
    line: int = family * n + (base + entry[1]) % n
    return line


@inline
def _settle(r: int, c: int, n: int, m: int, least: int, delta: int, queens: Int64Array, placed: int,
            line_queen: Int64Array, blocked: Int64Array, ok: Int64Array, key: Int64Array, start: Int64Array,
            entries: Int64Array, below: Int64Array) -> bool:
    """The ordered pairs (x, y) that the queen on (r, c) makes with the first ``placed`` queens of
    ``queens`` (as ``r * n + c``), placed (``delta`` 1) or taken back (-1, the others as when it
    was placed). Placing, it is refused (False, nothing changed) when the difference ``y - x`` of
    a pair has a key below m, or when a pair of key m has a value below ``least`` (see
    :func:`canonical_histograms`). Otherwise, for each pair of key m and each of its maps
    ``w -> A (w - x)`` (``entries[start[d]:start[d + 1]]`` for the difference d, rows: the line's
    family and shift, A's second row, A's inverse), the squares of its line whose value would be
    one of ``below`` (the values below ``least`` that a queen can take) are blocked (unblocked).
    """
    if delta > 0:
        for i in range(placed):
            pr = queens[i] // n
            pc = queens[i] % n
            d = ((r - pr) % n) * n + (c - pc) % n
            k = key[d]
            if k < m:
                return False
            if k == m:
                for order in range(2):  # (p, z) and (z, p)
                    xr, xc = (pr, pc) if order == 0 else (r, c)
                    diff = d if order == 0 else ((pr - r) % n) * n + (pc - c) % n
                    for e in range(start[diff], start[diff + 1]):
                        w = line_queen[_pair_line(n, xr, xc, entries[e])]
                        if w >= 0 and (entries[e, 2] * (w // n - xr) + entries[e, 3] * (w % n - xc)) % n < least:
                            return False
    for i in range(placed):
        pr = queens[i] // n
        pc = queens[i] % n
        d = ((r - pr) % n) * n + (c - pc) % n
        if key[d] == m:
            for order in range(2):
                xr, xc = (pr, pc) if order == 0 else (r, c)
                diff = d if order == 0 else ((pr - r) % n) * n + (pc - c) % n
                for e in range(start[diff], start[diff + 1]):
                    for value in below:  # the line's squares w with A (w - x) = (2, value)
                        wr = (xr + 2 * entries[e, 4] + value * entries[e, 5]) % n
                        wc = (xc + 2 * entries[e, 6] + value * entries[e, 7]) % n
                        _block(wr * n + wc, delta, n, blocked, ok)
    return True


@inline
def _least_pairs(n: int, m: int, least: int, queens: Int64Array, line_queen: Int64Array, key: Int64Array,
                 start: Int64Array, entries: Int64Array) -> int:
    """On a full board: 0 when a pair (x, y) has a key below m or a pair of key m has a value
    below ``least`` (the placement is not in ``C``), else the pairs and maps of value ``least``."""
    equal = 0
    for i in range(n):
        xr = queens[i] // n
        xc = queens[i] % n
        for j in range(n):
            diff = ((queens[j] // n - xr) % n) * n + (queens[j] % n - xc) % n
            if i != j and key[diff] <= m:
                if key[diff] < m:
                    return 0
                for e in range(start[diff], start[diff + 1]):
                    w = line_queen[_pair_line(n, xr, xc, entries[e])]
                    value = (entries[e, 2] * (w // n - xr) + entries[e, 3] * (w % n - xc)) % n
                    if value < least:
                        return 0
                    equal += value == least
    return equal


@inline
def _mark_lines(r: int, c: int, n: int, line_queen: Int64Array, square: int) -> None:
    """Write ``square`` (-1: none) as the queen of the four lines through (r, c)."""
    line_queen[r] = square
    line_queen[n + c] = square
    line_queen[2 * n + (r + c) % n] = square
    line_queen[3 * n + (c - r) % n] = square


@inline
def _flip(r: int, c: int, n: int, half: int, taken: Int64Array) -> None:
    """Flip the bits of the queen on (r, c) in the lines taken (see :func:`_torus_count_from`)."""
    taken[0] ^= 1 << r
    taken[1] ^= 1 << c
    taken[2] ^= 1 << ((r + c) % n)
    taken[3] ^= 1 << ((c - r) % n)
    taken[4] ^= 1 << ((r - c) % n)
    if half:
        taken[5] ^= 1 << (2 * c % n)
        taken[6] ^= 1 << (2 * r % n)
        taken[7] ^= 1 << (-2 * r % n)


@compiled
def _torus_count_from(n: int, prefix: Int64Array, allowed_by_row: Int64Array, m: int, least: int, key: Int64Array,
                      start: Int64Array, entries: Int64Array, below: Int64Array, window: int) -> Int64Array:
    """The toroidal placements (no knight) whose first rows hold the columns of ``prefix`` and
    whose every queen stands on an allowed square (bit ``c`` of ``allowed_by_row[r]``). With ``m``
    at least 0, only those of ``C`` (module docstring; ``least`` the row-2 column), ``counts[k]``
    of them with k triples of value ``least`` (:func:`_least_pairs`); the search prunes with the
    pairs of each queen with the first ``window`` queens placed (:func:`_settle`; 0: none). With
    ``m = -1``, ``counts[0]`` is the plain count. All zeros when the prefix breaks a rule.

    On the torus every row, column and wrapping diagonal holds exactly one queen, so after the
    prefix the search branches on the line with the fewest free squares (a line with none ends the
    branch). The lines taken are bit sets (``taken``): rows, columns, up-diagonals ``(r + c) mod n``
    and the down-diagonals twice, as ``(c - r) mod n`` and ``(r - c) mod n``; row r's free columns
    are ``ok[0, r] & ~columns & ~rot(ups, -r) & ~rot(downs_by_col, r)``, column c's free rows
    likewise (``ok[0]``, ``ok[1]``: the squares allowed and not blocked, by row and by column).
    For odd n the diagonals are lines to branch on too: in the coordinates ``R = r + c``,
    ``C = c - r`` (the eighth of a turn, so ``r = (R - C) / 2`` and ``c = (R + C) / 2``) an
    up-diagonal is a row and a down-diagonal a column, and the same formulas hold with the sets
    ``{2c}`` (``taken[5]``, for ``R + C``), ``{2r}`` and ``{-2r}`` (``taken[6]``, ``taken[7]``) in
    the diagonals' places (``ok[2]``, ``ok[3]``: the free squares by up- and by down-diagonal).
    Each level of the stack keeps its line (``kind``: 0 a row, 1 a column, 2 an up-, 3 a
    down-diagonal), the squares not yet tried and the square it holds.
    """
    full = (1 << n) - 1
    half = (n + 1) // 2 if n % 2 == 1 else 0  # the inverse of 2 mod n (0: n even, rows and columns only)
    counts = np.zeros(n * n * max(1, entries.shape[0]) + 1, np.int64)
    queens = np.zeros(n, np.int64)
    line_queen = np.full(4 * n, -1, np.int64)
    blocked = np.ones(n * n, np.int64)
    ok = np.zeros((4, n), np.int64)
    for r in range(n):
        for c in range(n):
            if (allowed_by_row[r] >> c) & 1:
                _block(r * n + c, -1, n, blocked, ok)
    taken = np.zeros(8, np.int64)
    placed = 0
    for r in range(prefix.shape[0]):
        c = prefix[r]
        if (taken[1] >> c) & 1 or (taken[2] >> ((r + c) % n)) & 1 or (taken[3] >> ((c - r) % n)) & 1:
            return counts
        if not (ok[0, r] >> c) & 1:
            return counts
        if window and not _settle(r, c, n, m, least, 1, queens, min(placed, window), line_queen, blocked, ok, key,
                                  start, entries, below):
            return counts
        _mark_lines(r, c, n, line_queen, r * n + c)
        _flip(r, c, n, half, taken)
        queens[placed] = r * n + c
        placed += 1
    if placed == n:
        counts[_least_pairs(n, m, least, queens, line_queen, key, start, entries) if m >= 0 else 0] += 1
        counts[0] = 0 if m >= 0 else counts[0]
        return counts
    kind = np.zeros(n + 1, np.int64)
    line = np.zeros(n + 1, np.int64)
    avail = np.zeros(n + 1, np.int64)
    held_row = np.full(n + 1, -1, np.int64)
    held_col = np.zeros(n + 1, np.int64)
    depth = 0
    select = True
    while True:
        if select:  # open a level on the line with the fewest free squares
            rows, cols, ups, downs_by_col, downs_by_row = taken[0], taken[1], taken[2], taken[3], taken[4]
            best, best_line, best_mask = _fewest_line(full & ~rows, cols, ups, downs_by_col, ok[0], n, full, n + 1)
            best_kind = 0
            if best > 1:
                size, x, mask = _fewest_line(full & ~cols, rows, ups, downs_by_row, ok[1], n, full, best)
                if size < best:
                    best, best_kind, best_line, best_mask = size, 1, x, mask
            if best > 1 and half:
                size, x, mask = _fewest_line(full & ~ups, downs_by_col, taken[5], taken[7], ok[2], n, full, best)
                if size < best:
                    best, best_kind, best_line, best_mask = size, 2, x, mask
                if best > 1:
                    size, x, mask = _fewest_line(full & ~downs_by_col, ups, taken[5], taken[6], ok[3], n, full, best)
                    if size < best:
                        best, best_kind, best_line, best_mask = size, 3, x, mask
            if best > 0:
                kind[depth] = best_kind
                line[depth] = best_line
                avail[depth] = best_mask
                held_row[depth] = -1
                depth += 1
            select = False
        if depth == 0:
            break
        top = depth - 1
        if held_row[top] >= 0:  # take back the square this level held
            r = held_row[top]
            c = held_col[top]
            _flip(r, c, n, half, taken)
            _mark_lines(r, c, n, line_queen, -1)
            placed -= 1
            if window:
                _settle(r, c, n, m, least, -1, queens, min(placed, window), line_queen, blocked, ok, key, start,
                        entries, below)
            held_row[top] = -1
        a = avail[top]
        if a == 0:
            depth -= 1
            continue
        b = a & -a
        avail[top] = a ^ b
        k = kind[top]
        x = _column_of(b)
        if k == 0:
            r, c = line[top], x
        elif k == 1:
            r, c = x, line[top]
        elif k == 2:
            r, c = (line[top] - x) * half % n, (line[top] + x) * half % n
        else:
            r, c = (x - line[top]) * half % n, (x + line[top]) * half % n
        if window and not _settle(r, c, n, m, least, 1, queens, min(placed, window), line_queen, blocked, ok, key,
                                  start, entries, below):
            continue
        _mark_lines(r, c, n, line_queen, r * n + c)
        _flip(r, c, n, half, taken)
        queens[placed] = r * n + c
        placed += 1
        held_row[top] = r
        held_col[top] = c
        if placed == n:
            counts[_least_pairs(n, m, least, queens, line_queen, key, start, entries) if m >= 0 else 0] += 1
            counts[0] = 0 if m >= 0 else counts[0]
        else:
            select = True
    return counts


def plain_count_from(n: int, prefix: tuple[int, ...]) -> int:
    """The toroidal placements whose first rows hold the columns of ``prefix``, nothing forbidden."""
    everything = np.full(n, (1 << n) - 1, np.int64)
    nothing = np.zeros(1, np.int64)
    return int(_torus_count_from(n, np.array(prefix, np.int64), everything, -1, -1, nothing, nothing,
                                 np.zeros((0, 8), np.int64), nothing, 0)[0])


#: The pairs the search prunes with: those of each new queen with the first queens placed.
WINDOW = 5


@dataclass(frozen=True)
class Canonical:
    """What the searches of column m need (see :func:`_settle`): the key of each difference
    ``(dr, dc)`` (at ``dr * n + dc``), and for each difference of key m the maps ``A`` of ``L`` with
    ``A d = (1, m)`` as compressed lists (``start``, ``entries``)."""

    m: int
    key: Int64Array
    start: Int64Array
    entries: Int64Array

    def count_from(self, n: int, least: int, window: int = WINDOW) -> Int64Array:
        """The placements of ``C`` holding the corner, ``(1, m)`` and ``(2, least)``, by their number
        of pairs of value ``least`` (``window``: see :func:`_torus_count_from`)."""
        attacked = {0, 2, n - 2, self.m - 1, self.m, self.m + 1}  # row 2's squares the first two queens attack
        below = np.array([value for value in range(least) if value not in attacked], np.int64)
        if below.size == 0 and self.m == 2:  # no pair can be refused: keys below 2 are attacks
            window = 0
        everything = np.full(n, (1 << n) - 1, np.int64)
        return _torus_count_from(n, np.array((0, self.m, least), np.int64), everything, self.m, least, self.key,
                                 self.start, self.entries, below, window)


def canonical(orbit: Orbits, m: int) -> Canonical:
    """The :class:`Canonical` of column m."""
    n = orbit.n
    start = np.zeros(n * n + 1, np.int64)
    rows = []
    for d in range(n * n):
        dr, dc = divmod(d, n)
        if orbit.key[dr, dc] == m:
            for g in orbit.elements:
                if apply(n, g, (dr, dc)) == (1, m):
                    rows.append((*line_to_row_two(n, g), g[2], g[3], *inverse_matrix(n, g)))
                    start[d + 1] += 1
    entries = np.array(rows, np.int64).reshape(len(rows), 8)
    return Canonical(m, orbit.key.reshape(n * n).copy(), np.cumsum(start).astype(np.int64), entries)


def canonical_histograms(orbit: Orbits, workers: int = 2) -> dict[int, Int64Array]:
    """For each canonical column m (:meth:`Orbits.canonical_columns`), the placements of ``C`` with
    the row-1 queen on ``(1, m)``, by their number of pairs of least value; one task per row-2
    column, counted on ``workers`` threads (each call releases the GIL)."""
    n = orbit.n
    searches = {m: canonical(orbit, m) for m in orbit.canonical_columns()}
    tasks = [(m, c) for m in searches for c in range(n)]

    def one(task: tuple[int, int]) -> Int64Array:
        m, c = task
        return searches[m].count_from(n, c)

    histograms: dict[int, Int64Array] = {}
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        for (m, _), counts in zip(tasks, pool.map(one, tasks), strict=True):
            histograms[m] = counts if m not in histograms else histograms[m] + counts
    return histograms


def count(n: int, workers: int = 2) -> int:
    """The toroidal solutions of side n (n >= 1), by the orbit sum of the module docstring:
    ``n² |L| / k`` for each placement of ``C`` with k pairs of least value."""
    if n < 4:
        return 1 if n == 1 else 0
    orbit = orbits(n)
    order = n * n * len(orbit.elements)
    total = Fraction(0)
    for counts in canonical_histograms(orbit, workers).values():
        assert counts[0] == 0, "the pair ((0, 0), (1, m)) has the least value in every placement"
        total += sum(Fraction(order * int(k), pairs) for pairs, k in enumerate(counts) if pairs)
    assert total.denominator == 1, f"the orbit sum {total} is not a whole number"
    return int(total)
