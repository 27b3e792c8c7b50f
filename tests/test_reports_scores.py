"""Solved counts, PAR-2, the virtual best, the cactus and scatter plots, report --merge and the DataFrame."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import pytest

from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.cli import main
from nqueens_cp.core.errors import NQueensError, ResultsFileError
from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.environment import collect_environment
from nqueens_cp.harness.merge import merge_results
from nqueens_cp.harness.results import ComparisonResults, RunRecord, RunStatus, Settings
from nqueens_cp.harness.runner import RunRequest, RunResult, plan, run_plan
from nqueens_cp.harness.tasks import Completion, TaskInfo
from nqueens_cp.reports.plot import (
    MARKERS,
    cactus_figure,
    figure_png,
    runtime_figure,
    scatter_figure,
    series_styles,
)
from nqueens_cp.reports.render import render
from nqueens_cp.reports.scores import VIRTUAL_BEST, compute_scores
from nqueens_cp.reports.tables import build_report

from .harness_backends import registered

OK, TIMEOUT, OOM = RunStatus.ANSWERED, RunStatus.TIMED_OUT, RunStatus.OUT_OF_MEMORY


def made(runs: list[tuple[str, int, RunStatus, float | None]], *, timeout: float = 10.0,
         configs: tuple[str, ...] = ("a", "b", "c")) -> ComparisonResults:
    """Results of the given (configuration, n, status, wall time) runs, one repetition each."""
    return ComparisonResults(
        task=TaskInfo("first", "first solution", "-", False, (), True),
        settings=Settings(tuple(sorted({n for _, n, _, _ in runs})), 1, timeout, 10, "a", "fork", "cmd"),
        environment=collect_environment(),
        configurations=tuple(Configuration(label, "backtrack") for label in configs),
        runs=tuple(RunRecord(config=c, n=n, repetition=0, status=s, wall_time=w, cpu_time=w, count=1 if w else None)
                   for c, n, s, w in runs),
        checks=(), complete=True, started_at="2026-01-01T00:00:00+00:00", finished_at="2026-01-01T00:01:00+00:00",
    )


@pytest.fixture
def sample() -> ComparisonResults:
    return made([
        ("a", 4, OK, 1.0), ("b", 4, OK, 3.0), ("c", 4, OK, 2.0),
        ("a", 5, TIMEOUT, None), ("b", 5, OK, 4.0), ("c", 5, OOM, None),
        ("a", 6, OK, 0.5), ("b", 6, TIMEOUT, None), ("c", 6, TIMEOUT, None),
        ("a", 7, TIMEOUT, None), ("b", 7, TIMEOUT, None), ("c", 7, TIMEOUT, None),
    ])


def test_par2_counts_a_timeout_twice_and_the_virtual_best_takes_the_fastest(sample: ComparisonResults) -> None:
    scores = compute_scores(sample)
    a, b, c, best = (scores.score(x) for x in ("a", "b", "c", VIRTUAL_BEST))
    assert (a.solved, b.solved, c.solved, best.solved) == (2, 2, 1, 3)
    assert a.par_k(2) == pytest.approx((1.0 + 20 + 0.5 + 20) / 4)
    assert a.par_k(10) == pytest.approx((1.0 + 100 + 0.5 + 100) / 4)
    assert dict(c.unsolved) == {"timeout": 2, "oom": 1}
    assert best.par_k(2) == pytest.approx((1.0 + 4.0 + 0.5 + 20) / 4) and best.unsolved == (("timeout", 1),)
    assert scores.best_of == {(4, (), ""): "a", (5, (), ""): "b", (6, (), ""): "a"}
    # only a solved n=6, only b n=5; without a the virtual best pays 20 - 0.5 at n=6 and 2 - 1 at n=4
    assert (a.unique, b.unique, c.unique) == (1, 1, 0)
    assert a.marginal == pytest.approx((19.5 + 1.0) / 4) and c.marginal == 0
    assert a.wall_total == pytest.approx(1.5) and a.wall_median == pytest.approx(0.75)


def test_a_run_whose_check_failed_is_not_solved(sample: ComparisonResults) -> None:
    from nqueens_cp.harness.results import FAIL, Check

    wrong = dataclasses.replace(sample, checks=(Check("count", FAIL, 4, "a", "wrong count"),))
    scores = compute_scores(wrong)
    assert scores.score("a").solved == 1 and dict(scores.score("a").unsolved)["wrong"] == 1
    assert scores.best_of[(4, (), "")] == "c"


@pytest.mark.parametrize("fmt", ["github", "latex", "html"])
def test_every_format_has_the_scores(sample: ComparisonResults, fmt: str) -> None:
    text = render(build_report(sample, cactus="cactus.png", scatter="scatter.png"), fmt)
    for word in ("PAR-2", "PAR-10", "virtual best", "solved only by", "Cactus plot", "cactus.png", "scatter.png"):
        assert word in text, word
    assert "10.4 s" in text  # a's PAR-2: (1 + 20 + 0.5 + 20) / 4 = 10.375 s


def test_plots_draw_every_series_distinct() -> None:
    names = [f"config{i}" for i in range(14)]
    styles = series_styles(names)
    assert len({styles[n].colour for n in names}) == 14 and len({styles[n].marker for n in names}) == 14
    assert styles[VIRTUAL_BEST].linestyle == "--" and len(MARKERS) >= 20


def test_cactus_and_scatter_plots(sample: ComparisonResults) -> None:
    cactus = cactus_figure(sample)
    axes = cactus.axes[0]
    assert axes.get_yscale() == "log"
    lines = {line.get_label(): line for line in axes.get_lines()}
    assert [len(lines[f"{x}"].get_xdata()) for x in ("a (2)", "b (2)", "c (1)", "virtual best (3)")] == [2, 2, 1, 3]
    assert list(lines["virtual best (3)"].get_ydata()) == [0.5, 1.0, 4.0]  # times in increasing order
    scatter = scatter_figure(sample, "a", "b")
    axes = scatter.axes[0]
    assert axes.get_xscale() == axes.get_yscale() == "log"
    both, border = (collection.get_offsets() for collection in axes.collections)
    assert [tuple(p) for p in both] == [(1.0, 3.0)]
    assert sorted(tuple(p) for p in border) == [(0.5, 20.0), (20.0, 4.0)]  # the unsolved side on the border
    assert any(line.get_label() == "same time" for line in axes.get_lines())  # the diagonal
    assert figure_png(scatter).startswith(b"\x89PNG") and runtime_figure(sample) is not None
    with pytest.raises(KeyError):
        scatter_figure(sample, "a", "nope")


class PlantedRunner:
    """Stands in for the worker processes: ``hangs`` times out on 6x6 boards, every other run answers in 1 s."""

    def __init__(self, task: Completion) -> None:
        self.task = task

    def run(self, request: RunRequest) -> RunResult:
        timed_out = request.config.label == "hangs" and request.instance.n == 6
        return RunResult(RunRecord(
            config=request.config.label, n=request.instance.n, repetition=request.repetition,
            status=TIMEOUT if timed_out else OK, wall_time=None if timed_out else 1.0, fixed=request.instance.fixed,
        ), request.instance)


def test_an_instance_set_runs_every_instance_after_a_timeout() -> None:
    task = Completion(preplaced=1, instances_per_n=2, seed=3)
    configurations = (Configuration("fine", "backtrack"), Configuration("hangs", "backtrack"))
    requests = plan(task, configurations, (5, 6, 7), 1)
    records = [result.record for result in run_plan(PlantedRunner(task), requests)]  # type: ignore[arg-type]
    hung = [r for r in records if r.config == "hangs"]
    assert [(r.n, r.status) for r in hung] == [(5, OK), (5, OK), (6, TIMEOUT), (6, TIMEOUT), (7, OK), (7, OK)]
    results = dataclasses.replace(made([]), runs=tuple(records), configurations=configurations, task=task.info())
    score = compute_scores(results).score("hangs")
    # two timeouts (the random boards of one n may coincide: scores count distinct instances)
    assert score.unsolved == (("timeout", 2),) and score.solved == score.instances - 2
    assert score.par_k(2) == pytest.approx((score.solved * 1.0 + 2 * 2 * 10.0) / score.instances)


@pytest.mark.slow
def test_a_planted_timeout_in_worker_processes_skips_no_other_instance() -> None:
    with registered():
        configurations = parse_configurations(["bitboard", "test-hangs-at-6"])
        task = Completion(preplaced=1, instances_per_n=1, seed=3)
        timeout = 15.0  # generous: a loaded machine's warm-up must not time out
        results = run_comparison(ComparisonRequest(task, configurations, (5, 6, 7), 1, timeout, 1000, "bitboard", "cmd"))
    hung = {r.n: r.status for r in results.runs if r.config == "test-hangs-at-6"}
    assert hung == {5: OK, 6: TIMEOUT, 7: OK}  # n = 7 ran after the timeout at n = 6
    assert results.task.skips_larger is False
    score = compute_scores(results).score("test-hangs-at-6")
    solved = sum(compute_scores(results).solved_times("test-hangs-at-6"))
    assert score.par_k(2) * 3 == pytest.approx(solved + 2 * timeout)  # the timeout counts twice the limit
    assert "every instance ran for every configuration" in render(build_report(results), "github")


def _write(tmp_path: Path, name: str, results: ComparisonResults) -> str:
    path = tmp_path / name
    path.write_text(results.to_json(), encoding="utf-8")
    return str(path)


def test_merge_joins_runs_and_keeps_each_environment(sample: ComparisonResults, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    day1 = made([("a", 4, OK, 1.0), ("b", 4, OK, 2.0)], configs=("a", "b"))
    day2 = made([("a", 5, OK, 1.5), ("c", 4, OK, 0.2), ("c", 5, TIMEOUT, None)], configs=("a", "c"))
    other = dataclasses.replace(day2.environment, cpu_model="another machine")
    day2 = dataclasses.replace(day2, environment=other)
    merged = merge_results([("day1.json", day1), ("day2.json", day2)])
    assert [c.label for c in merged.configurations] == ["a", "b", "c"]  # a ran other instances: kept as one
    assert {(r.config, r.n): r.origin for r in merged.runs} == {("a", 4): 0, ("b", 4): 0, ("a", 5): 1, ("c", 4): 1,
                                                                ("c", 5): 1}
    assert merged.merged[1].environment.cpu_model == "another machine"
    assert ComparisonResults.from_json(merged.to_json()) == merged
    again = merge_results([("x.json", day1), ("y.json", day1)])
    assert [c.label for c in again.configurations] == ["a", "b", "a [2]", "b [2]"]  # same instances: side by side
    scores = compute_scores(merged)
    assert scores.score("b").unsolved_by("not run") == 1 and scores.score(VIRTUAL_BEST).solved == 2

    files = [_write(tmp_path, "day1.json", day1), _write(tmp_path, "day2.json", day2)]
    assert main(["report", "--merge", *files, "--plots", str(tmp_path / "plots"), "--scatter", "a", "c"]) == 0
    out = capsys.readouterr().out
    assert "virtual best" in out and "merged file 2" in out and "another machine" in out
    assert (tmp_path / "plots" / "cactus.png").exists() and (tmp_path / "plots" / "scatter.png").exists()


def test_merge_refuses_different_tasks_or_timeouts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    day1 = made([("a", 4, OK, 1.0)], configs=("a",))
    with pytest.raises(ResultsFileError, match="PAR-2 needs one time limit"):
        merge_results([("1", day1), ("2", dataclasses.replace(day1, settings=dataclasses.replace(day1.settings,
                                                                                                    timeout=5.0)))])
    other = dataclasses.replace(day1, task=dataclasses.replace(day1.task, name="all"))
    files = [_write(tmp_path, "a.json", day1), _write(tmp_path, "b.json", other)]
    assert main(["report", "--merge", *files]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["report", "--merge", files[0]]) == 2
    assert main(["report", files[0], "--scatter", "a", "zz"]) == 2
    assert "not one of the configurations" in capsys.readouterr().err


def test_schema_1_files_are_still_read(sample: ComparisonResults) -> None:
    data = json.loads(sample.to_json())
    data["schema_version"] = 1
    for key in ("merged",):
        del data[key]
    del data["task"]["skips_larger"]
    for run in data["runs"]:
        for key in ("children_cpu_time", "children_peak_rss_kb", "origin"):
            del run[key]
    old = ComparisonResults.from_dict(data)
    assert old.task.skips_larger is None and old.runs[0].children_cpu_time is None
    assert compute_scores(old).score("a").solved == 2


def test_the_dataframe_has_one_row_per_run(sample: ComparisonResults) -> None:
    pandas = pytest.importorskip("pandas")
    frame = sample.to_dataframe()
    assert isinstance(frame, pandas.DataFrame) and len(frame) == len(sample.runs)
    assert list(frame["config"])[:3] == ["a", "b", "c"] and frame["wall_time_s"].isna().sum() == 7
    assert frame.groupby("config")["wall_time_s"].sum()["a"] == pytest.approx(1.5)


def test_the_dataframe_without_pandas_says_how_to_get_it(sample: ComparisonResults,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(NQueensError, match=r"nqueens-cp\[analysis\]"):
        sample.to_dataframe()


def test_cpu_time_includes_the_solver_programs_a_backend_runs() -> None:
    from nqueens_cp.core.instance import Instance
    from nqueens_cp.harness.tasks import AllSolutions
    from nqueens_cp.harness.worker import WorkerJob, execute

    from .harness_backends import ChildCpuBackend

    report = execute(WorkerJob(ChildCpuBackend, (), AllSolutions(), Instance(6), 100))
    assert report.count == 4
    assert report.children_cpu_time >= 0.25 and report.cpu_time >= report.children_cpu_time
    assert report.children_peak_rss_kb is not None and report.children_peak_rss_kb > 1000


def test_files_take_the_diagonals_the_answers_list(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from nqueens_cp.harness.tasks import LISTED, load_instance_files

    sample = "benchmarks/csplib079/instances/diag-12-4-619.param"  # listed twice, with two Ds
    task = load_instance_files(sample, LISTED, "benchmarks/csplib079/answers.tsv")
    listed = [line.split("\t")[1] for line in Path("benchmarks/csplib079/answers.tsv").read_text().splitlines()
              if line.startswith("12\t") and line.split("\t")[2] == "619"]
    assert len(task.entries) == len(listed) >= 2
    assert [entry.source.split("D=")[1] for entry in task.entries] == sorted(listed, key=int)
    assert all(entry.satisfiable is not None for entry in task.entries)
    assert main(["compare", "--files", sample, "--diagonals", "answers", "--out", str(tmp_path / "x")]) == 2
    assert "needs --answers" in capsys.readouterr().err
