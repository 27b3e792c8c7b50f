"""The shared vocabulary: what a run asks (``Answer``: plug-ins spelling it as strings still work), the SAT
encodings (``Encoding``)."""

from __future__ import annotations

from typing import Any, Iterator

import pytest

from nqueens_cp.backends.framework.base import Answer, Backend, count_within_tolerance
from nqueens_cp.core.errors import BackendOptionError, NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.encodings import ENCODINGS, Encoding


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


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_says_whether_it_adds_auxiliary_variables(encoding: Encoding) -> None:
    pytest.importorskip("pysat")
    built = build_cnf(Instance(6), encoding.value)  # the option's string names the member
    assert built.encoding is encoding
    assert (built.cnf.nv > 36) == encoding.introduces_auxiliaries


def test_an_unknown_encoding_is_refused_naming_the_choices() -> None:
    with pytest.raises(BackendOptionError, match=r"unknown encoding 'nope' \(choose from pairwise, seqcounter"):
        Encoding.parse("nope")


@pytest.mark.parametrize(("count", "expected", "tolerance", "inside"), [
    (92, 92, 0.0, True), (91, 92, 0.0, False),
    (52, 92, 0.8, True), (51, 92, 0.8, False), (165, 92, 0.8, True), (166, 92, 0.8, False),
])
def test_a_count_is_within_its_counters_tolerance(count: int, expected: int, tolerance: float, inside: bool) -> None:
    assert count_within_tolerance(count, expected, tolerance) is inside


def test_every_backend_states_a_tolerance_an_exact_one_zero() -> None:
    assert _FirstOnlyByString().count_tolerance == 0.0



def test_workers_are_forked_only_when_the_caller_asks() -> None:
    import multiprocessing
    import sys

    from nqueens_cp.system.processes import start_method

    unforked = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    assert start_method() == unforked
    assert start_method(fork=True) == ("fork" if sys.platform.startswith("linux") else unforked)
