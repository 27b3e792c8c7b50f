"""The default comparison says which backends it left out and why, live and in every report format."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nqueens_cp.backends.minizinc import MiniZincBackend
from nqueens_cp.cli import main
from nqueens_cp.harness import configs
from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.reports.render import render
from nqueens_cp.reports.tables import build_report


def test_a_backend_that_cannot_run_here_is_named_with_the_reason(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no minizinc program
    monkeypatch.setattr(configs, "backend_names", lambda: ["bitboard", "minizinc", "ganak"])  # a short default
    reason = MiniZincBackend.unavailable_reason()
    assert reason is not None and "minizinc program" in reason
    main(["backends"])
    assert f"minizinc: unavailable: {reason}\n" in capsys.readouterr().out  # the reason `backends` gives
    line = f"Left out of the default selection: minizinc ({reason}); ganak (it answers count only)."
    out = tmp_path / "out"
    assert main(["compare", "--n", "4", "--repeat", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr()
    assert f"nqueens-cp: {line}\n" in printed.err and line in printed.out
    assert "RESULT: PASS" in printed.out
    assert json.loads((out / "results.json").read_text())["settings"]["left_out"][0] == ["minizinc", reason]
    results = ComparisonResults.from_json((out / "results.json").read_text())
    for report_format in ("github", "plain", "latex", "html"):  # every renderer (html: the page without its gallery)
        shown = render(build_report(results), report_format)
        assert "Left out of the default selection: minizinc" in shown and "minizinc program" in shown, report_format
