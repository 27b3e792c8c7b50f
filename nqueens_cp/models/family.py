"""The N-Queens family as 0-1 linear programs: one model per problem, built apart from any solver.

Every problem of :mod:`nqueens_cp.core.problems` is a set of 0-1 variables, linear rows
``lower <= Σ a·x <= upper`` and, for the optimisation problems, a linear objective; CP-SAT, HiGHS,
Exact and the others each translate the same :class:`FamilyModel`. Square ``(r, c)`` is variable
``r*n + c + 1`` (:func:`~nqueens_cp.models.geometry.square_variable`), as in the classic models.

=================  =====================================================================  ==========================
problem            rows                                                                   size (variables, rows)
=================  =====================================================================  ==========================
toroidal           every row and column exactly one queen, every wrapped diagonal at most  n², 4n (n > 1)
                   one (2n diagonals of n squares)
superqueens        the classic lines (rows, columns exactly one, diagonals at most one)    n², 6n - 6 + 4(n-1)(n-2)
                   and ``x_a + x_b <= 1`` for each knight's jump
domination         each square occupied or attacked: ``x_s + Σ_{a attacks s} x_a >= 1``;  n², n²
                   minimise ``Σ x``
independent-       the same, and at most one queen on each line                           n², n² + 6n - 6
domination
colouring          ``x_{s,k}``: square s has colour k, ``y_k``: colour k is used; each    k·n² + k, n² + k·(6n - 6)
                   square one colour; each line holds colour k at most once and only if   + (k - 1) + n
                   ``y_k``; ``y_k >= y_{k+1}``; row 0 coloured 0 .. n-1 (it is a clique:
                   any colouring can be renamed so); minimise ``Σ y``; on the 1 x 1
                   board (no line of two squares) ``x_{s,k} <= y_k``: k more rows
peaceable          ``w_s``, ``b_s``: a white, a black queen on s; ``w_a + b_b <= 1`` when  2n², n² + 2·(attacking
                   a = b or a attacks b; as many white as black; maximise ``Σ w``          pairs) + 1
=================  =====================================================================  ==========================

The colouring model takes its palette size ``k`` from :func:`colour_bound` (the next prime p >= n,
p >= 5: a p x p board has a p-colouring, p prime > 3, and an n x n board inherits it), so it is
feasible for every n. :meth:`FamilyModel.decode` turns the values of the variables into the witness
the independent checker (:mod:`nqueens_cp.core.family_checker`) reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from nqueens_cp.core.problems import Direction, Goal, Problem, Rules, Square, Witness, attacks
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, lines, square_variable
from nqueens_cp.models.linear import LinearRow


@dataclass(frozen=True)
class Objective:
    """``direction`` the sum ``Σ coefficient·x_variable``."""

    terms: tuple[tuple[int, int], ...]
    direction: Direction


@dataclass(frozen=True)
class FamilyModel:
    """A built model of ``problem`` on the n x n board: variables ``1 .. variables``, its rows, its
    objective (None for a placement problem) and, for the colouring, the palette size."""

    problem: Problem
    n: int
    variables: int
    rows: tuple[LinearRow, ...]
    objective: Objective | None
    colours: int = 0

    def size(self) -> ModelSize:
        """Variables and rows."""
        return ModelSize(self.variables, len(self.rows), "rows")

    def decode(self, value: Callable[[int], bool]) -> Witness:
        """The witness that the variables' values ``value(variable)`` describe."""
        n = self.n
        if self.problem.goal is Goal.COLOUR:
            return tuple(tuple(next(k for k in range(self.colours) if value(self.colour_variable(r, c, k)))
                               for c in range(n)) for r in range(n))
        occupied = frozenset((r, c) for r in range(n) for c in range(n) if value(square_variable(n, r, c)))
        if self.problem.goal is Goal.PEACEABLE:
            black = frozenset((r, c) for r in range(n) for c in range(n) if value(n * n + square_variable(n, r, c)))
            return occupied, black
        if self.problem.goal is Goal.PLACE:
            return tuple(c for r in range(n) for c in range(n) if (r, c) in occupied)
        return occupied

    def colour_variable(self, row: int, col: int, colour: int) -> int:
        """The variable "square (row, col) has colour ``colour``" of the colouring model."""
        return colour * self.n * self.n + square_variable(self.n, row, col)

    def used_variable(self, colour: int) -> int:
        """The variable "colour ``colour`` is used" of the colouring model."""
        return self.colours * self.n * self.n + colour + 1


def family_lines(rules: Rules, n: int) -> Iterator[tuple[str, list[Square]]]:
    """The board's lines under ``rules`` with a name each: rows, columns and the diagonals, wrapped
    around the edges on the torus (2n diagonals of n squares each)."""
    if not rules.toroidal:
        seen: dict[str, int] = {}
        for kind, squares in lines(n):
            seen[kind] = seen.get(kind, -1) + 1
            yield f"{kind}_{seen[kind]}", squares
        return
    for r in range(n):
        yield f"row_{r}", [(r, c) for c in range(n)]
    for c in range(n):
        yield f"column_{c}", [(r, c) for r in range(n)]
    for s in range(n):
        yield f"up_{s}", [(r, (s - r) % n) for r in range(n)]
    for d in range(n):
        yield f"down_{d}", [(r, (r - d) % n) for r in range(n)]


