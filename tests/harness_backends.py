"""Deliberately broken backends the harness tests register (and unregister) themselves.

Each one is correct except for one defect, so the test can check the harness names exactly
that defect. They are module-level classes, so a worker process can import them under any
start method (forked workers simply inherit them).
"""

from __future__ import annotations

import ctypes
import os
import time
from contextlib import contextmanager
from typing import Iterator

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.backends.framework.registry import register_backend, unregister_backend
from nqueens_cp.core.instance import Instance, Solution


def correct(instance: Instance) -> list[Solution]:
    """The solutions of ``instance`` in the order the (trusted) bitboard backend yields them."""
    return list(BitboardBackend()._solutions(instance, None))


class DroppingBackend(BitboardBackend):
    """Leaves out the third solution of boards with more than two."""

    name = "test-drops"
    summary = "drops one solution"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        for index, solution in enumerate(correct(instance)):
            if index != 2:
                yield solution

    @staticmethod
    def dropped(instance: Instance) -> Solution:
        return correct(instance)[2]


class InvalidBoardBackend(BitboardBackend):
    """Yields an invalid board (all queens in column 0) in place of the last solution."""

    name = "test-invalid"
    summary = "yields an invalid board"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        solutions = correct(instance)
        if instance.n > 1 and solutions:
            solutions[-1] = (0,) * instance.n
        yield from solutions


class DuplicateBackend(BitboardBackend):
    """Yields the first solution a second time in place of the second one (so the count is right)."""

    name = "test-duplicate"
    summary = "yields a duplicate"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        solutions = correct(instance)
        if len(solutions) > 1:
            solutions[1] = solutions[0]
        yield from solutions


class HangingBackend(BitboardBackend):
    """Never answers for boards larger than 1x1."""

    name = "test-hangs"
    summary = "hangs"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 1:
            time.sleep(3600)
        yield from correct(instance)


class HangingAtSixBackend(BitboardBackend):
    """Never answers on a 6x6 board (an instance it cannot solve in time); right on every other."""

    name = "test-hangs-at-6"
    summary = "hangs on 6x6 boards"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n == 6:
            time.sleep(3600)
        yield from correct(instance)


class ChildCpuBackend(BitboardBackend):
    """Right, after a solver program (a child Python) has spent about 0.3 s of CPU time."""

    name = "test-child-cpu"
    summary = "runs a busy child process"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 4:  # not during the warm-up on the 4x4 board
            import subprocess
            import sys

            busy = "import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass"
            subprocess.run([sys.executable, "-c", busy], check=True)
        yield from correct(instance)


class UnwaitedChildCpuBackend(BitboardBackend):
    """Right, after a child process it starts has spent about 0.3 s of CPU time; the child is
    left unreaped while the run is timed (``getrusage`` then cannot see its time, a cgroup can)."""

    name = "test-unwaited-child-cpu"
    summary = "runs a busy child process it does not wait for"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 4:  # not during the warm-up on the 4x4 board
            import subprocess
            import sys

            busy = ("import time\nend = time.process_time() + 0.3\nwhile time.process_time() < end: pass\n"
                    "print('done', flush=True)")
            child = subprocess.Popen([sys.executable, "-c", busy], stdout=subprocess.PIPE)
            assert child.stdout is not None
            child.stdout.read()  # the child has finished its work; it is not waited for
            self._left_unreaped = child
        yield from correct(instance)


class HangingProgramBackend(BitboardBackend):
    """Starts a program that never ends (as a solver program would), writes its pid to the file
    named by ``NQUEENS_TEST_PID_FILE``, and waits for it."""

    name = "test-hangs-in-program"
    summary = "waits for a program that hangs"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 1:
            import os
            import subprocess

            program = subprocess.Popen(["sleep", "3600"])
            with open(os.environ["NQUEENS_TEST_PID_FILE"], "w", encoding="ascii") as handle:
                handle.write(str(program.pid))
            program.wait()
        yield from correct(instance)


class ExitingBackend(BitboardBackend):
    """Kills its own process with ``os._exit(3)``."""

    name = "test-exits"
    summary = "calls os._exit"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 1:
            os._exit(3)
        yield from correct(instance)


class CrashingBackend(BitboardBackend):
    """Dereferences a null pointer: a real native crash (SIGSEGV)."""

    name = "test-crashes"
    summary = "segfaults"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        if instance.n > 1:
            ctypes.string_at(0)
        yield from correct(instance)


class RaisingBackend(BitboardBackend):
    """Raises after a few solutions."""

    name = "test-raises"
    summary = "raises"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        for index, solution in enumerate(correct(instance)):
            if index == 3:
                raise RuntimeError("deliberate failure after 3 solutions")
            yield solution


class SilentBackend(BitboardBackend):
    """Finds nothing, ever."""

    name = "test-silent"
    summary = "never finds a solution"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return iter(())


class DroppingTooBackend(DroppingBackend):
    """The same bug as ``DroppingBackend`` in another backend: two implementations sharing one bug."""

    name = "test-drops-too"
    summary = "drops the same solution"


class SharedBugBackend(DroppingBackend):
    """One backend with three ``variant`` options (like three SAT encodings) sharing one bug: all drop a solution."""

    name = "test-shared"
    summary = "three variants, one shared bug"
    option_specs = (OptionSpec("variant", str, "a", "which variant (all share the bug)", choices=("a", "b", "c")),)


class DropRepeatBackend(BitboardBackend):
    """Drops the 51st solution and yields the 61st twice: the count stays right, the set is wrong."""

    name = "test-drop-repeat"
    summary = "drops one solution, repeats another"

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        for index, solution in enumerate(correct(instance)):
            if index != 50:
                yield solution
            if index == 60:
                yield solution

    @staticmethod
    def repeated(instance: Instance) -> Solution:
        return correct(instance)[60]


BROKEN = (
    DroppingBackend, InvalidBoardBackend, DuplicateBackend, HangingBackend, HangingAtSixBackend, HangingProgramBackend, ExitingBackend, CrashingBackend,
    RaisingBackend, SilentBackend, DroppingTooBackend, SharedBugBackend, DropRepeatBackend,
)


@contextmanager
def registered(*classes: type[Backend]) -> Iterator[None]:
    """The backends ``classes`` (default: every broken one here) registered under their ``name``
    for the duration."""
    for cls in classes or BROKEN:
        register_backend(cls.name, cls)
    try:
        yield
    finally:
        for cls in classes or BROKEN:
            unregister_backend(cls.name)
