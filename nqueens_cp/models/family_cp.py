"""The N-Queens family as constraint programs: the formulation Choco and CPMpy state, each in its own API.

Where :mod:`nqueens_cp.models.family` states every problem as one 0-1 program for the solvers that
read linear rows, a CP solver has integer variables and globals; these are the models
:mod:`nqueens_cp.models.choco` and :mod:`nqueens_cp.models.cpmpy_model` build (``models/README.md``
writes them out):

=================  ======================================================================  =========================
problem            variables and constraints                                               symmetry breaking
=================  ======================================================================  =========================
toroidal           ``q[i]`` in 0..n-1 per row; AllDifferent on ``q[i]``, on                ``q[0] = 0`` (the torus's
                   ``(q[i] + i) mod n`` and on ``(q[i] - i) mod n``                        column shift)
superqueens        ``q[i]`` per row; AllDifferent on ``q[i]``, ``q[i] + i``, ``q[i] - i``;  none
                   ``|q[i] - q[i+1]| != 2`` and ``|q[i] - q[i+2]| != 1`` (the knight)
domination         ``x[r][c]`` Boolean; each square: ``x[s] + Σ_{a attacks s} x[a] >= 1``;  none
                   minimise ``Σ x``
independent-       the same, and ``Σ_{s in L} x[s] <= 1`` on each line L                   none
domination
colouring          ``c[r][c]`` in 0..k-1 (k: :func:`~nqueens_cp.models.family.colour_bound`);  ``c[0][j] = j``; the
                   AllDifferent on each line; minimise ``max(c) + 1``                      colours n..k-1 first used
                                                                                           in order (value precedence)
peaceable          ``w[s]``, ``b[s]`` Boolean, ``w[s] + b[s] <= 1``; per line L a Boolean   ``b <=lex w`` (the two
                   ``white[L] >= w[s]``, ``black[L] >= b[s]`` (s in L),                    armies swapped)
                   ``white[L] + black[L] <= 1``; ``Σ w = Σ b``; maximise ``Σ w``
=================  ======================================================================  =========================

"Line" is a row, a column or a diagonal of two or more squares (:func:`family_lines`). Two squares
attack each other exactly when they share a line, for a queen; so AllDifferent on each line is a
proper colouring, and the per-line flags keep the armies apart (one flag per line, not one row per
attacking pair).

:func:`cp_witness` turns the values of the variables back into the witness the independent checker
(:mod:`nqueens_cp.core.family_checker`) reads, for both libraries.
"""

from __future__ import annotations

from typing import Any

from nqueens_cp.core.problems import Goal, Problem, Rules, Square, Witness
from nqueens_cp.models.family import family_lines


def cp_lines(rules: Rules, n: int) -> list[list[Square]]:
    """The lines of two or more squares under ``rules`` (rows, columns, diagonals; wrapped on the torus)."""
    return [line for _, line in family_lines(rules, n) if len(line) > 1]


def placement_knight_gaps(n: int) -> list[tuple[int, int, int]]:
    """``(i, j, gap)``: rows i and j a knight's jump apart in rows, whose queens must not be ``gap``
    columns apart: ``(i, i+1, 2)`` and ``(i, i+2, 1)``."""
    return [(i, i + 1, 2) for i in range(n - 1)] + [(i, i + 2, 1) for i in range(n - 2)]


def cp_witness(problem: Problem, n: int, values: Any) -> Witness:
    """The witness the variables' values describe: ``q`` (n ints) for a placement, ``x[r][c]`` for a
    domination, ``c[r][c]`` for a colouring, ``(w, b)`` (two n x n grids of 0/1) for the armies."""
    goal = problem.goal
    if goal is Goal.PLACE:
        return tuple(int(v) for v in values)
    if goal is Goal.COLOUR:
        return tuple(tuple(int(v) for v in row) for row in values)
    if goal is Goal.PEACEABLE:
        white, black = values
        return (frozenset((r, c) for r in range(n) for c in range(n) if white[r][c]),
                frozenset((r, c) for r in range(n) for c in range(n) if black[r][c]))
    return frozenset((r, c) for r in range(n) for c in range(n) if values[r][c])


__all__ = ["cp_lines", "cp_witness", "placement_knight_gaps"]
