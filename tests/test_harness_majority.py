"""The reference fingerprint beyond --store-limit: OEIS first, then a majority of backends (not of runs).

Planted-bug backends (tests/harness_backends.py) make each case: one backend whose three
configurations share a bug, two backends sharing one bug against one correct backend, a tie, and
a run that drops a solution and repeats another past the stored prefix (its count is right).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import pytest

from nqueens_cp import Instance
from nqueens_cp.harness.results import FAIL, PASS, Check, ComparisonResults
from nqueens_cp.harness.tasks import AllSolutions

from .harness_backends import DropRepeatBackend, registered
from .test_harness_runner import compare


@dataclass(frozen=True)
class NoPublishedCount(AllSolutions):
    """All solutions, as if no count were published (so only the backends can decide)."""

    @property
    def expected_label(self) -> str:
        return "no published count"

    def expected_count(self, instance: Instance) -> int | None:
        return None


@pytest.fixture(autouse=True)
def broken_backends() -> Iterator[None]:
    with registered():
        yield


def reference(results: ComparisonResults) -> Check:
    return next(c for c in results.checks if c.name == "reference")


def set_status(results: ComparisonResults, config: str) -> set[str]:
    return {c.status for c in results.checks if c.name == "set" and c.config == config}


def test_one_backend_with_a_shared_bug_counts_once() -> None:
    shared = ",".join(f"test-shared:variant={v}" for v in "abc")
    results = compare(f"bitboard,backtrack,{shared}", (8,), repeat=3, store_limit=10, task=NoPublishedCount())
    buggy_runs = [r for r in results.runs if r.config.startswith("test-shared")]
    assert len(buggy_runs) == 9 and len(results.runs) == 15  # the buggy fingerprint has most runs ...
    ref = reference(results)
    assert ref.status == PASS and "2 of 3 backends" in ref.summary  # ... but one vote of three
    assert any(e.startswith("odd one out: test-shared") for e in ref.evidence)
    assert set_status(results, "bitboard") == set_status(results, "backtrack") == {PASS}
    for variant in "abc":
        assert set_status(results, f"test-shared:variant={variant}") == {FAIL}


def test_a_tie_between_backends_has_no_reference() -> None:
    results = compare("bitboard,test-drops", (8,), repeat=2, store_limit=10, task=NoPublishedCount())
    ref = reference(results)
    assert ref.status == FAIL and "no reference" in ref.summary
    assert any("bitboard" in e for e in ref.evidence) and any("test-drops" in e for e in ref.evidence)
    assert set_status(results, "bitboard") == set_status(results, "test-drops") == {FAIL}


def test_the_published_count_outweighs_a_majority_sharing_a_bug() -> None:
    results = compare("bitboard,test-drops,test-drops-too", (8,), store_limit=10)
    ref = reference(results)
    assert ref.status == PASS and "A000170 92" in ref.summary and "bitboard" in ref.summary
    odd = " ".join(ref.evidence)
    assert "odd one out: test-drops " in odd and "odd one out: test-drops-too" in odd
    assert set_status(results, "bitboard") == {PASS}
    assert set_status(results, "test-drops") == set_status(results, "test-drops-too") == {FAIL}


def test_a_repeat_past_the_stored_prefix_fails_even_alone() -> None:
    results = compare("test-drop-repeat", (8,), store_limit=10)
    run = results.runs[0]
    assert run.count == 92 and run.truncated and run.duplicates == 1
    checks = {c.name: c for c in results.checks if c.config == "test-drop-repeat"}
    assert checks["count"].status == PASS  # the count cannot see it ...
    assert checks["duplicates"].status == FAIL  # ... the hashes past the prefix do
    assert "past the first 10 stored" in " ".join(checks["duplicates"].evidence)
    assert not results.passed


def test_a_drop_and_repeat_against_correct_backends() -> None:
    results = compare("bitboard,backtrack,test-drop-repeat", (8,), store_limit=10)
    ref = reference(results)
    assert ref.status == PASS and "odd one out: test-drop-repeat" in " ".join(ref.evidence)
    assert set_status(results, "test-drop-repeat") == {FAIL}
    # With every solution stored, the repeated board is named.
    exact = compare("bitboard,test-drop-repeat", (8,))
    duplicates = next(c for c in exact.failures if c.name == "duplicates")
    assert str(DropRepeatBackend.repeated(Instance(8))) in duplicates.evidence[0]
