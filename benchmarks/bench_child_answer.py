"""What handing a large answer back from a forked search costs: ``search_in_child`` (the sat
backend's family searches, whose ``--certify`` answer carries the DRUP proof: hundreds of MB at
domination n = 12) in this checkout against a copy of older code, each in a process of its own,
alternated (medians of ``--repeat``). The answer is ``MB`` megabytes of bytes after three small
reports; the parent's CPU time is printed beside the wall time.

    git archive 988d6f9 | tar -x -C /tmp/nqueens-cp-before
    python benchmarks/bench_child_answer.py --old /tmp/nqueens-cp-before [--sizes 16 64] [--repeat 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import alternate, load_average, machine

REPO = Path(__file__).resolve().parents[1]

#: Run with the code to time first on ``sys.path``: prints the wall and the parent's CPU seconds.
SNIPPET = """
import sys, time
from nqueens_cp.system.child_search import search_in_child
size = int(sys.argv[1]) << 20
heard = []
def search(report):
    for step in range(3):
        report(step)
    return b"x" * size
wall, cpu = time.perf_counter(), time.process_time()
done, answer = search_in_child(search, heard.append, None)
assert done and len(answer) == size and heard == [0, 1, 2], "the answer came back wrong"
print(time.perf_counter() - wall, time.process_time() - cpu)
"""


def measured(code: Path, megabytes: int, cpu: list[float]) -> tuple[float, object]:
    """Wall seconds of one hand-back with ``code`` first on the path (its CPU seconds appended to ``cpu``)."""
    done = subprocess.run([sys.executable, "-c", SNIPPET, str(megabytes)], capture_output=True, text=True,
                          cwd=code, env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"}, check=True)
    wall, seconds = (float(word) for word in done.stdout.split())
    cpu.append(seconds)
    return wall, None


def compare(megabytes: int, old_code: Path, repeat: int) -> None:
    """One row: the medians of this checkout and of ``old_code`` handing back ``megabytes`` MB."""
    new_cpu: list[float] = []
    old_cpu: list[float] = []
    new, old, _, _ = alternate(lambda: measured(REPO, megabytes, new_cpu),
                               lambda: measured(old_code, megabytes, old_cpu), repeat)
    print(f"{megabytes:>5}  {statistics.median(new):>8.2f}s  {statistics.median(old):>8.2f}s  "
          f"{statistics.median(old) / statistics.median(new):>8.1f}  {statistics.median(new_cpu):>7.2f}s  "
          f"{statistics.median(old_cpu):>7.2f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--old", type=Path, required=True, help="a copy of the code to compare with")
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64], help="answers' sizes in MB")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{machine()}; load average {load_average()}")
    print(f"{'MB':>5}  {'now wall':>9}  {'old wall':>9}  {'old/now':>8}  {'now cpu':>8}  {'old cpu':>8}")
    for megabytes in args.sizes:
        compare(megabytes, args.old, args.repeat)
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