def knight_pairs(n: int) -> Iterator[tuple[Square, Square]]:
    """Each pair of squares a knight's jump apart, once."""
    for r in range(n):
        for c in range(n):
            for dr, dc in ((1, 2), (1, -2), (2, 1), (2, -1)):
                if 0 <= r + dr < n and 0 <= c + dc < n:
                    yield (r, c), (r + dr, c + dc)


def colour_bound(n: int) -> int:
    """A palette that colours the n x n queens graph: the least prime p >= max(n, 5)."""
    p = max(n, 5)
    while any(p % d == 0 for d in range(2, int(p ** 0.5) + 1)):
        p += 1
    return p


def modular_colouring(n: int, colours: int) -> list[list[int]]:
    """Square (r, c) coloured ``(c + 2r) mod colours``: a proper colouring of the n x n queens graph
    when ``colours`` >= n is prime to 6 (along a column, a diagonal and an antidiagonal the colour
    moves by 2, 3 and 1 a square, never by a multiple of ``colours`` within a line of fewer squares),
    with row 0 reading 0 .. n-1; :func:`colour_bound` is such a palette."""
    return [[(c + 2 * r) % colours for c in range(n)] for r in range(n)]


def _row(name: str, variables: list[int], lower: int | None, upper: int | None) -> LinearRow:
    return LinearRow(name, tuple((1, v) for v in variables), lower, upper)


def halves_rows(n: int, offset: int = 0) -> list[LinearRow]:
    """Three rows that keep, of the 8 images of a set of squares under the square's symmetries, at
    least one: no fewer of its squares in the top half than in the bottom half, in the left half
    than in the right, above the main diagonal than below (the middle row, column and the diagonal
    itself not counted). Any set has such an image: flip it top to bottom if its bottom half holds
    more, then left to right (the halves' top/bottom counts unchanged), then, if below the diagonal
    holds more, transpose it (which swaps the top/bottom counts with the left/right ones, each pair
    still in order). The set is the squares' variables shifted by ``offset`` (the white army's: 0)."""
    def variable(r: int, c: int) -> int:
        return offset + square_variable(n, r, c)

    def difference(name: str, more: Callable[[int, int], bool], fewer: Callable[[int, int], bool]) -> LinearRow:
        return LinearRow(name, (*((1, variable(r, c)) for r in range(n) for c in range(n) if more(r, c)),
                                *((-1, variable(r, c)) for r in range(n) for c in range(n) if fewer(r, c))), 0, None)

    half = n // 2
    return [difference("symmetry_top_half", lambda r, c: r < half, lambda r, c: r >= n - half),
            difference("symmetry_left_half", lambda r, c: c < half, lambda r, c: c >= n - half),
            difference("symmetry_above_diagonal", lambda r, c: c > r, lambda r, c: c < r)]


def domination_lower_bound(n: int) -> int:
    """Spencer's bound ``γ(Q_n) >= ceil((n - 1) / 2)`` on the queens' domination number (for every
    n; see Weakley, "Domination in the queen's graph", 1995, and OEIS A075458), so on the
    independent one too. Finozhenok and Weakley (Australas. J. Combin. 37, 2007) raise it to
    ``ceil(n / 2)`` for n other than 3 and 11; the weaker, general bound is the one used."""
    return n // 2


