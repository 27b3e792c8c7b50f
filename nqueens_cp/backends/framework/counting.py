"""What the count-only backends share: they count without enumerating, and refuse to give boards.

A model counter (``ganak``, ``approxmc``) or a decision diagram (``bdd``) answers "how many" from
the model itself, never visiting the solutions one by one. So they answer counts only
(``answers = {"count"}``): ``solutions`` and ``first_solution`` refuse with one line, and ``count`` with a
``limit`` is the whole count capped at the limit. An approximate counter states its guarantee by
``count_tolerance``: its count ``e`` of a true count ``c`` satisfies ``c / (1 + t) <= e <= c * (1 + t)``
(with the probability the backend states).

The model counters read the board's CNF: :class:`CnfCountingBackend` builds it (option
``encoding``) and hands the counter the clauses with the queen variables to project on.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar, Iterator

from nqueens_cp.backends.framework.base import Answer, Backend, OptionSpec
from nqueens_cp.backends.framework.limits import cnf_estimate
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.cnf import DEFAULT_ENCODING, QueensCnf, build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.models.geometry import ModelEstimate, ModelSize

#: The option of every CNF-fed counter: the cardinality encoding of :func:`~nqueens_cp.models.cnf.build_cnf`.
ENCODING_OPTION = OptionSpec("encoding", str, DEFAULT_ENCODING, "cardinality encoding of the CNF", choices=ENCODINGS)


class CountingBackend(Backend):
    """A backend that counts without enumerating (see the module docstring)."""

    answers: ClassVar[frozenset[Answer]] = frozenset({Answer.COUNT})

    @property
    def count_tolerance(self) -> float:
        """The relative tolerance of the count: 0 for an exact counter."""
        return 0.0

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        raise NQueensError(self.refusal(Answer.ALL))  # not reached: the public methods refuse first

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        count = self._count_all(instance, unique)
        return count if limit is None else min(count, limit)

    @abstractmethod
    def _count_all(self, instance: Instance, unique: bool) -> int:
        """The count of ``instance`` (n >= 1): its solutions, or its symmetry classes with ``unique``."""



class CnfCountingBackend(CountingBackend):
    """A model counter fed the board's CNF (:func:`~nqueens_cp.models.cnf.build_cnf` with the option
    ``encoding``, :data:`ENCODING_OPTION`), counting its models projected on the queen variables.

    Projection, because an auxiliary variable of an encoding can take several values for one board
    (:mod:`nqueens_cp.models.model_count`); with ``unique`` the CNF has the lex-leader clauses, which
    keep one board per symmetry class. An adapter only runs its counter (:meth:`_count_models`).
    """

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return cnf_estimate(instance, self.options["encoding"])

    def _cnf(self, instance: Instance, unique: bool) -> QueensCnf:
        self.check_fits(self.memory_estimate(instance))
        return build_cnf(instance, self.options["encoding"], unique=unique)

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return self._cnf(instance, unique).size()

    def _count_all(self, instance: Instance, unique: bool) -> int:
        built = self._cnf(instance, unique)
        return self._count_models(built, list(range(1, len(built.squares) + 1)))

    @abstractmethod
    def _count_models(self, built: QueensCnf, queens: list[int]) -> int:
        """The models of ``built.cnf`` counted on the variables ``queens`` (the squares, ``1 ..``)."""
