"""The row model (:mod:`nqueens_cp.models.rows`) stated once in CPMpy, for any solver CPMpy hands it to.

CPMpy (Guns, "Increasing modeling language convenience with a universal n-dimensional array,
CPpy as python-embedded example", ModRef 2019) is a modelling layer: the model is written once with
its expressions (``cp.AllDifferent`` on ``q``, ``q + rows`` and ``q - rows``) and CPMpy transforms it
for each solver: passed on as a native AllDifferent to OR-Tools CP-SAT and Choco, decomposed into
linear or pseudo-Boolean constraints for Exact, into Boolean formulas for z3. A reduced model's
domains are ``InDomain`` constraints. This module only builds it; the ``cpmpy`` backend solves it.

:func:`build_cpmpy_family_model` states the family's CP models (:mod:`nqueens_cp.models.family_cp`)
the same way, objective included (``Model.minimize`` / ``maximize``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nqueens_cp.core.problems import Goal, Problem, Witness, attacks
from nqueens_cp.models.family import colour_bound
from nqueens_cp.models.family_cp import cp_lines, cp_witness, placement_knight_gaps
from nqueens_cp.models.rows import RowModel


@dataclass(frozen=True)
class CpmpyModel:
    """A CPMpy model and the variables of the row model's rows, in order."""

    model: Any
    queens: Any
    rows: RowModel


def build_cpmpy_model(rows: RowModel) -> CpmpyModel:
    """The row model in CPMpy (needs at least one row)."""
    import cpmpy as cp

    size = len(rows.rows)
    queens = cp.intvar(0, max(rows.n - 1, 0), shape=(size,), name="q")  # an array even of one
    offsets_up, offsets_down = rows.diagonals()
    constraints = [
        cp.AllDifferent(queens),
        cp.AllDifferent([queens[i] + offsets_up[i] for i in range(size)]),
        cp.AllDifferent([queens[i] + offsets_down[i] for i in range(size)]),
    ] if size > 1 else [queens[0] >= 0]  # one row: a constraint that names it (CPMpy solves only named variables)
    if not rows.full:
        constraints += [cp.InDomain(queens[i], list(domain)) for i, domain in enumerate(rows.domains)]
    constraints += [queens[index] == column for index, column in rows.equalities]
    if not rows.feasible:
        constraints.append(cp.BoolVal(False))
    return CpmpyModel(cp.Model(*constraints), queens, rows)


# -- the N-Queens family ----------------------------------------------------------------------


@dataclass(frozen=True)
class CpmpyFamilyModel:
    """A CPMpy model of a family problem (:mod:`nqueens_cp.models.family_cp`), its objective set
    when it has one (``maximize`` says which way): ``values`` are its decision variables in the
    shape :func:`~nqueens_cp.models.family_cp.cp_witness` reads (the rows' queens, an n x n grid,
    or the two armies' grids)."""

    problem: Problem
    n: int
    model: Any
    values: Any

    def witness(self) -> Witness:
        """The witness of the values the solver left in the variables."""
        if self.problem.goal is Goal.PEACEABLE:
            white, black = self.values
            return cp_witness(self.problem, self.n, (white.value().tolist(), black.value().tolist()))
        return cp_witness(self.problem, self.n, self.values.value().tolist())


def build_cpmpy_family_model(problem: Problem, n: int) -> CpmpyFamilyModel:
    """The CP model of ``problem`` on the n x n board in CPMpy (the table of
    :mod:`nqueens_cp.models.family_cp`)."""
    import cpmpy as cp

    rules, goal = problem.rules, problem.goal
    model = cp.Model()
    if goal is Goal.PLACE:
        queens = cp.intvar(0, n - 1, shape=(n,), name="q")
        model += cp.AllDifferent(queens)
        if rules.toroidal:
            model += cp.AllDifferent([(queens[i] + i) % n for i in range(n)])
            model += cp.AllDifferent([(queens[i] + (n - i) % n) % n for i in range(n)])  # (q[i] - i) mod n
            model += queens[0] == 0  # the column shift: every placement has a shift with q[0] = 0
        else:
            model += cp.AllDifferent([queens[i] + i for i in range(n)])
            model += cp.AllDifferent([queens[i] - i for i in range(n)])
        if rules.knight:
            model += [cp.abs(queens[i] - queens[j]) != gap for i, j, gap in placement_knight_gaps(n)]
        return CpmpyFamilyModel(problem, n, model, queens)
    lines = cp_lines(rules, n)
    if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        x = cp.boolvar(shape=(n, n), name="x")
        model += [x[r, c] + cp.sum(x[a, b] for a in range(n) for b in range(n)
                                   if attacks(rules, n, (a, b), (r, c))) >= 1
                  for r in range(n) for c in range(n)]
        if goal is Goal.DOMINATE_INDEPENDENT:
            model += [cp.sum(x[r, c] for r, c in line) <= 1 for line in lines]
        model.minimize(cp.sum(list(x.flat)))  # a list: the sum of a 1 x 1 array is an array
        return CpmpyFamilyModel(problem, n, model, x)
    if goal is Goal.COLOUR:
        k = colour_bound(n)
        colour = cp.intvar(0, k - 1, shape=(n, n), name="c")
        model += [cp.AllDifferent([colour[r, c] for r, c in line]) for line in lines]
        model += [colour[0, c] == c for c in range(n)]  # row 0 is a clique: any colouring can be renamed so
        if k > n:  # the colours n .. k-1 are interchangeable: each first used after the one before
            model += cp.Precedence(colour.flatten(), list(range(n, k)))
        model.minimize(cp.max(colour) + 1)
        return CpmpyFamilyModel(problem, n, model, colour)
    white, black = cp.boolvar(shape=(n, n), name="w"), cp.boolvar(shape=(n, n), name="b")
    model += white + black <= 1
    has_white = cp.boolvar(shape=(len(lines),), name="lw")
    has_black = cp.boolvar(shape=(len(lines),), name="lb")
    for index, line in enumerate(lines):
        model += [white[r, c] <= has_white[index] for r, c in line]
        model += [black[r, c] <= has_black[index] for r, c in line]
    model += has_white + has_black <= 1
    model += cp.sum(list(white.flat)) == cp.sum(list(black.flat))
    model += cp.LexLessEq(black.flatten(), white.flatten())  # the armies swapped: the first queen is white
    model.maximize(cp.sum(list(white.flat)))
    return CpmpyFamilyModel(problem, n, model, (white, black))
