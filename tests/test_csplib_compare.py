"""``nqueens-cp compare --files``: CSPLib 079 instance files through the harness."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.cli import main
from nqueens_cp.harness.results import ComparisonResults

from .harness_backends import registered
from .test_csplib import DATA
from .test_harness_cli import compare_status, one_line_error


@pytest.fixture(autouse=True)
def test_backends() -> Iterator[None]:
    with registered():
        yield


def test_files_are_solved_and_checked_against_the_answers(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["compare", "--files", str(DATA / "diag-1*.param"), "--diagonals", "3", "--answers",
                   str(DATA / "answers.tsv"), "--backends", "bitboard,bitboard:search=lines", "--repeat", "1",
                   "--out", str(tmp_path)])
    report = capsys.readouterr().out
    assert status == 0, report
    assert "RESULT: PASS" in report and "Completion: boards settled" in report
    results = ComparisonResults.from_json((tmp_path / "results.json").read_text())
    assert {r.source.rsplit("/", 1)[1] for r in results.runs} == {
        "diag-10-4-102.param D=3", "diag-10-4-778.param D=3", "diag-11-4-494.param D=3", "diag-12-4-619.param D=3"}
    oracle = [c for c in results.checks if c.name == "oracle"]
    assert len(oracle) == 8 and all(c.status == "pass" for c in oracle)
    assert all(r.status == "ok" and r.count == 1 for r in results.runs)  # all four are satisfiable with D = 3
    assert "diagonals" in results.settings.command and "--files" in results.settings.command
    assert main(["report", str(tmp_path / "results.json")]) == 0


def test_a_wrong_answers_file_fails_the_oracle_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    wrong = tmp_path / "answers.tsv"
    lines = (DATA / "answers.tsv").read_text().splitlines()
    flipped = [line.replace("\t1\t", "\t0\t", 1) if line.startswith("10\t3\t102\t") else line for line in lines]
    assert flipped != lines
    wrong.write_text("\n".join(flipped) + "\n")
    status = main(["compare", "--files", str(DATA / "diag-10-4-102.param"), "--diagonals", "3", "--answers",
                   str(wrong), "--backends", "bitboard:search=lines", "--repeat", "1", "--out", str(tmp_path / "r")])
    report = capsys.readouterr().out
    assert status == 1
    failures = report.split("## Failures")[1].split("\n## ")[0]
    assert "oracle" in failures and "diag-10-4-102.param D=3" in failures and "says none" in failures


@pytest.mark.slow  # 8-11 s: the default run stays under 8 minutes (CI runs it with -m slow)
def test_a_completion_file_and_a_timeout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import faulthandler

    folder = tmp_path / "files"
    folder.mkdir()
    shutil.copy(DATA / "diag-11-4-494.param", folder)
    (folder / "small.param").write_text("letting n = 8\nletting init = [[0, 0], [1, 4]]\n")
    create_backend("bitboard").first_solution(Instance(8, {0: 0}))  # numba loaded once, before the forks
    faulthandler.disable()
    try:
        status = main(["compare", "--files", str(folder / "*.param"), "--backends", "bitboard,test-hangs",
                       "--repeat", "2", "--timeout", "4", "--out", str(tmp_path / "r")])
    finally:
        faulthandler.enable(file=sys.__stderr__)
    capsys.readouterr()
    assert status == 0  # timeouts are recorded, not failures
    results = ComparisonResults.from_json((tmp_path / "r" / "results.json").read_text())
    hangs = sorted((r.n, r.repetition, r.status) for r in results.runs if r.config == "test-hangs")
    # a timeout skips the other repetition of that instance, not the next (larger) instance
    assert hangs == [(8, 0, "timeout"), (8, 1, "skipped"), (11, 0, "timeout"), (11, 1, "skipped")]
    assert [r.count for r in results.runs if r.config == "bitboard"] == [1, 1, 0, 0]


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--files", "/nonexistent/*.param"], "no file matches"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--diagonals", "99"], "99 diagonals asked for"),
        (["--files", str(DATA / "completion-10-4-778-3.param"), "--diagonals", "2"], "--diagonals applies"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--diagonals=-1"], "--diagonals must be >= 0"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--diagonals", "some"], "--diagonals takes"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--task", "first"], "takes no --task"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--answers", "/nonexistent.tsv"], "cannot read"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--answers", str(DATA / "diag-10-4-102.param")],
         "needs the columns"),
        (["--files", str(DATA / "diag-10-4-102.param"), "--n", "5"], "no instance of the sizes"),
        (["--diagonals", "3"], "apply to --files only"),
        (["--task", "files"], "needs --files"),
    ],
)
def test_bad_file_input_is_one_line(argv: list[str], fragment: str, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "never"
    one_line_error(capsys, compare_status([*argv, "--backends", "bitboard", "--out", str(out)]), fragment)
    assert not out.exists()


def test_a_malformed_file_names_file_and_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.param"
    bad.write_text("n = 5\nnumdiags = 1\ndiags = [[11, 1]]\n")
    status = main(["compare", "--files", str(bad), "--backends", "bitboard", "--out", str(tmp_path / "r")])
    one_line_error(capsys, status, f"{bad}:3: [11, 1]: diagonal off the 5x5 board")
