"""The benchmarks' shared helpers: C yardsticks built with the intended flags, rebuilt when they change."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import _common  # noqa: E402

PROGRAM = '#include <stdio.h>\nint main(void) { printf("%d\\n", 40 + 2); return 0; }\n'


def build_id(binary: Path) -> tuple[int, int]:
    """Inode and modification time: both change when gcc writes the binary again."""
    status = binary.stat()
    return status.st_ino, status.st_mtime_ns


def test_default_flags_are_o3_for_this_cpu() -> None:
    assert _common.C_FLAGS == ("-O3", "-march=native")


def test_built_with_the_default_flags_and_runs(tmp_path: Path) -> None:
    source = tmp_path / "answer.c"
    source.write_text(PROGRAM)
    binary = _common.build_c(source, tmp_path / "build" / "answer")
    assert subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout == "42\n"
    stamp = (tmp_path / "build" / "answer.build").read_text()
    assert " -O3 -march=native -o " in stamp


def test_rebuilt_when_the_flags_change_not_when_nothing_does(tmp_path: Path) -> None:
    source = tmp_path / "answer.c"
    source.write_text(PROGRAM)
    binary = tmp_path / "answer"
    _common.build_c(source, binary, ("-O1",))
    binary.unlink()
    _common.build_c(source, binary, ("-O1",))  # a missing binary is built again
    first = build_id(binary)
    _common.build_c(source, binary, ("-O1",))
    assert build_id(binary) == first  # same source, same flags: kept
    _common.build_c(source, binary)  # the source is older than the binary, the flags differ
    assert build_id(binary) != first
    assert "-march=native" in (tmp_path / "answer.build").read_text()


def test_rebuilt_when_the_source_changes_even_with_an_older_mtime(tmp_path: Path) -> None:
    source = tmp_path / "answer.c"
    source.write_text(PROGRAM)
    binary = _common.build_c(source, tmp_path / "answer")
    before = build_id(binary)
    source.write_text(PROGRAM.replace("40 + 2", "40 + 3"))
    old = binary.stat().st_mtime_ns - 10**9
    os.utime(source, ns=(old, old))  # as a checkout that restores an old file
    _common.build_c(source, binary)
    assert build_id(binary) != before
    assert subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout == "43\n"


def test_a_compile_error_is_one_line_and_no_stale_stamp(tmp_path: Path) -> None:
    source = tmp_path / "broken.c"
    source.write_text("int main(void) { return }\n")
    with pytest.raises(SystemExit, match="gcc could not build"):
        _common.build_c(source, tmp_path / "broken")
    assert not (tmp_path / "broken.build").exists()


# A stand-in for 004GCC_constellation.c: no arguments, one line "N: total unique time" per n, a
# little work between lines, and a wrong line (n = 4) as the real one prints.
COUNTER = r"""
#include <stdio.h>
#include <time.h>
int main(void) {
  long totals[] = {0, 0, 0, 0, 0, 10, 4, 40};
  printf("Constellations\n N:            Total          Unique      dd:hh:mm:ss.ms\n");
  for (int n = 4; n <= 7; ++n) {
    struct timespec pause = {0, 50000000L * (n - 3)};
    nanosleep(&pause, NULL);
    printf("%2d:%17ld%16ld%8.3d:%02d:%02d:%02d.%02d\n", n, totals[n], 0L, 0, 0, 0, 0, 0);
  }
  return 0;
}
"""


def test_the_outside_counter_is_timed_from_the_line_before_to_the_line_of_n(tmp_path: Path) -> None:
    import bench_constellations

    source = tmp_path / "counter.c"
    source.write_text(COUNTER)
    binary = _common.build_c(source, tmp_path / "counter")
    wall, cpu, count = bench_constellations.run_outside(binary, 6)
    assert count == 4
    assert 0.14 <= wall < 1.0  # the 150 ms pause before n = 6, not the 250 ms of n = 4 and 5 before it
    assert 0.0 <= cpu < 0.1  # it sleeps
    with pytest.raises(SystemExit, match="before printing the line of n = 9"):
        bench_constellations.run_outside(binary, 9)


def test_the_outside_program_is_a_source_or_an_executable(tmp_path: Path) -> None:
    import bench_constellations

    text = tmp_path / "notes.txt"
    text.write_text("not a program")
    with pytest.raises(ValueError, match="neither a C source"):
        bench_constellations.outside_binary(text)
    with pytest.raises(ValueError, match="no such file"):
        bench_constellations.outside_binary(tmp_path / "missing.c")


def test_the_split_is_measured_against_what_the_machine_gave_two_processes_that_round() -> None:
    import bench_constellations

    times = {"serial": ([4.0, 6.0], []), "workers 2": ([2.0, 4.0], []),
             "C same x1": ([5.0, 6.0], []), "C same x2": ([5.0, 8.0], [])}
    # Round 1: a speed-up of 2.0 on a machine that gave two processes 2.0; round 2: 1.5 where it gave 1.5.
    assert bench_constellations.against_machine(times) == pytest.approx([1.0, 1.0])


class _DiesInTheChild:
    """Stands in for a backend whose child process is killed (as by the memory guard or the OOM killer)."""

    def first_solution(self, instance: object) -> None:
        os.kill(os.getpid(), signal.SIGKILL)


def _case(n: int = 5, satisfiable: bool = True) -> Any:
    import bench_excluded_diagonals as bench

    from nqueens_cp.core.instance import Instance

    return bench.Case(n, 0, 1, "hardest", satisfiable, 0, Path("unused.param"), Instance(n))


def test_excluded_diagonals_records_a_dead_child_without_a_traceback() -> None:
    import bench_excluded_diagonals as bench

    outcome = bench.Outcome()
    bench.run_backend(_DiesInTheChild(), _case(), 30.0, outcome)  # type: ignore[arg-type]
    assert (outcome.status, outcome.detail) == ("died", "killed by signal 9")


@pytest.mark.parametrize(("status", "backend_seconds", "expected"), [
    ("ok", 0.5, 0),  # every answer right, faster than C: the target is met
    ("ok", 2.0, 1),  # slower than C: the target is missed
    ("died", 0.5, 1),  # a dead child
])
def test_excluded_diagonals_exit_status(status: str, backend_seconds: float, expected: int,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    import bench_excluded_diagonals as bench

    case = _case()
    reference = bench.Outcome(times=[1.0], answer=True)
    ours = bench.Outcome(times=[backend_seconds] if status == "ok" else [], answer=True if status == "ok" else None,
                         status=status, detail="" if status == "ok" else "killed by signal 9")
    outcomes = {(bench.REFERENCE, case.name): reference, ("bitboard", case.name): ours}
    args = argparse.Namespace(n="5", strata="hardest", repeat=1, timeout=1.0)
    assert bench.report([case], [bench.REFERENCE, "bitboard"], outcomes, args) == expected
    if expected:
        assert capsys.readouterr().out.strip().splitlines()[-1].startswith("exit 1: ")


def test_bench_first_checks_the_printed_answer() -> None:
    import bench_first

    assert bench_first.answer_problems(4, "1 3 0 2\n") == []
    assert bench_first.answer_problems(4, "0 1 2 3\n")  # queens on one diagonal
    assert bench_first.answer_problems(4, "1 3 0\n")  # too short
    assert bench_first.answer_problems(4, "no solution\n") == ["not a board: 'no solution'"]


def test_run_all_runs_every_benchmark_file() -> None:
    import run_all

    scripts = run_all.every_script()
    files = {script.file for script in scripts.values()}
    assert {path.name for path in BENCHMARKS.glob("bench_*.py")} <= files
    assert all((BENCHMARKS / script.file).is_file() for script in scripts.values())
    assert all(script.quick is not None or script.why for script in scripts.values())


def test_run_all_takes_a_new_benchmark_with_its_quick_arguments(tmp_path: Path) -> None:
    import run_all

    (tmp_path / "bench_new.py").write_text('QUICK_ARGUMENTS = ["--n", "8"]\n')
    (tmp_path / "bench_plain.py").write_text("print('hello')\n")
    scripts = run_all.every_script(tmp_path)
    assert scripts["new"].quick == ("--n", "8")
    assert scripts["plain"].quick is None
    assert "QUICK_ARGUMENTS" in scripts["plain"].why
    assert run_all.command_of(scripts["plain"], quick=True, outside_c=None) is None
    assert run_all.command_of(scripts["plain"], quick=False, outside_c=None) is not None
