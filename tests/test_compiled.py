"""The shared numba set-up of the compiled code (``nqueens_cp.system.compiled``)."""

from __future__ import annotations

import subprocess
import sys

from .conftest import REPO


def _run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_kernel_runs_without_loading_scipy_linalg() -> None:
    out = _run(
        "import sys\n"
        "from nqueens_cp.searches.constellations import constellations\n"
        "from nqueens_cp.searches.native.constellations_kernel import count_batch\n"
        "print(count_batch(10, constellations(10)).total, 'scipy.linalg' in sys.modules,\n"
        "      sys.modules.get('scipy.linalg.cython_blas', 'absent'))\n"
    )
    assert out == "724 False absent"


def test_scipy_linalg_still_imports_after_a_kernel_and_before_one() -> None:
    after = _run(
        "from nqueens_cp.searches.bitboard_kernel import count_masked\n"
        "import scipy.linalg.cython_blas, scipy.linalg\n"
        "print(count_masked([255] * 8), scipy.linalg.det([[2.0, 0.0], [0.0, 3.0]]))\n"
    )
    assert after == "92 6.0"
    before = _run(
        "import scipy.linalg\n"
        "from nqueens_cp.searches.bitboard_kernel import count_masked\n"
        "import numba.np.arraymath\n"
        "print(count_masked([255] * 8), numba.np.arraymath._HAVE_BLAS)\n"
    )
    assert before == "92 True"
