"""``bitboard``: backtracking on bit masks, compiled with numba (:mod:`nqueens_cp.searches`).

``kernel=compiled`` (the default) runs the numba kernels of
:mod:`~nqueens_cp.searches.bitboard_kernel`: counting on an empty board uses the square's 8
symmetries (one pass gives the total and the number of classes), and enumeration streams
solutions from compiled code in batches. ``kernel=python`` is the readable pure-Python search of
:mod:`~nqueens_cp.searches.bitboard`, also used for boards larger than the compiled kernel's
``MAX_N``. numba is imported only when the compiled kernel is first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..errors import BackendUnavailableError, NQueensError
from ..instance import Instance, Solution
from ..searches.bitboard import bitboard_count, bitboard_solutions, row_masks
from .base import Backend, OptionSpec
from .limits import refuse_row_order_first

if TYPE_CHECKING:
    from types import ModuleType

#: Boards up to this size use the compiled kernel (kept equal to ``bitboard_kernel.MAX_N``;
#: repeated here so that choosing a kernel does not import numba).
COMPILED_MAX_N = 32

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
            from ..searches import bitboard_kernel
        except ImportError as error:
            raise BackendUnavailableError(
                f"backend bitboard: the compiled kernel needs numba ({error}); "
                "pip install numba, or use -O kernel=python"
            ) from None
        return bitboard_kernel

    def _batch_size(self, limit: int | None) -> int:
        batch_size: int = self.options["batch_size"]
        return batch_size if limit is None else max(1, min(batch_size, limit))

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        kernel = self._kernel(instance)
        if kernel is None:
            return bitboard_solutions(instance)
        solutions: Iterator[Solution] = kernel.iter_solutions(row_masks(instance), self._batch_size(limit))
        return solutions

    def _first_solution(self, instance: Instance) -> Solution | None:
        refuse_row_order_first(instance, "bitboard")
        return super()._first_solution(instance)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        kernel = self._kernel(instance)
        if kernel is None:
            return super()._unique_solutions(instance, limit)
        solutions: Iterator[Solution] = kernel.iter_unique_solutions(instance.n, self._batch_size(limit))
        return solutions

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """With the compiled kernel an empty board is counted with the full symmetry group; pre-placed
        queens or a limit use the plain compiled search (no symmetry is exact there)."""
        kernel = self._kernel(instance)
        if kernel is None:
            if unique or limit is not None:
                return super()._count(instance, limit, unique)
            return bitboard_count(instance)
        if limit is None and not instance.fixed:
            total, classes = kernel.count_symmetric(instance.n)
            return int(classes if unique else total)
        if unique:
            return super()._count(instance, limit, unique)
        return int(kernel.count_masked(row_masks(instance), limit))

    def count_with_classes(self, instance: Instance) -> tuple[int, int]:
        """``(solutions, symmetry classes)`` of an empty board in one pass (OEIS A000170, A002562)."""
        if instance.fixed:
            raise NQueensError("counting symmetry classes needs an instance with no pre-placed queens")
        kernel = self._kernel(instance)
        if kernel is None or instance.n == 0:
            return self.count(instance), self.count(instance, unique=True)
        total, classes = kernel.count_symmetric(instance.n)
        return int(total), int(classes)
