"""The one progress bar of the package (``compare`` and split runs), drawn by tqdm on a terminal.

It shows what is done out of the total, the rate and the time left, and a short label (what is
running now). Nothing is drawn, and tqdm is not even imported, when the stream is not a terminal,
so piped or captured output stays clean.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator, TextIO


class Progress:
    """A bar over ``total`` units of work, ``done`` of them finished already (resumed work)."""

    def __init__(self, stream: TextIO | None, total: int, *, done: int = 0, unit: str = "task") -> None:
        self.stream = stream
        self._bar: Any = None
        if stream is not None and getattr(stream, "isatty", lambda: False)():
            from tqdm import tqdm

            self._bar = tqdm(total=total, initial=done, unit=unit, file=stream, dynamic_ncols=True, leave=False)

    @property
    def enabled(self) -> bool:
        """Whether a bar is drawn."""
        return self._bar is not None

    def advance(self, count: int = 1) -> None:
        """Mark ``count`` more units done."""
        if self._bar is not None:
            self._bar.update(count)

    def advance_to(self, done: int) -> None:
        """Mark ``done`` units done in all."""
        if self._bar is not None:
            self._bar.update(done - self._bar.n)

    def label(self, text: str) -> None:
        """Show ``text`` (what is running now) beside the bar."""
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=True)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Erase the bar while other output goes to the terminal, then draw it again."""
        if self._bar is None:
            yield
            return
        self._bar.clear()
        try:
            yield
        finally:
            self._bar.refresh()

    def close(self) -> None:
        """Erase the bar."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None
