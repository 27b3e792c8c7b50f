"""``nqueens-cp compare`` and ``nqueens-cp report`` as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp import Instance
from nqueens_cp.cli import main
from nqueens_cp.harness.results import SCHEMA_VERSION, ComparisonResults

from .harness_backends import DroppingBackend, registered


@pytest.fixture(autouse=True)
def broken_backends() -> Iterator[None]:
    with registered():
        yield


def one_line_error(capsys: pytest.CaptureFixture[str], status: int, fragment: str) -> None:
    captured = capsys.readouterr()
    assert status == 2
    assert captured.err.startswith("nqueens-cp: error: ")
    assert captured.err.count("\n") == 1
    assert fragment in captured.err
    assert "Traceback" not in captured.err


def compare_status(argv: list[str]) -> int:
    """The exit status of ``nqueens-cp compare ARGV`` run in this process (argparse errors included)."""
    try:
        return main(["compare", *argv])
    except SystemExit as exit_:  # argparse errors
        return int(exit_.code or 0)


def test_compare_writes_every_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "report"
    status = main(["compare", "--n", "4-6,8", "--backends", "backtrack,bitboard", "--repeat", "2",
                   "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 0
    assert sorted(p.name for p in out.iterdir()) == ["cactus.png", "report.md", "results.csv", "results.json",
                                                     "runtime.png", "scatter.png"]
    report = (out / "report.md").read_text()
    assert captured.out == report
    # 4 sizes x (2 configurations x validity, duplicates, count, set + the reference check); repetitions merge
    assert report.splitlines()[2] == "> **RESULT: PASS for n = 4..6, 8 - all 36 checks passed.**"
    for heading in ("## Runtime", "## Speedup against backtrack", "## Validation", "## CPU time and memory",
                    "## Environment", "## Reproduce", "![median runtime", "## Solved instances, PAR-2 and the virtual best",
                    "| virtual best", "![instances solved against time", "(cactus.png)", "(scatter.png)"):
        assert heading in report
    assert "(best)" in report
    assert "nqueens-cp compare --n 4-6,8 --backends backtrack,bitboard --repeat 2" in report
    data = json.loads((out / "results.json").read_text())
    assert data["schema_version"] == SCHEMA_VERSION and data["complete"] is True
    assert list(data) == sorted(data)
    assert len(data["runs"]) == 4 * 2 * 2
    csv_lines = (out / "results.csv").read_text().splitlines()
    assert csv_lines[0].startswith("schema_version,task,config,backend,n,")
    assert len(csv_lines) == 1 + 16
    assert (out / "runtime.png").read_bytes().startswith(b"\x89PNG")
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary files left


def test_compare_exits_1_and_names_the_broken_configuration(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r"
    status = main(["compare", "--n", "8", "--backends", "bitboard,test-drops,test-invalid,test-duplicate",
                   "--repeat", "1", "--out", str(out)])
    captured = capsys.readouterr()
    assert status == 1
    report = (out / "report.md").read_text()
    head = report.split("## Runtime")[0]  # the failures come first
    assert "RESULT: FAIL" in head and "## Failures" in head
    assert "[set] test-drops n=8" in head and str(DroppingBackend.dropped(Instance(8))) in head
    assert "[validity] test-invalid n=8" in head and "(0, 0, 0, 0, 0, 0, 0, 0)" in head
    assert "[duplicates] test-duplicate n=8" in head
    assert "[count] test-drops n=8 repetition 0: count 91, A000170 says 92" in head
    assert "check(s) failed" in captured.err
    validation = report.split("## Validation")[1].split("##")[0]
    assert "91 FAIL: count, set" in validation
    assert "92 ok" in validation


def test_compare_records_timeouts_and_crashes_and_still_writes(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    import faulthandler

    faulthandler.disable()
    try:
        status = main(["compare", "--n", "4-5", "--backends", "bitboard,test-hangs,test-exits,backtrack",
                       "--repeat", "1", "--timeout", "1.5", "--out", str(tmp_path)])
    finally:
        faulthandler.enable(file=sys.__stderr__)
    capsys.readouterr()
    assert status == 1  # a run that died is a failure; the timeout alone would not be
    results = ComparisonResults.from_json((tmp_path / "results.json").read_text())
    by = {(r.config, r.n): r for r in results.runs}
    assert by[("test-hangs", 4)].status == "timeout" and by[("test-hangs", 5)].status == "skipped"
    assert by[("test-exits", 4)].status == "error" and "status 3" in by[("test-exits", 4)].reason
    assert by[("backtrack", 5)].status == "ok" and by[("bitboard", 5)].count == 10
    report = (tmp_path / "report.md").read_text()
    assert "## Not checked" in report and "timed out" in report
    runtime = report.split("## Runtime")[1].split("##")[0]
    assert "timeout" in runtime and "skipped" in runtime and "error" in runtime


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--backends", "nosuch"], "unknown backend 'nosuch'"),
        (["--backends", "sat:encoding=nosuch"], "encoding"),
        (["--backends", "cpsat:nosuch=1"], "no option 'nosuch'"),
        (["--backends", "cpsat:search_workers=x"], "search_workers"),
        (["--backends", "bitboard,bitboard"], "given twice"),
        (["--backends", "bitboard", "--baseline", "backtrack"], "--baseline"),
        (["--n", "9-4"], "--n"),
        (["--n", "x"], "--n"),
        (["--repeat", "0"], "--repeat"),
        (["--timeout", "0"], "--timeout"),
        (["--format", "docx"], "--format"),
    ],
)
def test_bad_input_is_refused_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str
) -> None:
    out = tmp_path / "never"
    one_line_error(capsys, compare_status([*argv, "--out", str(out)]), fragment)
    assert not out.exists()


def test_out_must_be_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "file"
    target.write_text("")
    status = main(["compare", "--n", "4", "--backends", "bitboard", "--out", str(target)])
    one_line_error(capsys, status, "is not a directory")


def test_an_existing_report_is_not_overwritten_without_force(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "--n", "4", "--backends", "bitboard", "--repeat", "1", "--out", str(tmp_path)]
    assert main(args) == 0
    before = (tmp_path / "results.json").read_text()
    capsys.readouterr()
    one_line_error(capsys, main(args), "exists already (use --force")
    assert (tmp_path / "results.json").read_text() == before
    assert main([*args, "--force"]) == 0


@pytest.mark.parametrize("fmt", ["github", "grid", "plain", "simple", "latex", "html"])
def test_report_re_renders_a_saved_run_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       fmt: str, saved: Path) -> None:
    status = main(["report", str(saved), "--format", fmt])
    text = capsys.readouterr().out
    assert status == 1  # the saved comparison had a failure
    assert "test-drops" in text and "RESULT: FAIL" in text
    marker = {"github": "| n ", "grid": "+----", "plain": "n  ", "simple": "---", "latex": r"\begin{tabular}",
              "html": "<table>"}[fmt]
    assert marker in text
    if fmt == "latex":
        assert text.startswith(r"\documentclass") and text.rstrip().endswith(r"\end{document}")
        assert "test-drops" in text and r"time\_limit" in text
    if fmt == "html":
        assert text.startswith("<!DOCTYPE html>") and "</html>" in text


def test_report_draws_the_plot_on_request(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          saved: Path) -> None:
    png = tmp_path / "plot.png"
    main(["report", str(saved), "--plot", str(png)])
    assert png.read_bytes().startswith(b"\x89PNG")
    assert "![median runtime" in capsys.readouterr().out
    one_line_error(capsys, main(["report", str(saved), "--plot", str(png)]), "exists already")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        (None, "cannot read"),
        ("{not json", "not valid JSON"),
        ('{"schema_version": 99}', "unsupported schema_version 99"),
        ('{"schema_version": 1, "runs": []}', "missing field"),
        ("[]", "not a nqueens-cp results file"),
    ],
)
def test_report_refuses_unreadable_files(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         content: str | None, fragment: str) -> None:
    path = tmp_path / "results.json"
    if content is not None:
        path.write_text(content)
    one_line_error(capsys, main(["report", str(path)]), fragment)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A saved comparison with one broken configuration, made once for the report tests."""
    out = tmp_path_factory.mktemp("saved")
    with registered():
        assert main(["compare", "--n", "5-6", "--backends", "bitboard,cpsat:search_workers=1,test-drops",
                     "--repeat", "1", "--out", str(out)]) == 1
    yield out / "results.json"


