"""Most-constrained-line search on bit masks, compiled with numba (``bitboard -O search=lines``).

Every row and every column of a solution holds exactly one queen, so a search may branch on any
free *line*, a row or a column, over the squares still open on it. This search keeps, for every
free row, the mask of its open columns and, for every free column, the mask of its open rows
(blocked squares are closed from the start), and at each node

1. picks the free line with the fewest open squares (rows first on ties, lowest index first);
   none open means a dead end, and a line with one open square is forced;
2. tries each open square of that line in turn, lowest first: places the queen and closes, on
   every other free line, the squares it attacks (its column or row, and both diagonals).

Branching on all open squares of one line splits the solutions into disjoint parts, so every
solution is found exactly once: the search enumerates and counts as well as it finds one. On the
Excluded Diagonals instances of CSPLib problem 079 it visits far fewer nodes than filling the rows
in order (the paper's bit solver): a column that lost most of its squares to excluded diagonals
is filled first, and a line that runs out of squares stops the branch at once.

The kernel is resumable: the whole search state lives in arrays (:class:`LinesSearch`), and each
call fills a batch of solutions and returns, so enumeration streams with bounded memory. Boards
up to ``MAX_N`` = 64 (one uint64 per line). numba and numpy are imported with this module: import
it only where the search is used.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np
import numpy.typing as npt

from nqueens_cp.core.errors import InvalidInstanceError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.system.compiled import compiled

#: The largest board: one uint64 mask per line.
MAX_N = 64

UInt64Array = npt.NDArray[np.uint64]
Int64Array = npt.NDArray[np.int64]

# Slots of the state array: depth, whether the node at ``depth`` must still choose its line,
# whether the search is over, and the nodes visited so far.
_DEPTH, _CHOOSE, _DONE, _NODES = 0, 1, 2, 3


@compiled
def _popcount(x: np.uint64) -> int:
    """The number of set bits (the classic SWAR count)."""
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))  # type: ignore[no-any-return]


@compiled
def _lowest_index(mask: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero mask: the bits below it, counted."""
    return _popcount((mask & (~mask + np.uint64(1))) - np.uint64(1))


@compiled
def _close(masks: UInt64Array, source: UInt64Array, free: np.uint64, line: int, square: int, n: int) -> None:
    """``masks[k] = source[k]`` minus what a queen at (line, square) attacks, for every free line k
    of the same direction: the square itself and its two diagonal neighbours at distance |k - line|."""
    one = np.uint64(1)
    rest = free
    while rest:
        bit = rest & (~rest + one)
        rest ^= bit
        k = _lowest_index(bit)
        distance = k - line if k > line else line - k
        kill = one << np.uint64(square)
        if square + distance < n:
            kill |= one << np.uint64(square + distance)
        if square - distance >= 0:
            kill |= one << np.uint64(square - distance)
        masks[k] = source[k] & ~kill


@compiled
def _fewest_open(masks: UInt64Array, free: np.uint64, best: int, best_line: int) -> tuple[int, int]:
    """The free line (of one direction) with the fewest open squares, if fewer than ``best``:
    ``(count, line)``, lowest index first on ties; ``(best, best_line)`` when none has fewer."""
    one = np.uint64(1)
    rest = free
    while rest and best > 1:
        bit = rest & (~rest + one)
        rest ^= bit
        line = _lowest_index(bit)
        count = _popcount(masks[line])
        if count < best:
            best, best_line = count, line
    return best, best_line


