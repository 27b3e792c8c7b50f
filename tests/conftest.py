"""Shared test helpers: backend configurations and a real-subprocess CLI runner."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from nqueens_cp.backends.registry import create_backend
from nqueens_cp.models.cnf import ENCODINGS

REPO = Path(__file__).resolve().parents[1]

#: Every backend with its defaults, the sat backend once per encoding, and two more sat solvers.
CONFIGS: list[tuple[str, dict[str, Any]]] = [
    *[(name, {}) for name in ("backtrack", "bitboard", "cpsat")],
    ("bitboard", {"kernel": "python"}),
    ("cpsat", {"workers": 2}),
    *[("sat", {"encoding": encoding}) for encoding in ENCODINGS],
    ("sat", {"solver": "minisat22"}),
    ("sat", {"solver": "glucose4"}),
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
]


def config_id(config: tuple[str, dict[str, Any]]) -> str:
    name, options = config
    return ":".join([name, *(f"{k}={v}" for k, v in options.items())])


@pytest.fixture(params=CONFIGS, ids=config_id)
def backend(request: pytest.FixtureRequest) -> Any:
    name, options = request.param
    return create_backend(name, **options)



@dataclass(frozen=True)
class CliResult:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, timeout: float = 120) -> CliResult:
    """Run ``python -m nqueens_cp ARGS`` in a real subprocess."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "nqueens_cp", *args],
        capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO,
    )
    return CliResult(done.returncode, done.stdout, done.stderr)
