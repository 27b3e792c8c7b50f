"""``bitboard``: backtracking on bit masks, compiled with numba (:mod:`nqueens_cp.searches`).

``kernel=compiled`` (the default) runs the numba kernels of
:mod:`~nqueens_cp.searches.bitboard_kernel`: enumeration streams solutions from compiled code in
batches. Counting an empty board (``--count``, ``--count --unique``) uses start constellations
(:mod:`~nqueens_cp.searches.constellations`: the border queens fixed, one constellation per
class of the square's 8 symmetries, finished by the numba kernel of
:mod:`~nqueens_cp.searches.native.constellations_kernel`), so one pass gives the total and the number of
classes; boards up to ``PYTHON_COUNT_MAX_N`` are counted the same way in pure Python, where
importing numba would cost more than the whole count. ``kernel=python`` is the readable
pure-Python search of :mod:`~nqueens_cp.searches.bitboard`, also used for boards larger than the
compiled kernel's ``MAX_N``. numba is imported only when a compiled kernel is first used.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Iterator

from nqueens_cp.backends.framework.base import Backend, BatchCount, OptionSpec
from nqueens_cp.backends.framework.row_order import RowOrderBackend
from nqueens_cp.core.errors import BackendUnavailableError, ModelTooLargeError, NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.core.symmetry import SYMMETRIES, class_size
from nqueens_cp.searches import constellations
from nqueens_cp.searches.bitboard import COMPILED_MAX_N, bitboard_count, bitboard_solutions, row_masks
from nqueens_cp.system.interrupts import native_call

if TYPE_CHECKING:
    from types import ModuleType

    import numpy as np
    import numpy.typing as npt

#: Empty boards up to this size are counted in pure Python: importing numba and loading the
#: compiled kernel costs more than the whole count (measured: benchmarks/RESULTS.md).
PYTHON_COUNT_MAX_N = 13

class BitboardBackend(RowOrderBackend):
    name = "bitboard"
    summary = "backtracking on bit masks (columns and both diagonals as integers), compiled with numba"
    supports_blocked = True
    counts_constellation_batches = True
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
    row_order_label = "bitboard"
    #: The family's placement problems: the torus by its construction (any n), superqueens by theirs
    #: (n not 2 or 3 mod 6) or else the bitboard search; both counted by the compiled counters (:mod:`nqueens_cp.searches.family_kernel`).
    family = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    family_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and up to their symmetries: Burnside's lemma over the square's 8 (superqueens) or the
    #: torus's 8 n² (:mod:`nqueens_cp.searches.torus_classes`), the count itself by the counters.
    family_class_counts = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})
    #: ... and enumerated, streamed in lexicographic order by the compiled search
    #: (:func:`~nqueens_cp.searches.family_kernel.placements`; ``kernel=python``: the readable one).
    family_enumerations = frozenset({Problem.TOROIDAL, Problem.SUPERQUEENS})

    def _kernel(self, instance: Instance) -> ModuleType | None:
        """The compiled kernel module when it applies to ``instance``, else None (pure Python)."""
        if self.options["kernel"] != "compiled" or instance.n > COMPILED_MAX_N:
            return None
        try:
            from nqueens_cp.searches import bitboard_kernel
        except ImportError as error:
            raise _needs_numba(error) from None
        return bitboard_kernel

    def _lines(self) -> ModuleType | None:
        """The most-constrained-line kernel module with ``search=lines``, else None."""
        if self.options["search"] != "lines":
            return None
        try:
            from nqueens_cp.searches import lines_kernel
        except ImportError as error:
            raise BackendUnavailableError(f"backend bitboard: search=lines needs numba ({error})") from None
        return lines_kernel

    def _batch_size(self, limit: int | None) -> int:
        batch_size: int = self.options["batch_size"]
        return batch_size if limit is None else max(1, min(batch_size, limit))

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        lines = self._lines()
        if lines is not None:
            found: Iterator[Solution] = lines.iter_solutions(instance, self._batch_size(limit))
            return found
        kernel = self._kernel(instance)
        if kernel is None:
            return bitboard_solutions(instance)
        solutions: Iterator[Solution] = kernel.iter_solutions(row_masks(instance), self._batch_size(limit))
        return solutions

    def _solution_arrays(self, instance: Instance, limit: int | None, unique: bool) -> Iterator[npt.NDArray[np.int64]] | None:
        kernel = None if unique or self._lines() is not None else self._kernel(instance)
        if kernel is None or not self._own_search():
            return None
        batches: Iterator[npt.NDArray[np.int64]] = kernel.iter_solution_arrays(row_masks(instance), self._batch_size(limit))
        return batches

    def lexicographic_solutions(self, unique: bool = False) -> bool:
        # both kernels fill the rows in order, each with its columns upwards
        return not unique and self._searches_rows() and self._own_search()

    def _own_search(self) -> bool:
        """Whether the boards are this class's (a subclass that yields its own says nothing of them)."""
        return type(self)._solutions is BitboardBackend._solutions

    def _first_solution(self, instance: Instance) -> Solution | None:
        self._refuse_row_order_first(instance)
        return super()._first_solution(instance)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        kernel = self._kernel(instance)
        if kernel is None:
            return super()._unique_solutions(instance, limit)
        solutions: Iterator[Solution] = kernel.iter_unique_solutions(instance.n, self._batch_size(limit))
        return solutions

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """An empty board is counted by start constellations with the full symmetry group (see
        :meth:`count_constellation_batch`); pre-placed queens, blocked squares or a limit use the plain
        search (no symmetry is exact there). ``search=lines`` counts with its own kernel."""
        lines = self._lines()
        if lines is not None and not unique:
            with native_call():  # a compiled search: the signal ends the process (see interrupts)
                return int(lines.count(instance, limit, self.options["batch_size"]))
        if limit is None and not instance.fixed and not instance.blocked:
            counted = self._count_empty(instance.n)
            return counted.classes if unique else counted.total
        kernel = self._kernel(instance)
        if kernel is None:
            if unique or limit is not None:
                return super()._count(instance, limit, unique)
            return bitboard_count(instance)
        if unique:
            return super()._count(instance, limit, unique)
        with native_call():
            return int(kernel.count_masked(row_masks(instance), limit))

    def _count_empty(self, n: int) -> constellations.ConstellationCount:
        """Solutions and classes of the empty n x n board, by start constellations."""
        if n < constellations.MIN_N:
            return constellations.small_board_count(n)
        return self.count_constellation_batch(n, 0, 1)

    def start_constellations(self, n: int) -> int:
        return len(constellations.constellations(n)) if n >= constellations.MIN_N else 0

    def batch_count_releases_gil(self, n: int) -> bool:
        """Whether :meth:`count_constellation_batch` of n runs the compiled kernel, which releases
        the GIL (so threads of one process count batches side by side). Imports nothing."""
        return PYTHON_COUNT_MAX_N < n <= COMPILED_MAX_N and self.options["kernel"] == "compiled"

    def count_constellation_batch(self, n: int, index: int, batches: int) -> constellations.ConstellationCount:
        """Solutions and classes contributed by batch ``index`` of ``batches`` of the start
        constellations of the empty n x n board (see :func:`constellations.batch`); the batches of
        one ``batches`` add up to the board's counts. Pure Python up to ``PYTHON_COUNT_MAX_N`` or
        with ``kernel=python``, else the compiled kernel."""
        items = constellations.batch(constellations.constellations(n), index, batches)
        if not self.batch_count_releases_gil(n):
            return constellations.count_batch(n, items)
        try:  # not through _kernel: counting needs none of bitboard_kernel (0.1 s to import)
            from nqueens_cp.searches.native import constellations_kernel

            with native_call():
                return constellations_kernel.count_batch(n, items)  # compiles on first use: needs numba
        except ImportError as error:
            raise _needs_numba(error) from None

    def recount_constellation_batch(self, n: int, index: int, batches: int, counter: Backend) -> BatchCount:
        """The batch counted constellation by constellation by ``counter.count`` of the board with
        that constellation's queens pre-placed (for ``bitboard`` the row-by-row search, compiled or
        not: none of the constellation finishing code). A solution holding those queens has no
        other queen on the border lines, so it is a completion. Each constellation stands for the
        solutions of its class of images, found here from the symmetries of the square directly
        (:data:`~nqueens_cp.core.symmetry.SYMMETRIES`); the squares those queens attack are given as
        blocked to a counter that takes blocked squares, so that a row search prunes early. Its solution classes are the sum over its
        completions of ``weight / class_size`` (enumerated only for the rare constellations a
        rotation maps to themselves: otherwise every completion's class has 8 members)."""
        total, classes = 0, Fraction(0)
        for item in constellations.batch(constellations.constellations(n), index, batches):
            queens = sorted(constellations.queens_of(n, item.key))
            weight = len({frozenset(s.map_square(n, row, col) for row, col in queens) for s in SYMMETRIES})
            board = Instance(n, queens, _attacked(n, queens) if counter.supports_blocked else ())
            if weight == 8:
                completions = counter.count(board)
                classes += completions
            else:
                found = list(counter.solutions(board))
                completions = len(found)
                classes += sum(Fraction(weight, class_size(solution)) for solution in found)
            total += weight * completions
        if classes.denominator != 1:
            raise NQueensError(f"batch {index} of {batches} of n={n}: {classes} solution classes is not whole")
        return constellations.ConstellationCount(total, int(classes))

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        from nqueens_cp.searches import family

        if problem is Problem.TOROIDAL:
            placement = family.toroidal_placement(n)
        else:
            placement = family.superqueens_placement(n) or family.first(problem.rules, n)
        return FamilyAnswer(problem, n, placement, None if placement is None else n, True)

    def _count_family(self, problem: Problem, n: int) -> int:
        if self.options["kernel"] == "python":
            from nqueens_cp.searches import family

            return family.count(problem.rules, n)
        from nqueens_cp.searches import family_kernel

        if n > family_kernel.MAX_N:
            raise ModelTooLargeError(f"bitboard counts placements of {problem.value} up to n = {family_kernel.MAX_N} "
                                     f"(its 64-bit masks; n = {n})")
        return family_kernel.count(problem.rules, n)

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        if self.options["kernel"] == "python":
            from nqueens_cp.searches import family

            return family.bitboard_solutions(problem.rules, n)
        from nqueens_cp.searches import family_kernel

        if n > family_kernel.MAX_N:
            raise ModelTooLargeError(f"bitboard enumerates placements of {problem.value} up to n = "
                                     f"{family_kernel.MAX_N} (its 64-bit masks; n = {n})")
        return family_kernel.placements(problem.rules, n, self._batch_size(limit))

    def lexicographic_family_solutions(self, problem: Problem) -> bool:
        return True

    def _count_family_classes(self, problem: Problem, n: int) -> int:
        total = self._count_family(problem, n)
        if problem is Problem.TOROIDAL:
            from nqueens_cp.searches import torus_classes

            return torus_classes.torus_classes(n, total).classes
        from nqueens_cp.searches import family_kernel

        return family_kernel.unique_count(problem.rules, n, total=total)


def _needs_numba(error: ImportError) -> BackendUnavailableError:
    """The one-line error of a compiled kernel that cannot be imported."""
    return BackendUnavailableError(
        f"backend bitboard: the compiled kernel needs numba ({error}); pip install numba, or use option kernel=python"
    )


def _attacked(n: int, queens: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The squares of the n x n board that ``queens`` attack (no queen of a solution holding them
    stands there), the queens' own squares left out."""
    return [
        (row, col) for row in range(n) for col in range(n)
        if (row, col) not in queens
        and any(row == r or col == c or abs(row - r) == abs(col - c) for r, c in queens)
    ]
