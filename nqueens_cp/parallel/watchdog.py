"""Worker processes that end when the process that started them is gone, even by ``kill -9``.

A pool worker's parent is the ``forkserver`` process, not the run, so the kernel's parent-death
signal cannot tie it to the run; instead :func:`follow_owner` (a pool initializer) starts a
daemon thread that checks every :data:`INTERVAL` seconds whether the run's process still exists,
and ends the worker at once when it does not.
"""

from __future__ import annotations

import os
import threading
import time

#: Seconds between two looks at the owning process.
INTERVAL = 1.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else (cannot happen for our own owner)
        return True
    return True


def _watch(owner: int) -> None:
    while _alive(owner):
        time.sleep(INTERVAL)
    os._exit(1)  # the run is gone: nobody will read this worker's results


def follow_owner(owner: int) -> None:
    """Pool initializer: end this worker process when process ``owner`` no longer exists."""
    threading.Thread(target=_watch, args=(owner,), name="follow-owner", daemon=True).start()
