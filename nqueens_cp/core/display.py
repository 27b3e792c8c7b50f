"""What a notebook shows: an instance with a solution, drawn by :func:`nqueens_cp.core.board.board_svg`.

:class:`BoardView` pairs an :class:`~nqueens_cp.core.instance.Instance` with an optional solution and
shows itself in a notebook (``_repr_svg_``, as pandas and networkx objects do); ``Instance`` shows
itself the same way, and so does a solution a backend gives (a
:class:`~nqueens_cp.core.instance.Queens`, a tuple that draws its bare board). ``BoardView(instance,
solution)`` (or :func:`show`) draws a solution on its instance, with the pre-placed queens and
blocked squares.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from nqueens_cp.core.board import BOARD_PIXELS, Line, board_svg
from nqueens_cp.core.instance import Instance, Solution


def instance_svg(instance: Instance, solution: Solution | None = None, *, pixels: int = BOARD_PIXELS,
                 lines: Iterable[Line] = (), shaded: Iterable[tuple[int, int]] = (), title: str = "") -> str:
    """The board of ``instance`` (its pre-placed queens and blocked squares), with ``solution`` when given."""
    return board_svg(solution or (), n=instance.n, fixed=instance.fixed, blocked=instance.blocked,
                     lines=lines, shaded=shaded, pixels=pixels, title=title or str(instance))


@dataclass(frozen=True)
class BoardView:
    """An instance with an optional solution, drawn as SVG in a notebook (``_repr_svg_``).

    >>> from nqueens_cp import Instance
    >>> BoardView(Instance(4), (1, 3, 0, 2))
    BoardView(n=4, solution=(1, 3, 0, 2))
    """

    instance: Instance
    solution: Solution | None = None
    pixels: int = BOARD_PIXELS

    def svg(self) -> str:
        """The ``<svg>`` element of the board."""
        return instance_svg(self.instance, self.solution, pixels=self.pixels)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        shown = f", solution={self.solution}" if self.solution is not None else ""
        return f"BoardView({self.instance}{shown})"


def show(solution: Solution, instance: Instance | None = None, *, pixels: int = BOARD_PIXELS) -> BoardView:
    """A :class:`BoardView` of ``solution`` (on ``instance``, default the empty board of its size) to display."""
    return BoardView(instance if instance is not None else Instance(len(solution)), tuple(solution), pixels)
