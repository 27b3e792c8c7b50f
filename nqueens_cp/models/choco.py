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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
