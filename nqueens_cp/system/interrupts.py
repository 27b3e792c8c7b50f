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
:func:`is_interruption` recognises all of these, and :class:`StopSignals` notes every SIGINT (and
SIGTERM) that reaches Python while a command runs, so that whatever exception follows it, the
command ends as "interrupted" (exit status 130; "terminated", 143, after SIGTERM), not as an
internal error. A library call that keeps Python's handlers from running until it returns (a
search in C++, a compiled kernel) is wrapped in :func:`native_call`: the signal then stops it
through the library's own stop, or ends the process.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import sys
import threading
import time
from contextlib import contextmanager
from types import FrameType, TracebackType
from typing import Any, Callable, Iterator, TypeVar, cast

T = TypeVar("T")

#: The messages of exceptions native extensions raise for a SIGINT they caught themselves
#: (lower case): PySAT's ``pycard.error`` and ``pysolvers.error``; Exact's ``RuntimeError``;
#: z3's reason for an unknown answer, which the smt backend reports.
LIBRARY_MESSAGES = ("caught keyboard interrupt", "program interrupted by user", "interrupted from keyboard")


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


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Python's handler runs while :class:`StopSignals` is active: the
    command unwinds as after Ctrl-C (children ended, partial files removed, results kept)."""


def exit_status(signum: int) -> int:
    """The exit status of a command stopped by signal ``signum``: 128 + its number (the shells'
    convention: 130 after SIGINT, 143 after SIGTERM)."""
    return 128 + int(signum)


#: Seconds a native call has, once told to stop (:func:`native_call`), before the process ends
#: without it.
NATIVE_GRACE = 0.25

#: The :class:`StopSignals` active in this process (the command line's), or None.
_active: StopSignals | None = None
_fork_hook = False


def _forget_in_child() -> None:
    """In a forked child: the parent's watch is not this process's; a signal here must not wake
    the parent's watcher through the inherited wakeup descriptor."""
    global _active
    if _active is not None:
        _active = None
        with contextlib.suppress(ValueError):  # forked from a thread other than the main one
            signal.set_wakeup_fd(-1)


#: Seconds before a stop dropped in a ``__del__`` is delivered again (:meth:`StopSignals._unraisable`).
REDELIVERY_DELAY = 0.01


def _stop_in(error: BaseException | None) -> int | None:
    """The signal a stop raised by :class:`StopSignals` stands for, when ``error`` is one (or a
    ctypes ``ArgumentError`` made of one: "argument 1: Terminated: ..."), else None."""
    if isinstance(error, Terminated):
        return signal.SIGTERM
    if isinstance(error, KeyboardInterrupt):
        return signal.SIGINT
    import ctypes  # here, not at start-up: only a dropped exception gets this far

    if isinstance(error, ctypes.ArgumentError):
        text = str(error)
        if ": Terminated: " in text:
            return signal.SIGTERM
        if ": KeyboardInterrupt" in text:
            return signal.SIGINT
    return None


class _NativeCall:
    """One :func:`native_call` under way on the main thread."""

    def __init__(self, stop: Callable[[], object] | None) -> None:
        self.stop = stop
        self.returned = threading.Event()


