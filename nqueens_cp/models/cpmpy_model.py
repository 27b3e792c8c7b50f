"""The row model (:mod:`nqueens_cp.models.rows`) stated once in CPMpy, for any solver CPMpy hands it to.

CPMpy (Guns, "Increasing modeling language convenience with a universal n-dimensional array,
CPpy as python-embedded example", ModRef 2019) is a modelling layer: the model is written once with
its expressions (``cp.AllDifferent`` on ``q``, ``q + rows`` and ``q - rows``) and CPMpy transforms it
for each solver: passed on as a native AllDifferent to OR-Tools CP-SAT and Choco, decomposed into
linear or pseudo-Boolean constraints for Exact, into Boolean formulas for z3. A reduced model's
domains are ``InDomain`` constraints. This module only builds it; the ``cpmpy`` backend solves it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
