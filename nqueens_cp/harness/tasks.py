"""Tasks: what one run asks of a backend, and what counts as a right answer.

A run of the harness is (configuration, instance, repetition) under a *task*. The task decides
which solutions the worker asks the backend for (all of them, only the first, ...), which
instances a board size stands for, what count is expected, whether the sets of different
configurations must be equal, and which boards are acceptable answers. The runner, the worker
and the validation know nothing else about the task, so a new kind of run is a new subclass
registered in ``TASKS`` (:mod:`nqueens_cp.harness.task_registry`). This module holds the contract
(:class:`Task`) and the classic problem's tasks; the family's task is in
:mod:`nqueens_cp.harness.family_tasks`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Iterator, Sequence

from nqueens_cp.backends.framework.base import Answer, Backend, ModelSize
from nqueens_cp.core.checker import solution_problems
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.oeis import known_count
from nqueens_cp.core.symmetry import is_canonical


@dataclass(frozen=True)
class TaskInfo:
    """What a saved comparison says about its task (enough to render a report without the task)."""

    name: str
    title: str
    expected_label: str
    exhaustive: bool
    parameters: tuple[tuple[str, Any], ...] = ()
    #: Whether a timeout skipped the configuration's larger boards (``Task.skip_larger_after_timeout``);
    #: None in files before schema 2.
    skips_larger: bool | None = None


@dataclass(frozen=True)
class Task(ABC):
    """One kind of run. Subclasses are frozen dataclasses (they are sent to worker processes)."""

    #: Name used on the command line and in saved results.
    name: ClassVar[str]
    #: Whether each run yields the complete solution set, so the sets of all configurations must be equal.
    exhaustive: ClassVar[bool]
    #: What each run asks of the backend (the backends that do not give it are refused or left out).
    answer: ClassVar[Answer]
    #: Whether a count can be published for the task's instances (False: no ``count`` check at all).
    counts_known: ClassVar[bool] = True
    #: Whether a configuration that timed out on a board is skipped on every larger board (sizes
    #: that grow in difficulty); when False only its other repetitions of that instance are skipped.
    skip_larger_after_timeout: ClassVar[bool] = True

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

    #: Whether a run asks the backend for a count (``count``) instead of boards (``solutions``).
    asks_count: ClassVar[bool] = False
    #: Whether a run asks a problem of the N-Queens family (:class:`~nqueens_cp.harness.family_tasks.FamilyTask`: ``solve_family`` or
    #: ``count_family``) instead of the classic problem.
    asks_family: ClassVar[bool] = False

    @property
    def warm_up(self) -> Instance:
        """The board each worker solves first, untimed, so that importing a solver package, building
        lazy tables or loading compiled kernels is not charged to the measured run."""
        return Instance(4)

    @property
    def per_symmetry_class(self) -> bool:
        """Whether a run answers one solution per class of the square's 8 symmetries (``unique``)."""
        return False

    def count(self, backend: Backend, instance: Instance) -> int:
        """The count a run of a counting task asks for (called in the worker process, timed)."""
        raise NQueensError(f"task {self.name} asks for boards, not a count")

    def solution_problems(self, instance: Instance, solution: Sequence[int]) -> list[str]:
        """Why ``solution`` is not an acceptable answer (empty when it is): the independent checker."""
        return solution_problems(instance, solution)

    def model_size(self, backend: Backend, instance: Instance) -> ModelSize | None:
        """The size of the model the backend builds for this task's runs."""
        return backend.model_size(instance)

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        """The task's parameters, for saved results and the command line."""
        return ()

    def source(self, instance: Instance) -> str:
        """Where ``instance`` comes from, when not from its board size alone (empty by default)."""
        return ""

    def expected_satisfiable(self, instance: Instance) -> bool | None:
        """Whether an outside oracle says ``instance`` has a solution; None when none is known."""
        return None

    def solver_time_limit(self, timeout: float) -> float | None:
        """The time limit a run's backend is given (its option ``time_limit``, when it has one and
        the configuration sets none) under the harness's ``timeout``; None: none given."""
        return None

    def info(self) -> TaskInfo:
        """The task described as data."""
        return TaskInfo(self.name, self.title, self.expected_label, self.exhaustive, self.parameters(),
                        self.skip_larger_after_timeout)


