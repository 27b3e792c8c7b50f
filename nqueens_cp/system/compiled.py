"""numba for the compiled code (the searches, the proof checker, the answer checker): the two
decorators they use, and a lighter start-up.

Importing this module imports numba (about 0.2 s). numba's array support, loaded at the first
call of any compiled function, probes for a BLAS by importing ``scipy.linalg`` when SciPy is
installed (as it is here, for the reports' statistics): another 0.13-0.2 s in every process that
runs a kernel. No kernel uses linear algebra, so this module loads that support with the probe
answered "no BLAS" (unless SciPy's BLAS is already imported, when the probe costs nothing). The
only effect: numba's ``np.dot`` and ``np.linalg`` are unavailable in compiled code of the process.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, Callable, TypeVar, cast

import numba

_F = TypeVar("_F", bound=Callable[..., Any])

_BLAS_PROBE = "scipy.linalg.cython_blas"


def _load_array_support_without_blas_probe() -> None:
    if "numba.np.arraymath" in sys.modules or _BLAS_PROBE in sys.modules:
        return
    sys.modules[_BLAS_PROBE] = None  # type: ignore[assignment]  # makes its import raise ImportError
    try:
        importlib.import_module("numba.np.arraymath")
    finally:
        if sys.modules.get(_BLAS_PROBE, ...) is None:
            del sys.modules[_BLAS_PROBE]


_load_array_support_without_blas_probe()


def compiled(func: _F) -> _F:
    """``numba.njit(cache=True, nogil=True)``, typed for mypy (numba ships no type information).

    ``cache=True``: the machine code is cached on disk, so later processes load it instead of
    compiling.
    """
    return cast(_F, numba.njit(cache=True, nogil=True)(func))


def inline(func: _F) -> _F:
    """A compiled helper inlined into its callers at the numba IR level (no call overhead)."""
    return cast(_F, numba.njit(cache=True, nogil=True, inline="always")(func))
