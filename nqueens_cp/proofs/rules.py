"""Which clauses of a CNF over square variables every N-Queens board satisfies.

An unsatisfiability proof shows that a CNF has no model. That the *board* has no solution follows
when every solution, written as an assignment of the square variables, satisfies every clause: then
no model means no solution. This module checks that clause by clause, from the rules alone (it
shares no code with the models that wrote the CNF). Variable ``i + 1`` stands for ``squares[i]``
(true when a queen stands there); a solution places a queen on every pre-placed square, on no
blocked square, one per row and per column, at most one per diagonal. So a *possible* square is one
that is not blocked and is neither attacked by nor in the row of a pre-placed queen (other than that
queen's own square), and a clause is implied by the rules when it holds

- the positive literal of a pre-placed queen's square, or the negative literal of an impossible
  square;
- the negative literals of two squares in one row, column or diagonal (at most one of them has a
  queen);
- the positive literals of every possible square of some row, or of some column (each holds a
  queen, on a possible square).

When some row or column has no possible square, no board exists and every clause is implied.
A clause over any other variable (an encoding's auxiliary) is not implied by these rules: it
counts among the clauses :func:`unimplied_clauses` returns.
"""

from __future__ import annotations

from typing import Iterable, Sequence


def attack(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two distinct squares share a row, a column or a diagonal."""
    return a != b and (a[0] == b[0] or a[1] == b[1] or abs(a[0] - b[0]) == abs(a[1] - b[1]))


def possible_squares(
    n: int, fixed: Iterable[tuple[int, int]], blocked: Iterable[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The squares a solution may hold a queen on (every square of every solution is one of them)."""
    queens = list(fixed)
    closed = set(blocked)
    return {
        (r, c) for r in range(n) for c in range(n)
        if (r, c) not in closed and all((r, c) == q or not attack((r, c), q) for q in queens)
    }


def no_board(n: int, fixed: Iterable[tuple[int, int]], possible: set[tuple[int, int]]) -> bool:
    """Whether the rules alone leave no board: a pre-placed queen on an impossible square (blocked,
    or attacked by another), or a row or a column without a possible square."""
    return any(q not in possible for q in fixed) or any(
        not any((r, c) in possible for c in range(n)) or not any((c, r) in possible for c in range(n))
        for r in range(n)
    )


def possible_lines(n: int, possible: set[tuple[int, int]]) -> list[frozenset[tuple[int, int]]]:
    """The possible squares of each row and of each column: a board has a queen on one of each."""
    return [frozenset(square for square in line if square in possible)
            for k in range(n) for line in ([(k, c) for c in range(n)], [(r, k) for r in range(n)])]


def square_map_problem(
    n: int, fixed: Sequence[tuple[int, int]], possible: set[tuple[int, int]], squares: Sequence[tuple[int, int]]
) -> str | None:
    """What is wrong with ``squares`` (variable ``i + 1`` is ``squares[i]``) as the square variables
    of a CNF, or None: each must be a square of the board, none twice, and every possible square
    but the pre-placed queens' must have one (two different boards then differ on a variable)."""
    seen: dict[tuple[int, int], int] = {}
    for variable, square in enumerate(squares, start=1):
        if not (0 <= square[0] < n and 0 <= square[1] < n):
            return f"variable {variable} stands for {square}, off the {n} x {n} board"
        if square in seen:
            return f"square {square} has two variables, {seen[square]} and {variable}"
        seen[square] = variable
    missing = sorted(possible - seen.keys() - set(fixed))
    if missing:
        return f"the possible square {missing[0]} has no variable"
    return None


def unimplied_clauses(
    n: int,
    fixed: Sequence[tuple[int, int]],
    blocked: Sequence[tuple[int, int]],
    squares: Sequence[tuple[int, int]],
    clauses: Iterable[Sequence[int]],
    possible: set[tuple[int, int]] | None = None,
) -> list[int]:
    """The indices of the ``clauses`` the rules do not imply (empty: every solution satisfies all);
    ``possible``: :func:`possible_squares` of the instance, when the caller has it already."""
    if possible is None:
        possible = possible_squares(n, fixed, blocked)
    if no_board(n, fixed, possible):
        return []  # every clause is implied
    fixed_set = set(fixed)
    index = {square: variable for variable, square in enumerate(squares, start=1)}
    lines = [frozenset(index[square] for square in line)  # the possible squares of each row and column
             for line in possible_lines(n, possible) if all(square in index for square in line)]
    top = len(squares)
    unimplied: list[int] = []
    for position, clause in enumerate(clauses):
        negatives: list[tuple[int, int]] = []
        positives: set[int] = set()
        implied = False
        for lit in clause:
            variable = abs(lit)
            if variable > top:
                continue
            square = squares[variable - 1]
            if lit > 0:
                positives.add(variable)
                implied = square in fixed_set
            else:
                implied = square not in possible or any(attack(square, other) for other in negatives)
                negatives.append(square)
            if implied:
                break
        if not implied and positives:
            implied = any(line <= positives for line in lines)
        if not implied:
            unimplied.append(position)
    return unimplied
