"""Start-up: wall time of ``nqueens-cp --help``, ``nqueens-cp solve 8`` (backtrack) and
``nqueens-cp solve 14 --count`` (the compiled constellation counter: its machine code loaded,
the constellations generated; counting itself takes a few hundredths of a second).

Each command runs as a subprocess through the installed ``nqueens-cp`` script (or
``python -m nqueens_cp`` when the script is not on PATH), ``--repeat`` times, alternating with
``python -c pass`` (the bare interpreter) as the reference. Targets are absolute: medians under
0.3 s, 0.5 s and 0.5 s. Each command runs once before the timing (the count's first run on a
machine compiles its kernel). The ratio column shows how much the command adds to a bare interpreter.

    python benchmarks/bench_startup.py [--repeat 15]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import machine
from tabulate import tabulate


def command_prefix() -> list[str]:
    """How to call nqueens-cp: the console script next to this interpreter, else ``-m``."""
    script = Path(sys.executable).with_name("nqueens-cp")
    if script.exists():
        return [str(script)]
    found = shutil.which("nqueens-cp")
    return [found] if found else [sys.executable, "-m", "nqueens_cp"]


def wall(command: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    prefix = command_prefix()
    cases = [("nqueens-cp --help", [*prefix, "--help"], 0.3),
             ("nqueens-cp solve 8", [*prefix, "solve", "8"], 0.5),
             ("nqueens-cp solve 14 --count", [*prefix, "solve", "14", "--count"], 0.5)]
    bare = [sys.executable, "-c", "pass"]
    for _, command, _ in cases:  # warm the file cache, compile what a first run compiles
        wall(command)
    times: dict[str, list[float]] = {label: [] for label, _, _ in cases}
    bare_times: list[float] = []
    for _ in range(args.repeat):
        for label, command, _ in cases:
            times[label].append(wall(command))
            bare_times.append(wall(bare))
    bare_median = statistics.median(bare_times)
    rows = []
    ok = True
    for label, _, target in cases:
        median = statistics.median(times[label])
        met = median < target
        ok = ok and met
        rows.append([label, f"{median:.3f}", f"{min(times[label]):.3f}", f"{bare_median:.3f}",
                     f"{median / bare_median:.2f}", f"< {target}", "yes" if met else "NO", len(times[label])])
    print("## start-up (wall time of whole commands)")
    print(f"machine: {machine()}")
    print(f"command: {' '.join(prefix)}")
    print(tabulate(rows, headers=["command", "median s", "min s", "python -c pass median s", "ratio to bare",
                                  "target", "met", "runs"], tablefmt="github"))
    print()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
