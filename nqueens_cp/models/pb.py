"""N-Queens as pseudo-Boolean constraints (a :class:`~.linear.LinearModel`: linear constraints over 0-1 variables), built, not solved.

The variables are the squares of the line model (:mod:`.lines`), numbered 1, 2, ... (square
``(r, c)`` is ``r*n + c + 1`` on a full board, as in the OPB export). Two formulations:

* ``lines`` (the default): one linear constraint per line, ``Σ x = 1`` on every row and column,
  ``Σ x <= 1`` on every diagonal of two or more squares: ``6n − 6`` constraints. A PB solver
  propagates each as a cardinality constraint (Exact: watched, counting propagation) and learns
  cutting planes from them.
* ``clauses``: the same lines as clauses: an at-least-one ``Σ x >= 1`` per row and column and one
  ``x_a + x_b <= 1`` per pair of squares on a line, O(n³) constraints (the pairwise CNF as PB):
  measured, to see what the cardinality constraints buy.

With ``unique`` the lex-leader clauses of :func:`~nqueens_cp.models.lex_leader.lex_leader_clauses`
are added, each clause ``l1 ∨ … ∨ lk`` as ``Σ_{pos} x − Σ_{neg} x >= 1 − #neg``.
"""

from __future__ import annotations

from nqueens_cp.core.arguments import require_choice
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, line_lengths, pairs_on
from nqueens_cp.models.linear import LinearModel, build_linear_model
from nqueens_cp.models.reduction import model_rows

#: The PB formulations, the default first.
FORMULATIONS: tuple[str, ...] = ("lines", "clauses")


def build_pb_model(instance: Instance, formulation: str = "lines", unique: bool = False) -> LinearModel:
    """The PB model of ``instance`` (see the module docstring)."""
    require_choice(formulation, FORMULATIONS, "PB formulation")
    return build_linear_model(instance, formulation, unique, clauses=True)


#: Bytes one term of a line constraint costs in Exact (the ``pb`` backend), with its variable's share
#: (peak memory over start-up: 730 B at n = 256, 820 B at n = 128).
BYTES_PER_PB_TERM = 800
#: Bytes one term of a pair constraint costs (``formulation=clauses``: 280 B at n = 64).
BYTES_PER_PB_PAIR_TERM = 300


def pb_memory(instance: Instance, formulation: str) -> ModelEstimate:
    """The PB model of ``instance`` in Exact: its terms (one per square per line, or two per pair)."""
    n = model_rows(instance)
    lengths = line_lengths(n)
    if formulation == "clauses":
        pairs = pairs_on(lengths)
        terms, constraints = 2 * pairs + n * n, pairs + 2 * n
        megabytes = terms * BYTES_PER_PB_PAIR_TERM / MEGABYTE
    else:
        terms, constraints = sum(lengths), len(lengths)
        megabytes = terms * BYTES_PER_PB_TERM / MEGABYTE
    return ModelEstimate(f"{formulation} PB model of n = {instance.n}", ModelSize(n * n, constraints), megabytes)
