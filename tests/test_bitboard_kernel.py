"""The compiled bitboard kernel against OEIS, the pure-Python kernel and the backtrack backend."""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

from nqueens_cp.backends.backtrack import BacktrackBackend
from nqueens_cp.backends.bitboard import BitboardBackend
from nqueens_cp.cli import main
from nqueens_cp.core.checker import is_valid_solution
from nqueens_cp.core.errors import BackendOptionError, NQueensError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.symmetry import canonical, is_canonical

kernel = pytest.importorskip("nqueens_cp.searches.bitboard_kernel")


def count_symmetric(n: int) -> tuple[int, int]:
    """``(total, classes)`` of the empty board by the kernel's symmetric search in counting mode
    (an output of zero rows): a check of that search against OEIS apart from its enumeration."""
    kernel._check_size(n)
    if n <= 3:
        return (1, 1) if n <= 1 else (0, 0)
    counts = np.zeros(3, np.int64)
    kernel._symmetric_search(n, np.zeros((0, n), np.int64), *kernel._new_symmetric_state(n), counts)
    c8, c4, c2 = (int(value) for value in counts)
    return 8 * c8 + 4 * c4 + 2 * c2, c8 + c4 + c2

COMPILED = BitboardBackend()
PYTHON = BitboardBackend(kernel="python")
BACKTRACK = BacktrackBackend()


def full_masks(n: int) -> list[int]:
    return [(1 << n) - 1] * n


@pytest.mark.parametrize("n", range(13))
def test_symmetric_count_matches_oeis(n: int) -> None:
    total, classes = count_symmetric(n)
    assert total == A000170[n]
    assert classes == (A002562[n] if n >= 1 else 1)


@pytest.mark.parametrize("n", range(13))
def test_backend_count_and_unique_count(n: int) -> None:
    assert COMPILED.count(Instance(n)) == A000170[n]
    assert COMPILED.count(Instance(n), unique=True) == (A002562[n] if n >= 1 else 1)


@pytest.mark.parametrize("n", range(11))
def test_plain_compiled_count_matches_oeis(n: int) -> None:
    assert kernel.count_masked(full_masks(n)) == A000170[n]


@pytest.mark.parametrize("n", range(10))
def test_enumeration_equals_python_kernel(n: int) -> None:
    compiled = list(COMPILED.solutions(Instance(n)))
    python = list(PYTHON.solutions(Instance(n)))
    assert compiled == python  # same set, and the same (lexicographic) order
    assert len(set(compiled)) == len(compiled) == A000170[n]
    assert all(is_valid_solution(Instance(n), sol) for sol in compiled)


@pytest.mark.parametrize("n", range(10))
def test_unique_enumeration_is_one_canonical_member_per_class(n: int) -> None:
    unique = list(COMPILED.solutions(Instance(n), unique=True))
    assert len(set(unique)) == len(unique)
    assert all(is_canonical(sol) for sol in unique)
    assert set(unique) == {canonical(sol) for sol in PYTHON.solutions(Instance(n))}
    assert set(unique) == set(PYTHON.solutions(Instance(n), unique=True))


def test_unique_enumeration_n12_agrees_with_count() -> None:
    unique = list(kernel.iter_unique_solutions(12, batch_size=500))
    assert len(unique) == len(set(unique)) == A002562[12]
    assert all(is_canonical(sol) for sol in unique)


PRE_PLACED = [
    (6, {}),
    (6, {0: 1}),
    (7, {3: 3}),
    (8, {0: 0}),
    (8, {2: 5, 6: 1}),
    (8, {0: 0, 1: 1}),  # attacking each other: no solution
    (8, {1: 3, 4: 3}),  # same column: no solution
    (9, {8: 4}),
    (10, {0: 3, 9: 2}),
    (1, {0: 0}),
]


@pytest.mark.parametrize(("n", "fixed"), PRE_PLACED)
def test_pre_placed_queens_agree_with_backtrack(n: int, fixed: dict[int, int]) -> None:
    instance = Instance(n, fixed)
    expected = list(BACKTRACK.solutions(instance))
    assert list(COMPILED.solutions(instance)) == expected
    assert COMPILED.count(instance) == len(expected)
    assert PYTHON.count(instance) == len(expected)


def test_every_single_pre_placed_queen_on_7x7() -> None:
    for row, col in itertools.product(range(7), repeat=2):
        instance = Instance(7, {row: col})
        assert COMPILED.count(instance) == BACKTRACK.count(instance), (row, col)


