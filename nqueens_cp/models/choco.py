"""The row model (:mod:`nqueens_cp.models.rows`) stated in Choco through ``pychoco``, and its options.

Two formulations of the diagonals, one filtering level for the three AllDifferent:

* ``views`` (default): ``q[i] + i`` and ``q[i] - i`` are Choco *offset views* of ``q[i]``
  (``int_offset_view``): no new variable, the AllDifferent propagators read and prune ``q[i]``
  through them (Schulte and Tack, "Views and iterators for generic constraint implementations",
  CP 2005, the same device Gecode uses).
* ``auxiliary``: one new variable per row and diagonal, tied to ``q[i]`` by ``arithm`` (the
  textbook flattening a modelling layer does when it has no views).

The AllDifferent filtering levels of Choco (``Model.allDifferent(vars, algo)``):

==============  ==================================================================================
``BC``          bounds consistency (López-Ortiz, Quimper, Tromp and van Beek, IJCAI 2003)
``AC_REGIN``    arc (domain) consistency by matching (Régin, AAAI 1994)
``AC`` /        arc consistency, Zhang et al.'s improvement of Régin's algorithm (Zhang, Li, Yap,
``AC_ZHANG``    Zhang, "Efficient generalized arc consistency for AllDifferent", IJCAI 2018)
``DEFAULT``     bounds consistency plus a probabilistic arc-consistency propagator (Choco's default)
==============  ==================================================================================

The measured choice (``benchmarks/bench_paradigms.py``, ``docs/paradigms.md``) is ``BC``: on
N-Queens the diagonal AllDifferent have wide holes that bounds reasoning does not see, but
arc consistency costs more per node than it saves, and with Choco's default search (dom/wdeg with
last conflict) ``AC`` finds no first solution of n = 256 in 60 s where ``BC`` needs 0.1 s.

:func:`build_choco_family_model` states the family's CP models (:mod:`nqueens_cp.models.family_cp`)
in Choco: the wrapped diagonals as ``mod`` of offset views, the knight as ``distance`` constraints,
the colouring's lines as AllDifferent (arc consistency: a line of n squares over k colours),
``int_value_precede_chain`` for its interchangeable colours, ``lex_less_eq`` for the armies.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nqueens_cp.core.problems import Goal, Problem, Witness, attacks
from nqueens_cp.models.family import colour_bound
from nqueens_cp.models.family_cp import cp_lines, cp_witness, placement_knight_gaps
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.rows import RowModel

if TYPE_CHECKING:
    from pychoco import Model

#: Choco's AllDifferent filtering algorithms, as ``Model.all_different`` names them.
ALLDIFF_LEVELS: tuple[str, ...] = ("BC", "AC_REGIN", "AC", "AC_ZHANG", "DEFAULT")
#: The two formulations of the diagonal expressions.
DIAGONALS: tuple[str, ...] = ("views", "auxiliary")


@dataclass(frozen=True)
class ChocoModel:
    """A built Choco model and the variables giving the columns of the model's rows, in order."""

    model: Model
    queens: tuple[Any, ...]
    rows: RowModel

    def size(self) -> ModelSize:
        return choco_size(self.rows, diagonals="views")


def choco_size(rows: RowModel, diagonals: str) -> ModelSize:
    """Variables and constraints of :func:`build_choco_model` (views add no variable and no constraint;
    auxiliary variables add ``2m`` variables and ``2m`` ``arithm`` constraints for ``m`` rows)."""
    base = rows.size()
    if diagonals == "auxiliary":
        m = len(rows.rows)
        return ModelSize(base.variables + 2 * m, base.constraints + 2 * m, base.unit)
    return base


def build_choco_model(rows: RowModel, alldiff: str = "BC", diagonals: str = "views") -> ChocoModel:
    """The row model in Choco with AllDifferent filtering ``alldiff`` and the ``diagonals`` formulation."""
    from pychoco import Model

    model = Model("n-queens")
    # Enumerated domains: Choco would pick bounds-only domains for large ranges, which hide the holes
    # the diagonals punch into each row.
    queens = [model.intvar(0, rows.n - 1, name=f"q{row}", bounded_domain=False) if rows.full
              else model.intvar(list(domain) or [0], name=f"q{row}", bounded_domain=False)
              for row, domain in zip(rows.rows, rows.domains, strict=True)]
    if diagonals == "views":
        ups = [model.int_offset_view(q, row) for q, row in zip(queens, rows.rows, strict=True)]
        downs = [model.int_offset_view(q, -row) for q, row in zip(queens, rows.rows, strict=True)]
    else:
        ups, downs = [], []
        for q, row in zip(queens, rows.rows, strict=True):
            up = model.intvar(row, rows.n - 1 + row, name=f"u{row}")
            down = model.intvar(-row, rows.n - 1 - row, name=f"d{row}")
            model.arithm(up, "=", q, "+", row).post()
            model.arithm(down, "=", q, "-", row).post()
            ups.append(up)
            downs.append(down)
    if queens:
        for line in (queens, ups, downs):
            model.all_different(line, alldiff).post()
    for index, column in rows.equalities:
        model.arithm(queens[index], "=", column).post()
    if not rows.feasible:
        model.arithm(model.intvar(0, name="zero"), "=", 1).post()  # no board: 0 = 1
    return ChocoModel(model, tuple(queens), rows)


