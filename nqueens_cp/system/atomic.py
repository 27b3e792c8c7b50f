"""Atomic file writes: readers see the old file or the new one, never a part of either.

:func:`atomic_write_all` extends this to a set of files (a report and its data): every new
file is written in full to a temporary file beside its target before the first one is renamed
into place, so a full disk or a directory turned read-only leaves either the old set or the new
one, and never a temporary file behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Mapping


def _stage(target: Path, payload: bytes) -> str:
    """``payload`` written and synced to a temporary file beside ``target``; returns its path."""
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
            stream.flush()
            os.fsync(stream.fileno())
        umask = os.umask(0o022)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes it 0600; give it an ordinary file's mode
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory and a rename."""
    atomic_write_all({path: data})


def atomic_write_all(files: Mapping[str | os.PathLike[str], str | bytes]) -> None:
    """Write every ``path: data`` of ``files``: all staged first, then all renamed into place.

    If staging any file fails (``OSError``: no space, read-only, ...), nothing is renamed, every
    temporary file is removed and the error propagates: the old files are untouched.
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in files.items():
            target = Path(path)
            staged.append((_stage(target, data.encode() if isinstance(data, str) else data), target))
        while staged:
            temporary, target = staged[0]
            os.replace(temporary, target)
            staged.pop(0)
    except BaseException:
        for temporary, _ in staged:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        raise
