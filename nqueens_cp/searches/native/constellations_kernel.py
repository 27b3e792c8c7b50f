"""The compiled finishing search of start constellations, run as machine code through ctypes.

The search itself is numba code (:mod:`.constellations_numba`, compiled as one C function). Its
machine code is kept on disk by :mod:`nqueens_cp.system.machine_code`, so a process that counts loads it with
llvmlite alone: neither numba nor numpy is imported (llvmlite's import and the link: about
0.05 s, where importing numba and numpy and loading numba's own cache took 0.53-0.65 s). The
first process after a change of the kernel, of numba or of the CPU compiles it with numba (a few
seconds) and stores it; stored code whose digest does not match is compiled again, and code newly
linked counts n = 8 before it is trusted. The call releases the GIL (ctypes does
around every foreign call), so threads of one process count batches side by side.
"""

from __future__ import annotations

import ctypes
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.searches.bitboard import COMPILED_MAX_N as MAX_N
from nqueens_cp.searches.constellations import (
    Constellation,
    ConstellationCount,
    Finished,
    constellations,
    tally,
)
from nqueens_cp.searches.native.constellations_abi import (
    CTYPES_PROTOTYPE,
    NAME,
    PLAIN,
    ROT90,
    ROT180,
    scratch_size,
    states_size,
)
from nqueens_cp.system.machine_code import NativeKernel

_Int64 = ctypes.c_int64
_FinishAll = Callable[[int, int, "ctypes.Array[ctypes.c_int64]", "ctypes.Array[ctypes.c_int64]",
                       "ctypes.Array[ctypes.c_int64]", "ctypes.Array[ctypes.c_int64]"], None]

#: The board every newly loaded kernel counts before it is trusted (a few milliseconds).
CHECK_N = 8

_thread_buffers = threading.local()


def _sources() -> tuple[Path, ...]:
    here = Path(__file__).resolve().parent
    system = here.parent.parent / "system"  # the numba settings and the toolchain shape the code
    return (*(here / name for name in ("constellations_numba.py", "constellations_abi.py", "constellations_kernel.py")),
            system / "compiled.py", system / "machine_code.py")


def _compile() -> Any:
    from nqueens_cp.searches.native import constellations_numba  # numba: ImportError when it is missing

    return constellations_numba.compile_c_function()


def _counts_right(function: _FinishAll) -> bool:
    """Whether ``function`` counts the board of ``CHECK_N`` as published (92 solutions, 12 classes),
    called as every count calls it: code that links is not yet code that counts."""
    items = constellations(CHECK_N)
    result = ConstellationCount(0, 0)
    for constellation, finished in zip(items, _finish(function, CHECK_N, items), strict=True):
        result = result + tally(constellation, finished)
    return result == ConstellationCount(A000170[CHECK_N], A002562[CHECK_N])


#: The kernel: its machine code stored on disk, loaded, or compiled, each time tested on ``CHECK_N``.
KERNEL = NativeKernel(NAME, _sources(), Path(__file__).resolve(), CTYPES_PROTOTYPE, _compile, _counts_right)


def _work_buffers(n: int) -> tuple[ctypes.Array[ctypes.c_int64], ctypes.Array[ctypes.c_int64]]:
    """This thread's ``states`` and ``scratch`` buffers for boards of n, made once per thread and n:
    fresh ones per batch cost their page faults every time (n = 16, one thread: 128 batches took
    1.15 of one call over the same constellations)."""
    buffers: dict[int, tuple[ctypes.Array[ctypes.c_int64], ctypes.Array[ctypes.c_int64]]]
    buffers = _thread_buffers.__dict__.setdefault("by_n", {})
    if n not in buffers:
        buffers.clear()
        buffers[n] = ((_Int64 * states_size(n))(), (_Int64 * scratch_size(n))())
    return buffers[n]


def _table(items: Sequence[Constellation]) -> ctypes.Array[ctypes.c_int64]:
    flat: list[int] = []
    for constellation in items:
        symmetry = ROT90 if constellation.rot90 else ROT180 if constellation.rot180 else PLAIN
        flat.extend((*constellation.search_key, symmetry))
    return (_Int64 * len(flat))(*flat)


def finish_batch(n: int, items: Sequence[Constellation]) -> list[Finished]:
    """The completions of each constellation of ``items``, by the compiled search."""
    if not 4 <= n <= MAX_N:
        raise ValueError(f"the compiled constellation kernel handles 4 <= n <= {MAX_N}, got {n}")
    if not items:
        return []
    return _finish(KERNEL.function(), n, items)


def _finish(kernel: _FinishAll, n: int, items: Sequence[Constellation]) -> list[Finished]:
    out = (_Int64 * (3 * len(items)))()
    states, scratch = _work_buffers(n)
    kernel(n, len(items), _table(items), out, states, scratch)
    values = out[:]
    return [Finished(*values[3 * i:3 * i + 3]) for i in range(len(items))]


def count_batch(n: int, items: Sequence[Constellation]) -> ConstellationCount:
    """Solutions and classes contributed by ``items``, finished by the compiled search."""
    result = ConstellationCount(0, 0)
    for constellation, finished in zip(items, finish_batch(n, items), strict=True):
        result = result + tally(constellation, finished)
    return result
