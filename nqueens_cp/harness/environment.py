"""What machine and software a comparison ran on."""

from __future__ import annotations

import datetime
import os
import platform
import shlex
import sys
from importlib import metadata
from pathlib import Path

from nqueens_cp.harness.results import Environment

#: Distributions whose versions a report records.
REPORTED_PACKAGES = ("nqueens-cp", "ortools", "python-sat", "tabulate", "matplotlib", "numpy")


def cpu_model() -> str:
    """The CPU model name (from /proc/cpuinfo on Linux), or the best the platform module knows."""
    cpuinfo = Path("/proc/cpuinfo")
    try:
        for line in cpuinfo.read_text(errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() in ("model name", "Processor", "cpu model") and value.strip():
                return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def package_versions(names: tuple[str, ...] = REPORTED_PACKAGES) -> tuple[tuple[str, str], ...]:
    """``(distribution, version)`` pairs; ``not installed`` for those missing."""
    versions = []
    for name in names:
        try:
            versions.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            versions.append((name, "not installed"))
    return tuple(versions)


def now_iso() -> str:
    """The current time, UTC, ISO 8601 to the second."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def usable_cpus() -> int | None:
    """CPUs this process may run on (affinity), else the machine's count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count()


def collect_environment() -> Environment:
    """The environment of this process, now."""
    return Environment(
        python=platform.python_version(),
        implementation=platform.python_implementation(),
        os=platform.platform(),
        machine=platform.machine(),
        cpu_model=cpu_model(),
        cpu_count=usable_cpus(),
        packages=package_versions(),
        date=now_iso(),
        invoked_as=shlex.join([Path(sys.argv[0]).name, *sys.argv[1:]]) if sys.argv else "",
    )