class StopSignals:
    """SIGINT and SIGTERM while a command runs, honoured even inside native code.

    While active (on the main thread): SIGINT raises ``KeyboardInterrupt`` as Python's own handler
    does, SIGTERM raises :class:`Terminated`; ``signum`` notes the first that came (``seen``:
    whether any did), so that whatever exception follows, the command ends as stopped. Only where
    Python's default handling is in place (a SIGINT ignored on purpose, by a background job, stays
    ignored; so does a SIGTERM ignored).

    Python runs those handlers only between bytecodes: a library call that never returns to
    Python until it is done (a solver's search in C++, a compiled kernel) would keep them waiting.
    So the signals also wake a watcher thread (``signal.set_wakeup_fd``): if the main thread is
    inside a :func:`native_call`, the watcher calls that call's ``stop`` and, if it has not
    returned :data:`NATIVE_GRACE` s later (or there is no ``stop``), ends the process itself:
    every child process killed, ``announce(signum)`` (the command's line on stderr, which returns
    the exit status), then ``os._exit``; a call returning once that is decided waits for the end,
    rather than unwind (writing, announcing) while the process ends under it.
    """

    def __init__(self, announce: Callable[[int], int] | None = None) -> None:
        self.signum: int | None = None
        self._announce = announce
        self._previous: dict[int, Any] = {}
        self._pid = os.getpid()
        self._call: _NativeCall | None = None
        self._lock = threading.Lock()
        self._fds: tuple[int, int] | None = None
        self._previous_fd = -1
        self._previous_unraisable: Callable[[Any], object] | None = None
        self._ending = False  # the watcher ends the process (:meth:`_end_now`)

    @property
    def seen(self) -> bool:
        """Whether SIGINT or SIGTERM came while active."""
        return self.signum is not None

    def _handler(self, signum: int, frame: FrameType | None) -> None:
        if os.getpid() != self._pid:  # in a child forked while active: what Python does by default
            if signum == signal.SIGTERM:
                signal.signal(signum, signal.SIG_DFL)
                os.kill(os.getpid(), signum)
            signal.default_int_handler(signum, frame)
        if self.signum is None:
            self.signum = signum
        if signum == signal.SIGTERM:
            raise Terminated("terminated (SIGTERM)")
        signal.default_int_handler(signum, frame)

    def _unraisable(self, unraisable: Any) -> None:
        """``sys.unraisablehook`` while active: a stop raised where Python cannot raise.

        Python runs a signal's handler wherever the main thread is, a ``__del__`` included (z3
        frees a term in ``AstRef.__del__`` thousands of times a second); an exception raised
        there is printed as "Exception ignored" and dropped, and the command would run on as if
        no signal had come (ctypes, converting a call's argument when the handler ran, wraps the
        stop in its ``ArgumentError``). So the signal is delivered again, until its stop is raised
        where it can unwind the command."""
        signum = _stop_in(unraisable.exc_value)
        if signum is not None and os.getpid() == self._pid:
            # From another thread, a moment later: a signal sent from here would be handled here,
            # in this hook, and dropped again.
            threading.Timer(REDELIVERY_DELAY, os.kill, (self._pid, signum)).start()
            return
        if self.signum is not None:  # an object the stop left half made, failing in its __del__
            return
        if self._previous_unraisable is not None:
            self._previous_unraisable(unraisable)

    def __enter__(self) -> StopSignals:
        global _active, _fork_hook
        if threading.current_thread() is not threading.main_thread():
            return self
        if not _fork_hook and hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_forget_in_child)
            _fork_hook = True
        for signum, default in ((signal.SIGINT, signal.default_int_handler), (signal.SIGTERM, signal.SIG_DFL)):
            previous = signal.getsignal(signum)
            if previous is default:
                self._previous[signum] = signal.signal(signum, self._handler)
        if self._previous:
            self._previous_unraisable, sys.unraisablehook = sys.unraisablehook, self._unraisable
            read, write = os.pipe()
            os.set_blocking(write, False)
            self._previous_fd = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
            self._fds = (read, write)
            threading.Thread(target=self._watch, args=(read,), name="nqueens-cp-signals", daemon=True).start()
            _active = self
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _active
        for signum, previous in self._previous.items():
            signal.signal(signum, previous)
        self._previous.clear()
        if self._previous_unraisable is not None:
            sys.unraisablehook, self._previous_unraisable = self._previous_unraisable, None
        if self._fds is not None:
            signal.set_wakeup_fd(self._previous_fd)
            os.close(self._fds[1])  # the watcher reads the end of the pipe, closes it and ends
            self._fds = None
        if _active is self:
            _active = None

    # -- native calls --------------------------------------------------------------------------

    def _enter(self, call: _NativeCall) -> _NativeCall | None:
        with self._lock:
            outer, self._call = self._call, call
        return outer

    def _leave(self, call: _NativeCall, outer: _NativeCall | None) -> None:
        with self._lock:
            self._call = outer
            call.returned.set()
            ending = self._ending
        while ending:  # the watcher is ending the process: unwinding now would race its exit
            with contextlib.suppress(BaseException):
                time.sleep(60)

    def _watch(self, read: int) -> None:
        """The watcher thread: a byte per signal that reached Python's C handler."""
        try:
            while data := os.read(read, 64):
                for signum in data:
                    if signum in (signal.SIGINT, signal.SIGTERM):
                        self._stop_native_call(signum)
        except OSError:
            pass
        finally:
            os.close(read)

    def _stop_native_call(self, signum: int) -> None:
        with self._lock:
            call = self._call
        if call is None:  # the main thread runs Python: the handler runs there
            return
        if call.stop is not None:
            with contextlib.suppress(Exception):  # a stop that fails: the process ends below
                call.stop()
            if call.returned.wait(NATIVE_GRACE):
                return
        with self._lock:  # decided with the call's return: the process ends, or the call unwinds
            if call.returned.is_set():
                return
            self._ending = True
        self._end_now(signum)

    def _end_now(self, signum: int) -> None:
        """End the process from the watcher: children killed, the command's line, its status."""
        from nqueens_cp.system.processes import descendants

        for child in descendants(os.getpid()):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGKILL)
        status = exit_status(signum)
        with contextlib.suppress(Exception):
            flushing = threading.Thread(target=sys.stdout.flush, daemon=True)
            flushing.start()
            flushing.join(0.2)  # what was printed so far, unless the reader has stopped reading
        with contextlib.suppress(Exception):
            status = self._announce(signum) if self._announce is not None else status
            sys.stderr.flush()
        os._exit(status)


