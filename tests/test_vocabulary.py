"""The shared vocabulary: what a run asks (``Answer``), and that plug-ins spelling it as strings still work."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from nqueens_cp.backends.framework.base import Answer, Backend
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution


class _FirstOnlyByString(Backend):
    """A plug-in written before ``Answer``: its answers are plain strings."""

    name = "first-only-by-string"
    summary = "declares its answers as strings"
    answers: Any = frozenset({"first"})

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        yield from ()

    def _first_solution(self, instance: Instance) -> Solution | None:
        return (1, 3, 0, 2) if instance.n == 4 else None


def test_answers_declared_as_strings_are_the_enum_members() -> None:
    assert Answer.FIRST in _FirstOnlyByString.answers and Answer.COUNT not in _FirstOnlyByString.answers
    assert frozenset({"first", "all"}) == frozenset({Answer.FIRST, Answer.ALL})
    assert f"{Answer.COUNT}" == str(Answer.COUNT) == "count"


def test_a_string_declared_backend_answers_and_refuses_by_the_enum() -> None:
    backend = _FirstOnlyByString()
    assert backend.first_solution(Instance(4)) == (1, 3, 0, 2)
    with pytest.raises(NQueensError, match="cannot count solutions: it answers first only"):
        backend.count(Instance(4))
