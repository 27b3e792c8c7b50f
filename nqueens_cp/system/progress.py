"""The one progress bar of the package (``compare`` and split runs), drawn by tqdm on a terminal,
and the line a long single run shows (:class:`Ticker`).

It shows what is done out of the total, the rate and the time left, and a short label (what is
running now). Nothing is drawn, and tqdm is not even imported, when the stream is not a terminal,
so piped or captured output stays clean.
"""

from __future__ import annotations

import threading
import time
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


def format_seconds(seconds: float) -> str:
    """``12 s``, ``3.5 min``, ``2.1 h``, ``4.2 days`` or ``3e+16 years``: a duration for a person."""
    for size, unit in ((365.25 * 86400, "years"), (86400, "days"), (3600, "h"), (60, "min")):
        if seconds >= size:
            value = seconds / size
            return f"{value:.2g} {unit}" if value >= 1e6 else f"{value:,.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"
    return f"{seconds:.0f} s"


class Ticker:
    """A line on a terminal saying that a long run is alive: ``what`` and the time it has taken
    (with the ``expected`` seconds when known), from ``after`` seconds on, redrawn every ``every``
    seconds and erased at the end. Nothing is written when the stream is not a terminal.

    Used as a context manager around one long call; the line is drawn by a thread, so it shows
    while that call runs in Python or in compiled code that releases the GIL.
    """

    def __init__(self, stream: TextIO, what: str, *, expected: float | None = None,
                 after: float = 2.0, every: float = 1.0) -> None:
        self.stream, self.what, self.expected = stream, what, expected
        self.after, self.every = after, every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._drawn = False

    def __enter__(self) -> Ticker:
        if getattr(self.stream, "isatty", lambda: False)():
            self._thread = threading.Thread(target=self._run, name="nqueens-cp ticker", daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            if self._drawn:
                self.stream.write("\r\x1b[K")  # erase the line: the answer follows on a clean line
                self.stream.flush()

    def _run(self) -> None:
        start = time.monotonic()
        if self._stop.wait(self.after):
            return
        while True:
            elapsed = time.monotonic() - start
            line = f"nqueens-cp: {self.what}: {format_seconds(elapsed)}"
            if self.expected is not None:
                line += f" (about {format_seconds(self.expected)} expected on a free core)"
            self.stream.write(f"\r\x1b[K{line}")
            self.stream.flush()
            self._drawn = True
            if self._stop.wait(self.every):
                return
