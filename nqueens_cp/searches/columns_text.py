"""Decimal text of a large answer, compiled with numba: the columns of a board, one pass.

The command line streams an answer of millions of columns (``cli/output.py``); formatting them
one Python ``str`` at a time costs about 0.2 s per million, numpy's vectorised digit passes more.
This kernel writes the digits and separators straight into a byte buffer. It imports numba: import
it only where a large answer is written.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nqueens_cp.system.compiled import compiled


@compiled
def _write(values: npt.NDArray[np.int32], separator: npt.NDArray[np.uint8], text: npt.NDArray[np.uint8]) -> int:
    used = 0
    digits = np.empty(12, dtype=np.uint8)
    for k in range(values.shape[0]):
        value = np.int64(values[k])
        length = 0
        while True:
            digits[length] = 48 + value % 10
            length += 1
            value //= 10
            if value == 0:
                break
        while length > 0:
            length -= 1
            text[used] = digits[length]
            used += 1
        for s in range(separator.shape[0]):
            text[used] = separator[s]
            used += 1
    return used


def decimal_text(values: npt.NDArray[np.int32], separator: bytes) -> bytes:
    """``values`` (non-negative, below 2**31) in decimal, each followed by ``separator``."""
    text = np.empty(len(values) * (10 + len(separator)), dtype=np.uint8)
    used = _write(np.ascontiguousarray(values, dtype=np.int32), np.frombuffer(separator, dtype=np.uint8), text)
    return text[:used].tobytes()
