"""N-Queens as pseudo-Boolean constraints (linear constraints over 0-1 variables), built, not solved.

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

from dataclasses import dataclass
from itertools import combinations

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, line_lengths
from nqueens_cp.models.lex_leader import lex_leader_clauses
from nqueens_cp.models.lines import LineModel, build_line_model
from nqueens_cp.models.reduction import model_rows

#: The PB formulations, the default first.
FORMULATIONS: tuple[str, ...] = ("lines", "clauses")


@dataclass(frozen=True)
class PbConstraint:
    """``lower <= Σ coefficient·x_variable <= upper`` (either bound may be None)."""

    terms: tuple[tuple[int, int], ...]
    lower: int | None = None
    upper: int | None = None


@dataclass(frozen=True)
class PbModel:
    """A built PB model: its variables ``1 .. variables`` (the squares first), its constraints."""

    lines: LineModel
    variables: int
    constraints: tuple[PbConstraint, ...]
    formulation: str

    @property
    def square_variables(self) -> range:
        """The variables of the squares (``1 .. len(lines.squares)``); any others are auxiliary."""
        return range(1, len(self.lines.squares) + 1)

    def size(self) -> ModelSize:
        return ModelSize(self.variables, len(self.constraints))


def check_formulation(formulation: str) -> None:
    """Raise ``BackendOptionError`` unless ``formulation`` is one of :data:`FORMULATIONS`."""
    if formulation not in FORMULATIONS:
        raise BackendOptionError(f"unknown PB formulation {formulation!r} (choose from {', '.join(FORMULATIONS)})")


def clause_constraint(clause: list[int]) -> PbConstraint:
    """The clause ``l1 ∨ … ∨ lk`` (signed variables) as ``Σ_{pos} x − Σ_{neg} x >= 1 − #neg``."""
    negatives = sum(1 for lit in clause if lit < 0)
    return PbConstraint(tuple((1 if lit > 0 else -1, abs(lit)) for lit in clause), lower=1 - negatives)


def build_pb_model(instance: Instance, formulation: str = "lines", unique: bool = False) -> PbModel:
    """The PB model of ``instance`` (see the module docstring)."""
    check_formulation(formulation)
    model = build_line_model(instance, unique)
    constraints: list[PbConstraint] = []

    def ones(line: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
        return tuple((1, i + 1) for i in line)

    if formulation == "lines":
        constraints += [PbConstraint(ones(line), 1, 1) for line in model.exactly_one]
        constraints += [PbConstraint(ones(line), None, 1) for line in model.at_most_one]
    else:
        constraints += [PbConstraint(ones(line), 1, None) for line in model.exactly_one]
        for line in (*model.exactly_one, *model.at_most_one):
            constraints += [PbConstraint(((1, a + 1), (1, b + 1)), None, 1) for a, b in combinations(line, 2)]
    constraints += [PbConstraint(((1, i + 1),), 1, None) for i in model.forced]
    if not model.consistent:
        constraints.append(PbConstraint((), 1, None))  # 0 >= 1: the pre-placed queens attack each other
    variables = len(model.squares)
    if unique and instance.n > 1:
        variables, clauses = lex_leader_clauses(instance.n)
        constraints += [clause_constraint(clause) for clause in clauses]
    return PbModel(model, variables, tuple(constraints), formulation)


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
        pairs = sum(length * (length - 1) // 2 for length in lengths)
        terms, constraints = 2 * pairs + n * n, pairs + 2 * n
        megabytes = terms * BYTES_PER_PB_PAIR_TERM / MEGABYTE
    else:
        terms, constraints = sum(lengths), len(lengths)
        megabytes = terms * BYTES_PER_PB_TERM / MEGABYTE
    return ModelEstimate(f"{formulation} PB model of n = {instance.n}", ModelSize(n * n, constraints), megabytes)
