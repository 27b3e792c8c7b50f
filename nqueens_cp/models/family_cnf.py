"""The N-Queens family's 0-1 models as clauses: the CNF the ``sat`` backend solves and ``export`` writes.

Every coefficient of the family's rows (:mod:`nqueens_cp.models.family`) is +1 or -1, and a term
``-x`` is ``(1 - x) - 1``, so a row is a cardinality constraint over literals, ``Σ_{+} x + Σ_{-} ¬x``
between the row's bounds shifted by the number of negated terms (the colouring's
``Σ_line x_{s,k} - y_k <= 0`` is "at most one of the line's x and ¬y_k", the armies'
``Σ w - Σ b = 0`` is "exactly n² of the w and the ¬b"). At-most-one rows are written by PySAT's
sequential counter, the others by its totalizer; auxiliary variables come after the model's.

Each row's clauses are kept as a :class:`CardinalityPart`: the constraint over literals it stands
for and the range of its clauses. A proof checker (:mod:`nqueens_cp.proofs.family`) reads the
parts to check every clause against the constraint it encodes. :func:`objective_bound` writes
"the objective is at most (at least) b" the same way, with any cardinality encoding of
``pysat.card`` that takes a bound above 1: the bound the iterated SAT search tightens.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens_cp.core.cardinality import CardinalityPart
from nqueens_cp.core.errors import BackendOptionError, BackendUnavailableError
from nqueens_cp.core.problems import Direction
from nqueens_cp.models.family import FamilyModel, Objective
from nqueens_cp.models.linear import LinearRow

#: The ``pysat.card`` encodings that take a bound above 1 (pairwise, bitwise and ladder encode at
#: most one only): what the iterated SAT search may encode its objective bound with.
BOUND_ENCODINGS: tuple[str, ...] = ("seqcounter", "sortnetwrk", "cardnetwrk", "totalizer", "mtotalizer", "kmtotalizer")


@dataclass(frozen=True)
class FamilyCnf:
    """The rows of a family model as clauses over its variables (``1 .. model.variables``) and
    auxiliaries (up to ``variables``), each row's clauses a part."""

    model: FamilyModel
    clauses: tuple[tuple[int, ...], ...]
    variables: int
    parts: tuple[CardinalityPart, ...]


def row_literals(row: LinearRow) -> tuple[list[int], int | None, int | None]:
    """A ±1 row as literals and the bounds on how many of them are true."""
    if any(abs(c) != 1 for c, _ in row.terms):
        raise BackendOptionError(f"row {row.name} has a coefficient other than +-1: no cardinality encoding")
    literals = [v if c > 0 else -v for c, v in row.terms]
    negated = sum(1 for c, _ in row.terms if c < 0)
    lower = None if row.lower is None else row.lower + negated
    upper = None if row.upper is None else row.upper + negated
    return literals, lower, upper


def cardinality_clauses(literals: list[int], lower: int | None, upper: int | None, top: int,
                        encoding: str | None = None) -> tuple[list[tuple[int, ...]], int]:
    """The clauses of ``lower <= Σ literals <= upper`` with auxiliaries above ``top``, and the new
    top: ``encoding`` (a :data:`BOUND_ENCODINGS` name) for every bound, or by default the
    sequential counter for at most one and the totalizer for the rest."""
    try:
        from pysat.card import CardEnc, EncType
    except ImportError:
        raise BackendUnavailableError("the family's CNF needs the python-sat package, which is not installed") from None

    size = len(literals)
    if (lower is not None and lower > size) or (upper is not None and upper < 0):
        return [()], top  # the constraint cannot hold: the empty clause
    lower = None if lower is None or lower <= 0 else lower
    upper = None if upper is None or upper >= size else upper
    chosen = None if encoding is None else getattr(EncType, encoding)
    encoded = []
    if lower is not None and lower == upper:
        encoded.append(CardEnc.equals(lits=literals, bound=lower, top_id=top, encoding=chosen or EncType.totalizer))
    else:
        if lower is not None:
            encoded.append(CardEnc.atleast(lits=literals, bound=lower, top_id=top, encoding=chosen or EncType.totalizer))
            top = max(top, encoded[-1].nv)
        if upper is not None:
            kind = chosen or (EncType.seqcounter if upper == 1 else EncType.totalizer)
            encoded.append(CardEnc.atmost(lits=literals, bound=upper, top_id=top, encoding=kind))
    clauses: list[tuple[int, ...]] = []
    for part in encoded:
        clauses += [tuple(clause) for clause in part.clauses]
        top = max(top, part.nv)
    return clauses, top


def family_cnf(model: FamilyModel) -> FamilyCnf:
    """Every row of ``model`` as clauses (see the module docstring)."""
    clauses: list[tuple[int, ...]] = []
    parts: list[CardinalityPart] = []
    top = model.variables
    for row in model.rows:
        literals, lower, upper = row_literals(row)
        encoded, top = cardinality_clauses(literals, lower, upper, top)
        parts.append(CardinalityPart(row.name, tuple(literals), lower, upper, len(clauses), len(clauses) + len(encoded)))
        clauses += encoded
    return FamilyCnf(model, tuple(clauses), top, tuple(parts))


def objective_literals(objective: Objective) -> list[int]:
    """The objective's terms as literals (every family objective is a sum of variables)."""
    if any(c != 1 for c, _ in objective.terms):
        raise BackendOptionError("the objective has a coefficient other than 1: no cardinality encoding")
    return [v for _, v in objective.terms]


def objective_bound(objective: Objective, bound: int, top: int, encoding: str, first: int
                    ) -> tuple[CardinalityPart, list[tuple[int, ...]], int]:
    """"The objective is at most ``bound``" (at least, for a maximisation) as clauses with
    auxiliaries above ``top``, by the ``pysat.card`` ``encoding``: the part (its clauses numbered
    from ``first``), the clauses and the new top."""
    if encoding not in BOUND_ENCODINGS:
        raise BackendOptionError(f"encoding {encoding} writes at most one only: the objective's bound takes "
                                 f"{', '.join(BOUND_ENCODINGS)}")
    literals = objective_literals(objective)
    maximise = objective.direction is Direction.MAXIMISE
    lower, upper = (bound, None) if maximise else (None, bound)
    clauses, top = cardinality_clauses(literals, lower, upper, top, encoding)
    name = f"objective_{'at_least' if maximise else 'at_most'}_{bound}"
    return CardinalityPart(name, tuple(literals), lower, upper, first, first + len(clauses)), clauses, top


def soft_literals(objective: Objective) -> list[int]:
    """The MaxSAT soft unit clauses of ``objective`` (weight 1 each): ``¬x`` for a minimised ``x``,
    ``x`` for a maximised one; an answer's cost is the number it falsifies."""
    maximise = objective.direction is Direction.MAXIMISE
    return [v if maximise else -v for v in objective_literals(objective)]
