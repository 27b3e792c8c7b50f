"""The N-Queens family: each problem declared once, with its rules, its question and its sequences.

A :class:`Problem` says which squares attack which (:class:`Rules`: the queen's lines, wrapping
around the board's edges on the torus, and the knight's jump for a superqueen), what is asked
(:class:`Goal`: place n pieces that do not attack each other, or find an optimum), which way the
optimum goes, and which OEIS sequences hold its published answers (:mod:`.family_oeis`). The
classic problem is :attr:`Problem.QUEENS`; every other member is one more value of the same
dimension, never another string passed down.

=====================  ================================================  =====================
problem                question                                          sequences
=====================  ================================================  =====================
queens                 n non-attacking queens: first, all, count         A000170, A002562
toroidal               the same, diagonals wrapping around the edges    A051906, A007705,
                                                                         A053994
superqueens            the same, a queen that also jumps as a knight     A051223, A051224
domination             fewest queens occupying or attacking every square A075458
independent-domination the same, no two of the queens attacking          A075324
colouring              fewest colours, no two attacking squares alike    A088202
peaceable              most queens in each of two armies, no queen of    A250000
                       one attacking a queen of the other
=====================  ================================================  =====================

:func:`attacks` is the one definition of "attacks" for the family; the independent checker
(:mod:`.family_checker`) derives every rule from it and from nothing else.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

Square = tuple[int, int]
"""A square as ``(row, column)``, both 0-based."""

Placement = tuple[int, ...]
"""n pieces, one per row: ``placement[row] == column`` (the classic solution's form)."""
Colouring = tuple[tuple[int, ...], ...]
"""A colour (any int) per square: ``colouring[row][column]``."""
Armies = tuple[frozenset[Square], frozenset[Square]]
"""The white army's squares and the black army's."""
Witness = Placement | frozenset[Square] | Colouring | Armies
"""What a problem's answer shows: a placement, a set of queens (domination), a colouring, two armies."""

#: The knight's eight jumps.
KNIGHT_JUMPS: tuple[Square, ...] = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))


@dataclass(frozen=True)
class Rules:
    """Which squares a piece attacks: its row, its column and its two diagonals (a queen), the
    diagonals wrapping around the board's edges when ``toroidal`` (rows and columns wrap too, which
    changes nothing for them), and the knight's jumps when ``knight``."""

    toroidal: bool = False
    knight: bool = False


class Goal(enum.Enum):
    """What a problem asks."""

    PLACE = "place"
    """n pieces, no two attacking each other: a first one, all of them, or their count."""
    DOMINATE = "dominate"
    """The fewest queens that occupy or attack every square."""
    DOMINATE_INDEPENDENT = "dominate-independent"
    """The fewest queens that occupy or attack every square, no two attacking each other."""
    COLOUR = "colour"
    """The fewest colours for the squares, no two attacking squares of one colour."""
    PEACEABLE = "peaceable"
    """The most queens in each of two equal armies, no queen attacking one of the other army."""


class Direction(enum.Enum):
    """Which way an optimisation goes."""

    MINIMISE = "minimise"
    MAXIMISE = "maximise"


