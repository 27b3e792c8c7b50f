"""Splitting an instance into independent sub-problems by fixing the queens of its first rows.

This is the "cube" half of cube-and-conquer. For split depth ``K`` every consistent way of placing
the queens of rows ``0 .. K-1`` (no two attacking each other, none attacking a pre-placed queen,
and a pre-placed queen in one of those rows kept where it is) becomes one sub-problem:
``instance.with_fixed(prefix)``, an ordinary :class:`~nqueens_cp.core.instance.Instance` that every
backend solves unchanged. The sub-problems partition the solutions of the instance: every
solution extends exactly one prefix.

The first-row mirror
--------------------
Reflecting the board left to right (column ``c`` -> ``n - 1 - c``) maps solutions to solutions,
and a solution whose row-0 queen is in column ``c`` to one whose row-0 queen is in ``n - 1 - c``.
When the instance has **no pre-placed queens** (so the reflection maps the instance to itself)
and ``K >= 1``, the plan keeps only the prefixes whose row-0 queen is in the left half or, for
odd ``n``, the middle column:

* a sub-problem with its row-0 queen in column ``c < n // 2`` has ``weight`` 2 and ``mirrored``
  set: it stands for itself and for its mirror image (row-0 queen in ``n - 1 - c``, which is
  ``> c``, so the two sets of solutions are disjoint). Counting multiplies its count by 2;
  enumerating yields each of its solutions and then that solution reflected (:func:`mirror`).
* the sub-problem with its row-0 queen in the middle column (odd ``n``) has ``weight`` 1 and is
  not mirrored: the mirror of such a solution also has its row-0 queen in the middle column, so
  the sub-problem already contains it.

With pre-placed queens, or ``K = 0``, the plan is the plain split with every weight 1.

Constellation batches
---------------------
Counting an empty board with a backend that counts start constellations (``bitboard``, see
:mod:`nqueens_cp.searches.constellations`) splits differently (:func:`split_constellations`):
sub-problem ``i`` of ``B`` is every ``B``-th canonical start constellation from the ``i``-th on.
Each constellation already stands for its whole class of the square's 8 symmetries, so the split
keeps the full symmetry (a row split keeps only the mirror), and the batches add up to the
board's count and to its number of classes. A task carries only ``(i, B)``: the worker generates
the constellations itself.
Every canonical solution (the smallest of its 8 images, see :mod:`nqueens_cp.core.symmetry`) has its
row-0 queen in the left half or the middle, so a symmetric plan also holds every canonical one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Iterator

from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import MIRROR_IMAGE


@dataclass(frozen=True)
class SubProblem:
    """One piece of a split: the instance with the queens of the first rows fixed.

    ``prefix`` holds the columns of rows ``0 .. depth-1`` (pre-placed queens included);
    ``weight`` is how many sub-problems of the full split this one stands for (1 or 2), and
    ``mirrored`` says its solutions must also be reflected left-right to cover the other one.
    ``batches`` is non-zero for a batch of start constellations: this is batch ``index`` of
    ``batches`` (``prefix`` is then empty and ``instance`` the whole board).
    """

    index: int
    prefix: tuple[int, ...]
    instance: Instance
    weight: int = 1
    mirrored: bool = False
    batches: int = 0

    def label(self) -> str:
        """A short human description: ``#7 (rows 0-1 = 2,5)``."""
        if self.batches:
            return f"#{self.index} (constellation batch {self.index + 1} of {self.batches})"
        if not self.prefix:
            return f"#{self.index} (whole instance)"
        rows = "row 0" if len(self.prefix) == 1 else f"rows 0-{len(self.prefix) - 1}"
        return f"#{self.index} ({rows} = {','.join(map(str, self.prefix))})"