def build_family_model(problem: Problem, n: int, cuts: bool = False, colours: int | None = None) -> FamilyModel:
    """The 0-1 linear model of ``problem`` on the n x n board (see the module's table).

    ``cuts`` adds rows the rules do not imply, each keeping some optimal witness: for the
    dominations :func:`halves_rows` (symmetry) and ``Σ x >= ceil((n-1)/2)``
    (:func:`domination_lower_bound`), for the armies :func:`halves_rows` on the white army.
    ``colours`` sets the colouring's palette (default :func:`colour_bound`); ``colours=n`` adds "each row and each column holds every colour once", which the rules imply for
    it (a row's n squares attack each other: n colours, each at most once), the statement that
    makes "no n-colouring" an exact cover a solver refutes quickly."""
    rules = problem.rules
    square = [[square_variable(n, r, c) for c in range(n)] for r in range(n)]
    every = [square[r][c] for r in range(n) for c in range(n)]
    goal = problem.goal
    if goal is Goal.PLACE:
        rows = [_row(name, [square[r][c] for r, c in line], 1 if name.startswith(("row", "column")) else None, 1)
                for name, line in family_lines(rules, n) if len(line) > 1 or name.startswith(("row", "column"))]
        if rules.knight:
            rows += [_row(f"knight_{a[0]}_{a[1]}_{b[0]}_{b[1]}", [square[a[0]][a[1]], square[b[0]][b[1]]], None, 1)
                     for a, b in knight_pairs(n)]
        return FamilyModel(problem, n, n * n, tuple(rows), None)
    if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        rows = [_row(f"cover_{r}_{c}", [square[r][c], *(square[a][b] for a in range(n) for b in range(n)
                                                        if attacks(rules, n, (a, b), (r, c)))], 1, None)
                for r in range(n) for c in range(n)]
        if goal is Goal.DOMINATE_INDEPENDENT:
            rows += [_row(name, [square[r][c] for r, c in line], None, 1)
                     for name, line in family_lines(rules, n) if len(line) > 1]
        if cuts and not rules.toroidal:
            rows += halves_rows(n)
            rows.append(_row("domination_lower_bound", every, domination_lower_bound(n), None))
        return FamilyModel(problem, n, n * n, tuple(rows), Objective(tuple((1, v) for v in every), Direction.MINIMISE))
    if goal is Goal.COLOUR:
        k = colour_bound(n) if colours is None else colours
        model = FamilyModel(problem, n, k * n * n + k, (), None, k)
        x, y = model.colour_variable, model.used_variable
        rows = [_row(f"one_colour_{r}_{c}", [x(r, c, j) for j in range(k)], 1, 1) for r in range(n) for c in range(n)]
        on_a_line: set[Square] = set()
        for name, line in family_lines(rules, n):
            if len(line) > 1:
                rows += [LinearRow(f"{name}_colour_{j}", (*((1, x(r, c, j)) for r, c in line), (-1, y(j))), None, 0)
                         for j in range(k)]
                on_a_line.update(line)
        # a square on no line of two (the 1 x 1 board's) still uses its colour: x_{s,k} <= y_k
        rows += [LinearRow(f"colour_{j}_used_{r}_{c}", ((1, x(r, c, j)), (-1, y(j))), None, 0)
                 for r in range(n) for c in range(n) if (r, c) not in on_a_line for j in range(k)]
        rows += [LinearRow(f"used_in_order_{j}", ((1, y(j)), (-1, y(j + 1))), 0, None) for j in range(k - 1)]
        rows += [_row(f"first_row_{c}", [x(0, c, c)], 1, 1) for c in range(n)]
        if colours == n:
            rows += [_row(f"{kind}_{i}_has_colour_{j}", [x(*((i, c) if kind == "row" else (c, i)), j) for c in range(n)], 1, 1)
                     for kind in ("row", "column") for i in range(n) for j in range(k)]
        return FamilyModel(problem, n, model.variables, tuple(rows),
                           Objective(tuple((1, y(j)) for j in range(k)), Direction.MINIMISE), k)
    # peaceable armies: white queens are the squares' variables, black ones follow them
    squares = [(r, c) for r in range(n) for c in range(n)]
    rows = [_row(f"apart_{a[0]}_{a[1]}_{b[0]}_{b[1]}", [square[a[0]][a[1]], n * n + square[b[0]][b[1]]], None, 1)
            for a in squares for b in squares if a == b or attacks(rules, n, a, b)]
    rows.append(LinearRow("equal_armies", (*((1, v) for v in every), *((-1, n * n + v) for v in every)), 0, 0))
    if cuts and not rules.toroidal:
        rows += halves_rows(n)
    return FamilyModel(problem, n, 2 * n * n, tuple(rows), Objective(tuple((1, v) for v in every), Direction.MAXIMISE))


#: Bytes one term of a family model takes, built and handed to a solver (CP-SAT or HiGHS): the
#: Python rows and the solver's copy; 120-380 B measured on models of 10^4-10^5 terms
#: (``benchmarks/bench_family_memory.py``), before the search's own memory.
BYTES_PER_FAMILY_TERM = 400


def family_terms(problem: Problem, n: int) -> int:
    """An upper bound on the terms of :func:`build_family_model`'s rows: each square attacks at most
    4n others (a superqueen 4n + 8), so a cover row has at most 4n + 9 terms, a peaceable army's
    square at most 4n + 9 pairs of 2 terms, a colour's lines at most 4n squares each."""
    attackers = 4 * n + 9
    goal = problem.goal
    if goal is Goal.PLACE:
        return 4 * n * n + 2 * 8 * n * n
    if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        return n * n * attackers + 4 * n * n
    if goal is Goal.COLOUR:
        k = colour_bound(n)
        return k * n * n + k * (4 * n * n + 6 * n) + 2 * k + n
    return 2 * n * n * attackers + 2 * n * n


def family_memory(problem: Problem, n: int) -> ModelEstimate:
    """The memory of the model of ``problem`` on the n x n board, before it is built."""
    terms = family_terms(problem, n)
    variables = n * n * (colour_bound(n) + 1) if problem.goal is Goal.COLOUR else n * n * (
        2 if problem.goal is Goal.PEACEABLE else 1)
    return ModelEstimate(f"{problem.value} model of n = {n}", ModelSize(variables, terms, "terms (at most)"),
                         terms * BYTES_PER_FAMILY_TERM / MEGABYTE)
