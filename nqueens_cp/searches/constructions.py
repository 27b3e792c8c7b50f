"""Explicit solutions: closed-form placements of n non-attacking queens for every n >= 4.

No search: each formula gives ``board[row]`` directly, in O(n) (numpy, int32). Two independent
constructions, so that each checks the other and the searches:

* ``evens-odds``: the construction of Hoffman, Loessi and Moore ("Constructions for the Solution
  of the m Queens Problem", Mathematics Magazine 42(2), 1969), in its well-known list form
  (1-based): the even columns 2, 4, ..., then the odd ones 1, 3, ...; when n mod 6 = 2, the odd
  list is 3, 1, 7, 9, ..., 5 (1 and 3 swapped, 5 moved to the end); when n mod 6 = 3, the even
  list is 4, 6, ..., 2 (2 moved to the end) and the odd list 5, 7, ..., 1, 3.
* ``bernhardsson``: the formulas of Bernhardsson ("Explicit solutions to the N-queens problem for
  all N", SIGART Bulletin 2(2), 1991), 1-based, for even n: when n mod 6 != 2, row i and row
  n/2 + i (i = 1..n/2) take columns 2i and 2i - 1; when n mod 6 != 0 (so for n mod 6 = 2), row i
  takes column 1 + (2(i - 1) + n/2 - 1) mod n and row n + 1 - i column n - (2(i - 1) + n/2 - 1)
  mod n. Odd n: the solution for n - 1 (which leaves the main diagonal free) plus a queen in the
  corner (n, n).

n = 1 has the one queen; n = 2 and 3 have no solution (``None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

#: The constructions by name.
CONSTRUCTIONS = ("evens-odds", "bernhardsson")


def evens_odds(n: int) -> npt.NDArray[np.int32] | None:
    """The Hoffman-Loessi-Moore placement (0-based ``board[row] == col``), None for n = 2, 3."""
    if n in (2, 3):
        return None
    evens = np.arange(2, n + 1, 2, dtype=np.int64)
    odds = np.arange(1, n + 1, 2, dtype=np.int64)
    if n % 6 == 2:
        odds = np.concatenate([[3, 1], odds[3:], [5]])
    elif n % 6 == 3:
        evens = np.concatenate([evens[1:], [2]])
        odds = np.concatenate([odds[2:], [1, 3]])
    return (np.concatenate([evens, odds]) - 1).astype(np.int32)


def bernhardsson(n: int) -> npt.NDArray[np.int32] | None:
    """Bernhardsson's placement (0-based ``board[row] == col``), None for n = 2, 3."""
    if n in (2, 3):
        return None
    if n % 2 == 1:
        board = np.empty(n, dtype=np.int32)
        if n > 1:
            board[: n - 1] = _bernhardsson_even(n - 1)
        board[n - 1] = n - 1
        return board
    return _bernhardsson_even(n)


def _bernhardsson_even(n: int) -> npt.NDArray[np.int32]:
    half = n // 2
    i = np.arange(1, half + 1, dtype=np.int64)
    board = np.empty(n, dtype=np.int64)  # 1-based columns, by 0-based row
    if n % 6 != 2:
        board[:half] = 2 * i
        board[half:] = 2 * i - 1
    else:
        shift = (2 * (i - 1) + half - 1) % n
        board[i - 1] = 1 + shift
        board[n - i] = n - shift
    return (board - 1).astype(np.int32)


def construction(n: int, method: str = "evens-odds") -> npt.NDArray[np.int32] | None:
    """The placement ``method`` (one of ``CONSTRUCTIONS``) gives for n, None for n = 2, 3."""
    if method == "evens-odds":
        return evens_odds(n)
    if method == "bernhardsson":
        return bernhardsson(n)
    raise ValueError(f"unknown construction {method!r} (choose from {', '.join(CONSTRUCTIONS)})")