@dataclass(frozen=True)
class SplitPlan:
    """An instance split at a depth into sub-problems whose results add up to the instance's."""

    instance: Instance
    depth: int
    symmetric: bool
    subproblems: tuple[SubProblem, ...]
    batches: int = 0

    def __len__(self) -> int:
        return len(self.subproblems)

    def total_count(self, counts: Iterable[tuple[int, int]], *, weighted: bool = True) -> int:
        """The instance's count from ``(index, count)`` pairs, one per sub-problem.

        With ``weighted`` (the default) each count is multiplied by its sub-problem's weight, the
        first-row mirror's factor 2; counts of symmetry classes (``unique``) are added unweighted.

        Raises ``NQueensError`` unless every sub-problem is given exactly once: a count that is
        missing a part (or has one twice) is never returned.
        """
        seen: dict[int, int] = {}
        for index, count in counts:
            if index in seen:
                raise NQueensError(f"sub-problem #{index} was counted twice")
            seen[index] = count
        missing = [sub.index for sub in self.subproblems if sub.index not in seen]
        if missing or len(seen) != len(self.subproblems):
            shown = ", ".join(f"#{i}" for i in missing[:5])
            raise NQueensError(f"incomplete result: {len(missing)} sub-problem(s) missing ({shown})")
        return sum((sub.weight if weighted else 1) * seen[sub.index] for sub in self.subproblems)


#: ``solution`` reflected left to right (column ``c`` becomes ``n - 1 - c``): the symmetry of
#: :mod:`nqueens_cp.core.symmetry` that maps the left half of the first row onto the right half.
mirror = MIRROR_IMAGE.apply


def expand(subproblem: SubProblem, solutions: Iterable[Solution]) -> Iterator[Solution]:
    """The solutions ``subproblem`` stands for: each one, then its mirror when it is ``mirrored``."""
    for solution in solutions:
        yield solution
        if subproblem.mirrored:
            yield mirror(solution)


def _prefixes(instance: Instance, depth: int, first_row_columns: range) -> Iterator[tuple[int, ...]]:
    """Consistent column choices for rows ``0 .. depth-1``, in lexicographic order."""
    n = instance.n
    fixed = instance.fixed_by_row
    later = [(r, c) for r, c in instance.fixed if r >= depth]

    def attacks(row: int, col: int, other_row: int, other_col: int) -> bool:
        return col == other_col or abs(col - other_col) == abs(row - other_row)

    def extend(prefix: list[int]) -> Iterator[tuple[int, ...]]:
        row = len(prefix)
        if row == depth:
            yield tuple(prefix)
            return
        columns: Iterable[int] = (fixed[row],) if row in fixed else range(n)
        if row == 0:
            columns = [c for c in columns if c in first_row_columns]
        for col in columns:
            if any(attacks(row, col, r, c) for r, c in enumerate(prefix)):
                continue
            if any(attacks(row, col, r, c) for r, c in later):
                continue
            prefix.append(col)
            yield from extend(prefix)
            prefix.pop()

    return extend([])


def split_instance(instance: Instance, depth: int, *, symmetry: bool = True) -> SplitPlan:
    """Split ``instance`` by fixing the queens of its first ``depth`` rows.

    ``depth`` is clamped to ``n``; ``depth = 0`` gives one sub-problem, the instance itself.
    With ``symmetry`` (the default) the first-row mirror is used when it is exact (no pre-placed
    queens and ``depth >= 1``), see the module documentation. Prefixes that attack each other or a
    pre-placed queen are left out: their sub-problems have no solutions.
    """
    if depth < 0:
        raise NQueensError(f"split depth must be >= 0, got {depth}")
    n = instance.n
    depth = min(depth, n)
    symmetric = symmetry and depth >= 1 and not instance.fixed
    first_row = range((n + 1) // 2) if symmetric else range(n)
    fixed_by_row = instance.fixed_by_row
    subproblems: list[SubProblem] = []
    for prefix in _prefixes(instance, depth, first_row):
        added = [(row, col) for row, col in enumerate(prefix) if row not in fixed_by_row]
        mirrored = symmetric and 2 * prefix[0] < n - 1
        subproblems.append(
            SubProblem(
                index=len(subproblems),
                prefix=prefix,
                instance=instance.with_fixed(added) if added else instance,
                weight=2 if mirrored else 1,
                mirrored=mirrored,
            )
        )
    return SplitPlan(instance=instance, depth=depth, symmetric=symmetric, subproblems=tuple(subproblems))


def split_constellations(instance: Instance, batches: int) -> SplitPlan:
    """Split the count of an empty board into ``batches`` batches of start constellations."""
    if instance.fixed:
        raise NQueensError("a constellation split needs an instance with no pre-placed queens")
    if batches < 1:
        raise NQueensError(f"the number of constellation batches must be >= 1, got {batches}")
    subproblems = tuple(
        SubProblem(index=index, prefix=(), instance=instance, batches=batches) for index in range(batches)
    )
    return SplitPlan(instance=instance, depth=0, symmetric=True, subproblems=subproblems, batches=batches)
