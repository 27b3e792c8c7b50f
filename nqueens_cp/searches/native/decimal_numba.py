"""Decimal text of a board's columns, as a C function for numba to compile.

:mod:`nqueens_cp.searches.columns_text` keeps its machine code on disk and runs it through ctypes, so
printing a board of 10^8 columns imports neither numba nor its cache once the code is stored. It
allocates nothing: the caller passes a buffer of ``count * (10 + len(separator))`` bytes.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba.np.numpy_support import carray

#: The function's C signature: values (int32, non-negative), count, separator, its length, the text.
NUMBA_SIGNATURE = "int64(CPointer(int32), int64, CPointer(uint8), int64, CPointer(uint8))"


def write_decimal(values_pointer: Any, count: int, separator_pointer: Any, separator_length: int,
                  text_pointer: Any) -> int:
    """Each value in decimal followed by the separator, into the text; the bytes written."""
    values = carray(values_pointer, (count,))
    separator = carray(separator_pointer, (separator_length,))
    text = carray(text_pointer, (count * (10 + separator_length),))
    used = 0
    for k in range(count):
        value = np.int64(values[k])
        start = used
        while True:  # the digits, last first
            text[used] = 48 + value % 10
            used += 1
            value //= 10
            if value == 0:
                break
        low, high = start, used - 1
        while low < high:  # put first
            text[low], text[high] = text[high], text[low]
            low += 1
            high -= 1
        for s in range(separator_length):
            text[used] = separator[s]
            used += 1
    return used


def compile_c_function() -> Any:
    """:func:`write_decimal` compiled by numba as a C function (not cached by numba: its machine code
    is kept by :mod:`nqueens_cp.system.machine_code`)."""
    return numba.cfunc(NUMBA_SIGNATURE, nogil=True)(write_decimal)
