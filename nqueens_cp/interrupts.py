"""Ctrl-C, however a library reports it.

Python turns SIGINT into ``KeyboardInterrupt``, but native code may catch the signal itself and
raise its own exception instead: PySAT's C extensions (``pycard``, building a cardinality
encoding, and ``pysolvers``, solving) install their own SIGINT handler for the length of a call
and raise ``pycard.error`` / ``pysolvers.error`` with the message "Caught keyboard interrupt";
a library calling back into Python may wrap the ``KeyboardInterrupt`` raised there in an error
of its own. :func:`is_interruption` recognises all of these, and :class:`SigintWatch` notes every
SIGINT that reaches Python while a command runs, so that whatever exception follows it, the
command ends as "interrupted" (exit status 130), not as an internal error.
"""

from __future__ import annotations

import signal
import threading
from types import FrameType, TracebackType
from typing import Any

#: The messages of exceptions native extensions raise for a SIGINT they caught themselves
#: (lower case): PySAT's ``pycard.error`` and ``pysolvers.error``.
LIBRARY_MESSAGES = ("caught keyboard interrupt",)


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
