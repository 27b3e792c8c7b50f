"""The 8 symmetries of the square, acting on solutions: their one definition in the package.

A solution ``q`` (``q[row] == col``) is a permutation, and each symmetry of the square maps it to
``g(q)[i] = m(v[j])``, built from three independent choices — three bits of the symmetry's index:

* ``MIRROR`` (bit 0): ``m(x) = n-1-x`` (reflect left-right) instead of ``x``;
* ``REVERSE`` (bit 1): ``j = n-1-i`` (reflect top-bottom) instead of ``i``;
* ``INVERSE`` (bit 2): ``v`` is the inverse permutation ``p`` (``p[q[i]] == i``, reflect in the main
  diagonal) instead of ``q``.

``SYMMETRIES[k]`` has index ``k``; ``SYMMETRIES[0]`` is the identity. Everything else derives
from this table: canonical forms here, the lex-leader constraints (:mod:`nqueens_cp.models.lex_leader`),
the compiled kernel's canonicalisation (which loops over the same bit flags), and the split's
first-row mirror (:data:`MIRROR_IMAGE`).
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution

#: The bits of a symmetry's index (see the module docstring).
MIRROR, REVERSE, INVERSE = 1, 2, 4


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of the square acting on solutions: ``g(q)[i] = m(v[j])``."""

    index: int
    name: str

    @property
    def mirror(self) -> bool:
        """Whether values are reflected: ``m(x) = n-1-x``."""
        return bool(self.index & MIRROR)

    @property
    def reverse(self) -> bool:
        """Whether rows are read backwards: ``j = n-1-i``."""
        return bool(self.index & REVERSE)

    @property
    def inverse(self) -> bool:
        """Whether the inverse permutation is read instead of ``q``."""
        return bool(self.index & INVERSE)

    def apply(self, sol: Solution) -> Solution:
        """The image of ``sol`` (a full solution) under this symmetry."""
        n = len(sol)
        source = list(sol)
        if self.inverse:
            source = [0] * n
            for row, col in enumerate(sol):
                source[col] = row
        if self.reverse:
            source.reverse()
        return tuple(n - 1 - v for v in source) if self.mirror else tuple(source)

    def square(self, n: int, i: int, c: int) -> tuple[int, int]:
        """The square (row, col) whose queen means ``g(q)[i] == c``."""
        j = n - 1 - i if self.reverse else i
        v = n - 1 - c if self.mirror else c
        # v[j] == value: for q that is the queen (j, value); for p it is the queen (value, j).
        return (v, j) if self.inverse else (j, v)

    def map_square(self, n: int, row: int, col: int) -> tuple[int, int]:
        """Where the square (row, col) goes: a queen there becomes a queen on the returned square."""
        if self.inverse:
            row, col = col, row
        if self.reverse:
            row = n - 1 - row
        if self.mirror:
            col = n - 1 - col
        return row, col


#: The symmetries by index: identity, mirror, flip, rotate 180, transpose, rotate 90, rotate 270,
#: anti-transpose.
SYMMETRIES: tuple[Symmetry, ...] = tuple(
    Symmetry(index, name)
    for index, name in enumerate(
        ("identity", "mirror", "flip", "rotate180", "transpose", "rotate90", "rotate270", "antitranspose")
    )
)

#: The left-right reflection, which the split runs use on the first row.
MIRROR_IMAGE: Symmetry = SYMMETRIES[MIRROR]


def images(sol: Solution) -> tuple[Solution, ...]:
    """The 8 images of ``sol`` under the square's symmetries (with repeats for symmetric boards)."""
    return tuple(symmetry.apply(sol) for symmetry in SYMMETRIES)


def canonical(sol: Solution) -> Solution:
    """The lexicographically smallest image: the representative of ``sol``'s symmetry class."""
    return min(images(sol))


def is_canonical(sol: Solution) -> bool:
    """Whether ``sol`` is the representative of its class (every image is >= it)."""
    return all(sol <= image for image in images(sol))


def is_torus_canonical(sol: Solution) -> bool:
    """Whether the toroidal placement ``sol`` is the lexicographically smallest of its images under
    the torus's 8 n² maps (the square's symmetries composed with every shift of rows and columns:
    the classes of OEIS A053994). A column shift brings any image's first queen to column 0, so a
    representative starts with 0 and only the images that do are compared: for each square
    symmetry and row shift, the one column shift that makes its first entry 0 (8 n images of n)."""
    n = len(sol)
    if n and sol[0] != 0:
        return False
    for image in images(sol):
        for row_shift in range(n):
            rows = image[row_shift:] + image[:row_shift]
            if tuple((column - rows[0]) % n for column in rows) < sol:
                return False
    return True


def class_size(sol: Solution) -> int:
    """How many distinct solutions ``sol``'s class holds: 1, 2, 4 or 8."""
    return len(set(images(sol)))


def require_symmetric(instance: Instance) -> None:
    """Raise unless ``instance`` is the empty board, the only one on which all 8 symmetries act
    (with blocked squares only those mapping the blocked set onto itself would: refused too).

    The one check behind ``unique`` (solutions up to symmetry) everywhere in the package.
    """
    if instance.fixed or instance.blocked:
        raise NQueensError(
            "unique (solutions up to symmetry) needs an instance with no pre-placed queens or blocked squares"
        )
