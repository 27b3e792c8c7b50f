"""Tasks: what one run asks of a backend, and what counts as a right answer.

A run of the harness is (configuration, instance, repetition) under a *task*. The task decides
which solutions the worker asks the backend for (all of them, only the first, ...), which
instances a board size stands for, what count is expected, whether the sets of different
configurations must be equal, and which boards are acceptable answers. The runner, the worker
and the validation know nothing else about the task, so a new kind of run is a new subclass
registered in ``TASKS``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Mapping, Sequence

from ..backends.base import Backend, ModelSize
from ..checker import solution_problems
from ..errors import NQueensError
from ..instance import Instance, Solution
from ..oeis import known_count
from ..symmetry import is_canonical


@dataclass(frozen=True)
class TaskInfo:
    """What a saved comparison says about its task (enough to render a report without the task)."""

    name: str
    title: str
    expected_label: str
    exhaustive: bool
    parameters: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class Task(ABC):
    """One kind of run. Subclasses are frozen dataclasses (they are sent to worker processes)."""

    #: Name used on the command line and in saved results.
    name: ClassVar[str]
    #: Whether each run yields the complete solution set, so the sets of all configurations must be equal.
    exhaustive: ClassVar[bool]
    #: Whether a count can be published for the task's instances (False: no ``count`` check at all).
    counts_known: ClassVar[bool] = True

    @property
    @abstractmethod
    def title(self) -> str:
        """A short human description, used in report titles."""

    @property
    @abstractmethod
    def expected_label(self) -> str:
        """Where the expected counts come from (for example ``A000170``)."""

    @abstractmethod
    def instances(self, n: int) -> tuple[Instance, ...]:
        """The instances that board size ``n`` stands for under this task."""

    @abstractmethod
    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        """The solutions the backend is asked for (called in the worker process, timed)."""

    @abstractmethod
    def expected_count(self, instance: Instance) -> int | None:
        """How many solutions a correct run yields, or None when unknown."""

    def solution_problems(self, instance: Instance, solution: Sequence[int]) -> list[str]:
        """Why ``solution`` is not an acceptable answer (empty when it is): the independent checker."""
        return solution_problems(instance, solution)

    def model_size(self, backend: Backend, instance: Instance) -> ModelSize | None:
        """The size of the model the backend builds for this task's runs."""
        return backend.model_size(instance)

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        """The task's parameters, for saved results and the command line."""
        return ()

    def info(self) -> TaskInfo:
        """The task described as data."""
        return TaskInfo(self.name, self.title, self.expected_label, self.exhaustive, self.parameters())


@dataclass(frozen=True)
class AllSolutions(Task):
    """Enumerate every solution of the empty n x n board (or one per symmetry class with ``unique``)."""

    name: ClassVar[str] = "all"
    exhaustive: ClassVar[bool] = True
    unique: bool = False

    @property
    def title(self) -> str:
        return "fundamental solutions (one per symmetry class)" if self.unique else "all solutions"

    @property
    def expected_label(self) -> str:
        return "A002562" if self.unique else "A000170"

    def instances(self, n: int) -> tuple[Instance, ...]:
        return (Instance(n),)

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return backend.solutions(instance, unique=self.unique)

    def expected_count(self, instance: Instance) -> int | None:
        if instance.fixed:
            return None
        return known_count(instance.n, unique=self.unique)

    def model_size(self, backend: Backend, instance: Instance) -> ModelSize | None:
        return backend.model_size(instance, unique=self.unique)

    def solution_problems(self, instance: Instance, solution: Sequence[int]) -> list[str]:
        problems = super().solution_problems(instance, solution)
        if self.unique and not problems and not is_canonical(tuple(solution)):
            problems.append("not the canonical (lexicographically smallest) member of its symmetry class")
        return problems

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        return (("unique", self.unique),)


def first_solution_of(backend: Backend, instance: Instance) -> Iterator[Solution]:
    """The backend's first-solution search, as the iterator a task yields (empty when there is none)."""
    solution = backend.first_solution(instance)
    if solution is not None:
        yield solution


@dataclass(frozen=True)
class FirstSolution(Task):
    """Find one solution of the empty n x n board (or show there is none)."""

    name: ClassVar[str] = "first"
    exhaustive: ClassVar[bool] = False

    @property
    def title(self) -> str:
        return "first solution"

    @property
    def expected_label(self) -> str:
        return "min(1, A000170)"

    def instances(self, n: int) -> tuple[Instance, ...]:
        return (Instance(n),)

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return first_solution_of(backend, instance)

    def expected_count(self, instance: Instance) -> int | None:
        if instance.fixed:
            return None
        known = known_count(instance.n)
        if known is None:
            # Every n >= 4 has a solution (explicit constructions exist for all of them).
            return 1 if instance.n >= 4 else None
        return min(1, known)


@dataclass(frozen=True)
class Completion(Task):
    """Complete random partial boards: ``instances`` boards per n with ``preplaced`` queens each.

    The boards come from :func:`nqueens_cp.completion.completion_instances` (reproducible from
    ``seed``). Each run asks for one completion; a configuration that answers "none" where
    another found a valid completion fails the ``answer`` check.
    """

    name: ClassVar[str] = "complete"
    exhaustive: ClassVar[bool] = False
    counts_known: ClassVar[bool] = False  # whether a board has a completion is what the runs find out
    preplaced: int = 1
    instances_per_n: int = 1
    seed: int = 0

    @property
    def title(self) -> str:
        return (f"completion of {self.preplaced} pre-placed queens ({self.instances_per_n} random instances "
                f"per n, seed {self.seed})")

    @property
    def expected_label(self) -> str:
        return "unknown (NP-complete)"

    def instances(self, n: int) -> tuple[Instance, ...]:
        from ..completion import completion_instances

        return completion_instances(n, self.preplaced, self.instances_per_n, self.seed)

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return first_solution_of(backend, instance)

    def expected_count(self, instance: Instance) -> int | None:
        return None

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        return (("preplaced", self.preplaced), ("instances", self.instances_per_n), ("seed", self.seed))


#: Every task by name. Register a new kind of run here.
TASKS: Mapping[str, type[Task]] = {cls.name: cls for cls in (AllSolutions, FirstSolution, Completion)}


def make_task(name: str, **parameters: Any) -> Task:
    """The task called ``name`` with ``parameters`` (``make_task("all", unique=True)``)."""
    try:
        cls = TASKS[name]
    except KeyError:
        raise NQueensError(f"unknown task {name!r} (choose from {', '.join(TASKS)})") from None
    try:
        return cls(**parameters)
    except TypeError as error:
        raise NQueensError(f"task {name}: {error}") from None
