"""Ctrl-C, however a library reports it.

Python turns SIGINT into ``KeyboardInterrupt``, but native code may catch the signal itself and
raise its own exception instead: PySAT's C extensions (``pycard``, building a cardinality
encoding, and ``pysolvers``, solving) install their own SIGINT handler for the length of a call
and raise ``pycard.error`` / ``pysolvers.error`` with the message "Caught keyboard interrupt";
a library calling back into Python may wrap the ``KeyboardInterrupt`` raised there in an error
of its own. Exact goes further: constructing a solver installs its own handler for SIGINT *and*
SIGTERM behind Python's back and leaves it there (a later SIGTERM then no longer ends the process,
and every later Exact call in it, or in a process forked from it, fails with "Program interrupted
by user."); :func:`python_signal_handlers_back` undoes that when the library's call ends.
:func:`is_interruption` recognises all of these, and :class:`SigintWatch` notes every SIGINT that
reaches Python while a command runs, so that whatever exception follows it, the command ends as
"interrupted" (exit status 130), not as an internal error.
"""

from __future__ import annotations

import queue
import signal
import threading
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any, Callable, Iterator, TypeVar

T = TypeVar("T")

#: The messages of exceptions native extensions raise for a SIGINT they caught themselves
#: (lower case): PySAT's ``pycard.error`` and ``pysolvers.error``; Exact's ``RuntimeError``.
LIBRARY_MESSAGES = ("caught keyboard interrupt", "program interrupted by user")


def rearm_python_handlers(*signums: int) -> None:
    """Install again, at the operating system's level, the handler Python believes each of
    ``signums`` has (``signal.getsignal``), replacing whatever native code installed behind its
    back. Only on the main thread, where Python handles signals."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in signums:
        handler = signal.getsignal(signum)
        if handler is not None:  # None: a handler Python never installed or saw
            signal.signal(signum, handler)


@contextmanager
def python_signal_handlers_back() -> Iterator[None]:
    """When the block ends, put Python's own handling of SIGINT and SIGTERM back in place of what
    native code installed during the block (:func:`rearm_python_handlers`)."""
    try:
        yield
    finally:
        rearm_python_handlers(signal.SIGINT, signal.SIGTERM)


def is_interruption(error: BaseException) -> bool:
    """Whether ``error`` reports Ctrl-C: a ``KeyboardInterrupt``, one of the native messages of
    :data:`LIBRARY_MESSAGES`, or an exception raised while handling (or from) either."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, KeyboardInterrupt):
            return True
        text = str(current).lower()
        if any(message in text for message in LIBRARY_MESSAGES):
            return True
        current = current.__cause__ or current.__context__
    return False


def raise_if_interruption(error: BaseException) -> None:
    """Raise ``KeyboardInterrupt`` (from None) when ``error`` reports Ctrl-C (:func:`is_interruption`)."""
    if not isinstance(error, KeyboardInterrupt) and is_interruption(error):
        raise KeyboardInterrupt from None


class SigintWatch:
    """While active, notes (``seen``) every SIGINT that reaches Python, then raises
    ``KeyboardInterrupt`` as Python's own handler does. Only where Python's handler is in place
    (a SIGINT ignored on purpose, by a background job, stays ignored) and on the main thread."""

    def __init__(self) -> None:
        self.seen = False
        self._previous: Any = None
        self._installed = False

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        self.seen = True
        signal.default_int_handler(signum, frame)

    def __enter__(self) -> SigintWatch:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.getsignal(signal.SIGINT)
            if self._previous is signal.default_int_handler:
                signal.signal(signal.SIGINT, self._handler)
                self._installed = True
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._previous)
            self._installed = False


_END = object()


def off_main_thread(produce: Callable[[], Iterator[T]], name: str) -> Iterator[T]:
    """The items of ``produce()``, made in a daemon thread and yielded here.

    For native code that catches SIGINT itself when called on the main thread (PySAT builds
    encodings and solves there under a handler of its own, and a SIGINT landing inside the C++
    solver has been seen to corrupt its heap and abort the process). Off the main thread that
    code leaves SIGINT to Python: Ctrl-C raises ``KeyboardInterrupt`` here at once, and the
    thread, told to stop, ends after its current call, freeing what it made itself (nothing is
    freed under a call that still runs). Exceptions of ``produce`` are raised here.
    """
    handed: queue.Queue[Any] = queue.Queue(maxsize=1024)
    stop = threading.Event()

    def hand_over(item: object) -> bool:
        while not stop.is_set():
            try:
                handed.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def run() -> None:
        try:
            for item in produce():
                if not hand_over(item):
                    return
        except BaseException as error:  # handed to the consumer, raised there
            hand_over((_END, error))
            return
        hand_over((_END, None))

    threading.Thread(target=run, name=name, daemon=True).start()
    try:
        while True:
            item = handed.get()
            if isinstance(item, tuple) and len(item) == 2 and item[0] is _END:
                if item[1] is not None:
                    raise item[1]
                return
            yield item
    finally:
        stop.set()
