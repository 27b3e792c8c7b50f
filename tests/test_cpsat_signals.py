"""CP-SAT must leave Ctrl-C to Python: after a solve, SIGINT still raises KeyboardInterrupt."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO

PROBE = """
import os, signal, time
from nqueens_cp import Instance, create_backend
create_backend("cpsat").count(Instance(6))
create_backend("cpsat").first_solution(Instance(6))
try:
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(2)
    print("not interrupted")
except KeyboardInterrupt:
    print("KeyboardInterrupt")
"""


def test_sigint_after_a_cpsat_solve_raises_keyboard_interrupt() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=REPO, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "KeyboardInterrupt"
