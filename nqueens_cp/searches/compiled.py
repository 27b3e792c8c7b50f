"""numba for the compiled searches: the two decorators they use, and a lighter start-up.

Importing this module imports numba (about 0.2 s). numba's array support, loaded at the first
call of any compiled function, probes for a BLAS by importing ``scipy.linalg`` when SciPy is
installed (as it is here, for the reports' statistics): another 0.13-0.2 s in every process that
runs a kernel. No kernel uses linear algebra, so this module loads that support with the probe
answered "no BLAS" (unless SciPy's BLAS is already imported, when the probe costs nothing). The
only effect: numba's ``np.dot`` and ``np.linalg`` are unavailable in compiled code of the process.

:func:`compile_with_selects_kept` compiles a kernel written branch-free with two of LLVM's x86
passes held back, those that turn conditional moves back into branches (see there).
"""

from __future__ import annotations

import importlib
import platform
import sys
from typing import Any, Callable, TypeVar, cast

import llvmlite.binding
import numba
from numba.core.compiler_lock import global_compiler_lock

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


#: LLVM options (set, default) that keep a select a select on x86-64: the cmov converter turns
#: conditional moves in loops into branches, and CodeGenPrepare turns a select whose operand is
#: costly to compute into a branch around that computation.
_SELECTS_KEPT = (
    ("-x86-cmov-converter=false", "-x86-cmov-converter=true"),
    ("-disable-cgp-select2branch=true", "-disable-cgp-select2branch=false"),
)


def compile_with_selects_kept(kernel: Callable[..., Any], signature: str) -> None:
    """Compile ``kernel`` (a :func:`compiled` function) for ``signature``, or load it from numba's
    cache, with LLVM keeping every select as a conditional move; nothing when it is compiled already.

    For a kernel whose inner loop is written without branches on the data (``x & -int(c)``
    rather than ``if c``): LLVM's x86 back end otherwise guesses that a branch is cheaper and
    brings back the mispredicted branch the code was written to avoid (the constellation kernel
    took 1.26 times as long). The options are global to the process, so they are set only while
    this compilation holds numba's compiler lock, then put back. Machine code loaded from the
    cache was made the same way, provided the kernel is compiled only through here. Elsewhere than
    x86-64 a plain compile.
    """
    dispatcher = cast(Any, kernel)
    if dispatcher.overloads:
        return
    with global_compiler_lock:
        if platform.machine().lower() not in ("x86_64", "amd64"):
            dispatcher.compile(signature)
            return
        for setting, _ in _SELECTS_KEPT:
            llvmlite.binding.set_option("nqueens-cp", setting)
        try:
            dispatcher.compile(signature)
        finally:
            for _, default in _SELECTS_KEPT:
                llvmlite.binding.set_option("nqueens-cp", default)
