"""Toroidal queens up to the torus's symmetries (OEIS A053994), by Burnside's lemma.

Two toroidal solutions are equivalent when one is a rotation or a reflection of a torus shift of
the other (M. Engelhardt's definition, the one A053994 and A062164 use): the group ``G`` of the
affine maps ``x -> A x + t (mod n)`` of the n x n torus, ``A`` one of the square's 8 symmetries as a
signed permutation matrix, ``t`` any of the n² shifts. Every such map sends rows, columns and the
two families of wrapping diagonals onto rows, columns and wrapping diagonals, so it maps toroidal
solutions to toroidal solutions; ``|G| = 8 n²``.

Burnside's lemma: the classes number ``(1/|G|) * sum over g in G of Fix(g)``, ``Fix(g)`` the
solutions ``g`` maps onto themselves. ``Fix`` is constant on a conjugacy class, so the sum runs over
the classes (:func:`conjugacy_classes`: union-find over ``G`` under conjugation by the group's
generators), each class's ``Fix`` counted once by :func:`fixed_count`, a search that places whole
orbits of squares under ``g`` (the family kernel's, which the square's Burnside sum uses too).
``Fix(identity)`` is the number of solutions: A007705's published term, or a count. Everything else is searched; at n = 31 the searches that take time are those of
the involutions (a reflection, or the rotation by 180 degrees, with a shift), whose orbits are
pairs: a search over about half the rows.

The result comes with its certificate (:class:`TorusClasses`): each conjugacy class's
representative, size and ``Fix``, so that anyone can re-count any term, or the whole sum, with
another program.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from math import gcd

from nqueens_cp.searches.family_kernel import torus_orbit_fixed_count

Matrix = tuple[int, int, int, int]
"""A 2 x 2 matrix ``((a, b), (c, d))`` as ``(a, b, c, d)``: ``(r, c) -> (a r + b c, c r + d c)``."""

#: The square's 8 symmetries as signed permutation matrices on (row, column).
SQUARE_MATRICES: tuple[Matrix, ...] = (
    (1, 0, 0, 1),  # identity
    (0, -1, 1, 0),  # a quarter turn
    (-1, 0, 0, -1),  # a half turn
    (0, 1, -1, 0),  # three quarter turns
    (-1, 0, 0, 1),  # rows reversed
    (1, 0, 0, -1),  # columns reversed
    (0, 1, 1, 0),  # the main diagonal's reflection
    (0, -1, -1, 0),  # the other diagonal's reflection
)


@dataclass(frozen=True, order=True)
class TorusMap:
    """``(r, c) -> (a r + b c + t_row, c' r + d c + t_col) mod n``: one element of the group."""

    matrix: Matrix
    shift: tuple[int, int]

    def apply(self, n: int, square: tuple[int, int]) -> tuple[int, int]:
        """The image of ``square`` on the n x n torus."""
        a, b, c, d = self.matrix
        r, col = square
        return (a * r + b * col + self.shift[0]) % n, (c * r + d * col + self.shift[1]) % n


def _compose(n: int, f: TorusMap, g: TorusMap) -> TorusMap:
    """``f after g``."""
    a, b, c, d = f.matrix
    e, f_, g_, h = g.matrix
    matrix = (a * e + b * g_, a * f_ + b * h, c * e + d * g_, c * f_ + d * h)
    shift = f.apply(n, g.shift)
    return TorusMap(matrix, shift)


def _inverse(n: int, f: TorusMap) -> TorusMap:
    a, b, c, d = f.matrix
    inverse = (a, c, b, d)  # a signed permutation matrix is orthogonal: its inverse is its transpose
    back = TorusMap(inverse, (0, 0))
    t = back.apply(n, f.shift)
    return TorusMap(inverse, ((-t[0]) % n, (-t[1]) % n))


def group(n: int) -> Iterator[TorusMap]:
    """The 8 n² elements of the torus's group, the identity first."""
    for matrix in SQUARE_MATRICES:
        for r in range(n):
            for c in range(n):
                yield TorusMap(matrix, (r, c))


@dataclass(frozen=True)
class ConjugacyClass:
    """A conjugacy class of the group: its least element, its size and the solutions it fixes."""

    representative: TorusMap
    size: int
    fixed: int


@dataclass(frozen=True)
class TorusClasses:
    """The toroidal solutions of side n up to the torus's symmetries, with the Burnside sum that
    gives them: ``classes = sum(size * fixed) / (8 n²)`` over the conjugacy classes."""

    n: int
    solutions: int
    conjugacy: tuple[ConjugacyClass, ...]

    @property
    def burnside_sum(self) -> int:
        """``sum over g of Fix(g)``."""
        return sum(k.size * k.fixed for k in self.conjugacy)

    @property
    def classes(self) -> int:
        """The number of equivalence classes (A053994's term)."""
        classes, remainder = divmod(self.burnside_sum, 8 * self.n * self.n)
        if remainder:
            raise ArithmeticError(f"Burnside's sum {self.burnside_sum} is not a multiple of 8 n² = {8 * self.n ** 2}")
        return classes


def conjugacy_classes(n: int) -> list[list[TorusMap]]:
    """The group's conjugacy classes, each sorted, the identity's first: union-find over the
    elements, joined under conjugation by the generators (a quarter turn, a reflection, the two unit
    shifts), which generate the group and so its whole conjugation action."""
    elements = list(group(n))
    index = {g: i for i, g in enumerate(elements)}
    parent = list(range(len(elements)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    generators = [TorusMap(SQUARE_MATRICES[1], (0, 0)), TorusMap(SQUARE_MATRICES[4], (0, 0)),
                  TorusMap(SQUARE_MATRICES[0], (1 % n, 0)), TorusMap(SQUARE_MATRICES[0], (0, 1 % n))]
    for generator in generators:
        back = _inverse(n, generator)
        for i, g in enumerate(elements):
            j = index[_compose(n, _compose(n, generator, g), back)]
            a, b = find(i), find(j)
            if a != b:
                parent[max(a, b)] = min(a, b)
    classes: dict[int, list[TorusMap]] = {}
    for i, g in enumerate(elements):
        classes.setdefault(find(i), []).append(g)
    return sorted((sorted(k) for k in classes.values()), key=lambda k: (k[0] != elements[0], k[0]))


def fixed_count(n: int, g: TorusMap) -> int:
    """The toroidal solutions of side n that ``g`` maps onto themselves (with the identity, every
    solution: a plain search, slow beyond n = 17)."""
    if n < 1:
        raise ValueError(f"the torus needs a side n >= 1, got {n}")
    return int(torus_orbit_fixed_count(n, *g.matrix, *g.shift))


def torus_classes(n: int, solutions: int | None = None, workers: int = 2) -> TorusClasses:
    """The toroidal solutions of side n up to rotations, reflections and torus shifts, with the
    Burnside sum over the group's conjugacy classes; ``solutions`` is the number of solutions
    (``Fix`` of the identity: A007705's term) when the caller has it, else it is counted by this
    module's search. The other classes' ``Fix`` are counted on ``workers`` threads."""
    if n > 1 and gcd(n, 6) != 1:  # Polya: no toroidal solution at all
        return TorusClasses(n, 0, tuple(ConjugacyClass(k[0], len(k), 0) for k in conjugacy_classes(n)))
    classes = conjugacy_classes(n)
    identity, others = classes[0], classes[1:]
    total = fixed_count(n, identity[0]) if solutions is None else solutions
    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        fixed = list(pool.map(lambda k: fixed_count(n, k[0]), others))
    return TorusClasses(n, total, (ConjugacyClass(identity[0], 1, total),
                                   *(ConjugacyClass(k[0], len(k), f) for k, f in zip(others, fixed, strict=True))))