# -- the N-Queens family ----------------------------------------------------------------------


@dataclass(frozen=True)
class ChocoFamilyModel:
    """A built Choco model of a family problem (:mod:`nqueens_cp.models.family_cp`): ``values`` are
    its decision variables in the shape :func:`~nqueens_cp.models.family_cp.cp_witness` reads (a
    list of rows' queens, an n x n grid, or the two armies' grids), ``objective`` the variable
    optimised (None for a placement), ``maximize`` its direction."""

    problem: Problem
    n: int
    model: Model
    values: Any
    objective: Any
    maximize: bool

    def decision_variables(self) -> list[Any]:
        """Every decision variable, flat (the search's variables)."""
        if self.problem.goal is Goal.PLACE:
            return list(self.values)
        grids = self.values if self.problem.goal is Goal.PEACEABLE else (self.values,)
        return [v for grid in grids for row in grid for v in row]

    def witness(self) -> Witness:
        """The witness of the solution the solver holds now."""
        def read(shape: Any) -> Any:
            return [read(part) for part in shape] if isinstance(shape, (list, tuple)) else shape.get_value()
        return cp_witness(self.problem, self.n, read(self.values))


def build_choco_family_model(problem: Problem, n: int) -> ChocoFamilyModel:
    """The CP model of ``problem`` on the n x n board in Choco (the table of
    :mod:`nqueens_cp.models.family_cp`)."""
    from pychoco import Model

    model = Model(f"{problem.value}-{n}")
    rules, goal = problem.rules, problem.goal
    if goal is Goal.PLACE:
        queens = [model.intvar(0, n - 1, name=f"q{i}", bounded_domain=False) for i in range(n)]
        model.all_different(queens, "BC").post()
        if rules.toroidal:
            for sign, name in ((1, "u"), (-1, "d")):  # (q[i] + i) mod n and (q[i] - i) mod n = (q[i] + n - i) mod n
                wrapped = [model.intvar(0, n - 1, name=f"{name}{i}") for i in range(n)]
                for i, w in enumerate(wrapped):
                    model.mod(model.int_offset_view(queens[i], sign * i % n), n, w).post()
                model.all_different(wrapped, "BC").post()
            model.arithm(queens[0], "=", 0).post()  # the column shift: every placement has a shift with q[0] = 0
        else:
            for sign in (1, -1):
                model.all_different([model.int_offset_view(q, sign * i) for i, q in enumerate(queens)], "BC").post()
        if rules.knight:
            for i, j, gap in placement_knight_gaps(n):
                model.distance(queens[i], queens[j], "!=", gap).post()
        return ChocoFamilyModel(problem, n, model, queens, None, False)
    lines = cp_lines(rules, n)
    if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        x = [[model.boolvar(name=f"x{r}_{c}") for c in range(n)] for r in range(n)]
        for r in range(n):
            for c in range(n):
                model.sum([x[r][c], *(x[a][b] for a in range(n) for b in range(n)
                                      if attacks(rules, n, (a, b), (r, c)))], ">=", 1).post()
        if goal is Goal.DOMINATE_INDEPENDENT:
            for line in lines:
                model.sum([x[r][c] for r, c in line], "<=", 1).post()
        total = model.intvar(0, n * n, name="queens")
        model.sum([v for row in x for v in row], "=", total).post()
        return ChocoFamilyModel(problem, n, model, x, total, False)
    if goal is Goal.COLOUR:
        k = colour_bound(n)
        colour = [[model.intvar(0, k - 1, name=f"c{r}_{c}", bounded_domain=False) for c in range(n)] for r in range(n)]
        for line in lines:
            model.all_different([colour[r][c] for r, c in line], "AC").post()
        for c in range(n):  # row 0 is a clique: any colouring can be renamed so
            model.arithm(colour[0][c], "=", c).post()
        flat = [v for row in colour for v in row]
        if k > n:  # the colours n .. k-1 are interchangeable: each first used after the one before
            model.int_value_precede_chain(flat, list(range(n, k))).post()
        top = model.intvar(0, k - 1, name="top")
        model.max(top, flat).post()
        return ChocoFamilyModel(problem, n, model, colour, top, False)
    white = [[model.boolvar(name=f"w{r}_{c}") for c in range(n)] for r in range(n)]
    black = [[model.boolvar(name=f"b{r}_{c}") for c in range(n)] for r in range(n)]
    for r in range(n):
        for c in range(n):
            model.arithm(white[r][c], "+", black[r][c], "<=", 1).post()
    for index, line in enumerate(lines):
        has_white, has_black = model.boolvar(name=f"lw{index}"), model.boolvar(name=f"lb{index}")
        for r, c in line:
            model.arithm(white[r][c], "<=", has_white).post()
            model.arithm(black[r][c], "<=", has_black).post()
        model.arithm(has_white, "+", has_black, "<=", 1).post()
    army = model.intvar(0, n * n, name="army")
    whites, blacks = [v for row in white for v in row], [v for row in black for v in row]
    model.sum(whites, "=", army).post()
    model.sum(blacks, "=", army).post()
    model.lex_less_eq(blacks, whites).post()  # the armies swapped: keep the one whose first queen is white
    return ChocoFamilyModel(problem, n, model, (white, black), army, True)