class Problem(enum.Enum):
    """A member of the N-Queens family; its value is the name the command line takes."""

    QUEENS = "queens"
    TOROIDAL = "toroidal"
    SUPERQUEENS = "superqueens"
    DOMINATION = "domination"
    INDEPENDENT_DOMINATION = "independent-domination"
    COLOURING = "colouring"
    PEACEABLE = "peaceable"

    @property
    def rules(self) -> Rules:
        """Which squares attack which in this problem."""
        return _RULES.get(self, Rules())

    @property
    def goal(self) -> Goal:
        """What this problem asks."""
        return _GOALS[self]

    @property
    def direction(self) -> Direction | None:
        """Which way the optimum goes; None for a problem that places n pieces."""
        if self.goal is Goal.PLACE:
            return None
        return Direction.MAXIMISE if self.goal is Goal.PEACEABLE else Direction.MINIMISE

    @property
    def counts_placements(self) -> bool:
        """Whether the problem's answers are placements of n pieces, one per row (first, all, count)."""
        return self.goal is Goal.PLACE

    @property
    def sequences(self) -> tuple[str, ...]:
        """The OEIS sequences of its published answers (the first is the one by board size)."""
        return _SEQUENCES[self]

    @classmethod
    def named(cls, name: str) -> Problem:
        """The problem called ``name`` (its command-line spelling)."""
        from nqueens_cp.core.errors import InvalidArgumentError, did_you_mean

        for problem in cls:
            if problem.value == name:
                return problem
        names = [problem.value for problem in cls]
        raise InvalidArgumentError(f"unknown problem {name!r}{did_you_mean(name, names)}; "
                                   f"choose from {', '.join(names)}")


_RULES = {
    Problem.TOROIDAL: Rules(toroidal=True),
    Problem.SUPERQUEENS: Rules(knight=True),
}
_GOALS = {
    Problem.QUEENS: Goal.PLACE,
    Problem.TOROIDAL: Goal.PLACE,
    Problem.SUPERQUEENS: Goal.PLACE,
    Problem.DOMINATION: Goal.DOMINATE,
    Problem.INDEPENDENT_DOMINATION: Goal.DOMINATE_INDEPENDENT,
    Problem.COLOURING: Goal.COLOUR,
    Problem.PEACEABLE: Goal.PEACEABLE,
}
_SEQUENCES = {
    Problem.QUEENS: ("A000170", "A002562"),
    Problem.TOROIDAL: ("A051906", "A007705", "A053994"),
    Problem.SUPERQUEENS: ("A051223", "A051224"),
    Problem.DOMINATION: ("A075458",),
    Problem.INDEPENDENT_DOMINATION: ("A075324",),
    Problem.COLOURING: ("A088202",),
    Problem.PEACEABLE: ("A250000",),
}


@dataclass(frozen=True)
class FamilyAnswer:
    """A backend's answer to a family problem on the n x n board: its ``witness`` (None: it found
    none), what the witness achieves (``value``: queens, colours, the size of each army, or n for a
    placement) and whether the search ``proved`` it optimal (for a placement problem: proved that
    there is none when ``witness`` is None). ``bound``: the best bound the solver proved on the
    optimum when it stopped before proving it (None: unknown or not asked). ``found_at``: seconds
    from the start of the solver's search (its own clock, the model's building not included) to
    the witness returned, when the solver reports it (None: it does not)."""

    problem: Problem
    n: int
    witness: Witness | None
    value: int | None
    proved: bool
    bound: int | None = None
    found_at: float | None = None


def attacks(rules: Rules, n: int, a: Square, b: Square) -> bool:
    """Whether a piece on square ``a`` attacks square ``b`` of an n x n board under ``rules`` (a
    square does not attack itself)."""
    (row_a, col_a), (row_b, col_b) = a, b
    if a == b:
        return False
    if row_a == row_b or col_a == col_b:
        return True
    if rules.toroidal:
        if (row_a - col_a - row_b + col_b) % n == 0 or (row_a + col_a - row_b - col_b) % n == 0:
            return True
    elif abs(row_a - row_b) == abs(col_a - col_b):
        return True
    return rules.knight and {abs(row_a - row_b), abs(col_a - col_b)} == {1, 2}


def torus_shifts(placement: Placement, n: int) -> tuple[Placement, ...]:
    """The n placements of toroidal queens ``placement`` stands for when the first row's queen is
    fixed in column 0 (as the ASP and MiniZinc models fix it): each column shift ``c -> c + k mod n``
    maps the torus's rows, columns and wrapping diagonals onto themselves, so it maps placements to
    placements, and the n shifts put the first queen in n different columns (none repeated)."""
    return tuple(tuple((column + shift) % n for column in placement) for shift in range(n))
