"""Deliberately slow or failing backends for the split-run tests (imported by worker processes too).

They are registered by the tests that use them, never by the package.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterator

from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.searches.constellations import ConstellationCount


class SleepyBackend(BitboardBackend):
    """The bitboard backend, sleeping ``delay`` seconds before each search (to be killed mid-run)."""

    name = "sleepy"
    summary = "bitboard after a sleep (tests only)"
    option_specs = (
        *BitboardBackend.option_specs,
        OptionSpec("delay", float, 0.1, "seconds to sleep first", minimum=0),
    )

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        time.sleep(self.options["delay"])
        return super()._solutions(instance, limit)

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        time.sleep(self.options["delay"])
        return super().count(instance, limit=limit, unique=unique)

    def count_constellation_batch(self, n: int, index: int, batches: int) -> ConstellationCount:
        time.sleep(self.options["delay"])
        return super().count_constellation_batch(n, index, batches)


class FlakyBackend(Backend):
    """Fails the first ``failures`` attempts at each targeted sub-problem, then answers like bitboard.

    Targeted: the sub-problems whose row-0 queen is in column ``column`` (-1: all of them).
    Attempts are counted with files in ``state_dir``, so they are seen across worker processes.
    ``mode`` is ``raise`` (an exception) or ``exit`` (the worker process dies at once).
    """

    name = "flaky"
    summary = "fails on purpose (tests only)"
    option_specs = (
        OptionSpec("state_dir", str, "", "directory for the attempt counters"),
        OptionSpec("failures", int, 1, "failing attempts per targeted sub-problem", minimum=0),
        OptionSpec("column", int, -1, "row-0 column of the targeted sub-problems (-1: all)"),
        OptionSpec("mode", str, "raise", "how to fail", choices=("raise", "exit")),
    )

    def _attempt(self, instance: Instance) -> None:
        row0 = instance.fixed_by_row.get(0)
        if self.options["column"] >= 0 and row0 != self.options["column"]:
            return
        key = "_".join(f"{r}-{c}" for r, c in instance.fixed) or "whole"
        directory = Path(self.options["state_dir"])
        attempt = 0
        while True:  # claim the next attempt number atomically
            try:
                os.close(os.open(directory / f"{key}.{attempt}", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
                break
            except FileExistsError:
                attempt += 1
        if attempt < self.options["failures"]:
            if self.options["mode"] == "exit":
                os._exit(13)
            raise RuntimeError(f"deliberate failure {attempt + 1} on {instance}")

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        self._attempt(instance)
        return BitboardBackend()._solutions(instance, limit)

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        self._attempt(instance)
        return BitboardBackend().count(instance, limit=limit, unique=unique)
