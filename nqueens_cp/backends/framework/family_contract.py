"""The N-Queens family's part of the backend contract: the problems beside the classic one that a
backend declares (``family``, ``family_counts``, ``family_class_counts``, ``family_enumerations``),
the public entry points that answer them (:meth:`FamilyContract.solve_family`,
:meth:`~FamilyContract.count_family`, :meth:`~FamilyContract.count_family_classes`,
:meth:`~FamilyContract.family_solutions`) with their checks and one-line refusals, and the hooks a
backend implements for what it declares.

:class:`~nqueens_cp.backends.framework.base.Backend` inherits it: adapters subclass ``Backend``
alone, and every answer here is passed by the independent checker
(:mod:`nqueens_cp.core.family_checker`) before it is returned.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Mapping

from nqueens_cp.backends.framework.limits import refuse_slow_optimum, refuse_slow_placement
from nqueens_cp.backends.framework.streams import as_queens, check_stream_arguments, close_stream
from nqueens_cp.core.errors import BackendOptionError, InvalidWitnessError, NQueensError
from nqueens_cp.core.family_checker import witness_problems, witness_value
from nqueens_cp.core.instance import Queens, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.core.symmetry import is_canonical, is_torus_canonical

__all__ = ["FamilyContract"]


class FamilyContract:
    """The family's entry points of :class:`~nqueens_cp.backends.framework.base.Backend` (which
    inherits this class; subclass ``Backend``, not this). A backend declares the problems it
    answers in the four sets below and implements the matching hook (``_solve_family``,
    ``_count_family``, ``_count_family_classes``, ``_family_solutions``); a problem it does not
    declare is refused in one line."""

    #: The backend's name (set by each ``Backend``).
    name: ClassVar[str]
    #: The backend's options (set by ``Backend``'s constructor).
    options: Mapping[str, Any]
    #: The problems of the N-Queens family it answers (:mod:`nqueens_cp.core.problems`) by
    #: :meth:`solve_family`, beside the classic problem of ``Backend``'s own methods.
    family: ClassVar[frozenset[Problem]] = frozenset()
    #: The placement problems of the family (toroidal, superqueens) it counts by :meth:`count_family`.
    family_counts: ClassVar[frozenset[Problem]] = frozenset()
    #: The placement problems whose placements it counts up to the problem's symmetries by
    #: :meth:`count_family_classes` (the torus's for toroidal queens, the square's for superqueens).
    family_class_counts: ClassVar[frozenset[Problem]] = frozenset()
    #: The placement problems whose placements it enumerates by :meth:`family_solutions`.
    family_enumerations: ClassVar[frozenset[Problem]] = frozenset()

    if TYPE_CHECKING:
        @classmethod
        def ensure_available(cls) -> None:
            """Defined by ``Backend``: raise when the backend cannot run here."""

    def solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The answer to the family ``problem`` on the n x n board (n >= 1): an optimum and its
        witness (``proved`` False when a time limit stopped the search first: the best found), or a
        placement of n pieces. The witness is checked by the independent checker
        (:mod:`nqueens_cp.core.family_checker`) before it is returned; a backend that does not take
        ``problem`` (``family``) refuses in one line."""
        self._refuse_family(problem, n, self.family, "take")
        refuse_slow_optimum(problem, n, self.name, self.options)
        refuse_slow_placement(problem, n, self.name, self.options)
        self.ensure_available()
        answer = self._solve_family(problem, n)
        if answer.witness is not None:
            problems = witness_problems(problem, n, answer.witness)
            if problems:
                raise InvalidWitnessError(f"{self.name} returned an invalid witness of {problem.value} for n = {n}: {problems[0]}")
            if answer.value != witness_value(problem, answer.witness):
                raise InvalidWitnessError(f"{self.name} claimed the value {answer.value} for a witness of value "
                                  f"{witness_value(problem, answer.witness)} ({problem.value}, n = {n})")
        return answer

    def _refuse_family(self, problem: Problem, n: int, declared: frozenset[Problem], what: str) -> None:
        """Refuse, in one line, a ``problem`` not ``declared`` (the backend does not ``what`` it) or a
        board size n that is not an integer >= 1."""
        if problem not in declared:
            raise NQueensError(f"backend {self.name} does not {what} problem {problem.value}")
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise BackendOptionError(f"n must be an integer >= 1, got {n!r}")

    def count_family(self, problem: Problem, n: int) -> int:
        """The number of placements of the family ``problem`` (toroidal queens, superqueens) on the
        n x n board; a backend that does not count ``problem`` (``family_counts``) refuses in one line."""
        self._refuse_family(problem, n, self.family_counts, "count placements of")
        self.ensure_available()
        return self._count_family(problem, n)

    def count_family_classes(self, problem: Problem, n: int) -> int:
        """The placements of the family ``problem`` on the n x n board up to its symmetries: the
        square's 8 for superqueens (A051224), the torus's rotations, reflections and shifts for
        toroidal queens (A053994); a backend that does not count them (``family_class_counts``)
        refuses in one line."""
        self._refuse_family(problem, n, self.family_class_counts, "count classes of placements of")
        self.ensure_available()
        return self._count_family_classes(problem, n)

    def family_solutions(self, problem: Problem, n: int, *, limit: int | None = None,
                         unique: bool = False) -> Iterator[Queens]:
        """A lazy iterator over the placements of the family ``problem`` (toroidal queens,
        superqueens) on the n x n board, at most ``limit`` of them, each a
        :class:`~nqueens_cp.core.instance.Queens` (the column of each row's piece), as
        :meth:`solutions` gives the classic ones. With ``unique``, one per class of the problem's
        symmetries, its lexicographically smallest member: the square's 8 for superqueens
        (A051224), the torus's 8 n² for toroidal queens (A053994). Each is checked by the
        independent checker (:mod:`nqueens_cp.core.family_checker`) before it is yielded: an
        invalid one raises ``InvalidWitnessError``. A backend that does not enumerate ``problem``
        (``family_enumerations``) refuses in one line; closing the iterator stops the search."""
        self._refuse_family(problem, n, self.family_enumerations, "enumerate placements of")
        check_stream_arguments(limit, unique)
        self.ensure_available()
        if limit == 0:
            return iter(())
        stream = self._family_solutions(problem, n, None if unique else limit)
        source: Iterator[Solution] = stream
        if unique:
            representative = is_torus_canonical if problem is Problem.TOROIDAL else is_canonical
            source = filter(representative, stream)
        return self._checked_placements(problem, n, as_queens(source, limit), stream)

    def lexicographic_family_solutions(self, problem: Problem) -> bool:
        """Whether :meth:`family_solutions` of ``problem`` yields the placements in strictly
        increasing lexicographic order (the command line then finds a repeat in O(1) memory)."""
        return False

    def _checked_placements(self, problem: Problem, n: int, placements: Iterator[Queens],
                            stream: Iterator[Solution]) -> Iterator[Queens]:
        """``placements`` (drawn from the backend's ``stream``), each passed by the independent
        checker before it is passed on; closing this closes the stream (it stops the search)."""
        try:
            for placement in placements:
                problems = witness_problems(problem, n, placement)
                if problems:
                    raise InvalidWitnessError(f"{self.name} returned an invalid placement of {problem.value} for "
                                              f"n = {n}: ({' '.join(map(str, placement))}): {problems[0]}")
                yield placement
        finally:
            for source in (placements, stream):
                close_stream(source)

    def _family_solutions(self, problem: Problem, n: int, limit: int | None) -> Iterator[Solution]:
        """Yield every placement of ``problem`` (one of ``family_enumerations``) on the n x n board
        once, lazily; ``limit`` is a hint to stop early."""
        raise NotImplementedError(f"backend {self.name} declares family enumerations but has no _family_solutions")

    def _count_family_classes(self, problem: Problem, n: int) -> int:
        """The classes of placements of ``problem`` (one of ``family_class_counts``)."""
        raise NotImplementedError(f"backend {self.name} declares family class counts but has no _count_family_classes")

    def _count_family(self, problem: Problem, n: int) -> int:
        """The placements of ``problem`` (one of ``family_counts``) on the n x n board."""
        raise NotImplementedError(f"backend {self.name} declares family counts but has no _count_family")

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The answer to ``problem`` (one of ``family``) on the n x n board."""
        raise NotImplementedError(f"backend {self.name} declares family problems but has no _solve_family")
