"""Shared test helpers: backend configurations and a real-subprocess CLI runner."""

from __future__ import annotations

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Sequence

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.models.encodings import ENCODINGS

from .ci_skips import pytest_make_collect_report, pytest_runtest_makereport, under_ci


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as at a terminal: a suite started in the background (``pytest &``, or from a script
    run that way) inherits SIGINT *ignored*, Python keeps it so, and every child inherits it too;
    the Ctrl-C tests (in this process and in the commands they start) would then see no SIGINT."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


__all__ = ["pytest_make_collect_report", "pytest_runtest_makereport", "under_ci"]  # hooks of tests/ci_skips.py

REPO = Path(__file__).resolve().parents[1]


def chromium() -> str:
    """The headless browser's program (a skip where there is none: a failure under CI)."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("chromium is not installed (.ci/install-external-solvers.sh installs it)")


def browse(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium on ``page`` with the fresh profile folder ``profile`` and no network chatter."""
    command = [
        chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars",
        f"--user-data-dir={profile}", *args, page.as_uri(),
    ]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def load_file(path: Path, name: str) -> ModuleType:
    """The Python file ``path`` imported as a module called ``name`` (a docs hook, a benchmark:
    files outside the package), once per session: registered in ``sys.modules`` as importlib asks
    (a dataclass of the file looks its module up there)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

#: Every backend with its defaults, the sat backend once per encoding, asp once per formulation, and two
#: more sat solvers (last: the property test takes the last two).
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *[(name, {}) for name in ("backtrack", "bitboard", "cpsat")],
    ("bitboard", {"kernel": "python"}),
    ("cpsat", {"search_workers": 2}),
    *[("sat", {"encoding": encoding}) for encoding in ENCODINGS],
    ("minizinc", {}),
    ("asp", {}),
    ("asp", {"formulation": "pairwise"}),
    ("pb", {}),
    ("pb", {"formulation": "clauses"}),
    ("smt", {}),
    ("choco", {}),
    ("choco", {"alldiff": "AC", "diagonals": "auxiliary", "search": "inorder"}),
    ("xcsp3", {}),
    ("xcsp3", {"solver": "choco"}),
    ("cpmpy", {}),
    ("cpmpy", {"solver": "choco"}),
    ("sat", {"solver": "minisat22"}),
    ("sat", {"solver": "glucose4"}),
]

#: The backends that find one solution and neither count nor enumerate (``Backend.answers``),
#: with their methods: run by the contract kit's first-solution checks, kept out of CONFIGS
#: (whose tests enumerate).
FIRST_ONLY_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("localsearch", {}),
    ("localsearch", {"method": "minconflicts"}),
    ("construction", {}),
    ("construction", {"method": "bernhardsson"}),
]


def docs_hook(name: str) -> ModuleType:
    """The MkDocs hook ``docs/hooks/NAME.py`` as a module (the tests call it without MkDocs)."""
    return load_file(REPO / "docs" / "hooks" / f"{name}.py", f"docs_hook_{name}")


#: The count-only backends (they give no boards), with the formulations measured side by side.
COUNT_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("ganak", {}),
    ("ganak", {"encoding": "seqcounter"}),
    ("approxmc", {}),
    ("approxmc", {"epsilon": 0.3, "delta": 0.05}),
    ("bdd", {}),
    ("bdd", {"build": "lines"}),
    ("bdd", {"library": "autoref"}),
]


#: The searches and models compared on unique and completion tasks: each backend once, the
#: first-fail search, and the sat backend with its default (pairwise) and an auxiliary encoding.
SEARCH_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("backtrack", {}),
    ("backtrack", {"search": "firstfail"}),
    ("bitboard", {}),
    ("cpsat", {}),
    ("sat", {}),
    ("sat", {"encoding": "seqcounter"}),
    ("asp", {}),
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return ":".join([name, *(f"{k}={v}" for k, v in options.items())])


def require_backend(name: str) -> None:
    """Skip the test when backend ``name`` cannot run here (a program missing; under CI a failure,
    see tests/ci_skips.py)."""
    from nqueens_cp.backends.framework.registry import backend_class

    reason = backend_class(name).unavailable_reason()
    if reason is not None:
        pytest.skip(f"{reason} (.ci/install-external-solvers.sh installs it)")


def usable(configs: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """The configurations whose backend can run here (all of them under CI: one that cannot run
    then fails the test)."""
    from nqueens_cp.backends.framework.registry import backend_class

    if under_ci():
        return configs
    return [config for config in configs if backend_class(config[0]).unavailable_reason() is None]


#: Backends that start an outside program for every solve: in tests that solve many small
#: instances (a split run's sub-problems) they run with the slow tests (CI runs those too).
STARTS_A_PROGRAM_PER_SOLVE = frozenset({"minizinc", "xcsp3"})


def backend_params(names: Sequence[str]) -> list[Any]:
    """``names`` as pytest parameters: a backend that cannot run here is skipped (a failure under
    CI, see tests/ci_skips.py), one that starts a program per solve is marked slow."""
    from nqueens_cp.backends.framework.registry import backend_class

    params = []
    for name in names:
        marks = []
        if name in STARTS_A_PROGRAM_PER_SOLVE:
            marks.append(pytest.mark.slow)
        reason = backend_class(name).unavailable_reason()
        if reason is not None:
            marks.append(pytest.mark.skip(reason=reason))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


#: Backends whose contract runs with the slow tests: each solve starts a Java program (0.5 to 2 s).
SLOW_CONTRACT = frozenset({"xcsp3"})


@pytest.fixture(params=[pytest.param(config, marks=[pytest.mark.slow] if config[0] in SLOW_CONTRACT else [],
                                     id=config_id(config)) for config in CONFIGS])
def backend(request: pytest.FixtureRequest) -> Any:
    name, options = request.param
    require_backend(name)
    return create_backend(name, **options)



@dataclass(frozen=True)
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_cli(
    *args: str, timeout: float = 120, env: dict[str, str] | None = None, pythonpath: Sequence[str | Path] = (),
) -> CliResult:
    """Run ``python -m nqueens_cp ARGS`` in a real subprocess.

    ``env`` is its environment (default this one's); ``pythonpath`` adds folders after the repository.
    """
    env = {**(os.environ if env is None else env), "PYTHONPATH": os.pathsep.join(map(str, [REPO, *pythonpath]))}
    done = subprocess.run(
        [sys.executable, "-m", "nqueens_cp", *args],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO,
    )
    return CliResult(done.returncode, done.stdout, done.stderr)
