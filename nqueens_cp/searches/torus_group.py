"""The linear symmetries of the n x n torus that map toroidal queens to toroidal queens, and the
orbits of its squares under them (what :mod:`nqueens_cp.searches.torus_count` counts by).

A toroidal solution is a set of n squares of the torus ``Z_n x Z_n``, one in each row, column and
wrapping diagonal. Every map ``z -> A z + t (mod n)`` whose linear part ``A`` sends each of the
four line families (rows ``r``, columns ``c``, up-diagonals ``r + c``, down-diagonals ``c - r``,
each taken mod n) onto a family maps solutions to solutions. The shifts ``t`` do (the
:mod:`nqueens_cp.searches.family_kernel` counter uses the column shift), and so do the linear maps
of the group ``L`` that :func:`generators` generate:

* the scalings ``(r, c) -> (a r, a c)`` by each unit ``a`` of ``Z_n`` (``gcd(a, n) = 1``): every line
  ``r = k``, ``c = k``, ``r + c = k``, ``c - r = k`` goes to the line of the same family with
  ``a k``;
* the square's symmetries: ``(r, c) -> (c, r)`` (rows and columns swapped, each diagonal family
  onto itself) and ``(r, c) -> (r, -c)`` (the two diagonal families swapped);
* for odd n, the eighth of a turn ``(r, c) -> (r + c, c - r)`` (determinant 2, a unit): up-diagonals
  go to rows, down-diagonals to columns, columns to up-diagonals (``r' + c' = 2c``) and rows to
  down-diagonals (``c' - r' = -2r``).

For odd n, ``|L| = 8 phi(n)`` (the stabiliser of the four directions in the projective line is
dihedral of order 8; with the scalars), and the group ``G`` of the maps ``z -> A z + t`` has
``n² |L|`` elements. (Engelhardt calls such images of a toroidal solution *similar*; A053994's
classes use the square's symmetries and the shifts only.)
"""

from __future__ import annotations

from dataclasses import dataclass
from math import gcd

import numpy as np
import numpy.typing as npt

Int64Array = npt.NDArray[np.int64]

Matrix = tuple[int, int, int, int]
"""``(a, b, c, d)``: the linear map ``(r, q) -> (a r + b q, c r + d q) mod n`` of the torus."""


def apply(n: int, matrix: Matrix, square: tuple[int, int]) -> tuple[int, int]:
    """The image of ``square`` under ``matrix`` on the n x n torus."""
    a, b, c, d = matrix
    r, q = square
    return (a * r + b * q) % n, (c * r + d * q) % n


def generators(n: int) -> tuple[Matrix, ...]:
    """Linear maps of the n x n torus (n >= 2) that fix the corner and send rows, columns and both
    families of wrapping diagonals onto such lines (see the module docstring)."""
    matrices: list[Matrix] = [(a, 0, 0, a) for a in range(2, n) if gcd(a, n) == 1]
    matrices += [(0, 1, 1, 0), (1, 0, 0, -1)]
    if n % 2 == 1:
        matrices.append((1, 1, -1, 1))
    return tuple((a % n, b % n, c % n, d % n) for a, b, c, d in matrices)


def group(n: int) -> tuple[Matrix, ...]:
    """Every element of the group ``L`` that :func:`generators` generate (n >= 2; the identity
    first), by closing the identity under the generators."""
    found: dict[Matrix, None] = {(1, 0, 0, 1): None}
    frontier = list(found)
    while frontier:
        element = frontier.pop()
        for generator in generators(n):
            a, b, c, d = element
            e, f, g, h = generator  # the generator after the element
            product = ((e * a + f * c) % n, (e * b + f * d) % n, (g * a + h * c) % n, (g * b + h * d) % n)
            if product not in found:
                found[product] = None
                frontier.append(product)
    return tuple(found)


@dataclass(frozen=True)
class Orbits:
    """The squares of the n x n torus (n >= 2) by their orbits under the group ``L``.

    ``key[r, c]``: the smallest column m with ``(1, m)`` in the orbit of ``(r, c)`` (n when the
    orbit misses row 1; the corner's orbit is the corner alone); ``size[r, c]``: the orbit's size.
    """

    n: int
    elements: tuple[Matrix, ...]
    key: Int64Array
    size: Int64Array

    def canonical_columns(self) -> list[int]:
        """The columns m whose square ``(1, m)`` is the key of its orbit and not attacked by the
        corner queen: the searches to run."""
        return [m for m in range(2, self.n - 1) if self.key[1, m] == m]


def orbits(n: int) -> Orbits:
    """The orbits of the squares of the n x n torus (n >= 2) under ``L`` (each square's images)."""
    elements = group(n)
    key = np.full((n, n), n, np.int64)
    size = np.zeros((n, n), np.int64)
    for r in range(n):
        for q in range(n):
            images = {apply(n, g, (r, q)) for g in elements}
            size[r, q] = len(images)
            key[r, q] = min((image[1] for image in images if image[0] == 1), default=n)
    return Orbits(n, elements, key, size)


def _inverse(x: int, n: int) -> int:
    return pow(x, -1, n)


def line_to_row_two(n: int, matrix: Matrix) -> tuple[int, int]:
    """The line ``{w : (matrix (w - x))'s row = 2}`` as its family (0 rows, 1 columns, 2
    up-diagonals ``r + c``, 3 down-diagonals ``c - r``) and its shift from x's line of that family."""
    a, b = matrix[0], matrix[1]
    if b == 0:
        return 0, 2 * _inverse(a, n) % n
    if a == 0:
        return 1, 2 * _inverse(b, n) % n
    if a == b:
        return 2, 2 * _inverse(a, n) % n
    if (a + b) % n == 0:
        return 3, -2 * _inverse(a, n) % n
    raise ValueError(f"{matrix} does not map a line family onto the rows")


def inverse_matrix(n: int, matrix: Matrix) -> Matrix:
    a, b, c, d = matrix
    det = _inverse((a * d - b * c) % n, n)
    return (d * det % n, -b * det % n, -c * det % n, a * det % n)
