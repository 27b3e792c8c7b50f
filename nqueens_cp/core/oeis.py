"""Known N-Queens counts, shipped as data (the ground truth every backend is checked against).

``A000170[n]`` is the number of solutions on an n x n board (n = 0..27).
``A002562[n]`` is the number of solutions up to the 8 symmetries of the square (n = 1..27).
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Final, Mapping

if TYPE_CHECKING:
    from nqueens_cp.core.instance import Instance

#: OEIS A000170, offset 0: all solutions of the n-queens problem.
A000170: Final[Mapping[int, int]] = MappingProxyType(
    dict(
        enumerate(
            (
                1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
                2279184, 14772512, 95815104, 666090624, 4968057848, 39029188884,
                314666222712, 2691008701644, 24233937684440, 227514171973736,
                2207893435808352, 22317699616364044, 234907967154122528,
            )
        )
    )
)

#: OEIS A002562, offset 1: solutions counted once per class of the square's 8 symmetries.
A002562: Final[Mapping[int, int]] = MappingProxyType(
    dict(
        enumerate(
            (
                1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
                11977939, 83263591, 621012754, 4878666808, 39333324973, 336376244042,
                3029242658210, 28439272956934, 275986683743434, 2789712466510289,
                29363495934315694,
            ),
            start=1,
        )
    )
)


def known_count(n: int, *, unique: bool = False) -> int | None:
    """The published count for board size ``n`` (fundamental solutions if ``unique``), or None."""
    from nqueens_cp.core.arguments import require_bool, require_int

    require_int(n, "n", minimum=0)
    require_bool(unique, "unique")
    if unique:
        return 1 if n == 0 else A002562.get(n)
    return A000170.get(n)


def published_count(instance: Instance, *, unique: bool = False) -> tuple[int, str] | None:
    """The published count of ``instance`` and the name of its sequence (``A000170``, ``A002562``
    with ``unique``), or None when there is none: pre-placed queens, blocked squares, n past the table."""
    if instance.fixed or instance.blocked:
        return None
    expected = known_count(instance.n, unique=unique)
    return None if expected is None else (expected, "A002562" if unique else "A000170")
