"""A streaming, order-independent fingerprint of a multiset of solutions.

The fingerprint of a collection of solutions is the pair ``(count, digest)`` where ``digest`` is
the sum, modulo 2**128, of a 128-bit BLAKE2b hash of each solution. Properties the harness
relies on:

* **order-independent**: addition commutes, so two backends that enumerate the same set in
  different orders get the same fingerprint;
* **streaming**: one solution at a time, constant memory however many solutions there are;
* **multiset-sensitive**: a duplicated solution is added twice, so it changes both the count and
  the digest; a set that differs by one solution (same count, one board swapped) changes the
  digest unless two 128-bit hashes collide, which has probability about 2**-128;
* **mergeable**: the fingerprint of a disjoint union is the sum of the fingerprints
  (``a + b``), so sub-problems solved separately can be combined.

The per-solution hash encodes the columns as little-endian signed 64-bit integers, so the
fingerprint is the same on every machine and can be compared across saved results.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from hashlib import blake2b
from typing import Iterable, Sequence

#: Width of the digest in bits.
DIGEST_BITS = 128
_MASK = (1 << DIGEST_BITS) - 1
_PERSON = b"nqueens-cp/sol1"


def solution_hash(solution: Sequence[object]) -> int:
    """The 128-bit hash of one solution (any sequence; odd entries from a broken backend are hashed too)."""
    try:
        data = struct.pack(f"<{len(solution)}q", *solution)
    except (struct.error, TypeError):
        data = b"repr:" + repr(tuple(solution)).encode()
    return int.from_bytes(blake2b(data, digest_size=DIGEST_BITS // 8, person=_PERSON).digest(), "little")


@dataclass(frozen=True)
class Fingerprint:
    """The fingerprint of a multiset of solutions: how many, and the sum of their hashes mod 2**128."""

    count: int = 0
    digest: int = 0

    def __add__(self, other: Fingerprint) -> Fingerprint:
        """The fingerprint of the union of two disjoint collections."""
        if not isinstance(other, Fingerprint):
            return NotImplemented
        return Fingerprint(self.count + other.count, (self.digest + other.digest) & _MASK)

    def __str__(self) -> str:
        return f"{self.count}:{self.digest:032x}"

    @classmethod
    def parse(cls, text: str) -> Fingerprint:
        """The fingerprint written by ``str(fingerprint)``: ``COUNT:HEXDIGEST``."""
        count, sep, digest = text.partition(":")
        try:
            if not sep:
                raise ValueError(text)
            value = cls(int(count), int(digest, 16))
        except ValueError:
            raise ValueError(f"not a fingerprint: {text!r} (expected COUNT:HEX)") from None
        if value.count < 0 or not 0 <= value.digest <= _MASK:
            raise ValueError(f"not a fingerprint: {text!r}")
        return value


class FingerprintAccumulator:
    """Builds a ``Fingerprint`` one solution at a time."""

    __slots__ = ("_count", "_total")

    def __init__(self) -> None:
        self._count = 0
        self._total = 0

    def add(self, solution: Sequence[object]) -> int:
        """Account for one more solution (a repeat counts again); returns its ``solution_hash``."""
        value = solution_hash(solution)
        self._count += 1
        self._total = (self._total + value) & _MASK
        return value

    def update(self, solutions: Iterable[Sequence[object]]) -> None:
        """Account for each of ``solutions``."""
        for solution in solutions:
            self.add(solution)

    def value(self) -> Fingerprint:
        """The fingerprint of everything added so far."""
        return Fingerprint(self._count, self._total)


def fingerprint_of(solutions: Iterable[Sequence[object]]) -> Fingerprint:
    """The fingerprint of a collection of solutions."""
    accumulator = FingerprintAccumulator()
    accumulator.update(solutions)
    return accumulator.value()
