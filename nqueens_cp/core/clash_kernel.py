"""The checker's pass over a huge board, run as machine code through ctypes.

The pass is numba code (:mod:`.clash_numba`, one C function); :mod:`nqueens_cp.system.machine_code`
keeps its machine code on disk and links it with llvmlite alone, so a process that checks one board of
10^8 rows pays about 0.05 s to load it, not numba's import and cache (0.4-0.6 s). Code newly loaded
must find the clashes of a few known boards before it is trusted; damaged code is compiled again.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from nqueens_cp.system.machine_code import NativeKernel

if TYPE_CHECKING:
    import numpy.typing as npt

_PROTOTYPE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p)

#: Boards the loaded code must judge right before it is trusted, with the row it must name.
_KNOWN = (
    ((0, 4, 7, 5, 2, 6, 1, 3), -1),  # a solution of n = 8
    ((1, 3, 0, 2), -1),
    ((0, 4, 7, 5, 2, 6, 1, 1), 7),  # a column twice
    ((0, 2, 4, 6, 1, 3, 5, 7), 7),  # (7, 7) on the diagonal of (0, 0)
    ((3, 2, 0, 1), 1),  # (1, 2) on the anti-diagonal of (0, 3)
    ((0, 2, 4, 8, 1, 3, 5, 7), 3),  # off the board
    ((1, -1, 0), 1),
)


def _run(function: Any, columns: npt.NDArray[np.int32]) -> int:
    n = len(columns)
    bits = np.zeros(3 * (((2 * n) // 64) + 1), np.uint64)  # words(n) of clash_numba, without importing numba
    return int(function(columns.ctypes.data, n, bits.ctypes.data))


def _works(function: Any) -> bool:
    return all(_run(function, np.array(board, np.int32)) == row for board, row in _KNOWN)


def _compile() -> Any:
    from nqueens_cp.core import clash_numba  # numba: only when the code is compiled

    return clash_numba.compile_c_function()


def _sources() -> tuple[Path, ...]:
    here = Path(__file__).resolve().parent
    return here / "clash_numba.py", here / "clash_kernel.py", here.parent / "system" / "machine_code.py"


#: The pass: its machine code stored on disk, loaded, or compiled, each time tested on ``_KNOWN``.
KERNEL = NativeKernel("first_clash", _sources(), Path(__file__).resolve(), _PROTOTYPE, _compile, _works)


def first_clash(columns: npt.NDArray[Any]) -> int:
    """The first row of the board ``columns`` (``columns[row] == col``, any integer dtype) whose queen
    is off the board or on a line an earlier queen holds; -1 when none. One pass, 5n bits of memory."""
    n = len(columns)
    if columns.dtype != np.int32 or not columns.flags.c_contiguous:
        columns = np.ascontiguousarray(np.clip(columns, -1, n), dtype=np.int32)  # off the board stays off
    return _run(KERNEL.function(), columns)
