"""The boards the HTML report draws, solved here, outside :mod:`nqueens_cp.reports`.

Saved results keep fingerprints, not solutions, so the gallery's boards are solved again when a
page is made (by ``compare --format html`` and ``report --format html``, before rendering): every
fundamental solution (one per symmetry class) of one small n by the ``backtrack`` row search, and
the first solution of the largest n compared by its first-fail search (a second or so up to
n = 1024). Every board is checked by the independent checker before it is kept; the report only
draws what :func:`solve_gallery` hands it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.instance import Instance, Solution

#: The board whose fundamental solutions the gallery shows when the comparison covered it.
GALLERY_N = 8
#: Boards larger than this are not solved for the gallery (the first-fail search would take too long).
LARGEST_DRAWN = 2048


@dataclass(frozen=True)
class Gallery:
    """The boards of a report's gallery, each checked by the independent checker.

    ``fundamental`` are the fundamental solutions of ``small``; ``largest`` is the largest n
    compared when it differs from ``small`` (None otherwise), ``first`` a first solution of it
    (None when it is larger than :data:`LARGEST_DRAWN` or has no solution).
    """

    small: int
    fundamental: tuple[Solution, ...]
    largest: int | None = None
    first: Solution | None = None


def gallery_n(ns: Sequence[int]) -> int:
    """``GALLERY_N`` when compared, else the largest compared n from 4 to 10 (4 has solutions), else 8."""
    if GALLERY_N in ns:
        return GALLERY_N
    small = [n for n in ns if 4 <= n <= 10]
    return max(small) if small else GALLERY_N


def solve_gallery(ns: Sequence[int]) -> Gallery:
    """The gallery of a comparison of the board sizes ``ns``."""
    from nqueens_cp.backends.framework.registry import create_backend

    small = gallery_n(ns)
    fundamental = tuple(s for s in create_backend("backtrack").solutions(Instance(small), unique=True)
                        if is_valid_solution(Instance(small), s))
    largest = max(ns) if ns else None
    if largest is None or largest == small:
        return Gallery(small, fundamental)
    first = None
    if largest <= LARGEST_DRAWN:
        first = create_backend("backtrack", search="firstfail").first_solution(Instance(largest))
        if first is not None and not is_valid_solution(Instance(largest), first):
            first = None
    return Gallery(small, fundamental, largest, first)
