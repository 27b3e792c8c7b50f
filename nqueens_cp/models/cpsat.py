"""The CP-SAT models of N-Queens, built (not solved), and the search strategies they accept.

Two models, one :class:`CpSatModel` type:

* **AllDifferent** (:func:`build_cpsat_model`, the ``cpsat`` backend's default): ``q[i]`` in
  ``[0, n)`` is the column of row ``i``; AllDifferent on ``q[i]`` (columns), ``q[i] + i`` (up
  diagonals) and ``q[i] - i`` (down diagonals). A pre-placed queen fixes its row's variable.
* **Boolean** (:func:`build_cpsat_boolean_model`): ``x[r][c]`` is true when a queen stands on
  ``(r, c)``; every row and column exactly one (``AddExactlyOne``), every diagonal of two or more
  squares at most one (``AddAtMostOne``). The column of row ``r`` is read back as
  ``sum(c * x[r][c])``. It suits CP-SAT's local search (feasibility jump), which finds first
  solutions of boards of a thousand rows; local search can neither enumerate nor prove "none".

With ``unique``, lex-leader constraints (:mod:`nqueens_cp.models.lex_leader`) keep one solution
per symmetry class.

An instance with blocked squares, or with pre-placed queens on at least half of its rows, gets
both models over its reduction instead (:mod:`nqueens_cp.models.reduction`): variables for the
free rows (domain: the row's open columns) or for the open squares only; the pre-placed rows are
constants. A :class:`CpSatStrategy` is a set of solver parameters plus a branching that
each model applies to its own decision variables (:meth:`CpSatModel.branch`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Mapping, cast

from nqueens_cp.core.arguments import require_bool, require_instance
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.symmetry import require_symmetric
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, lines
from nqueens_cp.models.lex_leader import add_cpsat_lex_leader
from nqueens_cp.models.reduction import reduce_instance, uses_reduction

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

#: A branching, in the problem's terms: ``first_fail`` takes the row with the fewest columns
#: left and its smallest column; ``first_fail_middle`` the same row, its median column.
Branching = Literal["first_fail", "first_fail_middle"]


@dataclass(frozen=True)
class CpSatStrategy:
    """CP-SAT parameters (``SatParameters`` fields; strings name ``cp_model`` enum members) and a branching."""

    parameters: Mapping[str, Any] = field(default_factory=dict)
    branching: Branching | None = None

    @property
    def encodes_every_value(self) -> bool:
        """Whether CP-SAT encodes every row's domain value by value under this strategy (the median
        column branching makes it: n² literals, see :func:`cpsat_memory`)."""
        return self.branching == "first_fail_middle"

    def configure(self, solver: cp_model.CpSolver) -> None:
        """Set this strategy's parameters on ``solver``."""
        from ortools.sat.python import cp_model

        for key, value in self.parameters.items():
            setattr(solver.parameters, key, getattr(cp_model, value) if isinstance(value, str) else value)


#: The named strategies of the ``cpsat`` backend.
#:
#: * ``plain``: CP-SAT's defaults (OR-Tools' own sample configuration).
#: * ``tuned``: for enumeration and counting. A fixed first-fail search on the rows, with SAT
#:   inprocessing, presolve, LP relaxation and symmetry detection off: they cost time at every
#:   restart of the enumeration and prune nothing that propagating the three AllDifferent does not.
#: * ``first``: for one solution. The same first-fail order with the median column (a queen near
#:   the middle leaves the most room), presolve off: it reaches boards that CP-SAT's default
#:   portfolio does not (benchmarks/RESULTS.md, "cpsat first solution").
#: * ``localsearch``: CP-SAT's local search only, for the Boolean model on large boards.
STRATEGIES: dict[str, CpSatStrategy] = {
    "plain": CpSatStrategy(),
    "tuned": CpSatStrategy(
        {
            "search_branching": "FIXED_SEARCH",
            "use_sat_inprocessing": False,
            "cp_model_presolve": False,
            "linearization_level": 0,
            "symmetry_level": 0,
        },
        "first_fail",
    ),
    "first": CpSatStrategy({"search_branching": "FIXED_SEARCH", "cp_model_presolve": False}, "first_fail_middle"),
    "localsearch": CpSatStrategy({"use_ls_only": True, "cp_model_presolve": False, "feasibility_jump_decay": 1.0}),
}

#: What ``strategy=auto`` uses for each kind of search.
AUTO_STRATEGY = {"enumerate": "tuned", "first": "first"}


