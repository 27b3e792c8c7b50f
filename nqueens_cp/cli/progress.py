"""A one-line progress bar on stderr, drawn only when stderr is a terminal."""

from __future__ import annotations

import shutil
import time
from typing import TextIO


class ProgressBar:
    """``[#####.....] 37/162 0:23 n=11 sat:encoding=pairwise rep 2``; silent when not on a terminal."""

    def __init__(self, stream: TextIO, *, width: int = 24) -> None:
        self.stream = stream
        self.width = width
        self.enabled = bool(getattr(stream, "isatty", lambda: False)())
        self._started = time.monotonic()
        self._drawn = 0

    def update(self, done: int, total: int, label: str) -> None:
        """Show ``done`` of ``total`` finished, ``label`` running."""
        if not self.enabled:
            return
        filled = self.width * done // max(total, 1)
        elapsed = int(time.monotonic() - self._started)
        line = f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} {elapsed // 60}:{elapsed % 60:02d} {label}"
        columns = shutil.get_terminal_size((80, 20)).columns
        line = line[: max(columns - 1, 10)]
        self.stream.write("\r" + line.ljust(self._drawn))
        self.stream.flush()
        self._drawn = len(line)

    def close(self) -> None:
        """Erase the bar."""
        if self.enabled and self._drawn:
            self.stream.write("\r" + " " * self._drawn + "\r")
            self.stream.flush()
            self._drawn = 0