@compiled
def _search(
    rows: UInt64Array, cols: UInt64Array, free_rows: UInt64Array, free_cols: UInt64Array,
    kind: Int64Array, line: Int64Array, candidates: UInt64Array, board: Int64Array,
    state: Int64Array, out: Int64Array,
) -> int:
    """Fill ``out`` with the next solutions; returns how many (0: the search is over).

    ``rows[d, r]`` (``cols[d, c]``) holds the open squares of row r (column c) at depth d;
    ``free_rows[d]`` / ``free_cols[d]`` the lines without a queen; ``kind[d]``, ``line[d]`` and
    ``candidates[d]`` the line chosen at depth d (0 row, 1 column) and its squares not tried yet.
    """
    n = board.shape[0]
    one = np.uint64(1)
    capacity = out.shape[0]
    found = 0
    depth = state[_DEPTH]
    choose = state[_CHOOSE]
    nodes = state[_NODES]
    while depth >= 0:
        if choose:
            choose = 0
            nodes += 1
            if depth == n:
                for r in range(n):
                    out[found, r] = board[r]
                found += 1
                depth -= 1
                if found == capacity:
                    break
                continue
            best, best_line = _fewest_open(rows[depth], free_rows[depth], n + 1, 0)
            best_kind = 0
            _, column_line = _fewest_open(cols[depth], free_cols[depth], best, -1)
            if column_line >= 0:
                best_kind, best_line = 1, column_line
            kind[depth] = best_kind
            line[depth] = best_line
            candidates[depth] = rows[depth, best_line] if best_kind == 0 else cols[depth, best_line]
        left = candidates[depth]
        if not left:
            depth -= 1
            continue
        bit = left & (~left + one)
        candidates[depth] = left ^ bit
        if kind[depth] == 0:
            r, c = line[depth], _lowest_index(bit)
        else:
            r, c = _lowest_index(bit), line[depth]
        board[r] = c
        nxt = depth + 1
        free_rows[nxt] = free_rows[depth] & ~(one << np.uint64(r))
        free_cols[nxt] = free_cols[depth] & ~(one << np.uint64(c))
        _close(rows[nxt], rows[depth], free_rows[nxt], r, c, n)
        _close(cols[nxt], cols[depth], free_cols[nxt], c, r, n)
        depth = nxt
        choose = 1
    state[_DEPTH] = depth
    state[_CHOOSE] = choose
    state[_NODES] = nodes
    if depth < 0:
        state[_DONE] = 1
    return found


class LinesSearch:
    """One resumable most-constrained-line search over an instance (see the module docstring)."""

    def __init__(self, instance: Instance) -> None:
        n = instance.n
        if n > MAX_N:
            raise InvalidInstanceError(f"the lines search takes boards up to {MAX_N}x{MAX_N}, not {n}x{n}")
        self.n = n
        size = max(n, 1)
        self._rows = np.zeros((size + 1, size), dtype=np.uint64)
        self._cols = np.zeros((size + 1, size), dtype=np.uint64)
        for r in range(n):
            for c in instance.allowed_columns(r):
                self._rows[0, r] |= np.uint64(1 << c)
                self._cols[0, c] |= np.uint64(1 << r)
        full = np.uint64((1 << n) - 1)
        self._free_rows = np.zeros(size + 1, dtype=np.uint64)
        self._free_cols = np.zeros(size + 1, dtype=np.uint64)
        self._free_rows[0] = full
        self._free_cols[0] = full
        self._kind = np.zeros(size + 1, dtype=np.int64)
        self._line = np.zeros(size + 1, dtype=np.int64)
        self._candidates = np.zeros(size + 1, dtype=np.uint64)
        self._board = np.zeros(n, dtype=np.int64)
        self._state = np.zeros(4, dtype=np.int64)
        self._state[_CHOOSE] = 1

    @property
    def done(self) -> bool:
        """Whether the search space is exhausted."""
        return bool(self._state[_DONE])

    def batch(self, size: int) -> list[Solution]:
        """The next at most ``size`` solutions (empty when the search is over)."""
        if self.done:
            return []
        out = np.zeros((max(size, 1), max(self.n, 1)), dtype=np.int64)
        found = _search(self._rows, self._cols, self._free_rows, self._free_cols, self._kind, self._line,
                        self._candidates, self._board, self._state, out)
        return [tuple(int(col) for col in out[i, : self.n]) for i in range(found)]


def iter_solutions(instance: Instance, batch_size: int) -> Iterator[Solution]:
    """Every solution of ``instance``, lazily, ``batch_size`` per call of the compiled kernel."""
    search = LinesSearch(instance)
    while not search.done:
        yield from search.batch(batch_size)


def count(instance: Instance, limit: int | None = None, batch_size: int = 8192) -> int:
    """The number of solutions of ``instance`` (at most ``limit``)."""
    search = LinesSearch(instance)
    total = 0
    while not search.done and (limit is None or total < limit):
        wanted = batch_size if limit is None else min(batch_size, limit - total)
        total += len(search.batch(wanted))
    return total
