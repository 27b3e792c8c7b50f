"""``bitboard`` counting against a Somers-style C counter, n = 16 and 17 by default.

The reference, ``benchmarks/ref/somers.c``, is built by this script with ``gcc -O3 -march=native`` into
``benchmarks/build/``. It counts with bit masks, an explicit stack and the first-row mirror
trick, and times its own counting with ``clock_gettime`` (process start-up excluded). Our side is
``BitboardBackend().count(Instance(n))`` timed in this process with ``perf_counter`` after one
warm-up call (numba loads its cached machine code, or compiles once). Both sides therefore time
the counting alone, single-threaded, run alternately. The ratio is median(ours) / median(C);
the target is at most 0.8.

A second table times the whole commands as subprocesses (``nqueens-cp solve N --count --backend
bitboard`` with its Python and numba start-up, against the C program): for information only.

    python benchmarks/bench_bitboard.py [--n 16 17] [--repeat 3] [--no-commands]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _common import Comparison, alternate, build_c, report, timed  # noqa: E402

from nqueens_cp.backends.bitboard import BitboardBackend  # noqa: E402
from nqueens_cp.core.instance import Instance  # noqa: E402

SOURCE = HERE / "ref" / "somers.c"
BINARY = HERE / "build" / "somers"


def build_reference() -> Path:
    """Compile the C reference with ``gcc -O3 -march=native`` (again when the source, the compiler or the flags change)."""
    return build_c(SOURCE, BINARY)


def run_c(n: int) -> tuple[float, object]:
    """The C program's own timing of its count, and the count."""
    output = subprocess.run([str(BINARY), str(n)], capture_output=True, text=True, check=True).stdout.split()
    return float(output[2]), int(output[1])


def run_c_command(n: int) -> tuple[float, object]:
    """Wall time of the whole C process, and its count."""
    start = time.perf_counter()
    output = subprocess.run([str(BINARY), str(n)], capture_output=True, text=True, check=True).stdout.split()
    return time.perf_counter() - start, int(output[1])


def run_cli(n: int) -> tuple[float, object]:
    """Wall time of ``nqueens-cp solve N --count --backend bitboard`` as a subprocess, and its count."""
    command = [sys.executable, "-m", "nqueens_cp", "solve", str(n), "--count", "--backend", "bitboard"]
    start = time.perf_counter()
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, int(output)


def at_most_0_8(ratio: float) -> bool:
    return ratio <= 0.8


def no_target(ratio: float) -> bool:
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, nargs="+", default=[16, 17])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-commands", action="store_true", help="skip the whole-command table")
    args = parser.parse_args(argv)
    build_reference()
    backend = BitboardBackend()
    backend.count(Instance(8))  # load (or compile) the numba kernels before timing
    rows = []
    command_rows = []
    for n in args.n:
        ours, ref, our_count, ref_count = alternate(
            partial(timed, partial(backend.count, Instance(n))), partial(run_c, n), args.repeat
        )
        if our_count != ref_count:
            raise SystemExit(f"n={n}: bitboard counted {our_count}, the C reference {ref_count}")
        rows.append(Comparison(f"count n={n} ({our_count})", tuple(ours), tuple(ref), "<= 0.8", at_most_0_8))
        if not args.no_commands:
            ours, ref, our_count, ref_count = alternate(partial(run_cli, n), partial(run_c_command, n), args.repeat)
            if our_count != ref_count:
                raise SystemExit(f"n={n}: nqueens-cp printed {our_count}, the C reference {ref_count}")
            command_rows.append(Comparison(f"whole command n={n}", tuple(ours), tuple(ref), "(info)", no_target))
    ok = report("bitboard count vs Somers-style C (gcc -O3 -march=native), counting time only", rows, "bitboard", "C")
    if command_rows:
        report("whole commands as subprocesses (wall time, with start-up)", command_rows, "nqueens-cp", "C")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
