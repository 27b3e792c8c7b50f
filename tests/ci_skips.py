"""Under CI no test skips silently: a pytest plugin (loaded by ``tests/conftest.py``).

When the environment variable ``CI`` holds a true value (``true``, ``1``, ``yes``, ``on``, in any
case), every skip is reported as a failure, except a skip whose reason contains one of
:data:`CI_ALLOWED_SKIPS`: a skip in a test (``pytest.skip``, a ``skip``/``skipif`` mark) as well
as a whole module skipped while it is collected (a module-level ``pytest.importorskip``). So a
solver, a package or a tool that CI should have installed (``.ci/install-external-solvers.sh``,
the extras ``.ci/run`` installs) cannot turn into a pass that checked nothing. Deselection
(``-m 'not slow'``) is not a skip.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

#: The values of ``CI`` that mean "this is CI" (compared in lower case).
CI_TRUE_VALUES = frozenset({"true", "1", "yes", "on"})

#: Fragments of skip reasons CI accepts. Empty: under CI every skip fails.
CI_ALLOWED_SKIPS: tuple[str, ...] = ()


def under_ci() -> bool:
    """Whether ``CI`` is set to a true value."""
    return os.environ.get("CI", "").strip().lower() in CI_TRUE_VALUES


def _reason(report: Any) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr)


def _fail_if_ci(report: Any) -> None:
    if not (report.skipped and under_ci()) or hasattr(report, "wasxfail"):
        return
    reason = _reason(report)
    if any(allowed in reason for allowed in CI_ALLOWED_SKIPS):
        return
    report.outcome = "failed"
    report.longrepr = (f"skipped under CI={os.environ.get('CI')}: {reason} (CI runs every test: install what it "
                       "needs in .ci/install-external-solvers.sh or .ci/run, or allow the reason in tests/ci_skips.py)")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    outcome = yield
    _fail_if_ci(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Any:
    outcome = yield
    _fail_if_ci(outcome.get_result())
