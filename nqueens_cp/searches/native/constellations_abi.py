"""The calling convention of the compiled constellation kernel, shared by its numba source
(:mod:`.constellations_numba`) and the module that runs its machine code (:mod:`.constellations_kernel`).

``finish(n, count, table, out, states, scratch)``, every argument an int64 or a pointer to int64:
``table`` holds ``count`` rows ``(top, bottom, left, right, symmetry)``, ``out`` receives ``count``
rows ``(completions, fixed by rotating 180 degrees, fixed by 90 degrees)``, ``states`` and
``scratch`` are the work buffers (:func:`states_size`, :func:`scratch_size`).
"""

from __future__ import annotations

import ctypes

#: The kernel's name in the cache (its function's symbol in the object file: ``nqueens_cp_`` + name).
NAME = "constellations"

#: The function's C signature, as numba compiles it and as ctypes calls it.
NUMBA_SIGNATURE = "void(int64, int64, CPointer(int64), CPointer(int64), CPointer(int64), CPointer(int64))"
_INT64, _POINTER = ctypes.c_int64, ctypes.POINTER(ctypes.c_int64)
CTYPES_PROTOTYPE = ctypes.CFUNCTYPE(None, _INT64, _INT64, _POINTER, _POINTER, _POINTER, _POINTER)

#: Symmetry codes of the table's fifth column: fixed by no rotation, by 180 degrees only, by 90.
PLAIN, ROT180, ROT90 = 0, 1, 2

#: States a level's buffer holds in the kernel's search (1024 x 4 int64 = 32 KiB per level).
BATCH = 1024
#: Rows of the kernel's scratch buffer (each ``2 n + 2`` int64 long): the free rows, their blocked
#: columns, their gaps, the board of a rotation-fixed constellation, the level sizes, and the orbit
#: search's columns, sums, differences, rows and columns tried.
SCRATCH_ROWS = 10


def states_size(n: int) -> int:
    """int64 values of the ``states`` buffer: ``BATCH`` states of 4 values per row of the board."""
    return n * BATCH * 4


def scratch_size(n: int) -> int:
    """int64 values of the ``scratch`` buffer: ``SCRATCH_ROWS`` rows of ``2 n + 2``."""
    return SCRATCH_ROWS * (2 * n + 2)
