"""The 8 symmetries of the square acting on solutions, and canonical representatives."""

from __future__ import annotations

from typing import Callable

from .instance import Solution


def _inverse(sol: Solution) -> Solution:
    inverse = [0] * len(sol)
    for row, col in enumerate(sol):
        inverse[col] = row
    return tuple(inverse)


def _mirror(sol: Solution) -> Solution:
    last = len(sol) - 1
    return tuple(last - col for col in sol)


def _flip(sol: Solution) -> Solution:
    return sol[::-1]


#: The symmetries of the square as maps on solutions; the first is the identity.
TRANSFORMS: tuple[Callable[[Solution], Solution], ...] = (
    lambda s: s,
    _mirror,  # reflect left-right
    _flip,  # reflect top-bottom
    lambda s: _mirror(_flip(s)),  # rotate 180
    _inverse,  # reflect in the main diagonal
    lambda s: _mirror(_inverse(s)),  # rotate 90
    lambda s: _flip(_inverse(s)),  # rotate 270
    lambda s: _mirror(_flip(_inverse(s))),  # reflect in the anti-diagonal
)


def images(sol: Solution) -> tuple[Solution, ...]:
    """The 8 images of ``sol`` under the square's symmetries (with repeats for symmetric boards)."""
    return tuple(transform(sol) for transform in TRANSFORMS)


def canonical(sol: Solution) -> Solution:
    """The lexicographically smallest image: the representative of ``sol``'s symmetry class."""
    return min(images(sol))


def is_canonical(sol: Solution) -> bool:
    """Whether ``sol`` is the representative of its class (every image is >= it)."""
    return all(sol <= image for image in images(sol))


def class_size(sol: Solution) -> int:
    """How many distinct solutions ``sol``'s class holds: 1, 2, 4 or 8."""
    return len(set(images(sol)))
