"""A one-line progress bar on a terminal: sub-problems done out of the total, and time left."""

from __future__ import annotations

import time
from typing import TextIO


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"


class ProgressBar:
    """Redraws ``[#####.....] 12/40 sub-problems  30%  elapsed 0:00:10  ETA 0:00:23`` in place.

    The estimate assumes the sub-problems left take, on average, as long as those finished in
    this session (results resumed from a checkpoint count as done but not in the rate); it is
    rough, since sub-problems differ in size.
    """

    def __init__(self, stream: TextIO, total: int, done: int = 0, width: int = 30) -> None:
        self.stream = stream
        self.total = total
        self.done = done
        self.width = width
        self._resumed = done
        self._started = time.monotonic()
        self.draw()

    def advance(self, count: int = 1) -> None:
        """Mark ``count`` more sub-problems done and redraw."""
        self.done += count
        self.draw()

    def line(self) -> str:
        """The current bar as text."""
        fraction = self.done / self.total if self.total else 1.0
        filled = int(fraction * self.width)
        elapsed = time.monotonic() - self._started
        fresh = self.done - self._resumed
        if fresh > 0 and self.done < self.total:
            eta = _clock(elapsed / fresh * (self.total - self.done))
        elif self.done >= self.total:
            eta = _clock(0)
        else:
            eta = "?"
        bar = "#" * filled + "." * (self.width - filled)
        return (
            f"[{bar}] {self.done}/{self.total} sub-problems {fraction:4.0%}  "
            f"elapsed {_clock(elapsed)}  ETA {eta}"
        )

    def draw(self) -> None:
        """Redraw the bar on its line."""
        self.stream.write("\r\x1b[2K" + self.line())
        self.stream.flush()

    def clear(self) -> None:
        """Erase the bar (before other output goes to the same terminal); ``draw`` brings it back."""
        self.stream.write("\r\x1b[2K")
        self.stream.flush()

    def close(self) -> None:
        """End the bar's line."""
        self.stream.write("\n")
        self.stream.flush()
