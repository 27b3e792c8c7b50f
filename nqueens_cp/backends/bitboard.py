"""``bitboard``: backtracking on bit masks.

Bit ``c`` of ``columns`` is set when column ``c`` holds a queen. ``left`` and ``right`` hold the
squares of the current row attacked along the two diagonals; moving down one row shifts them by
one bit. The free squares of a row are ``~(columns | left | right) & full``; the lowest free
bit is taken with ``free & -free``. A pre-placed queen's row offers only its own bit.

Two kernels run this search. ``kernel=compiled`` (the default) uses the numba kernels of
``bitboard_kernel``: counting on an empty board uses the square's 8 symmetries (one pass gives
the total and the number of classes), and enumeration streams solutions from compiled code in
batches. ``kernel=python`` is the readable pure-Python version below, kept as the reference; it
is also used for boards larger than the compiled kernel's ``MAX_N``. numba is imported only when
the compiled kernel is first used, so neither start-up nor the other backends pay for it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..errors import BackendOptionError, BackendUnavailableError, NQueensError
from ..instance import Instance, Solution
from .base import Backend, OptionSpec

if TYPE_CHECKING:
    from types import ModuleType

#: Boards up to this size use the compiled kernel (kept equal to ``bitboard_kernel.MAX_N``;
#: duplicated here so that choosing a kernel does not import numba).
COMPILED_MAX_N = 32


def _row_masks(instance: Instance) -> list[int]:
    """Per row, the columns a queen may take there: the pre-placed one or all, less blocked squares."""
    return [sum(1 << col for col in instance.allowed_columns(row)) for row in range(instance.n)]


class BitboardBackend(Backend):
    name = "bitboard"
    summary = "backtracking on bit masks (columns and both diagonals as integers), compiled with numba"
    supports_blocked = True
    option_specs = (
        OptionSpec(
            "search", str, "rows",
            "rows: fill the rows in order; lines: the most constrained row or column first "
            "(searches/lines_kernel.py, compiled, n <= 64; for blocked squares and completion)",
            choices=("rows", "lines"),
        ),
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

    def _lines(self) -> ModuleType | None:
        """The most-constrained-line kernel module with ``search=lines``, else None."""
        if self.options["search"] != "lines":
            return None
        try:
            from ..searches import lines_kernel
        except ImportError as error:
            raise BackendUnavailableError(f"backend bitboard: search=lines needs numba ({error})") from None
        return lines_kernel

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        lines = self._lines()
        if lines is not None:
            size = self.options["batch_size"] if limit is None else max(1, min(self.options["batch_size"], limit))
            solutions: Iterator[Solution] = lines.iter_solutions(instance, size)
            return solutions
        kernel = self._kernel(instance)
        if kernel is None:
            return self._python_solutions(instance)
        batch_size: int = self.options["batch_size"]
        if limit is not None:
            batch_size = max(1, min(batch_size, limit))
        return kernel.iter_solutions(_row_masks(instance), batch_size)  # type: ignore[no-any-return]

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

        With the compiled kernel an empty board is counted with the full symmetry group; pre-placed
        queens or a limit use the plain compiled search (no symmetry is exact there).
        """
        if limit is not None and limit < 0:
            raise BackendOptionError(f"limit must be >= 0, got {limit}")
        if unique and (instance.fixed or instance.blocked):
            raise NQueensError(
                "unique (solutions up to symmetry) needs an instance with no pre-placed queens or blocked squares"
            )
        self.ensure_available()
        self.check_supported(instance)
        lines = self._lines()
        if lines is not None and not unique:
            return int(lines.count(instance, limit, self.options["batch_size"]))
        kernel = self._kernel(instance)
        if kernel is None or lines is not None:
            if unique or limit is not None:
                return super().count(instance, limit=limit, unique=unique)
            return self._python_count(instance)
        if limit is None and not instance.fixed and not instance.blocked:
            total, classes = kernel.count_symmetric(instance.n)
            return int(classes if unique else total)
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
        if instance.fixed or instance.blocked:
            raise NQueensError("counting symmetry classes needs an instance with no pre-placed queens or blocked squares")
        kernel = self._kernel(instance)
        if kernel is None:
            return self.count(instance), self.count(instance, unique=True)
        total, classes = kernel.count_symmetric(instance.n)
        return int(total), int(classes)
