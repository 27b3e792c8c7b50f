"""What the backends whose answer is an array of columns share (``construction``, ``localsearch``).

Their search writes a numpy array (``columns[row] == col``) for boards of up to 10^8 rows, where a
tuple would not fit: they answer a first solution only, straight as the array
(:meth:`~nqueens_cp.backends.framework.base.Backend.first_columns`), or as a tuple when the tuple
fits the memory budget too. An adapter states its arrays' memory (:meth:`_estimate`) and runs its
search (``_first_columns``).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Iterator

from nqueens_cp.backends.framework.base import Answer, Backend
from nqueens_cp.core.instance import MAX_N, Instance, Solution
from nqueens_cp.models.geometry import ModelEstimate


class ArrayAnswerBackend(Backend):
    """A backend whose first solution is an array of columns (see the module docstring)."""

    answers = frozenset({Answer.FIRST})
    max_n = MAX_N
    array_answers = True

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return self._estimate(instance, as_tuple=False)

    @abstractmethod
    def _estimate(self, instance: Instance, *, as_tuple: bool) -> ModelEstimate:
        """The memory of the search's arrays, and of the answer's tuple when ``as_tuple``."""

    def _first_solution(self, instance: Instance) -> Solution | None:
        self.check_fits(self._estimate(instance, as_tuple=True))
        columns = self._first_columns(instance)
        return None if columns is None else tuple(columns.tolist())

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        raise AssertionError("unreachable: the base class refuses enumeration for this backend")
