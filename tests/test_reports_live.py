"""``compare`` follows a long comparison: one line per finished n on stderr (sizes, verdict, fastest)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.reports.live import size_line

from .conftest import run_cli
from .harness_backends import registered


@pytest.fixture(autouse=True)
def broken_backends() -> Iterator[None]:
    with registered():
        yield


@pytest.mark.slow  # 8-11 s: the default run stays under 8 minutes (CI runs it with -m slow)
def test_one_line_per_size_as_each_finishes() -> None:
    seen: list[tuple[int, str, int]] = []

    def on_size(n: int, partial: ComparisonResults) -> None:
        seen.append((n, size_line(partial, n), len(partial.runs)))

    configurations = parse_configurations(["bitboard", "test-drops", "test-hangs"])
    request = ComparisonRequest(AllSolutions(), configurations, (1, 5, 6), 1, 8.0, 100_000, "bitboard", "cmd")
    run_comparison(request, on_size=on_size)
    assert [(n, runs) for n, _, runs in seen] == [(1, 3), (5, 6), (6, 9)]  # called as each size is done
    one, five, six = (line for _, line, _ in seen)
    assert one.startswith("n=1: 1 solution (A000170 1), 3 runs; PASS; fastest ")
    assert five.startswith("n=5: counts 9/10 (A000170 10), 3 runs; FAIL (test-drops count, test-drops set)")
    assert five.endswith("; no answer from test-hangs")
    assert "fastest bitboard " in six or "fastest test-drops " in six


def test_stdout_is_the_report_alone(tmp_path: Path) -> None:
    done = run_cli("compare", "--n", "4-6", "--backends", "bitboard,backtrack", "--repeat", "1",
                   "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert done.stdout == (tmp_path / "out" / "report.md").read_text(encoding="utf-8")
    lines = done.stderr.splitlines()
    assert [line.split(":")[1].strip() for line in lines[:3]] == ["n=4", "n=5", "n=6"]
    assert lines[3].startswith("nqueens-cp: wrote ")


def test_on_a_terminal_the_bar_and_the_lines_share_stderr(tmp_path: Path) -> None:
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    from .conftest import REPO

    main_fd, terminal_fd = pty.openpty()
    fcntl.ioctl(terminal_fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))  # a 120-column terminal
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.Popen(
        [sys.executable, "-m", "nqueens_cp", "compare", "--n", "4-6", "--backends", "bitboard,backtrack",
         "--repeat", "1", "--out", str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=terminal_fd, env=env, cwd=REPO,
    )
    os.close(terminal_fd)
    chunks = []
    while True:
        try:
            data = os.read(main_fd, 65536)
        except OSError:  # the terminal closed: the command is done
            break
        if not data:
            break
        chunks.append(data)
    stdout, _ = process.communicate(timeout=120)
    os.close(main_fd)
    screen = b"".join(chunks).decode(errors="replace")
    assert process.returncode == 0, screen
    assert stdout.decode() == (tmp_path / "out" / "report.md").read_text(encoding="utf-8")  # stdout: the report
    for n in (4, 5, 6):
        assert f"nqueens-cp: n={n}: " in screen
    assert "run/s" in screen or "s/run" in screen  # tqdm's bar, with its rate and time left, was drawn
    assert "6/6" in screen or "5/6 [" in screen
