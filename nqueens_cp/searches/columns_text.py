"""Decimal text of a large answer: the columns of a board, one compiled pass per slice.

The command line streams an answer of millions of columns (``cli/output.py``); formatting them
one Python ``str`` at a time costs about 0.2 s per million, numpy's vectorised digit passes more.
A compiled loop (:mod:`.native.decimal_numba`) writes the digits and separators straight into a byte
buffer; its machine code is kept on disk (:mod:`nqueens_cp.system.machine_code`), so printing a
huge board imports no numba once it is stored. Newly loaded code must write a few known values
right before it is trusted.
"""

from __future__ import annotations

import ctypes
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from nqueens_cp.system.machine_code import NativeKernel

_PROTOTYPE = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p, ctypes.c_int64,
                              ctypes.c_void_p)

#: Values the loaded code must write right before it is trusted.
_KNOWN = ((0, 7, 10, 99, 100, 123456789, 2147483647), b", ", b"0, 7, 10, 99, 100, 123456789, 2147483647, ")


def _write(function: Any, values: npt.NDArray[np.int32], separator: bytes) -> bytes:
    text = np.empty(len(values) * (10 + len(separator)), dtype=np.uint8)
    marks = np.frombuffer(separator, dtype=np.uint8)
    used = function(values.ctypes.data, len(values), marks.ctypes.data, len(separator), text.ctypes.data)
    return text[:used].tobytes()


def _works(function: Any) -> bool:
    values, separator, expected = _KNOWN
    return _write(function, np.array(values, np.int32), separator) == expected


def _compile() -> Any:
    from nqueens_cp.searches.native import decimal_numba  # numba: only when the code is compiled

    return decimal_numba.compile_c_function()


def _sources() -> tuple[Path, ...]:
    here = Path(__file__).resolve().parent
    return here / "native" / "decimal_numba.py", here / "columns_text.py", here.parent / "system" / "machine_code.py"


#: The formatter: its machine code stored on disk, loaded, or compiled, each time tested on ``_KNOWN``.
KERNEL = NativeKernel("decimal_text", _sources(), Path(__file__).resolve(), _PROTOTYPE, _compile, _works)


def decimal_text(values: npt.NDArray[np.int32], separator: bytes) -> bytes:
    """``values`` (non-negative, below 2**31) in decimal, each followed by ``separator``."""
    return _write(KERNEL.function(), np.ascontiguousarray(values, dtype=np.int32), separator)
