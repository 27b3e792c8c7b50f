"""The multiset fingerprint: order-independent, sensitive to one swapped board and to repeats, mergeable."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nqueens_cp import Instance
from nqueens_cp.core.fingerprint import Fingerprint, FingerprintAccumulator, fingerprint_of, solution_hash

from .harness_backends import correct

EIGHT = correct(Instance(8))


def test_order_does_not_matter() -> None:
    shuffled = EIGHT[:]
    random.Random(1).shuffle(shuffled)
    assert fingerprint_of(shuffled) == fingerprint_of(EIGHT)
    assert fingerprint_of(reversed(EIGHT)) == fingerprint_of(EIGHT)


def test_one_solution_swapped_changes_the_digest() -> None:
    other = [*EIGHT[:-1], (0,) * 8]
    a, b = fingerprint_of(EIGHT), fingerprint_of(other)
    assert a.count == b.count
    assert a.digest != b.digest


def test_a_duplicate_changes_the_fingerprint() -> None:
    with_repeat = [*EIGHT, EIGHT[5]]
    swapped_for_repeat = [EIGHT[0], *EIGHT[:-1]]  # same count, one board repeated, one missing
    base = fingerprint_of(EIGHT)
    assert fingerprint_of(with_repeat) != base
    assert fingerprint_of(with_repeat).count == base.count + 1
    assert fingerprint_of(swapped_for_repeat).count == base.count
    assert fingerprint_of(swapped_for_repeat) != base


def test_merging_is_addition() -> None:
    assert fingerprint_of(EIGHT[:40]) + fingerprint_of(EIGHT[40:]) == fingerprint_of(EIGHT)
    assert Fingerprint() + fingerprint_of(EIGHT) == fingerprint_of(EIGHT)


def test_accumulator_streams() -> None:
    accumulator = FingerprintAccumulator()
    for solution in EIGHT:
        accumulator.add(solution)
    assert accumulator.value() == fingerprint_of(EIGHT)
    assert accumulator.value().count == 92


def test_text_round_trip_and_bad_text() -> None:
    value = fingerprint_of(EIGHT)
    assert Fingerprint.parse(str(value)) == value
    assert str(value).startswith("92:")
    for bad in ("", "92", "x:ff", "92:zz", "-1:00"):
        with pytest.raises(ValueError):
            Fingerprint.parse(bad)


def test_hash_is_stable_and_tolerates_broken_boards() -> None:
    # Pinned values: fingerprints saved in results.json on one machine, with one version, must compare
    # equal on another. These are BLAKE2b-128 of the little-endian int64 columns, personalised.
    assert solution_hash((1, 3, 0, 2)) == 0x365701707F3821CA2B67FEEB9F8342AF
    assert str(fingerprint_of([(1, 3, 0, 2), (2, 0, 3, 1)])) == "2:d507ade002a3d3964c43cfad8c26a432"
    assert solution_hash((1, 3, 0, 2)) == solution_hash([1, 3, 0, 2])
    assert solution_hash((1, 3, 0, 2)) != solution_hash((2, 0, 3, 1))
    assert solution_hash((1, 3, 0, 2)) != solution_hash((1, 3, 0, 2, 0))
    assert isinstance(solution_hash((None, "x", 1.5)), int)  # a broken backend's board still hashes


@given(st.lists(st.lists(st.integers(0, 30), min_size=1, max_size=8).map(tuple), max_size=30, unique=True),
       st.randoms())
def test_permutations_agree_and_removals_differ(boards: list[tuple[int, ...]], rnd: random.Random) -> None:
    shuffled = boards[:]
    rnd.shuffle(shuffled)
    assert fingerprint_of(shuffled) == fingerprint_of(boards)
    if boards:
        assert fingerprint_of(boards[1:]) != fingerprint_of(boards)
        assert fingerprint_of([*boards, boards[0]]) != fingerprint_of(boards)
