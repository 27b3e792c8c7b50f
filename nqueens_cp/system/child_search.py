"""A search run in a forked child that reports as it goes, stopped at a time limit or a signal.

For a solver library that keeps the GIL for the whole of a call (PySAT's CaDiCaL) and cannot be
interrupted inside it: no thread of this process, Python's signal handlers included, runs until
the call returns. :func:`search_in_child` runs the search in a forked child instead; this process
waits on a pipe, where Python's handlers run and a deadline can pass. The child sends each item it
reports (the best answer so far) and its result; at the time limit, or on SIGINT or SIGTERM (which
then raise here as usual), the child is killed and waited for. The child dies with this process
(:func:`~nqueens_cp.system.processes.die_with_parent`).
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import time
from typing import Callable, TypeVar, cast

T = TypeVar("T")

_LENGTH = struct.Struct("<Q")
#: Bytes read from the pipe at a time.
_CHUNK = 1 << 20


def _send(fd: int, item: object) -> None:
    data = pickle.dumps(item)
    view = memoryview(_LENGTH.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


def search_in_child(search: Callable[[Callable[[object], None]], T], on_report: Callable[[object], None],
                    time_limit: float | None) -> tuple[bool, T | None]:
    """``(True, search(report))`` run in a forked child, each ``report(item)`` handed to
    ``on_report`` here as it comes; ``(False, None)`` when ``time_limit`` seconds passed first. An
    exception of the search is raised here (its text, if it cannot be pickled)."""
    from nqueens_cp.system.processes import die_with_parent

    parent = os.getpid()
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report through the pipe, then end without running anything of the parent's
        status = 0
        try:
            os.close(read)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            die_with_parent(parent)
            try:
                answer: tuple[str, object] = ("done", search(lambda item: _send(write, ("report", item))))
            except Exception as error:
                answer = ("error", error)
            try:
                _send(write, answer)
            except Exception as error:  # an exception that cannot be pickled: its text
                _send(write, ("error", RuntimeError(f"{type(answer[1]).__name__}: {answer[1]} ({error})")))
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    os.close(write)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    buffer = bytearray()  # appended to in place: an answer of a gigabyte (a DRUP proof) comes in linear time
    try:
        while True:
            while len(buffer) >= _LENGTH.size:
                end = _LENGTH.size + _LENGTH.unpack_from(buffer)[0]
                if len(buffer) < end:  # the rest of this item is still in the pipe
                    break
                kind, item = pickle.loads(buffer[_LENGTH.size:end])
                del buffer[:end]
                if kind == "report":
                    on_report(item)
                elif kind == "done":
                    return True, cast(T, item)
                else:
                    raise cast(BaseException, item)
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([read], [], [], wait)  # Python's handlers run here
            if not ready:
                return False, None
            data = os.read(read, _CHUNK)
            if not data:
                raise RuntimeError("the forked process ended without an answer")
            buffer += data
    finally:
        os.close(read)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
