"""``bitboard``: backtracking on bit masks.

Bit ``c`` of ``columns`` is set when column ``c`` holds a queen. ``left`` and ``right`` hold the
squares of the current row attacked along the two diagonals; moving down one row shifts them by
one bit. The free squares of a row are ``~(columns | left | right) & full``; the lowest free
bit is taken with ``free & -free``. A pre-placed queen's row offers only its own bit.

Two kernels run this search. ``kernel=compiled`` (the default) uses the numba kernels of
``bitboard_kernel``: enumeration streams solutions from compiled code in batches. Counting an
empty board uses start constellations (``searches.constellations``: the border queens fixed, one
constellation per class of the square's 8 symmetries, finished by the numba kernel of
``searches.constellations_kernel``), so one pass gives the total and the number of classes; boards
up to ``PYTHON_COUNT_MAX_N`` are counted by the same method in pure Python, without importing
numba. ``kernel=python`` is the readable pure-Python version below, kept as the reference; it
is also used for boards larger than the compiled kernel's ``MAX_N``. numba is imported only when
the compiled kernel is first used, so neither start-up nor the other backends pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..errors import BackendOptionError, BackendUnavailableError, NQueensError
from ..instance import Instance, Solution
from ..searches import constellations
from .base import Backend, OptionSpec

if TYPE_CHECKING:
    from types import ModuleType

#: Boards up to this size use the compiled kernel (kept equal to ``bitboard_kernel.MAX_N``;
#: duplicated here so that choosing a kernel does not import numba).
COMPILED_MAX_N = 32

#: Empty boards up to this size are counted in pure Python: importing numba and loading the
#: compiled kernel (about 0.5 s) costs more than the whole count (measured, benchmarks/RESULTS.md).
PYTHON_COUNT_MAX_N = 13


def _row_masks(instance: Instance) -> list[int]:
    """Per row, the columns a queen may take there: all of them, or the pre-placed one."""
    full = (1 << instance.n) - 1
    masks = [full] * instance.n
    for row, col in instance.fixed:
        masks[row] = 1 << col
    return masks


class BitboardBackend(Backend):
    name = "bitboard"
    summary = "backtracking on bit masks (columns and both diagonals as integers), compiled with numba"
    option_specs = (
        OptionSpec(
            "kernel", str, "compiled",
            "compiled: numba kernels, symmetry-reduced counting; python: the readable pure-Python search",
            choices=("compiled", "python"),
        ),
        OptionSpec("batch_size", int, 8192, "compiled enumeration: solutions passed to Python per batch", minimum=1),
    )

    def _kernel(self, instance: Instance) -> ModuleType | None:
        """The compiled kernel module when it applies to ``instance``, else None (pure Python)."""
        if self.options["kernel"] != "compiled" or instance.n > COMPILED_MAX_N:
            return None
        try:
            from . import bitboard_kernel
        except ImportError as error:
            raise BackendUnavailableError(
                f"backend bitboard: the compiled kernel needs numba ({error}); "
                "pip install numba, or use -O kernel=python"
            ) from None
        return bitboard_kernel

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        kernel = self._kernel(instance)
        if kernel is None:
            return self._python_solutions(instance)
        batch_size: int = self.options["batch_size"]
        if limit is not None:
            batch_size = max(1, min(batch_size, limit))
        solutions: Iterator[Solution] = kernel.iter_solutions(_row_masks(instance), batch_size)
        return solutions

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        kernel = self._kernel(instance)
        if kernel is None:
            return super()._unique_solutions(instance, limit)
        batch_size: int = self.options["batch_size"]
        if limit is not None:
            batch_size = max(1, min(batch_size, limit))
        solutions: Iterator[Solution] = kernel.iter_unique_solutions(instance.n, batch_size)
        return solutions

    def _python_solutions(self, instance: Instance) -> Iterator[Solution]:
        """The pure-Python search: an explicit stack of (row, free bits, columns, left, right)."""
        n = instance.n
        if n == 0:
            yield ()
            return
        full = (1 << n) - 1
        row_masks = _row_masks(instance)
        cols: list[int] = [0] * n
        # Explicit stack instead of recursion: (row, remaining free bits, columns, left, right).
        stack = [(0, row_masks[0], 0, 0, 0)]
        while stack:
            row, free, columns, left, right = stack.pop()
            if not free:
                continue
            bit = free & -free
            stack.append((row, free ^ bit, columns, left, right))
            cols[row] = bit.bit_length() - 1
            if row == n - 1:
                yield tuple(cols)
                continue
            next_columns = columns | bit
            next_left = ((left | bit) << 1) & full
            next_right = (right | bit) >> 1
            next_free = row_masks[row + 1] & ~(next_columns | next_left | next_right)
            stack.append((row + 1, next_free, next_columns, next_left, next_right))

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        """The number of solutions, or of symmetry classes with ``unique``; at most ``limit``.

        An empty board is counted by start constellations with the full symmetry group (see
        :meth:`count_constellation_batch`); pre-placed queens or a limit use the plain search (no
        symmetry is exact there).
        """
        if limit is not None and limit < 0:
            raise BackendOptionError(f"limit must be >= 0, got {limit}")
        if unique and instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        self.ensure_available()
        if limit is None and not instance.fixed:
            counted = self._count_empty(instance.n)
            return counted.classes if unique else counted.total
        kernel = self._kernel(instance)
        if kernel is None:
            if unique or limit is not None:
                return super().count(instance, limit=limit, unique=unique)
            return self._python_count(instance)
        if unique:
            return super().count(instance, limit=limit, unique=True)
        return int(kernel.count_masked(_row_masks(instance), limit))

    def _python_count(self, instance: Instance) -> int:
        """The pure-Python count: recursion that counts the free squares of the last row."""
        n = instance.n
        if n == 0:
            return 1
        full = (1 << n) - 1
        row_masks = _row_masks(instance)

        def count_from(row: int, columns: int, left: int, right: int) -> int:
            free = row_masks[row] & ~(columns | left | right)
            if row == n - 1:
                return bin(free).count("1")
            total = 0
            while free:
                bit = free & -free
                free ^= bit
                total += count_from(row + 1, columns | bit, ((left | bit) << 1) & full, (right | bit) >> 1)
            return total

        return count_from(0, 0, 0, 0)

    def count_with_classes(self, instance: Instance) -> tuple[int, int]:
        """``(solutions, symmetry classes)`` of an empty board in one pass (OEIS A000170, A002562)."""
        if instance.fixed:
            raise NQueensError("counting symmetry classes needs an instance with no pre-placed queens")
        counted = self._count_empty(instance.n)
        return counted.total, counted.classes

    def _count_empty(self, n: int) -> constellations.ConstellationCount:
        """Solutions and classes of the empty n x n board, by start constellations."""
        if n < constellations.MIN_N:
            return constellations.small_board_count(n)
        return self.count_constellation_batch(n, 0, 1)

    def count_constellation_batch(self, n: int, index: int, batches: int) -> constellations.ConstellationCount:
        """Solutions and classes contributed by batch ``index`` of ``batches`` of the start
        constellations of the empty n x n board (see :func:`constellations.batch`); the batches
        of one ``batches`` add up to the board's counts. Pure Python up to ``PYTHON_COUNT_MAX_N``
        or with ``kernel=python``, else the compiled kernel."""
        items = constellations.batch(constellations.constellations(n), index, batches)
        if n <= PYTHON_COUNT_MAX_N or self._kernel(Instance(n)) is None:
            return constellations.count_batch(n, items)
        try:
            from ..searches import constellations_kernel
        except ImportError as error:  # pragma: no cover - numba is a dependency
            raise BackendUnavailableError(f"backend bitboard: the compiled kernel needs numba ({error})") from None
        return constellations_kernel.count_batch(n, items)