@pytest.mark.parametrize("batch_size", [1, 2, 3, 7, 91, 92, 93, 10_000])
def test_batch_boundaries(batch_size: int) -> None:
    backend = BitboardBackend(batch_size=batch_size)
    assert list(backend.solutions(Instance(8))) == list(PYTHON.solutions(Instance(8)))
    unique = list(backend.solutions(Instance(8), unique=True))
    assert sorted(unique) == sorted(PYTHON.solutions(Instance(8), unique=True))


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("batch_size", [1, 2, 5])
def test_tiny_boards(n: int, batch_size: int) -> None:
    expected = list(PYTHON.solutions(Instance(n)))
    assert list(kernel.iter_solutions(full_masks(n), batch_size)) == expected
    assert list(kernel.iter_unique_solutions(n, batch_size)) == expected  # 1 or 0 solutions
    assert kernel.count_masked(full_masks(n)) == len(expected)


def test_enumeration_is_lazy_and_resumable() -> None:
    iterator = kernel.iter_solutions(full_masks(10), batch_size=4)
    first = list(itertools.islice(iterator, 6))  # stops inside the second batch
    rest = list(iterator)
    assert first + rest == list(PYTHON.solutions(Instance(10)))


@pytest.mark.parametrize("limit", [0, 1, 5, 92, 500])
def test_limits(limit: int) -> None:
    instance = Instance(8)
    expected = min(limit, 92)
    assert COMPILED.count(instance, limit=limit) == expected
    assert list(COMPILED.solutions(instance, limit=limit)) == list(PYTHON.solutions(instance))[:expected]
    assert COMPILED.count(instance, limit=limit, unique=True) == min(limit, 12)
    assert kernel.count_masked(full_masks(8), limit) == expected


def explicit_solution(n: int) -> tuple[int, ...]:
    """A solution from the classic construction (evens then odds, 1-based), for n % 6 in (0, 2, 4)."""
    evens = list(range(2, n + 1, 2))
    odds = list(range(1, n, 2))
    if n % 6 == 2:
        odds[0], odds[1] = odds[1], odds[0]
        odds.remove(5)
        odds.append(5)
    return tuple(col - 1 for col in evens + odds)


@pytest.mark.parametrize("n", [30, 32])
def test_wide_boards_near_max_n(n: int) -> None:
    solution = explicit_solution(n)
    assert is_valid_solution(Instance(n), solution)
    # Fix all rows but three: the masks use bits up to 31, shifted beyond 32 bits.
    free_rows = {0, n // 2, n - 1}
    instance = Instance(n, {row: col for row, col in enumerate(solution) if row not in free_rows})
    expected = list(BACKTRACK.solutions(instance))
    assert solution in expected
    assert list(COMPILED.solutions(instance)) == expected
    assert COMPILED.count(instance) == len(expected)


def test_options_are_checked() -> None:
    with pytest.raises(BackendOptionError):
        BitboardBackend(kernel="cuda")
    with pytest.raises(BackendOptionError):
        BitboardBackend(batch_size=0)
    with pytest.raises(NQueensError):
        COMPILED.count(Instance(6, {0: 1}), unique=True)
    with pytest.raises(BackendOptionError):
        COMPILED.count(Instance(6), limit=-1)
    with pytest.raises(ValueError):
        count_symmetric(kernel.MAX_N + 1)


def test_large_boards_fall_back_to_the_python_kernel() -> None:
    big = Instance(kernel.MAX_N + 1)
    assert COMPILED._kernel(big) is None
    assert COMPILED._kernel(Instance(kernel.MAX_N)) is kernel
    assert PYTHON._kernel(Instance(8)) is None


def test_cli_count_unique(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "10", "--count", "--unique", "--backend", "bitboard"]) == 0
    assert capsys.readouterr().out.strip() == str(A002562[10])
    assert main(["solve", "10", "--count", "--backend", "bitboard"]) == 0
    assert capsys.readouterr().out.strip() == str(A000170[10])
    assert main(["solve", "8", "--count", "--backend", "bitboard", "-O", "kernel=python", "--unique"]) == 0
    assert capsys.readouterr().out.strip() == "12"


def test_start_up_does_not_import_numba() -> None:
    code = (
        "import sys, contextlib, io\n"
        "from nqueens_cp.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    assert main(['solve', '8']) == 0\n"
        "    try:\n"
        "        main(['--help'])\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = [m for m in ('numba', 'numpy', 'ortools', 'pysat', 'matplotlib', 'dask') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


@pytest.mark.slow
@pytest.mark.parametrize("n", [13, 14, 15])
def test_symmetric_count_matches_oeis_slow(n: int) -> None:
    assert count_symmetric(n) == (A000170[n], A002562[n])


@pytest.mark.slow
@pytest.mark.parametrize("n", [11, 12])
def test_plain_enumeration_matches_python_slow(n: int) -> None:
    assert list(COMPILED.solutions(Instance(n))) == list(PYTHON.solutions(Instance(n)))
