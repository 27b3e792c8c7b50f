"""compare --task count: count-only backends take part, counts are checked and cross-checked."""

from __future__ import annotations

import json
from pathlib import Path

from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.harness.configs import default_configuration_texts

from .conftest import require_backend, run_cli


def test_default_backends_follow_the_task() -> None:
    counting = default_configuration_texts(Answer.COUNT)
    enumerating = default_configuration_texts(Answer.ALL)
    assert not any(text.startswith(("ganak", "approxmc", "bdd")) for text in enumerating)
    assert {"bdd", "bitboard"} <= {text.partition(":")[0] for text in counting}


def test_count_task_checks_counts_and_agreement(tmp_path: Path) -> None:
    require_backend("bdd")
    out = tmp_path / "run"
    done = run_cli("compare", "--task", "count", "--n", "5-8", "--backends", "bitboard,bdd,sat", "--repeat", "1",
                   "--timeout", "60", "--out", str(out))
    assert done.returncode == 0, done.stderr
    data = json.loads((out / "results.json").read_text())
    checks = {(c["name"], c["status"]) for c in data["checks"]}
    assert ("agreement", "pass") in {(name, str(status).lower()) for name, status in checks}
    assert all(str(status).lower() != "fail" for _, status in checks)
    assert "| 8   | 92" in (out / "report.md").read_text()


def test_a_count_only_backend_is_refused_outside_counting_tasks(tmp_path: Path) -> None:
    done = run_cli("compare", "--n", "6-6", "--backends", "bdd,bitboard", "--out", str(tmp_path / "x"))
    assert done.returncode == 2
    assert done.stderr.strip().count("\n") == 0 and "answers count only" in done.stderr
