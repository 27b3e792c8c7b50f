"""The lazy streams of answers the backend contract hands out: their arguments checked, their
boards made :class:`~nqueens_cp.core.instance.Queens`, cut at a limit, and closed (closing a
solver's stream stops its process and frees its model)."""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Iterator

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.instance import Queens, Solution

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


def check_stream_arguments(limit: object, unique: object) -> None:
    """Refuse, in one line, a ``limit`` that is not None or an integer >= 0, or a ``unique`` that
    is not a bool."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise BackendOptionError(f"limit must be an integer >= 0 or None, got {limit!r}")
    if not isinstance(unique, bool):
        raise BackendOptionError(f"unique must be True or False, got {unique!r}")


def close_stream(source: object) -> None:
    """Close ``source`` when it can be closed (a generator: its search stops); else nothing."""
    close = getattr(source, "close", None)
    if close is not None:
        close()


def as_queens(source: Iterator[Solution], limit: int | None) -> Iterator[Queens]:
    """The solutions of ``source`` as :class:`Queens` (passed on as they are when a search makes
    them so: no second copy), ``limit`` at most; closing this closes ``source``."""
    found = islice(source, limit) if limit is not None else source
    try:
        first = next(found, None)
        if first is None:
            return
        if type(first) is Queens:
            yield first
            yield from found  # type: ignore[misc]  # the search makes every one a Queens
        else:
            yield Queens(first)
            yield from map(Queens, found)
    finally:
        close_stream(source)


def at_most(batches: Iterator[npt.NDArray[np.int64]], limit: int | None) -> Iterator[npt.NDArray[np.int64]]:
    """The rows of ``batches``, ``limit`` at most (all with None)."""
    left = limit
    for batch in batches:
        if left is not None:
            batch = batch[:left]
            left -= len(batch)
        yield batch
        if left == 0:
            return
