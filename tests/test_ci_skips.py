"""Under CI a skip is a failure (tests/ci_skips.py): skips in a test, skip marks and whole modules
skipped at collection (a module-level ``importorskip``), for every true value of ``CI``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO

SKIPPING = {
    "test_inside.py": "import pytest\n\ndef test_skips():\n    pytest.skip('solver missing')\n\n"
                      "def test_runs():\n    assert True\n",
    "test_marked.py": "import pytest\n\n@pytest.mark.skipif(True, reason='tool missing')\ndef test_marked():\n"
                      "    pass\n",
    "test_module.py": "import pytest\n\npytest.importorskip('no_such_package_anywhere')\n\ndef test_never():\n"
                      "    pass\n",
}


def _run(tmp_path: Path, ci: str | None, *files: str) -> subprocess.CompletedProcess[str]:
    for name in files:
        (tmp_path / name).write_text(SKIPPING[name])
    env = {key: value for key, value in os.environ.items() if key not in ("CI", "PYTEST_ADDOPTS")}
    if ci is not None:
        env["CI"] = ci
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "tests.ci_skips", "-p", "no:cacheprovider", "-q",
                           "-rs", "--rootdir", str(tmp_path), *files],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("ci", ["true", "1"])
def test_under_ci_every_skip_fails(tmp_path: Path, ci: str) -> None:
    done = _run(tmp_path, ci, "test_inside.py", "test_marked.py")
    assert done.returncode == 1, done.stdout
    assert "1 failed, 1 passed, 1 error" in done.stdout, done.stdout  # a skip mark fails at setup: an error
    for reason in ("solver missing", "tool missing"):
        assert f"skipped under CI={ci}: {reason} (CI runs every test" in done.stdout, done.stdout
    module = _run(tmp_path, ci, "test_module.py")  # a whole module skipped at collection: an error
    assert module.returncode == 2, module.stdout
    assert "1 error" in module.stdout and f"skipped under CI={ci}: could not import 'no_such_package_anywhere'" \
        in module.stdout, module.stdout


@pytest.mark.parametrize("ci", [None, "0"])
def test_outside_ci_a_skip_is_a_skip(tmp_path: Path, ci: str | None) -> None:
    done = _run(tmp_path, ci, *SKIPPING)
    assert done.returncode == 0, done.stdout
    assert "1 passed, 3 skipped" in done.stdout, done.stdout


def test_the_true_values_of_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    from .ci_skips import under_ci

    for value, expected in [("true", True), ("TRUE", True), ("1", True), ("yes", True), ("On", True),
                            (" true ", True), ("false", False), ("0", False), ("", False), ("no", False)]:
        monkeypatch.setenv("CI", value)
        assert under_ci() is expected, value
    monkeypatch.delenv("CI")
    assert not under_ci()
