"""The task of the N-Queens family (:mod:`nqueens_cp.core.problems`): an optimum, or a first
placement, the count or every placement of a placement problem, compared across configurations
as the classic tasks (:mod:`nqueens_cp.harness.tasks`) compare N-Queens runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from nqueens_cp.backends.framework.base import Answer, Backend, ModelSize
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.names import Name
from nqueens_cp.core.problems import FamilyAnswer, Problem
from nqueens_cp.harness.tasks import Task


class FamilyQuestion(Name):
    """What a run of the family task asks (the values are ``compare --task`` words)."""

    #: The optimum of an optimisation problem, its witness, and whether it was proved.
    OPTIMUM = "optimum"
    #: A first placement of a placement problem (toroidal, superqueens), or that there is none.
    FIRST = "first"
    #: The number of placements of a placement problem.
    COUNT = "count"
    #: Every placement of a placement problem: the sets compared across configurations.
    ALL = "all"


#: Of the harness's ``timeout``, the share a family optimisation run's solver is given as its own
#: time limit: it then stops in time to hand back the best witness it found and the bound it
#: proved (a worker killed at the timeout hands back nothing).
SOLVER_TIME_SHARE = 0.8


@dataclass(frozen=True)
class FamilyTask(Task):
    """A problem of the N-Queens family (:mod:`nqueens_cp.core.problems`) on the n x n board.

    ``question`` is :attr:`FamilyQuestion.OPTIMUM` for the optimisation problems (domination,
    independent domination, colouring, peaceable armies): each run answers a value, its witness
    and whether the optimum was proved; a run that did not prove it within its solver time limit
    (:meth:`solver_time_limit`) is recorded as timed out, with the best value found and the bound
    proved. For the placement problems (toroidal, superqueens) it is ``first`` (a placement,
    checked, or that there is none), ``count`` (the placements, checked against OEIS) or ``all``
    (every placement, ``family_solutions``: the worker checks and stores the boards as for the
    classic enumeration, and the sets of all configurations must be equal, exactly or by
    fingerprint). The expected value is the problem's published term (``problem.sequences[0]``),
    when shipped.
    """

    name: ClassVar[str] = "family"
    exhaustive: ClassVar[bool] = False
    answer: ClassVar[Answer] = Answer.FIRST
    asks_family: ClassVar[bool] = True
    problem: str = Problem.DOMINATION.value
    question: str = FamilyQuestion.OPTIMUM.value

    def __post_init__(self) -> None:
        problem = Problem.named(self.problem)
        question = FamilyQuestion(self.question) if self.question in {q.value for q in FamilyQuestion} else None
        if question is None:
            raise NQueensError(f"unknown question {self.question!r} (choose from "
                               f"{', '.join(q.value for q in FamilyQuestion)})")
        if problem is Problem.QUEENS:
            raise NQueensError("the classic problem is compared by the other tasks (leave out --problem)")
        if problem.counts_placements == (question is FamilyQuestion.OPTIMUM):
            asked = "first, count or all" if problem.counts_placements else "optimum"
            raise NQueensError(f"problem {problem.value} asks for {asked}, not {question.value}")

    @property
    def family_problem(self) -> Problem:
        """The problem asked."""
        return Problem.named(self.problem)

    @property
    def family_question(self) -> FamilyQuestion:
        """What is asked of it."""
        return FamilyQuestion(self.question)

    @property
    def title(self) -> str:
        what = {FamilyQuestion.OPTIMUM: "the optimum", FamilyQuestion.FIRST: "a first placement",
                FamilyQuestion.COUNT: "the number of placements", FamilyQuestion.ALL: "all placements"}[self.family_question]
        return f"{self.problem}: {what}"

    @property
    def expected_label(self) -> str:
        sequence = self.family_problem.sequences[0]
        return f"min(1, {sequence})" if self.family_question is FamilyQuestion.FIRST else sequence

    def instances(self, n: int) -> tuple[Instance, ...]:
        return (Instance(n),)

    @property
    def warm_up(self) -> Instance:
        # the smallest torus with a placement: a board the searches do not answer by Polya's theorem alone
        return Instance(5)

    @property
    def asks_boards(self) -> bool:
        """Whether a run asks for every placement (``family_solutions``): its boards are checked,
        stored and fingerprinted as the classic enumeration's are."""
        return self.family_question is FamilyQuestion.ALL

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        if not self.asks_boards:
            raise NQueensError(f"task {self.name} asks solve_family or count_family, not boards")
        return backend.family_solutions(self.family_problem, instance.n)

    def solution_problems(self, instance: Instance, solution: Sequence[int]) -> list[str]:
        from nqueens_cp.core.family_checker import placement_problems

        return placement_problems(self.family_problem.rules, instance.n, solution)

    def expected_count(self, instance: Instance) -> int | None:
        from nqueens_cp.core.family_oeis import SEQUENCES

        published = SEQUENCES[self.family_problem.sequences[0]].get(instance.n)
        if published is None or self.family_question is not FamilyQuestion.FIRST:
            return published
        return min(1, published)

    def declared_by(self, backend: type[Backend]) -> bool:
        """Whether ``backend`` answers this task's question (its ``family``, ``family_counts`` or
        ``family_enumerations``)."""
        if self.family_question is FamilyQuestion.COUNT:
            return self.family_problem in backend.family_counts
        if self.family_question is FamilyQuestion.ALL:
            return self.family_problem in backend.family_enumerations
        return self.family_problem in backend.family

    def ask(self, backend: Backend, n: int) -> FamilyAnswer | int:
        """A run's question put to ``backend`` (in the worker, timed): the answer (its witness
        checked by the independent checker in ``solve_family``) or the count."""
        if self.family_question is FamilyQuestion.COUNT:
            return backend.count_family(self.family_problem, n)
        return backend.solve_family(self.family_problem, n)

    def model_size(self, backend: Backend, instance: Instance) -> ModelSize | None:
        return None  # each paradigm translates the family model its own way: the sizes are in docs/family.md

    def solver_time_limit(self, timeout: float) -> float | None:
        if self.family_question is not FamilyQuestion.OPTIMUM:
            return None
        return round(SOLVER_TIME_SHARE * timeout, 3)

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        share = (("solver_time_share", SOLVER_TIME_SHARE),) if self.family_question is FamilyQuestion.OPTIMUM else ()
        return (("problem", self.problem), ("question", self.question), *share)
