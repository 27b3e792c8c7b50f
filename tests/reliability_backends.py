"""Backends that misbehave on purpose, for the reliability tests (imported by worker processes too).

They are registered by the tests that use them, never by the package.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.backends.framework.base import BatchCount, OptionSpec
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.searches.constellations import ConstellationCount


def _targeted(instance: Instance, column: int) -> bool:
    return column < 0 or instance.fixed_by_row.get(0) == column


class MiscountingBackend(BitboardBackend):
    """The bitboard backend, counting one solution too many where row 0's queen is in ``column``."""

    name = "miscounting"
    summary = "bitboard, one too many on some sub-problems (tests only)"
    option_specs = (
        *BitboardBackend.option_specs,
        OptionSpec("column", int, 0, "row-0 column of the sub-problems counted wrong (-1: all)"),
    )

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        right = super().count(instance, limit=limit, unique=unique)
        return right + 1 if _targeted(instance, self.options["column"]) else right


class MiscountingBatchesBackend(BitboardBackend):
    """The bitboard backend, counting one solution too many in constellation batch ``index``."""

    name = "miscounting-batches"
    summary = "bitboard, one too many in one batch of start constellations (tests only)"
    option_specs = (
        *BitboardBackend.option_specs,
        OptionSpec("index", int, 0, "the constellation batch counted wrong"),
    )

    def count_constellation_batch(self, n: int, index: int, batches: int) -> BatchCount:
        right = super().count_constellation_batch(n, index, batches)
        return ConstellationCount(right.total + 1, right.classes) if index == self.options["index"] else right


class SegfaultingBackend(BitboardBackend):
    """The bitboard backend, dying of SIGSEGV (a read of address 0) where row 0's queen is in ``column``."""

    name = "segfaulting"
    summary = "bitboard that crashes the process on some sub-problems (tests only)"
    option_specs = (
        *BitboardBackend.option_specs,
        OptionSpec("column", int, 0, "row-0 column of the sub-problems that crash (-1: all)"),
        OptionSpec("victim", int, -1, "row-0 column of a sub-problem whose first attempt sleeps 3 s, so "
                   "that a crash beside it breaks the pool under it (-1: none)"),
        OptionSpec("state_dir", str, "", "directory to record the victim's first attempt in"),
    )

    def _crash(self, instance: Instance) -> None:
        state = Path(self.options["state_dir"]) if self.options["state_dir"] else None
        if _targeted(instance, self.options["column"]):
            ctypes.string_at(0)  # a real segmentation fault, as a native solver would have
        if state is not None and instance.fixed_by_row.get(0) == self.options["victim"]:
            try:
                os.close(os.open(state / "victim-started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return  # a later attempt: answer at once
            time.sleep(3.0)  # still running when the crash beside it breaks the pool

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        self._crash(instance)
        return super()._solutions(instance, limit)

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        self._crash(instance)
        return super().count(instance, limit=limit, unique=unique)


class MemoryHogBackend(BitboardBackend):
    """The bitboard backend, first holding ``megabytes`` MB of touched memory, ``step`` MB at a time."""

    name = "memoryhog"
    summary = "bitboard after eating memory (tests only)"
    option_specs = (
        *BitboardBackend.option_specs,
        OptionSpec("megabytes", int, 1024, "memory to hold before searching", minimum=0),
        OptionSpec("step", int, 16, "megabytes added at a time", minimum=1),
        OptionSpec("min_n", int, 6, "hog only on boards at least this large", minimum=0),
    )

    def _hog(self, instance: Instance) -> list[bytearray]:
        held: list[bytearray] = []
        if instance.n < self.options["min_n"]:
            return held
        step = self.options["step"]
        for _ in range(self.options["megabytes"] // step):
            held.append(bytearray(b"\x01" * (step << 20)))  # written, so resident
            time.sleep(0.02)  # gradual, so the memory watcher sees it before the address-space backstop, even on a loaded machine
        return held

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        held = self._hog(instance)
        yield from super()._solutions(instance, limit)
        del held


class NativelyInterruptedBackend(BitboardBackend):
    """Raises what PySAT's C extension raises when Ctrl-C arrives during one of its calls: its own
    ``pycard.error("Caught keyboard interrupt")``, not ``KeyboardInterrupt``."""

    name = "natively-interrupted"
    summary = "a native library's report of Ctrl-C (tests only)"

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        import pycard

        raise pycard.error("Caught keyboard interrupt")


class InterruptWrappingBackend(BitboardBackend):
    """Receives a real SIGINT, and wraps the ``KeyboardInterrupt`` in an error of its own (as a
    library calling back into Python may), raised outside the handler."""

    name = "interrupt-wrapping"
    summary = "a library that turns Ctrl-C into its own error (tests only)"

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        failed = False
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)  # the signal is handled here
        except KeyboardInterrupt:
            failed = True
        if failed:
            raise RuntimeError("solver callback failed")  # no trace of the interrupt in the error
        return super().count(instance, limit=limit, unique=unique)


#: Every backend the tests run through the CLI, by name: ``module:Class`` for the registry.
TEST_BACKENDS = {
    "sleepy": "tests.parallel_backends:SleepyBackend",
    "miscounting": "tests.reliability_backends:MiscountingBackend",
    "miscounting-batches": "tests.reliability_backends:MiscountingBatchesBackend",
    "segfaulting": "tests.reliability_backends:SegfaultingBackend",
    "memoryhog": "tests.reliability_backends:MemoryHogBackend",
    "natively-interrupted": "tests.reliability_backends:NativelyInterruptedBackend",
    "interrupt-wrapping": "tests.reliability_backends:InterruptWrappingBackend",
}

#: ``python -c`` source of the CLI with every test backend registered (workers import them by reference).
CLI_WITH_TEST_BACKENDS = (
    "import sys\n"
    "from nqueens_cp.backends.framework.registry import register_backend\n"
    f"for name, target in {TEST_BACKENDS!r}.items():\n"
    "    register_backend(name, target)\n"
    "from nqueens_cp.cli import main\n"
    "raise SystemExit(main(sys.argv[1:]))\n"
)


@contextmanager
def registered(name: str) -> Iterator[str]:
    """The test backend ``name`` registered for the duration of the block."""
    from nqueens_cp.backends.framework.registry import register_backend, unregister_backend

    register_backend(name, TEST_BACKENDS[name])
    try:
        yield name
    finally:
        unregister_backend(name)
