"""Shared helpers for the benchmark scripts: alternating timed runs, medians and a table."""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from tabulate import tabulate


@dataclass(frozen=True)
class Comparison:
    """Timings (seconds) of our side and of the reference side for one case, and the target."""

    case: str
    ours: tuple[float, ...]
    reference: tuple[float, ...]
    target: str
    meets: Callable[[float], bool]

    @property
    def ratio(self) -> float:
        """Median of our times divided by the median of the reference times (< 1: we are faster)."""
        return statistics.median(self.ours) / statistics.median(self.reference)


#: The flags every C yardstick is built with: numba compiles for this CPU, so the C side does too.
C_FLAGS: tuple[str, ...] = ("-O3", "-march=native")


def build_c(source: Path, binary: Path, flags: Sequence[str] = C_FLAGS) -> Path:
    """Compile the C program ``source`` into ``binary`` with ``gcc FLAGS`` (default ``-O3
    -march=native``); again whenever the compiler, the flags or the source's content differ from
    the last build, which are recorded in a stamp file beside the binary (``BINARY.build``)."""
    compiler = shutil.which("gcc")
    if compiler is None:
        raise SystemExit("gcc is needed to build the C references (apt-get install gcc)")
    command = [compiler, *flags, "-o", str(binary), str(source)]
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    stamp = binary.with_name(binary.name + ".build")
    wanted = f"{' '.join(command)}\nsource sha256 {digest}\n"
    if binary.exists() and stamp.exists() and stamp.read_text(encoding="utf-8") == wanted:
        return binary
    binary.parent.mkdir(parents=True, exist_ok=True)
    stamp.unlink(missing_ok=True)
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"gcc could not build {source}: {done.stderr.strip()[-500:]}")
    stamp.write_text(wanted, encoding="utf-8")
    return binary


def timed(func: Callable[[], object]) -> tuple[float, object]:
    """Wall time of one call (perf_counter) and its result."""
    start = time.perf_counter()
    result = func()
    return time.perf_counter() - start, result


def alternate(
    ours: Callable[[], tuple[float, object]],
    reference: Callable[[], tuple[float, object]],
    repeat: int,
) -> tuple[list[float], list[float], object, object]:
    """Run both sides alternately ``repeat`` times (ours first on even rounds, the reference first
    on odd ones) so that a slow spell of a shared machine hits both; returns the times and the
    last results of each side."""
    our_times: list[float] = []
    ref_times: list[float] = []
    our_result: object = None
    ref_result: object = None
    for round_no in range(repeat):
        order = (0, 1) if round_no % 2 == 0 else (1, 0)
        for side in order:
            if side == 0:
                seconds, our_result = ours()
                our_times.append(seconds)
            else:
                seconds, ref_result = reference()
                ref_times.append(seconds)
    return our_times, ref_times, our_result, ref_result


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, where the system reports them."""
    try:
        return " ".join(f"{value:.2f}" for value in os.getloadavg())
    except OSError:
        return "unknown"


def machine() -> str:
    """CPU model and core count, from /proc/cpuinfo where it exists."""
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, Python {platform.python_version()}"


def report(title: str, rows: Sequence[Comparison], our_label: str, ref_label: str) -> bool:
    """Print the table of medians and ratios; returns whether every target was met."""
    table = []
    all_met = True
    for row in rows:
        met = row.meets(row.ratio)
        all_met = all_met and met
        table.append(
            [
                row.case,
                f"{statistics.median(row.ours):.4f}",
                f"{statistics.median(row.reference):.4f}",
                f"{row.ratio:.3f}",
                row.target,
                "yes" if met else "NO",
                len(row.ours),
            ]
        )
    print(f"## {title}")
    print(f"machine: {machine()}")
    print(
        tabulate(
            table,
            headers=["case", f"{our_label} median s", f"{ref_label} median s", f"ratio {our_label}/{ref_label}", "target", "met", "runs"],
            tablefmt="github",
        )
    )
    print()
    return all_met
