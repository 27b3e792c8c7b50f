"""The one progress bar (``nqueens_cp.system.progress``): drawn on a terminal, silent and free elsewhere."""

from __future__ import annotations

import subprocess
import sys

from nqueens_cp.system.progress import Progress


class FakeStream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty
        self.text = ""

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_bar_on_a_terminal_shows_count_rate_and_label() -> None:
    terminal = FakeStream(True)
    bar = Progress(terminal, 12, done=2, unit="run")  # type: ignore[arg-type]
    bar.advance_to(3)
    bar.label("n=8 cpsat rep 1")
    with bar.paused():
        terminal.write("a message\n")
    bar.close()
    assert "3/12" in terminal.text and "n=8 cpsat rep 1" in terminal.text and "a message" in terminal.text
    assert "run/s" in terminal.text or "s/run" in terminal.text  # the rate


def test_nothing_drawn_on_a_pipe_and_tqdm_not_imported() -> None:
    probe = (
        "import io, sys\n"
        "from nqueens_cp.system.progress import Progress\n"
        "stream = io.StringIO()\n"
        "bar = Progress(stream, 5)\n"
        "bar.advance(); bar.label('x')\n"
        "with bar.paused(): pass\n"
        "bar.close()\n"
        "assert stream.getvalue() == '', stream.getvalue()\n"
        "assert 'tqdm' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True)