def resolve_strategy(name: str, task: str) -> CpSatStrategy:
    """The strategy ``name`` (an entry of ``STRATEGIES`` or ``auto``) stands for in ``task``
    (``"enumerate"`` or ``"first"``)."""
    return STRATEGIES[AUTO_STRATEGY[task] if name == "auto" else name]


@dataclass(frozen=True)
class CpSatModel:
    """A built CP-SAT model, the expressions giving each row's column, and its decision variables."""

    model: cp_model.CpModel
    #: ``queens[row]`` is the column of that row (a variable, or a linear expression of Booleans).
    queens: tuple[cp_model.LinearExprT, ...]
    #: The variables a branching decides on, row by row.
    decision_variables: tuple[cp_model.IntVar, ...]
    #: ``rows``: one integer per row (AllDifferent model); ``squares``: one Boolean per square.
    kind: Literal["rows", "squares"] = "rows"

    def size(self) -> ModelSize:
        proto = self.model.Proto()
        return ModelSize(len(proto.variables), len(proto.constraints), "constraints")

    def branch(self, branching: Branching | None) -> None:
        """Add ``branching`` as a decision strategy on this model's own decision variables."""
        if branching is None:
            return
        from ortools.sat.python import cp_model

        if self.kind == "rows":
            value = cp_model.SELECT_MIN_VALUE if branching == "first_fail" else cp_model.SELECT_MEDIAN_VALUE
            self.model.add_decision_strategy(self.decision_variables, cp_model.CHOOSE_MIN_DOMAIN_SIZE, value)
        else:  # squares, row by row: put a queen on the first square still open
            self.model.add_decision_strategy(
                self.decision_variables, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE
            )


def _check_arguments(instance: Instance, unique: bool) -> None:
    """What both builders check first: the instance, and that ``unique`` applies to it."""
    require_instance(instance)
    require_bool(unique, "unique")
    if unique:
        require_symmetric(instance)


def build_cpsat_model(instance: Instance, unique: bool = False) -> CpSatModel:
    """The three-AllDifferent model of ``instance``; ``unique`` adds the lex-leader constraints."""
    _check_arguments(instance, unique)
    from ortools.sat.python import cp_model

    if uses_reduction(instance):
        return _reduced_rows_model(instance)
    n = instance.n
    model = cp_model.CpModel()
    # -- variables: the column of each row
    queens = [model.new_int_var(0, n - 1, f"q{row}") for row in range(n)]
    # -- constraints: columns, up diagonals, down diagonals
    model.add_all_different(queens)
    model.add_all_different([queens[row] + row for row in range(n)])
    model.add_all_different([queens[row] - row for row in range(n)])
    # -- the pre-placed queens
    for row, col in instance.fixed:
        model.add(queens[row] == col)
    if unique:
        add_cpsat_lex_leader(model, queens)
    return CpSatModel(model, tuple(queens), tuple(queens), "rows")


def build_cpsat_boolean_model(instance: Instance, unique: bool = False) -> CpSatModel:
    """The Boolean model of ``instance``; ``unique`` adds the lex-leader constraints.

    With ``unique``, integer row variables ``q[r] == sum(c * x[r][c])`` are added so that the
    same lex-leader constraints as in the AllDifferent model apply.
    """
    _check_arguments(instance, unique)
    from ortools.sat.python import cp_model

    if uses_reduction(instance):
        return _reduced_boolean_model(instance)
    n = instance.n
    model = cp_model.CpModel()
    # -- variables: one Boolean per square
    x = [[model.new_bool_var(f"x{r}_{c}") for c in range(n)] for r in range(n)]
    # -- constraints: exactly one per row and column, at most one per diagonal
    for kind, line_squares in lines(n):
        line = [x[r][c] for r, c in line_squares]
        if kind in ("row", "column"):
            model.add_exactly_one(line)
        elif len(line) > 1:
            model.add_at_most_one(line)
    # -- the pre-placed queens
    for row, col in instance.fixed:
        model.add(x[row][col] == 1)
    squares = tuple(var for row in x for var in row)
    columns = [cp_model.LinearExpr.weighted_sum(x[r], list(range(n))) for r in range(n)]
    if unique:
        queens = [model.new_int_var(0, n - 1, f"q{r}") for r in range(n)]
        for q, column in zip(queens, columns, strict=True):
            model.add(q == column)
        add_cpsat_lex_leader(model, queens)
        return CpSatModel(model, tuple(queens), squares, "squares")
    return CpSatModel(model, cast("tuple[cp_model.LinearExprT, ...]", tuple(columns)), squares, "squares")


