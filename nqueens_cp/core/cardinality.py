"""A cardinality constraint as a CNF writes it: which clauses encode it, and what it says.

The family's CNF (:mod:`nqueens_cp.models.family_cnf`) is cut into such parts, and the proof
checker (:mod:`nqueens_cp.proofs.family`) reads them, checking each claim rather than trusting it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CardinalityPart:
    """Clauses ``first .. last - 1`` of a CNF: ``lower <= (number of true literals) <= upper``
    (None: no bound on that side), written for the row or bound called ``name``."""

    name: str
    literals: tuple[int, ...]
    lower: int | None
    upper: int | None
    first: int
    last: int
