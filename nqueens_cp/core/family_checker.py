"""The independent checker of the N-Queens family's witnesses.

Like :mod:`.checker` for the classic problem, it shares no code with any model or search: every
rule is re-derived from :func:`~nqueens_cp.core.problems.attacks` and the problem's definition.
Each function returns every reason its witness fails (empty when it holds), naming the squares
at fault, so a caller prints the first and a test can read them all:

- :func:`placement_problems`: n pieces, one per row, no two attacking each other (toroidal
  queens, superqueens, and the classic problem under the family's rules);
- :func:`domination_problems`: every square occupied or attacked (and, independent, no two of
  the queens attacking each other);
- :func:`colouring_problems`: a colour per square, no two attacking squares of one colour;
- :func:`peaceable_problems`: two armies of equal size on distinct squares, no queen attacking
  one of the other army.

:func:`witness_problems` dispatches on the problem and :func:`witness_value` says what a witness
achieves (queens placed, colours used, the size of each army).

The checks compare pairs of squares: O(k^2) for k pieces, O(n^4) for a colouring, which is a
fraction of a second for every board the family's solvers reach; a placement of one piece per row
on a board larger than :data:`TABLE_MAX_N` compares only the pieces that share a line or stand
within a knight's reach, O(n), as the constructions reach any n.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import cast

from nqueens_cp.core.problems import (
    Armies,
    Colouring,
    Goal,
    Placement,
    Problem,
    Rules,
    Square,
    Witness,
    attacks,
)

#: How many failures a check names before it stops looking (a wrong witness can fail n^4 ways).
MAX_PROBLEMS = 20


def _on_board(n: int, squares: Iterable[Square], what: str) -> list[str]:
    problems = []
    for square in squares:
        row, col = square
        if not (isinstance(row, int) and isinstance(col, int) and 0 <= row < n and 0 <= col < n):
            problems.append(f"{what} {square!r} is off the {n} x {n} board")
    return problems


def _attacking_pairs(rules: Rules, n: int, squares: Sequence[Square], what: str) -> list[str]:
    problems = []
    for a, b in combinations(squares, 2):
        if attacks(rules, n, a, b):
            problems.append(f"{what} on {a} and {b} attack each other")
            if len(problems) >= MAX_PROBLEMS:
                break
    return problems


#: The largest board whose attack relation :func:`placement_problems` tabulates (n^4 bytes, built by
#: n^4 calls of ``attacks``: 1 MB and about a second at 32): an enumeration checks many placements.
TABLE_MAX_N = 32


@lru_cache(maxsize=4)
def _attack_table(rules: Rules, n: int) -> tuple[bytes, ...]:
    """``attacks`` tabulated: entry ``[r n + c][r' n + c']`` is 1 when a piece on (r, c) attacks (r', c')."""
    squares = [(r, c) for r in range(n) for c in range(n)]
    return tuple(bytes(attacks(rules, n, a, b) for b in squares) for a in squares)


def placement_problems(rules: Rules, n: int, columns: Sequence[int]) -> list[str]:
    """Why ``columns`` (``columns[row]`` is the column of row ``row``'s piece) is not n pieces
    that do not attack each other under ``rules``. Every pair is looked up in ``attacks``'s table
    on boards up to :data:`TABLE_MAX_N` (the pairs at fault then named by ``attacks`` itself)."""
    if len(columns) != n:
        return [f"has {len(columns)} entries, expected {n}"]
    squares = list(enumerate(columns))
    problems = _on_board(n, squares, "square")
    if problems:
        return problems
    if n <= TABLE_MAX_N:
        table = _attack_table(rules, n)
        cells = [row * n + col for row, col in squares]
        if not any(table[a][b] for a, b in combinations(cells, 2)):
            return []
        return _attacking_pairs(rules, n, squares, "pieces")
    return _attacking_pairs_by_line(rules, n, squares)


def _attacking_pairs_by_line(rules: Rules, n: int, squares: Sequence[Square]) -> list[str]:
    """The attacking pairs among one piece per row (``squares[row]``) in O(n), each confirmed and
    named by ``attacks``: pieces one or two rows apart (a knight's reach) are compared directly;
    pieces farther apart attack only along a column or a diagonal (wrapping on the torus), so only
    those sharing such a line (grouped by its index) are compared."""
    problems: list[str] = []
    compared: set[tuple[Square, Square]] = set()  # on the torus two pieces can share both diagonals

    def compare(a: Square, b: Square) -> bool:
        if (a, b) not in compared and attacks(rules, n, a, b):
            compared.add((a, b))
            problems.append(f"pieces on {a} and {b} attack each other")
        return len(problems) >= MAX_PROBLEMS

    for row in range(len(squares) - 1):
        for near in squares[row + 1:row + 3]:
            if compare(squares[row], near):
                return problems
    wrap = n if rules.toroidal else None
    for line in range(3):  # the columns, the diagonals, the anti-diagonals
        groups: dict[int, list[Square]] = {}
        for square in squares:
            row, col = square
            index = (col, row - col, row + col)[line]
            groups.setdefault(index if wrap is None else index % wrap, []).append(square)
        for group in groups.values():
            for a, b in combinations(group, 2):
                if abs(a[0] - b[0]) > 2 and compare(a, b):
                    return problems
    return problems


def domination_problems(rules: Rules, n: int, queens: Iterable[Square], *, independent: bool = False) -> list[str]:
    """Why ``queens`` do not occupy or attack every square of the board (``independent``: or two
    of them attack each other)."""
    placed = sorted(set(queens))
    problems = _on_board(n, placed, "queen")
    if problems:
        return problems
    if independent:
        problems += _attacking_pairs(rules, n, placed, "queens")
    for row in range(n):
        for col in range(n):
            square = (row, col)
            if square not in placed and not any(attacks(rules, n, queen, square) for queen in placed):
                problems.append(f"square {square} is neither occupied nor attacked")
                if len(problems) >= MAX_PROBLEMS:
                    return problems
    return problems


def colouring_problems(rules: Rules, n: int, colours: Sequence[Sequence[int]]) -> list[str]:
    """Why ``colours`` (``colours[row][col]``, any ints) is not a colouring of the board in which
    no two squares that attack each other share a colour."""
    if len(colours) != n or any(len(row) != n for row in colours):
        return [f"is not an {n} x {n} grid of colours"]
    squares = [(row, col) for row in range(n) for col in range(n)]
    problems = []
    for a, b in combinations(squares, 2):
        if colours[a[0]][a[1]] == colours[b[0]][b[1]] and attacks(rules, n, a, b):
            problems.append(f"squares {a} and {b} attack each other and share colour {colours[a[0]][a[1]]}")
            if len(problems) >= MAX_PROBLEMS:
                break
    return problems


def peaceable_problems(rules: Rules, n: int, white: Iterable[Square], black: Iterable[Square]) -> list[str]:
    """Why ``white`` and ``black`` are not two armies of equal size on distinct squares with no
    queen of one attacking a queen of the other."""
    whites, blacks = sorted(set(white)), sorted(set(black))
    problems = _on_board(n, whites, "white queen") + _on_board(n, blacks, "black queen")
    if problems:
        return problems
    if len(whites) != len(blacks):
        problems.append(f"the armies differ in size: {len(whites)} white, {len(blacks)} black")
    for square in sorted(set(whites) & set(blacks)):
        problems.append(f"square {square} holds a queen of each army")
    for a in whites:
        for b in blacks:
            if attacks(rules, n, a, b):
                problems.append(f"the white queen on {a} attacks the black queen on {b}")
                if len(problems) >= MAX_PROBLEMS:
                    return problems
    return problems


def witness_value(problem: Problem, witness: Witness) -> int:
    """What ``witness`` achieves: its number of queens (domination), of distinct colours
    (colouring), of queens in each army (peaceable), of pieces (a placement)."""
    goal = problem.goal
    if goal is Goal.COLOUR:
        return len({colour for row in cast(Colouring, witness) for colour in row})
    if goal is Goal.PEACEABLE:
        return len(cast(Armies, witness)[0])
    return len(witness)


def witness_problems(problem: Problem, n: int, witness: Witness) -> list[str]:
    """Every reason ``witness`` is not a valid answer's witness for ``problem`` on the n x n board."""
    goal, rules = problem.goal, problem.rules
    try:
        if goal is Goal.PLACE:
            return placement_problems(rules, n, cast(Placement, witness))
        if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
            return domination_problems(rules, n, cast("frozenset[Square]", witness),
                                       independent=goal is Goal.DOMINATE_INDEPENDENT)
        if goal is Goal.COLOUR:
            return colouring_problems(rules, n, cast(Colouring, witness))
        white, black = cast(Armies, witness)
        return peaceable_problems(rules, n, white, black)
    except (TypeError, ValueError) as error:
        return [f"is not a witness of {problem.value}: {error}"]
