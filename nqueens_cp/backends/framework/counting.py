"""What the count-only backends share: they count without enumerating, and refuse to give boards.

A model counter (``ganak``, ``approxmc``) or a decision diagram (``bdd``) answers "how many" from
the model itself, never visiting the solutions one by one. So they answer counts only
(``answers = {"count"}``): ``solutions`` and ``first_solution`` refuse with one line, and ``count`` with a
``limit`` is the whole count capped at the limit. An approximate counter states its guarantee by
``count_tolerance``: its count ``e`` of a true count ``c`` satisfies ``c / (1 + t) <= e <= c * (1 + t)``
(with the probability the backend states).
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar, Iterator

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution


class CountingBackend(Backend):
    """A backend that counts without enumerating (see the module docstring)."""

    counts_only: ClassVar[bool] = True
    answers: ClassVar[frozenset[str]] = frozenset({"count"})

    @property
    def count_tolerance(self) -> float:
        """The relative tolerance of the count: 0 for an exact counter."""
        return 0.0

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        raise NQueensError(self.refusal("all"))  # not reached: the public methods refuse first

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        count = self._count_all(instance, unique)
        return count if limit is None else min(count, limit)

    @abstractmethod
    def _count_all(self, instance: Instance, unique: bool) -> int:
        """The count of ``instance`` (n >= 1): its solutions, or its symmetry classes with ``unique``."""