@dataclass(frozen=True)
class AllSolutions(Task):
    """Enumerate every solution of the empty n x n board (or one per symmetry class with ``unique``)."""

    name: ClassVar[str] = "all"
    exhaustive: ClassVar[bool] = True
    answer: ClassVar[Answer] = Answer.ALL
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

    @property
    def per_symmetry_class(self) -> bool:
        return self.unique

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        return (("unique", self.unique),)


@dataclass(frozen=True)
class CountSolutions(AllSolutions):
    """Count the solutions of the empty n x n board (one per symmetry class with ``unique``) by the
    backend's ``count``: enumerating backends count what they enumerate, count-only backends
    (model counters, decision diagrams) count without boards. Each count is checked against OEIS
    (an approximate counter within the tolerance it states) and against the other configurations'
    exact counts. The board, the published counts and the model are those of :class:`AllSolutions`."""

    name: ClassVar[str] = "count"
    exhaustive: ClassVar[bool] = False
    answer: ClassVar[Answer] = Answer.COUNT
    asks_count: ClassVar[bool] = True

    @property
    def title(self) -> str:
        return "count of the fundamental solutions" if self.unique else "count of all solutions"

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return iter(())

    def count(self, backend: Backend, instance: Instance) -> int:
        return backend.count(instance, unique=self.unique)


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
    answer: ClassVar[Answer] = Answer.FIRST

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

    The boards come from :func:`nqueens_cp.instances.completion.completion_instances` (reproducible from
    ``seed``). Each run asks for one completion; a configuration that answers "none" where
    another found a valid completion fails the ``answer`` check.
    """

    name: ClassVar[str] = "complete"
    exhaustive: ClassVar[bool] = False
    answer: ClassVar[Answer] = Answer.FIRST
    counts_known: ClassVar[bool] = False  # whether a board has a completion is what the runs find out
    # A set of instances: a local search timing out on a board with no completion says nothing of the others.
    skip_larger_after_timeout: ClassVar[bool] = False
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
        from nqueens_cp.instances.completion import completion_instances

        return completion_instances(n, self.preplaced, self.instances_per_n, self.seed)

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return first_solution_of(backend, instance)

    def expected_count(self, instance: Instance) -> int | None:
        return None

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        return (("preplaced", self.preplaced), ("instances", self.instances_per_n), ("seed", self.seed))


@dataclass(frozen=True)
class FileInstance:
    """One instance read from a file: where from (``source``), and the answers file's verdict."""

    source: str
    instance: Instance
    satisfiable: bool | None = None


