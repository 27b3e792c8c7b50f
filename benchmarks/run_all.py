"""Run every benchmark, one after the other, and print their tables.

    python benchmarks/run_all.py                 # full runs at the issue's sizes (several minutes)
    python benchmarks/run_all.py --quick         # small sizes, a smoke test of the scripts
    python benchmarks/run_all.py --only bitboard backtrack

Each benchmark runs in its own process (``python benchmarks/bench_<name>.py``). The exit status
is 0 when every target was met, 1 otherwise; a table marks each missed target ``NO``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: name -> (full-run arguments, quick-run arguments)
BENCHMARKS: dict[str, tuple[list[str], list[str]]] = {
    "startup": ([], ["--repeat", "3"]),
    "backtrack": ([], ["--n", "9", "--repeat", "1"]),
    "bitboard": ([], ["--n", "12", "--repeat", "1"]),
    "cpsat": ([], ["--n", "8", "--repeat", "1"]),
    "sat": ([], ["--n", "8", "--repeat", "1"]),
    "parallel": ([], ["--n", "12", "--big", "0"]),
    "constellations": (["--parallel"], ["--n", "12", "--repeat", "1", "--parallel"]),
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes, one run each")
    parser.add_argument("--only", nargs="+", choices=list(BENCHMARKS), default=list(BENCHMARKS))
    args = parser.parse_args(argv)
    missed = []
    for name in args.only:
        full, quick = BENCHMARKS[name]
        command = [sys.executable, str(HERE / f"bench_{name}.py"), *(quick if args.quick else full)]
        print(f"$ {' '.join(['python', f'benchmarks/bench_{name}.py', *command[2:]])}", flush=True)
        status = subprocess.run(command).returncode
        if status != 0:
            missed.append(name)
    if missed:
        print(f"targets missed (or benchmark failed): {', '.join(missed)}")
        return 1
    print("every target met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