def test_help_imports_no_heavy_package() -> None:
    code = (
        "import sys\n"
        "from nqueens_cp.cli import build_parser\n"
        "build_parser().format_help()\n"
        "heavy = [m for m in ('ortools', 'pysat', 'matplotlib', 'numba', 'dask', 'tabulate') if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_compare_as_a_real_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "nqueens_cp", "compare", "--n", "5", "--backends", "bitboard,backtrack",
         "--repeat", "1", "--out", str(tmp_path), "--format", "grid"],
        capture_output=True, text=True, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "RESULT: PASS" in done.stdout
    assert "[####" not in done.stderr  # no progress bar when stderr is not a terminal
    # one line per finished n on stderr, then the files written; stdout is the report alone
    assert done.stderr.splitlines()[0] == "nqueens-cp: n=5: 10 solutions (A000170 10), 2 runs; PASS; fastest " + \
        done.stderr.splitlines()[0].split("fastest ")[1]
    assert done.stderr.splitlines()[1].startswith("nqueens-cp: wrote ")
    assert (tmp_path / "report.txt").read_text(encoding="utf-8") == done.stdout


def test_other_tasks_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--n", "8", "--backends", "bitboard,backtrack", "--repeat", "1", "--unique",
                 "--out", str(tmp_path / "u")]) == 0
    report = capsys.readouterr().out
    assert "fundamental solutions" in report and "A002562" in report and "12 ok" in report
    assert "--unique" in report.split("## Reproduce")[1]
    assert main(["compare", "--n", "4-6", "--backends", "bitboard,test-silent", "--repeat", "1", "--task",
                 "first", "--out", str(tmp_path / "f")]) == 1
    report = capsys.readouterr().out
    assert "first solution" in report and "[answer] test-silent n=4" in report
    one_line_error(capsys, main(["compare", "--task", "first", "--unique", "--out", str(tmp_path / "x")]),
                   "--unique")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers die with their parent on Linux")
def test_no_worker_outlives_a_killed_comparison(tmp_path: Path) -> None:
    import os
    import signal
    import time

    repo = Path(__file__).resolve().parents[1]
    code = (
        f"import sys; sys.path.insert(0, {str(repo)!r})\n"
        "from nqueens_cp.backends.framework.registry import register_backend\n"
        "from tests.harness_backends import HangingBackend\n"
        "register_backend('test-hangs', HangingBackend)\n"
        "from nqueens_cp.cli import main\n"
        f"main(['compare', '--n', '4', '--backends', 'test-hangs', '--timeout', '60', '--out', {str(tmp_path)!r}])\n"
    )
    parent = subprocess.Popen([sys.executable, "-c", code])
    try:
        workers: list[str] = []
        deadline = time.monotonic() + 30
        while not workers and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = subprocess.run(["pgrep", "-P", str(parent.pid)], capture_output=True, text=True).stdout.split()
        assert workers, "the worker never started"
    finally:
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in workers):
        time.sleep(0.1)
    assert not any(Path(f"/proc/{pid}").exists() for pid in workers)
