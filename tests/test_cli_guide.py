"""The command line guides: the closest name to a mistyped one, the same words in solve and compare,
an option of another backend named with the backend that takes it."""

from __future__ import annotations

import io
import sys
import time
from pathlib import Path

import pytest

from nqueens_cp.backends.framework.registry import backend_class, backend_names, canonical_backend_name
from nqueens_cp.cli import long_runs, main
from nqueens_cp.cli.common import OPTION_BACKENDS
from nqueens_cp.cli.compare import SIGNIFICANT_REPEAT
from nqueens_cp.core.errors import NQueensError, UnknownBackendError, did_you_mean
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170
from nqueens_cp.reports.two_runs import DEFAULT_ALPHA, repetitions_needed
from nqueens_cp.system.progress import Ticker, format_seconds


def error_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The one stderr line of a refused command (exit status 2, nothing on stdout)."""
    assert main(list(args)) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err
    return err.strip()


def test_did_you_mean_names_the_closest_choice_or_nothing() -> None:
    assert did_you_mean("cpsta", ["cpsat", "sat"]) == "; did you mean 'cpsat'?"
    assert did_you_mean("SEQCOUNTR", ["pairwise", "seqcounter"]) == "; did you mean 'seqcounter'?"
    assert did_you_mean("zzzz", ["cpsat", "sat"]) == ""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "8", "--backend", "cpsta"], "unknown backend 'cpsta'; did you mean 'cpsat'?"),
        (["solve", "8", "--backend", "sat", "--encoding", "seqcountr"],
         "unknown value 'seqcountr'; did you mean 'seqcounter'?"),
        (["solve", "8", "--backend", "sat", "--solver", "minisat2"], "unknown solver 'minisat2'; did you mean"),
        (["solve", "8", "--backend", "cpsat", "-O", "strategi=plain"],
         "no option 'strategi'; did you mean 'strategy'?"),
        (["solv", "8"], "invalid choice: 'solv'; did you mean 'solve'?"),
        (["solve", "8", "--encodng", "pairwise"], "unrecognized argument --encodng; did you mean '--encoding'?"),
        (["compare", "--formt", "grid"], "did you mean '--format'?"),
        (["solve", "8", "--format", "jsnl"], "invalid choice: 'jsnl'; did you mean 'jsonl'?"),
        (["compare", "--backends", "sat:encoding=totalizr", "--n", "4"], "did you mean 'totalizer'?"),
    ],
)
def test_a_mistyped_name_is_answered_with_the_closest_one(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str,
) -> None:
    assert needle in error_of(capsys, *args)


def test_backend_names_ignore_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert canonical_backend_name("CPSAT") == "cpsat"
    assert backend_class("BitBoard").name == "bitboard"
    with pytest.raises(UnknownBackendError, match="did you mean 'cpsat'"):
        canonical_backend_name("cpsta")
    assert main(["solve", "6", "--backend", "BACKTRACK", "--count"]) == 0
    assert capsys.readouterr().out == "4\n"


def test_no_command_prints_the_usage_and_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("usage: nqueens-cp")
    for command in ("solve", "compare", "report", "export"):
        assert f"\n    {command} " in err
    assert err.strip().splitlines()[-1] == "nqueens-cp: error: give a COMMAND (nqueens-cp COMMAND --help shows its options)"


def test_solve_takes_n_as_compare_does(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--n", "6", "--count"]) == 0
    assert capsys.readouterr().out == "4\n"
    assert main(["solve", "6", "--n", "6", "--count"]) == 0
    assert capsys.readouterr().out == "4\n"
    assert "N given twice, as 6 and 7" in error_of(capsys, "solve", "6", "--n", "7")


def test_compare_takes_the_sizes_as_solve_takes_n(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["compare", "4-5", "--backends", "backtrack", "--repeat", "1", "--out", str(tmp_path)]) == 0
    assert "n = 4..5" in capsys.readouterr().out
    assert "SIZES given twice, as 4 and 5" in error_of(capsys, "compare", "4", "--n", "5")


def test_a_reversed_range_is_called_reversed(capsys: pytest.CaptureFixture[str]) -> None:
    assert error_of(capsys, "compare", "--n", "9-4") == "nqueens-cp: error: argument --n: '9-4' is reversed: write 4-9"


def test_one_name_for_a_time_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "6", "--backend", "cpsat", "--timeout", "30"]) == 0
    assert len(capsys.readouterr().out.split()) == 6
    from nqueens_cp.cli import build_parser

    args = build_parser("compare").parse_args(["compare", "--time-limit", "7"])
    assert args.timeout == 7.0


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "8", "--encoding", "seqcounter"],
         "backend backtrack has no option 'encoding' (--encoding seqcounter is an option of sat, ganak, approxmc): "
         "add --backend sat"),
        (["solve", "8", "--timeout", "5"],
         "(--timeout 5 is an option of cpsat, sat, minizinc, asp, smt, mip, choco, cpmpy, localsearch): add --backend cpsat"),
        (["solve", "8", "--time-limit", "5"], "(--time-limit 5 is an option of cpsat"),
        (["solve", "8", "--backend", "pb", "--timeout", "5"], "(--timeout 5 is an option of cpsat"),
        (["solve", "8", "--timeout", "-1"], "argument --timeout: --timeout must be a number > 0, got '-1'"),
        (["solve", "8", "--backend", "bitboard", "--search-workers", "2"], "add --backend cpsat"),
        (["solve", "8", "-O", "strategy=plain"], "(-O strategy=plain is an option of cpsat): add --backend cpsat"),
        (["solve", "8", "--solver", "ace"], "add --backend minizinc"),  # sat refuses the value, minizinc takes any
    ],
)
def test_an_option_of_another_backend_names_that_backend(
    capsys: pytest.CaptureFixture[str], args: list[str], needle: str,
) -> None:
    assert needle in error_of(capsys, *args)


@pytest.mark.parametrize(
    ("args", "message", "hint"),
    [
        (["solve", "8", "--encoding", "seqcountr"],
         "--encoding seqcountr: unknown value 'seqcountr'; did you mean 'seqcounter'? (choose from ",
         "; and backend backtrack has no option 'encoding' (--encoding is an option of sat, ganak, approxmc): "
         "add --backend sat"),
        (["solve", "8", "-O", "strategy=plai"], "-O strategy=plai: unknown value 'plai'; did you mean 'plain'?",
         "; and backend backtrack has no option 'strategy' (-O strategy is an option of cpsat): add --backend cpsat"),
    ],
)
def test_a_misspelt_value_of_another_backends_option_gets_the_suggestion_and_the_backend(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str, hint: str,
) -> None:
    error = error_of(capsys, *args)
    assert error.startswith("nqueens-cp: error: " + message) and error.endswith(hint), error


def test_the_help_names_every_backend_that_takes_a_flag_option() -> None:
    for option, named in OPTION_BACKENDS.items():
        takers = []
        for name in backend_names():
            try:
                if option in {spec.name for spec in backend_class(name).option_specs}:
                    takers.append(name)
            except NQueensError:
                continue
        assert sorted(named) == sorted(takers), option


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_a_ticker_draws_on_a_terminal_only_and_erases_its_line() -> None:
    terminal, pipe = Terminal(), io.StringIO()
    for stream in (terminal, pipe):
        with Ticker(stream, "counting n = 9 with x", expected=5.0, after=0.0, every=0.01):
            time.sleep(0.2)
    assert "\rnqueens-cp: counting n = 9 with x: 0 s (about 5 s expected on a free core)" in terminal.getvalue().replace(
        "\x1b[K", "")
    assert terminal.getvalue().endswith("\r\x1b[K")
    assert pipe.getvalue() == ""
    quick = Terminal()
    with Ticker(quick, "first", after=30.0):
        pass
    assert quick.getvalue() == ""  # a run shorter than `after` shows nothing


def test_a_long_single_count_shows_its_line_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(long_runs, "TICK_AFTER", 0.0)
    assert main(["solve", "9", "--count", "--backend", "backtrack"]) == 0
    assert capsys.readouterr() == ("352\n", "")  # captured: not a terminal, no line
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["solve", "10", "--count", "--backend", "bitboard", "-O", "kernel=python"]) == 0
    assert capsys.readouterr().out == "724\n"
    assert "nqueens-cp: counting the solutions of n = 10 with bitboard: 0 s (about " in terminal.getvalue()
    assert main(["solve", "30", "--backend", "backtrack"]) == 0
    assert "looking for a solution of n = 30 with backtrack" in terminal.getvalue()


def test_estimates_grow_as_the_published_counts() -> None:
    assert long_runs.estimated_solutions(27) == A000170[27]
    ratio = A000170[27] / A000170[26]
    assert long_runs.estimated_solutions(28) == pytest.approx(A000170[27] * (2 * ratio - A000170[26] / A000170[25]))
    assert long_runs.count_seconds(long_runs.BASIS_N) == long_runs.BASIS_SECONDS
    assert long_runs.count_seconds(17) == pytest.approx(long_runs.BASIS_SECONDS * A000170[17] / A000170[18])
    assert format_seconds(5.4) == "5 s" and format_seconds(7200) == "2.0 h"
    assert format_seconds(365.25 * 86400 * 5026.2) == "5,026 years" and format_seconds(6.2e24) == "2e+17 years"


def test_a_count_past_the_published_ones_says_so_up_front(capsys: pytest.CaptureFixture[str]) -> None:
    note = long_runs.count_note(Instance(40), "bitboard", False)
    assert note is not None
    assert note.startswith("no published count beyond n = 27 (OEIS A000170): this count cannot be checked; "
                           "n = 40 has about 1e+32 solutions and the count will take 2e+17 years on one core")
    assert "at least" in (long_runs.count_note(Instance(28), "sat", True) or "")
    assert long_runs.count_note(Instance(27), "bitboard", False) is None
    assert long_runs.count_note(Instance(40, [(0, 0)]), "bitboard", False) is None
    # --limit stops the count early: no note; the run is refused after the note otherwise (no such backend option).
    assert main(["solve", "40", "--count", "--limit", "0"]) == 0  # nothing asked: no note on the count either
    assert capsys.readouterr() == ("", "nqueens-cp: --limit 0 asks for zero boards: nothing searched or written "
                                       "(which says nothing of whether n=40 has solutions)\n")
    assert main(["solve", "40", "--count", "--backend", "cpsat", "--n", "40", "-O", "model=nosuch"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nqueens-cp: note: no published count beyond n = 27 (OEIS A000170)")


@pytest.mark.parametrize("backend", ["ganak", "approxmc", "bdd", "localsearch"])
def test_a_count_refused_outright_is_one_line_without_the_note(
        backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A backend that does not count, or only counts smaller boards, refuses n = 40 in one line: the
    note on counts past the published ones came first (two lines, and 'about inf solutions' at
    n = 100,000)."""
    for n in ("40", "100000"):
        assert main(["solve", n, "--count", "--backend", backend]) == 2
        captured = capsys.readouterr()
        assert captured.out == "" and captured.err.count("\n") == 1, captured.err
        assert captured.err.startswith("nqueens-cp: error: ") and "note" not in captured.err


