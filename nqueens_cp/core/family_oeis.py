"""The N-Queens family's published answers, shipped as data with their sources (OEIS, read
2026-12-03). ``SEQUENCES[name][n]`` is the term for board size n (offset 1: n = 1 is the first);
only published terms are shipped, never one derived here.

======== ===================================================================== ==========
sequence what a(n) is                                                          terms
======== ===================================================================== ==========
A051906  n non-attacking queens on the n x n toroidal board (Rivin, Vardi and  n = 1..34
         Zimmermann 1994; Engelhardt 1999-2001)
A007705  the same for the odd sides 2k + 1 (its main entry; a(k) is A051906's  k = 0..16
         term at n = 2k + 1)
A053994  the toroidal solutions of side 2k + 1 up to rotations, reflections  k = 0..14
         and torus shifts (Engelhardt); side 31 (k = 15) is not published
A051223  n non-attacking superqueens (queen + knight) on the n x n board       n = 1..26
A051224  the same, one per class of the square's 8 symmetries                  n = 1..26
A075458  domination number of the queens graph: fewest queens occupying or     n = 1..25
         attacking every square
A075324  independent domination number of the queens graph (terms n = 1..14   n = 1..14
         read from the diagonal of A299029, Bozoki et al., which OEIS gives
         for the rectangular boards Q(n, m))
A088202  chromatic number of the n x n queens graph                            n = 1..26
A250000  peaceable queens: most queens in each of two armies that do not       n = 1..15
         attack each other (the published terms)
======== ===================================================================== ==========
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, Mapping


def _from(first: int, terms: tuple[int, ...]) -> Mapping[int, int]:
    return MappingProxyType(dict(enumerate(terms, start=first)))


A051906: Final = _from(1, (
    1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692, 0, 820496, 0, 0, 0, 128850048, 0,
    1957725000, 0, 0, 0, 605917055356, 0, 13404947681712, 0, 0, 0,
))
#: Offset 0: ``A007705[k]`` counts the toroidal solutions of side 2k + 1.
A007705: Final = _from(0, (
    1, 0, 10, 28, 0, 88, 4524, 0, 140692, 820496, 0, 128850048, 1957725000, 0, 605917055356,
    13404947681712, 0,
))
#: Offset 0: ``A053994[k]`` counts the classes of toroidal solutions of side 2k + 1 under the
#: torus's rotations, reflections and shifts (:mod:`nqueens_cp.searches.torus_classes`).
A053994: Final = _from(0, (1, 0, 1, 1, 0, 2, 11, 0, 97, 354, 0, 31381, 395551, 0, 90120677))
A051223: Final = _from(1, (
    1, 0, 0, 0, 0, 0, 0, 0, 0, 4, 44, 156, 1876, 5180, 32516, 202900, 1330622, 8924976, 64492432,
    495864256, 3977841852, 34092182276, 306819842212, 2883202816808, 28144109776812, 286022102245804,
))
A051224: Final = _from(1, (
    1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 6, 22, 239, 653, 4089, 25411, 166463, 1115871, 8062150, 61984976,
    497236090, 4261538564, 38352532487, 360400504834, 3518014210402, 35752764285788,
))
A075458: Final = _from(1, (
    1, 1, 1, 2, 3, 3, 4, 5, 5, 5, 5, 6, 7, 8, 9, 9, 9, 9, 10, 11, 11, 12, 12, 13, 13,
))
A075324: Final = _from(1, (1, 1, 1, 3, 3, 4, 4, 5, 5, 5, 5, 7, 7, 8))
A088202: Final = _from(1, (
    1, 4, 5, 5, 5, 7, 7, 9, 10, 11, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
))
A250000: Final = _from(1, (0, 0, 1, 2, 4, 5, 7, 9, 12, 14, 17, 21, 24, 28, 32))

#: Every sequence by its name.
SEQUENCES: Final[Mapping[str, Mapping[int, int]]] = MappingProxyType({
    "A051906": A051906, "A007705": A007705, "A053994": A053994, "A051223": A051223, "A051224": A051224,
    "A075458": A075458, "A075324": A075324, "A088202": A088202, "A250000": A250000,
})