@dataclass(frozen=True)
class InstanceFiles(Task):
    """One solution (or a proof of none) for each instance read from files.

    The instances are Excluded Diagonals or n-Queens Completion ``.param`` files of CSPLib problem
    079 (:mod:`nqueens_cp.instances.files`), read once by :func:`load_instance_files`. Each run asks
    for one solution; every board is checked by the independent checker, a configuration that
    answers "none" where another found a solution fails the ``answer`` check, and when an answers
    file gives the instance's verdict (the paper's solver), each configuration's answer is compared
    with it (the ``oracle`` check). Files differ in difficulty, not by size: a timeout skips only
    the other repetitions of that instance.
    """

    name: ClassVar[str] = "files"
    exhaustive: ClassVar[bool] = False
    #: ``solutions`` with ``limit=1``: one board, from the backends that enumerate.
    answer: ClassVar[Answer] = Answer.ALL
    counts_known: ClassVar[bool] = False
    skip_larger_after_timeout: ClassVar[bool] = False
    pattern: str = ""
    #: The first D diagonals of each file; None: all; :data:`LISTED`: the Ds the answers file lists.
    diagonals: int | str | None = None
    answers: str | None = None
    entries: tuple[FileInstance, ...] = ()

    @property
    def title(self) -> str:
        which = ("all diagonals" if self.diagonals is None else "the diagonals the answers list"
                 if self.diagonals == LISTED else f"the first {self.diagonals} diagonals")
        return f"one solution of each instance in {self.pattern} ({len(self.entries)} instances, {which})"

    @property
    def expected_label(self) -> str:
        return f"answers file {self.answers}" if self.answers else "unknown (NP-complete)"

    @property
    def sizes(self) -> tuple[int, ...]:
        """The board sizes of the instances."""
        return tuple(sorted({entry.instance.n for entry in self.entries}))

    def instances(self, n: int) -> tuple[Instance, ...]:
        return tuple(entry.instance for entry in self.entries if entry.instance.n == n)

    def solutions(self, backend: Backend, instance: Instance) -> Iterator[Solution]:
        return backend.solutions(instance, limit=1)

    def expected_count(self, instance: Instance) -> int | None:
        return None

    def _entry(self, instance: Instance) -> FileInstance | None:
        return next((entry for entry in self.entries if entry.instance == instance), None)

    def source(self, instance: Instance) -> str:
        entry = self._entry(instance)
        return entry.source if entry else ""

    def expected_satisfiable(self, instance: Instance) -> bool | None:
        entry = self._entry(instance)
        return entry.satisfiable if entry else None

    def parameters(self) -> tuple[tuple[str, Any], ...]:
        return (("files", self.pattern), ("diagonals", "all" if self.diagonals is None else self.diagonals),
                ("answers", self.answers or ""))


#: ``--diagonals`` value: each file with every number of diagonals its ``--answers`` rows list.
LISTED = "answers"


def load_instance_files(
    pattern: str, diagonals: int | str | None = None, answers: str | None = None
) -> InstanceFiles:
    """The ``files`` task for every file matching the glob ``pattern`` (sorted by name).

    ``diagonals`` takes the first D diagonals of each Excluded Diagonals file (None: all of them;
    :data:`LISTED`: one instance per D the answers file lists for the file, a file it does not
    list left out: the sampled strata of ``benchmarks/csplib079``); a file named like CSPLib's
    ``diag-N-4-ID.param`` is looked up in ``answers`` as (N, D, ID).
    An instance equal to one already read is kept once. Errors (no file matches, a file or the
    answers file unreadable) are ``NQueensError``s with the file and line.
    """
    import glob
    import os

    from nqueens_cp.instances.files import answer_of, listed_diagonals, load_instance_file, read_answers

    if diagonals == LISTED and not answers:
        raise NQueensError(f"--diagonals {LISTED} needs --answers FILE.tsv (the numbers of diagonals to take)")
    paths = sorted(path for path in glob.glob(pattern, recursive=True) if not os.path.isdir(path))
    if not paths:
        raise NQueensError(f"--files {pattern!r}: no file matches")
    table = read_answers(answers) if answers else {}
    entries: list[FileInstance] = []
    seen: set[Instance] = set()
    for path in paths:
        counts = listed_diagonals(table, path) if diagonals == LISTED else (diagonals,)
        for count in counts:
            read = load_instance_file(path, count if isinstance(count, int) else None)
            if read.instance in seen:
                continue
            seen.add(read.instance)
            if read.diagonals is None:
                entries.append(FileInstance(path, read.instance))
                continue
            entries.append(FileInstance(f"{path} D={read.diagonals}", read.instance,
                                        answer_of(table, path, read.diagonals)))
    if not entries:
        raise NQueensError(f"--files {pattern!r}: no file is listed in --answers {answers}")
    return InstanceFiles(pattern=pattern, diagonals=diagonals, answers=answers, entries=tuple(entries))
