"""Dask preload for the workers of a local cluster: Ctrl-C is the run's business, not theirs.

Ctrl-C sends SIGINT to the whole process group, local Dask workers included; each would die
printing a ``KeyboardInterrupt`` traceback while the run itself is already closing the cluster.
Loaded into every worker process of the local cluster (``preload=[__name__]``), this makes them
ignore SIGINT; the run shuts them down (and they end with it, see Dask's nanny).
"""

from __future__ import annotations

import signal
import threading
from typing import Any


def dask_setup(worker: Any) -> None:
    """Dask's preload hook, run in each worker process as it starts."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