def test_force_replaces_the_earlier_comparison_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", "--n", "4", "--backends", "backtrack", "--repeat", "1", "--out", str(tmp_path)]
    assert main([*args, "--format", "latex"]) == 0
    assert (tmp_path / "report.tex").stat().st_size > 0
    assert main([*args, "--format", "github"]) == 2  # an earlier comparison, of another format: refused
    assert "report.tex exists already (use --force to replace the earlier comparison whole" in capsys.readouterr().err
    assert main([*args, "--format", "github", "--force"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cactus.png", "report.md", "results.csv",
                                                                 "results.json", "runtime.png"]


def test_an_empty_file_of_a_shell_redirect_is_not_an_earlier_report(tmp_path: Path) -> None:
    (tmp_path / "report.md").write_text("")  # nqueens-cp compare --out DIR > DIR/report.md
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["compare", "--n", "4", "--backends", "backtrack", "--repeat", "1", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "report.md").read_text().startswith("# nqueens-cp comparison")
    assert (tmp_path / "notes.txt").read_text() == "mine"  # --force or not, only a comparison's files go


def test_repetitions_needed_for_a_significant_change() -> None:
    assert [repetitions_needed(alpha) for alpha in (0.2, 0.1, 0.05, 0.01)] == [3, 4, 4, 5]
    assert repetitions_needed(DEFAULT_ALPHA) == SIGNIFICANT_REPEAT  # what compare --help says


def test_report_compare_says_what_it_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--n", "4", "--backends", "backtrack", "--repeat", "3", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    saved = str(tmp_path / "results.json")
    assert main(["report", "--compare", saved, saved]) == 0  # no --fail-slower: the warning all the same
    out, err = capsys.readouterr()
    needs = ("1 row(s) have too few repetitions (3 on a side) to ever reach p < 0.05 (smallest possible p 0.1): "
             "run both comparisons with --repeat 4 or more")
    assert err == f"nqueens-cp: warning: {needs}\n"
    assert needs[1:] in out
    assert main(["report", "--compare", saved, saved, "--alpha", "0.01"]) == 0
    assert "--repeat 5 or more" in capsys.readouterr().err


def test_force_replaces_the_earlier_comparison_whole_when_stdouts_reader_has_gone(tmp_path: Path) -> None:
    """``compare --force ... | head -1``: the reader closes the pipe before the report is written to
    it; the files are written all the same (the earlier report of another format removed), exit 0."""
    import subprocess

    from .conftest import REPO

    args = [sys.executable, "-m", "nqueens_cp", "compare", "--n", "4-5", "--backends", "backtrack", "--repeat", "1",
            "--out", str(tmp_path)]
    assert subprocess.run([*args, "--format", "html"], capture_output=True, cwd=REPO, timeout=300).returncode == 0
    assert (tmp_path / "report.html").is_file()
    done = subprocess.Popen([*args, "--force"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
    assert done.stdout is not None
    done.stdout.close()  # the reader is gone before anything is written
    _, err = done.communicate(timeout=300)
    assert done.returncode == 0, err
    assert b"Traceback" not in err and b"wrote " in err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["cactus.png", "report.md", "results.csv",
                                                                 "results.json", "runtime.png"]
    assert (tmp_path / "report.md").read_text().startswith("# nqueens-cp comparison")