def _reduced_rows_model(instance: Instance) -> CpSatModel:
    """The AllDifferent model over the free rows of ``instance``'s reduction: ``q[r]`` ranges over
    row r's open columns, which already exclude the pre-placed queens' columns and diagonals."""
    from ortools.sat.python import cp_model

    reduction = reduce_instance(instance)
    model = cp_model.CpModel()
    open_columns: dict[int, list[int]] = {r: [] for r in reduction.rows}
    for r, c in reduction.squares:
        open_columns[r].append(c)
    variables = {r: model.new_int_var_from_domain(cp_model.Domain.from_values(open_columns[r] or [0]), f"q{r}")
                 for r in reduction.rows}
    rows = reduction.rows
    if any(not columns for columns in open_columns.values()):
        model.add_bool_or([])  # a free row without an open square (its placeholder domain {0}): no board
    model.add_all_different([variables[r] for r in rows])
    model.add_all_different([variables[r] + r for r in rows])
    model.add_all_different([variables[r] - r for r in rows])
    if not reduction.consistent:
        model.add_bool_or([])  # pre-placed queens attack each other: no board
    fixed_by_row = instance.fixed_by_row
    queens = tuple(variables[r] if r in variables else fixed_by_row[r] for r in range(instance.n))
    return CpSatModel(model, cast("tuple[cp_model.LinearExprT, ...]", queens),
                      tuple(variables[r] for r in rows), "rows")


def _reduced_boolean_model(instance: Instance) -> CpSatModel:
    """The Boolean model over the open squares of ``instance``'s reduction."""
    from ortools.sat.python import cp_model

    reduction = reduce_instance(instance)
    model = cp_model.CpModel()
    x = {square: model.new_bool_var(f"x{square[0]}_{square[1]}") for square in reduction.squares}
    for kind, line_squares in reduction.lines():
        line = [x[square] for square in line_squares]
        if kind in ("row", "column"):
            model.add_exactly_one(line)  # an empty line: no board
        else:
            model.add_at_most_one(line)
    if not reduction.consistent:
        model.add_bool_or([])
    fixed_by_row = instance.fixed_by_row
    by_row: dict[int, list[tuple[int, int]]] = {r: [] for r in reduction.rows}
    for square in reduction.squares:
        by_row[square[0]].append(square)
    columns = tuple(
        cp_model.LinearExpr.weighted_sum([x[sq] for sq in by_row[r]], [c for _, c in by_row[r]])
        if r in by_row else fixed_by_row[r]
        for r in range(instance.n)
    )
    return CpSatModel(model, cast("tuple[cp_model.LinearExprT, ...]", columns), tuple(x.values()), "squares")


#: Bytes one Boolean of the CP-SAT Boolean model costs in CP-SAT (measured at n = 300..1000).
BYTES_PER_CPSAT_BOOLEAN = 1400
#: Bytes one (row, column) pair costs in CP-SAT's AllDifferent model when the branching takes a
#: row's median column: CP-SAT then encodes every row's domain value by value, n² literals
#: (``solve N --backend cpsat --time-limit 3``, max RSS: 0.50 GB at n = 500, 1.26 GB at 1000,
#: 3.95 GB at 2000; min-value branching stays near 180 MB at n = 1000).
BYTES_PER_CPSAT_MEDIAN_SQUARE = 1024
#: Bytes one row costs in CP-SAT's AllDifferent model with min-value branching.
BYTES_PER_CPSAT_ROW = 2048

#: The largest board of CP-SAT's AllDifferent model: CP-SAT encodes a domain in full only when it
#: holds fewer than 100,000 values, and beyond that it aborts the whole process ("Domain too large
#: for full encoding", exit status 134); each row's domain holds the board's n columns.
CPSAT_MAX_N = 99_999


def cpsat_memory(n: int, model: str, *, median_branching: bool = False) -> ModelEstimate:
    """The CP-SAT model of an n x n board: the AllDifferent model is O(n), or O(n²) when the
    branching takes each row's median column (CP-SAT encodes every domain value); the Boolean
    model is O(n²)."""
    if model == "boolean":
        booleans = n * n
        return ModelEstimate(f"Boolean CP-SAT model of n = {n}", ModelSize(booleans, 6 * n),
                             booleans * BYTES_PER_CPSAT_BOOLEAN / MEGABYTE)
    if median_branching:
        return ModelEstimate(f"AllDifferent CP-SAT model of n = {n} with median-column branching (every "
                             f"domain value encoded)", ModelSize(n, 3), n * n * BYTES_PER_CPSAT_MEDIAN_SQUARE / MEGABYTE)
    return ModelEstimate(f"AllDifferent CP-SAT model of n = {n}", ModelSize(n, 3), n * BYTES_PER_CPSAT_ROW / MEGABYTE)
