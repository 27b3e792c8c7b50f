"""compare --measure cgroups: each run's CPU time and memory from its own cgroup (BenchExec), or
getrusage with the reason where cgroups cannot measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.cli import main
from nqueens_cp.core.instance import Instance
from nqueens_cp.harness.comparison import measurement
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.results import RunStatus
from nqueens_cp.harness.runner import Runner, RunRequest
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.harness.worker import CPU_MEASURE
from nqueens_cp.system import cgroups

from .harness_backends import UnwaitedChildCpuBackend

WHY_NOT = cgroups.cgroups_unusable()  # BenchExec missing, no cgroups, no permission: these two tests skip
needs_cgroups = pytest.mark.skipif(WHY_NOT is not None, reason=f"cgroups cannot measure here: {WHY_NOT}")


@pytest.fixture
def unwaited_child() -> Iterator[None]:
    register_backend(UnwaitedChildCpuBackend.name, UnwaitedChildCpuBackend)
    try:
        yield
    finally:
        unregister_backend(UnwaitedChildCpuBackend.name)


def _run(use_cgroups: bool) -> tuple[float, int | None]:
    (config,) = parse_configurations([UnwaitedChildCpuBackend.name])
    runner = Runner(AllSolutions(), timeout=60, store_limit=100, cgroups=use_cgroups)
    record = runner.run(RunRequest(config, Instance(6), 0)).record
    assert record.status == RunStatus.ANSWERED and record.count == 4, record.reason
    assert record.cpu_time is not None
    return record.cpu_time, record.cgroup_memory_kb


@needs_cgroups
def test_a_cgroup_counts_a_child_the_worker_never_waited_for(unwaited_child: None) -> None:
    cpu, memory = _run(True)
    assert cpu >= 0.25 and memory is not None and memory > 0
    cpu, memory = _run(False)  # getrusage counts only waited-for children: the 0.3 s is missing
    assert cpu < 0.25 and memory is None


@needs_cgroups
def test_the_run_cgroup_is_removed(unwaited_child: None) -> None:
    meter = cgroups.open_meter()
    paths = [Path(path) for path in meter.cgroup.paths]
    assert all(path.is_dir() for path in paths)
    meter.close()
    assert not any(path.exists() for path in paths)


def test_where_cgroups_cannot_measure_getrusage_is_used_and_the_report_says_why(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def unusable() -> None:
        raise cgroups.CgroupsUnusable("no cgroup may be created here (planted)")

    monkeypatch.setattr(cgroups, "_system_cgroups", unusable)
    assert measurement(True) == (
        False, f"{CPU_MEASURE} (cgroups were asked for but cannot measure here: no cgroup may be created here (planted))")
    assert measurement(False) == (False, CPU_MEASURE)
    out = tmp_path / "report"
    assert main(["compare", "--n", "4-5", "--backends", "backtrack", "--repeat", "1", "--measure", "cgroups",
                 "--out", str(out)]) == 0
    settings = json.loads((out / "results.json").read_text())["settings"]
    assert "cannot measure here: no cgroup may be created here (planted)" in settings["cpu_measure"]
    assert "--measure cgroups" in settings["command"]
    assert "cannot measure here: no cgroup may be created here (planted)" in (out / "report.md").read_text()
    err = capsys.readouterr().err
    assert "nqueens-cp: --measure cgroups: cgroups cannot measure here (no cgroup may be created here (planted))" in err