@contextmanager
def native_call(stop: Callable[[], object] | None = None, *, rearm: bool = False,
                holds_gil: bool = False) -> Iterator[None]:
    """Around a library call that does not return to Python until it is done, on the main thread.

    While the command line's :class:`StopSignals` is active, SIGINT or SIGTERM during the call
    calls ``stop`` from another thread (the library's own way to end the call early: CP-SAT's
    ``stop_search``, HiGHS's ``cancelSolve``), after which Python's handler raises as usual;
    without ``stop``, or if the call has not returned :data:`NATIVE_GRACE` s later, the process
    ends at once (exit status 130 or 143, children killed). ``rearm``: for a library that put its
    own handlers in place of Python's before the call (Exact, see the module docstring), put
    Python's back first, so that the signal comes here and SIGTERM stays SIGTERM. ``holds_gil``:
    for a call that keeps the GIL until it returns (Choco's native image, Exact), where the watcher
    cannot run either: SIGINT and SIGTERM take their default action during the call, the process
    ends by the signal itself (a shell shows 130 or 143; no line on stderr; for a one-shot call
    prefer :func:`in_child`). Elsewhere (a library user's program, another thread) nothing
    changes."""
    watch = _active
    if watch is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    if rearm:
        rearm_python_handlers(signal.SIGINT, signal.SIGTERM)
    if holds_gil:
        previous = {signum: signal.signal(signum, signal.SIG_DFL) for signum in watch._previous}
        try:
            yield
        finally:
            for signum, handler in previous.items():
                signal.signal(signum, handler)
        return
    call = _NativeCall(stop)
    outer = watch._enter(call)
    try:
        yield
    finally:
        watch._leave(call, outer)


def in_child(call: Callable[[], T]) -> T:
    """``call()``, run in a forked child while the command line's :class:`StopSignals` is active
    (elsewhere, or off the main thread, here): for a library call that holds the GIL until it
    returns (Exact's count, ApproxMC's), which keeps the watcher of :func:`native_call` from
    running too. This process waits for the answer where Python's handlers run; on SIGINT or
    SIGTERM it kills the child and unwinds as usual. The child ends with this process (killed
    by the kernel if this one is). Costs a fork (a few milliseconds); ``call`` must return (or
    raise) something picklable.
    """
    from nqueens_cp.system.child_search import search_in_child

    if _active is None or threading.current_thread() is not threading.main_thread():
        return call()
    rearm_python_handlers(signal.SIGINT, signal.SIGTERM)  # a library's own (Exact's) would keep them away
    _, answer = search_in_child(lambda report: call(), lambda item: None, None)
    return cast(T, answer)


_END = object()


class HandOff:
    """A bounded queue from a producer thread to a consumer that may stop taking items: ``put``
    waits while the queue is full, and gives up (returns False) once the consumer has called
    ``leave``, so the producer never blocks on a consumer that is gone."""

    def __init__(self, maxsize: int) -> None:
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=maxsize)
        self._left = threading.Event()

    def put(self, item: object) -> bool:
        """Hand ``item`` over; False when the consumer has left (the item is dropped)."""
        while not self._left.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def get(self) -> Any:
        """The next item (waits for it)."""
        return self._queue.get()

    def leave(self) -> None:
        """Take no more items: a waiting or later ``put`` returns False."""
        self._left.set()


def off_main_thread(produce: Callable[[], Iterator[T]], name: str) -> Iterator[T]:
    """The items of ``produce()``, made in a daemon thread and yielded here.

    For native code that catches SIGINT itself when called on the main thread (PySAT builds
    encodings and solves there under a handler of its own, and a SIGINT landing inside the C++
    solver has been seen to corrupt its heap and abort the process). Off the main thread that
    code leaves SIGINT to Python: Ctrl-C raises ``KeyboardInterrupt`` here at once, and the
    thread, told to stop, ends after its current call, freeing what it made itself (nothing is
    freed under a call that still runs). Exceptions of ``produce`` are raised here.
    """
    handed = HandOff(1024)

    def run() -> None:
        try:
            for item in produce():
                if not handed.put(item):
                    return
        except BaseException as error:  # handed to the consumer, raised there
            handed.put((_END, error))
            return
        handed.put((_END, None))

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
        handed.leave()
