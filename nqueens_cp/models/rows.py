"""The row model as data: one variable per row, three AllDifferent, for solvers built from it.

The classic CP model of N-Queens (the ``cpsat`` AllDifferent model, the MiniZinc model): ``q[i]``
is the column of row ``i``; AllDifferent on ``q[i]`` (columns), ``q[i] + i`` (up diagonals) and
``q[i] - i`` (down diagonals), plus ``q[r] = c`` for each pre-placed queen. :class:`RowModel` holds
it as plain data (rows, domains, offsets, equalities), so the Choco model
(:mod:`nqueens_cp.models.choco`), the CPMpy model (:mod:`nqueens_cp.models.cpmpy_model`) and the
XCSP3 text (:mod:`nqueens_cp.models.xcsp3`) are all built from one definition and can be tested
without any solver.

An instance with blocked squares, or with pre-placed queens on at least half of its rows (of a
board of 16 rows or more), gets the model over its reduction (:mod:`nqueens_cp.models.reduction`):
variables for the free rows only, each with its open columns as domain, and no equality. A
reduction with no completion at all (pre-placed queens attacking each other, a free row without an
open square) is marked ``feasible = False``; the builders then state an unsatisfiable model.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.arguments import require_instance
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize
from nqueens_cp.models.reduction import model_rows, reduce_instance, uses_reduction


@dataclass(frozen=True)
class RowModel:
    """The row model of one instance: variable ``i`` is the column of row ``rows[i]``."""

    n: int
    #: The row of each variable, in order.
    rows: tuple[int, ...]
    #: The allowed columns of each variable (all of ``0 .. n-1`` in the full model).
    domains: tuple[tuple[int, ...], ...]
    #: ``(variable index, column)``: the pre-placed queens of the full model, one equality each.
    equalities: tuple[tuple[int, int], ...]
    #: The pre-placed queens of a reduced model, which hold no variable.
    settled: tuple[tuple[int, int], ...]
    #: False when no board can satisfy the instance (the builders state an unsatisfiable model).
    feasible: bool = True

    @property
    def full(self) -> bool:
        """Whether every row has a variable with the whole range of columns (not reduced)."""
        return not self.settled and len(self.rows) == self.n and all(len(d) == self.n for d in self.domains)

    def diagonals(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The offsets of the two diagonal AllDifferent: ``q[i] + rows[i]`` and ``q[i] - rows[i]``."""
        return self.rows, tuple(-row for row in self.rows)

    def board(self, values: Sequence[int]) -> Solution:
        """The whole board from the variables' values (and the settled queens)."""
        columns = dict(self.settled)
        columns.update(zip(self.rows, (int(v) for v in values), strict=True))
        return tuple(columns[row] for row in range(self.n))

    def size(self) -> ModelSize:
        """Variables and constraints: three AllDifferent plus one equality per pre-placed queen."""
        return ModelSize(len(self.rows), 3 + len(self.equalities), "constraints")


def row_model(instance: Instance) -> RowModel:
    """The row model of ``instance`` (over its reduction when models use one)."""
    require_instance(instance)
    n = instance.n
    if not uses_reduction(instance):
        full = tuple(range(n))
        return RowModel(n, full, tuple(full for _ in range(n)), instance.fixed, (),
                        instance.fixed_are_consistent())
    reduction = reduce_instance(instance)
    open_columns: dict[int, list[int]] = {r: [] for r in reduction.rows}
    for r, c in reduction.squares:
        open_columns[r].append(c)
    domains = tuple(tuple(open_columns[r]) for r in reduction.rows)
    feasible = reduction.consistent and all(domains)
    return RowModel(n, reduction.rows, domains, (), instance.fixed, feasible)


#: Bytes the row model of a board of n rows costs per domain value (n² values, enumerated domains)
#: in Choco (pychoco): the process's peak resident memory after the first solution of n = 1000 was
#: 78 MB (one in-process run), under 80 bytes per value with the interpreter included; 40 is the
#: share that grows with n², so the default 4 GiB budget refuses boards above about 10,000 rows.
BYTES_PER_ROW_DOMAIN_VALUE = 40


def row_model_memory(instance: Instance, solver: str) -> ModelEstimate:
    """The row model (three AllDifferent over enumerated domains) of ``instance`` in ``solver``:
    O(n) variables, but every domain holds its columns, so the memory is O(n²)."""
    rows = model_rows(instance)
    return ModelEstimate(f"row model of n = {instance.n} in {solver}", ModelSize(rows, 3 + len(instance.fixed)),
                         rows * instance.n * BYTES_PER_ROW_DOMAIN_VALUE / MEGABYTE)
