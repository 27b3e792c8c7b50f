"""The checker's one-pass test of a huge board, as a C function for numba to compile.

:mod:`.clash_kernel` keeps its machine code on disk and runs it through ctypes, so checking a board
of 10^8 rows imports neither numba nor its cache (0.4-0.6 s) once the code is stored. Like the rest
of the checker it shares no code with any search: it re-derives the rules from the definition (one
queen per column and per diagonal, every column on the board). It allocates nothing: the caller
passes the zeroed bits, one per column and per diagonal.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
from numba.np.numpy_support import carray

#: The function's C signature: the columns (int32), n, and the 3 * :func:`words` zeroed uint64 bits.
NUMBA_SIGNATURE = "int64(CPointer(int32), int64, CPointer(uint64))"


def words(n: int) -> int:
    """uint64 words of each of the three bit sets (columns, sums, differences) of a board of n."""
    return (2 * n) // 64 + 1


def first_clash(columns_pointer: Any, n: int, bits_pointer: Any) -> int:
    """The first row whose queen is off the board or on a line an earlier queen holds; -1 when none."""
    columns = carray(columns_pointer, (n,))
    size = (2 * n) // 64 + 1
    bits = carray(bits_pointer, (3 * size,))
    one = np.uint64(1)
    for r in range(n):
        c = np.int64(columns[r])
        if c < 0 or c >= n:
            return r
        u = r + c
        d = r - c + n
        bc = one << np.uint64(c & 63)
        bu = one << np.uint64(u & 63)
        bd = one << np.uint64(d & 63)
        wc, wu, wd = c >> 6, size + (u >> 6), 2 * size + (d >> 6)
        if (bits[wc] & bc) or (bits[wu] & bu) or (bits[wd] & bd):
            return r
        bits[wc] |= bc
        bits[wu] |= bu
        bits[wd] |= bd
    return -1


def compile_c_function() -> Any:
    """:func:`first_clash` compiled by numba as a C function (not cached by numba: its machine code is
    kept by :mod:`nqueens_cp.system.machine_code`)."""
    return numba.cfunc(NUMBA_SIGNATURE, nogil=True)(first_clash)
