"""The N-Queens family in SMT-LIB 2 for z3: the family's 0-1 program (:mod:`.family`) over Booleans.

Each 0-1 variable ``v`` is a Boolean ``x<v>`` (the names of the LP and OPB exports), each row one
assertion of z3's pseudo-Boolean constraints, ``((_ pbeq k a1 .. am) x1 .. xm)``, ``pbge`` or
``pble`` (a row with two different bounds: both, in one ``and``), and the objective z3's
``(minimize ...)`` or ``(maximize ...)`` of the sum of ``(ite x<v> a 0)``: z3's optimiser (its
``Optimize`` context, which ``(check-sat)`` runs when the file has an objective) solves it. The size
is the 0-1 program's: its variables, one assertion per row, and one objective. The smt backend
optimises by z3's ``Optimize`` on the whole text or (its default, faster on these problems) by
iterated solving of the rows alone, each better value asked for by one more pseudo-Boolean bound.

The smt backend hands exactly this text to z3 (``Optimize.from_string``), as the classic smt
backend does; ``nqueens-cp export N --problem P --format smt2`` writes it with ``(check-sat)`` and
``(get-model)``, whose ``(define-fun x<v> () Bool true)`` lines ``decode --problem`` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens_cp.core.problems import Direction, Problem
from nqueens_cp.models.family import FamilyModel, build_family_model
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.linear import LinearRow


@dataclass(frozen=True)
class FamilySmtModel:
    """The SMT-LIB text of a family model: ``rows`` (declarations, one assertion per row) and the
    ``objective`` command (empty for a placement problem)."""

    model: FamilyModel
    rows: str
    objective: str
    assertions: int

    @property
    def body(self) -> str:
        """The whole model: the rows and the objective."""
        return self.rows + self.objective

    def size(self) -> ModelSize:
        """Booleans and assertions."""
        return ModelSize(self.model.variables, self.assertions, "assertions")


def _pb(kind: str, bound: int, row: LinearRow) -> str:
    coefficients = " ".join(str(c) for c, _ in row.terms)
    return f"((_ {kind} {bound} {coefficients}) {' '.join(f'x{v}' for _, v in row.terms)})"


def _assertion(row: LinearRow) -> str:
    """The row as one assertion (a row without terms: whether 0 lies within its bounds)."""
    if not row.terms:
        return f"(assert {'true' if row.allows(0) else 'false'})"
    if row.lower is not None and row.lower == row.upper:
        return f"(assert {_pb('pbeq', row.lower, row)})"
    sides = ([_pb("pbge", row.lower, row)] if row.lower is not None else []) + \
        ([_pb("pble", row.upper, row)] if row.upper is not None else [])
    return f"(assert {sides[0] if len(sides) == 1 else '(and ' + ' '.join(sides) + ')'})"


def family_smt_model(problem: Problem, n: int) -> FamilySmtModel:
    """The SMT-LIB body (no ``check-sat``) of the family model of ``problem`` on the n x n board."""
    model = build_family_model(problem, n)
    lines = [f"(declare-const x{v} Bool)" for v in range(1, model.variables + 1)]
    lines += [f"; {row.name}\n{_assertion(row)}" for row in model.rows]
    objective = ""
    if model.objective is not None:
        sense = "maximize" if model.objective.direction is Direction.MAXIMISE else "minimize"
        terms = " ".join(f"(ite x{v} {c} 0)" for c, v in model.objective.terms)
        objective = f"({sense} (+ 0 {terms}))\n"
    return FamilySmtModel(model, "\n".join(lines) + "\n", objective, len(model.rows))
