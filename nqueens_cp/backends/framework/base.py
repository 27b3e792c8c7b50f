"""The interface every backend implements, and the small types it reports with."""

from __future__ import annotations

import importlib.util
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from itertools import islice
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, Protocol

from nqueens_cp.backends.framework.family_contract import FamilyContract
from nqueens_cp.backends.framework.limits import (
    answering_backends,
    check_budget,
    check_fits,
    refuse_slow_count,
    refuse_slow_first,
)
from nqueens_cp.backends.framework.streams import as_queens, at_most, check_stream_arguments, close_stream
from nqueens_cp.core.errors import (
    BackendOptionError,
    BackendUnavailableError,
    ModelTooLargeError,
    NQueensError,
    did_you_mean,
)
from nqueens_cp.core.instance import Instance, Queens, Solution
from nqueens_cp.core.names import Name
from nqueens_cp.core.symmetry import is_canonical, require_symmetric
from nqueens_cp.models.geometry import ModelEstimate, ModelSize

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "ANSWERS", "SEARCH_MAX_N", "Answer", "Backend", "BatchCount", "ModelSize", "OptionSpec", "count_within_tolerance",
]


class Answer(Name):
    """What a run asks of a backend; the value is the word the command line and messages use.

    A ``str`` enum: a plug-in that still declares ``answers = frozenset({"first"})`` compares and
    hashes equal to ``frozenset({Answer.FIRST})``.
    """

    #: A first solution (``first_solution``), or that there is none.
    FIRST = "first"
    #: Every solution (``solutions``).
    ALL = "all"
    #: The number of solutions (``count``).
    COUNT = "count"


    @property
    def doing(self) -> str:
        """What answering it is, for messages: ``count solutions``."""
        return {"all": "enumerate solutions", "count": "count solutions", "first": "find a first solution"}[self.value]


#: Every answer: what a backend gives unless it declares less.
ANSWERS: frozenset[Answer] = frozenset(Answer)

def count_within_tolerance(count: int, expected: int, tolerance: float) -> bool:
    """Whether ``count`` answers a true count ``expected`` for a counter of relative ``tolerance``
    (:attr:`Backend.count_tolerance`): equal when it is 0, else ``expected / (1 + t) <= count <= expected * (1 + t)``."""
    if tolerance == 0:
        return count == expected
    return expected / (1 + tolerance) <= count <= expected * (1 + tolerance)


#: The largest board the complete searches and the models take (beyond it, only what is linear in
#: n answers: the ``localsearch`` and ``construction`` backends, which declare larger limits).
SEARCH_MAX_N = 100_000

#: The largest value an integer option takes: solver libraries hold them in C ``int``.
MAX_INT_OPTION = 2**31 - 1


@dataclass(frozen=True)
class OptionSpec:
    """One option a backend accepts: its name, type, default, allowed values and a one-line help."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    minimum: float | None = None
    #: Maps an accepted spelling (an alias) to the canonical value before ``choices`` is checked.
    normalize: Callable[[Any], Any] | None = None

    def coerce(self, value: object) -> Any:
        """``value`` converted to this option's type and checked, or a ``BackendOptionError``."""
        if value is None:
            return None
        try:
            if self.type is bool and isinstance(value, str):
                lowered = value.strip().lower()
                if lowered not in {"true", "false", "1", "0", "yes", "no"}:
                    raise ValueError(value)
                converted: Any = lowered in {"true", "1", "yes"}
            elif (self.type is bool and not (isinstance(value, bool) or value in (0, 1))) or (self.type is int and isinstance(value, float)):
                raise ValueError(value)
            else:
                converted = self.type(value)
        except (TypeError, ValueError):
            raise BackendOptionError(
                f"option {self.name}: {value!r} is not a {self.type.__name__}"
            ) from None
        if self.normalize is not None:
            converted = self.normalize(converted)
        if self.choices is not None and converted not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            hint = did_you_mean(str(value), map(str, self.choices))
            raise BackendOptionError(f"option {self.name}: unknown value {value!r}{hint} (choose from {allowed})")
        if self.type is float and math.isnan(converted):
            raise BackendOptionError(f"option {self.name}: must be a number, got {value!r}")
        if self.minimum is not None and converted < self.minimum:
            raise BackendOptionError(f"option {self.name}: must be >= {self.minimum:g}, got {value!r}")
        if self.type is int and not -MAX_INT_OPTION <= converted <= MAX_INT_OPTION:
            raise BackendOptionError(f"option {self.name}: must be within +-{MAX_INT_OPTION}, got {value!r}")
        return converted


#: The time limit of a backend whose limit bounds only the family's searches (asp, smt, minizinc;
#: their classic searches refuse it: :func:`~nqueens_cp.backends.framework.limits.refuse_classic_time_limit`).
FAMILY_TIME_LIMIT = OptionSpec(
    "time_limit", float, None, "time limit in seconds of a family problem's search (None: no limit): its "
    "optimum then answers the best found, an enumeration or count stops (exit 3)", minimum=0)


class BatchCount(Protocol):
    """What a count of a batch of start constellations gives: solutions and solution classes."""

    @property
    def total(self) -> int:
        """Solutions (their sum over all batches is OEIS A000170(n))."""

    @property
    def classes(self) -> int:
        """Classes of solutions under the square's 8 symmetries (summing to A002562(n))."""


class Backend(FamilyContract, ABC):
    """A way of solving N-Queens instances: options in, a model or a search, solutions out.

    Subclasses set ``name``, ``summary``, ``option_specs`` and ``requires`` (the importable
    packages they need, imported lazily inside their methods) and implement ``_solutions``; they
    may override the hooks ``_unique_solutions``, ``_first_solution``, ``_count`` and
    ``_model_size``. The public methods here enforce the contract once for every backend: options
    are validated in the constructor (and their defaults when the class is made), arguments are
    checked, the empty board (n = 0, one empty solution) is answered here, and ``unique`` is refused
    for instances the square's symmetries do not act on. A backend that builds a model declares its
    memory by ``memory_estimate``, checked against ``memory_budget_mb`` (given to the constructor
    beside the options; None: a quarter of the machine's memory, at most 4 GiB), and any bound of
    its own on the boards it reaches by ``reach``. The problems of the N-Queens family it answers
    beside the classic one are declared and answered by the part of the contract it inherits,
    :class:`~nqueens_cp.backends.framework.family_contract.FamilyContract`.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()
    #: The extra of nqueens-cp that installs ``requires`` (empty: the core dependencies do).
    extra: ClassVar[str] = ""
    #: Whether the backend honours ``Instance.blocked``; the others refuse such instances.
    supports_blocked: ClassVar[bool] = False
    #: Whether the backend honours pre-placed queens (``Instance.fixed``); the others refuse them.
    supports_fixed: ClassVar[bool] = True
    #: What it answers (of ``ANSWERS``); the public methods refuse the rest with one line.
    answers: ClassVar[frozenset[Answer]] = ANSWERS
    #: The largest n it takes; larger boards are refused with one line before anything is built.
    max_n: ClassVar[int] = SEARCH_MAX_N
    #: Whether ``first_columns`` is its own (a numpy array straight from the search, no tuple made):
    #: the command line then streams the answer from the array.
    array_answers: ClassVar[bool] = False
    #: Whether the backend counts an empty board in batches of start constellations: it then
    #: implements the four methods under "optional: constellation batches" below (the split runs
    #: use them; every other backend is split by rows).
    counts_constellation_batches: ClassVar[bool] = False
    #: Bytes of address space the solver library reserves at start-up and never touches (a JVM's
    #: heap): a worker's address-space limit (compare --memory-limit) is raised by as much.
    reserved_address_space: ClassVar[int] = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for spec in cls.option_specs:
            try:
                valid = spec.coerce(spec.default) == spec.default
            except BackendOptionError:
                valid = False
            if not valid:
                raise TypeError(f"{cls.__name__}: the default {spec.default!r} of option {spec.name} is not valid")
        if cls.counts_constellation_batches:
            batch_methods = {
                "start_constellations": cls.start_constellations is Backend.start_constellations,
                "count_constellation_batch": cls.count_constellation_batch is Backend.count_constellation_batch,
                "recount_constellation_batch": cls.recount_constellation_batch is Backend.recount_constellation_batch,
                "batch_count_releases_gil": cls.batch_count_releases_gil is Backend.batch_count_releases_gil,
            }
            missing = [name for name, inherited in batch_methods.items() if inherited]
            if missing:
                raise TypeError(f"{cls.__name__} declares counts_constellation_batches but does not "
                                f"implement {', '.join(missing)}")

    def __init__(self, *, memory_budget_mb: float | None = None, **options: object) -> None:
        #: The megabytes a model may take before it is refused (None: the default budget).
        self.memory_budget_mb = check_budget(memory_budget_mb)
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise BackendOptionError(
                f"backend {self.name} has no option {unknown[0]!r}{did_you_mean(unknown[0], specs)} (its options: {known})"
            )
        values = {name: spec.default for name, spec in specs.items()}
        values.update({name: specs[name].coerce(value) for name, value in options.items()})
        self.options: Mapping[str, Any] = MappingProxyType(values)

    # -- availability ---------------------------------------------------------------------

    @classmethod
    def missing_packages(cls) -> tuple[str, ...]:
        """The required packages that cannot be imported here (empty when the backend is usable)."""
        return tuple(pkg for pkg in cls.requires if importlib.util.find_spec(pkg) is None)

    @classmethod
    def unavailable_reason(cls) -> str | None:
        """Why this backend cannot run here, with how to fix it; None when it can.

        The default checks the ``requires`` packages; a backend that needs more (a program on
        the PATH) overrides this.
        """
        missing = cls.missing_packages()
        if missing:
            target = f"'nqueens-cp[{cls.extra}]'" if cls.extra else "nqueens-cp"
            return f"backend {cls.name} needs {', '.join(missing)}: pip install {target} (it declares them)"
        return None

    @classmethod
    def ensure_available(cls) -> None:
        """Raise ``BackendUnavailableError`` with an install hint if the backend cannot run here."""
        reason = cls.unavailable_reason()
        if reason is not None:
            raise BackendUnavailableError(reason)

    @classmethod
    def counts_only(cls) -> bool:
        """Whether it answers a count and nothing else (a model counter, a decision diagram)."""
        return cls.answers == frozenset({Answer.COUNT})

    @classmethod
    def refusal(cls, answer: Answer) -> str:
        """The one line refusing ``answer`` (not in ``answers``)."""
        return (f"backend {cls.name} cannot {Answer(answer).doing}: it answers {', '.join(sorted(cls.answers))} only "
                '(use backend "bitboard" to count or enumerate)')

    @classmethod
    def option_choices(cls, spec: OptionSpec) -> tuple[Any, ...] | None:
        """The values option ``spec`` accepts here (``spec.choices``; a backend may find them at run time)."""
        return spec.choices

    # -- the public contract -----------------------------------------------------------------

    def _prepare(self, instance: Instance, limit: int | None, unique: bool, answer: Answer | None = Answer.FIRST) -> None:
        """The checks every public method makes before a backend sees ``instance``."""
        if not isinstance(instance, Instance):
            raise BackendOptionError(f"instance must be an Instance, not {type(instance).__name__}")
        if instance.n > self.max_n:
            raise ModelTooLargeError(
                f"backend {self.name} takes boards up to n = {self.max_n:,} (n = {instance.n:,}); "
                f"for one solution of a larger board use {answering_backends(instance.n, empty=not (instance.fixed or instance.blocked))}"
            )
        if answer in (Answer.FIRST, Answer.COUNT):
            if answer is Answer.FIRST:
                refuse_slow_first(instance, self.name, self.options)
            else:
                refuse_slow_count(instance, self.name)
        check_stream_arguments(limit, unique)
        if answer is not None and answer not in self.answers:  # None: any answer (the model size)
            raise NQueensError(self.refusal(answer))
        if unique:
            require_symmetric(instance)
        if instance.blocked and not self.supports_blocked:
            raise NQueensError(f"backend {self.name} does not support blocked squares")
        if instance.fixed and not self.supports_fixed:
            raise NQueensError(f"backend {self.name} does not support pre-placed queens")
        self.ensure_available()

    def solutions(
        self, instance: Instance, *, limit: int | None = None, unique: bool = False
    ) -> Iterator[Queens]:
        """A lazy iterator over the solutions of ``instance``: at most ``limit`` of them, each a
        :class:`~nqueens_cp.core.instance.Queens` (a tuple of columns that draws itself in a notebook).

        With ``unique``, one representative per class of the square's 8 symmetries: the
        lexicographically smallest image. ``unique`` needs an instance with no pre-placed queens.
        """
        self._prepare(instance, limit, unique, Answer.ALL)
        if limit == 0:
            return iter(())
        if instance.n == 0:
            return iter([Queens()])
        source = self._unique_solutions(instance, limit) if unique else self._solutions(instance, limit)
        return as_queens(source, limit)

    def solution_arrays(
        self, instance: Instance, *, limit: int | None = None, unique: bool = False
    ) -> Iterator[npt.NDArray[np.int64]] | None:
        """The solutions of :meth:`solutions` as 2-D arrays (a board per row), batch by batch, from
        a backend whose search gives them so (no tuple made); None from the others (and for
        ``limit`` 0 or n = 0, which :meth:`solutions` answers)."""
        self._prepare(instance, limit, unique, Answer.ALL)
        if limit == 0 or instance.n == 0:
            return None
        source = self._solution_arrays(instance, limit, unique)
        return None if source is None else at_most(source, limit)

    def lexicographic_solutions(self, unique: bool = False) -> bool:
        """Whether :meth:`solutions` (with ``unique``) yields the boards in strictly increasing
        lexicographic order: the command line then checks each comes after the one before (a
        repeat is found in O(1) memory)."""
        return False

    def first_solution(self, instance: Instance) -> Queens | None:
        """One solution of ``instance`` (a :class:`~nqueens_cp.core.instance.Queens`: a tuple of columns
        that draws itself in a notebook), or None when it has none (by the backend's first-solution search)."""
        self._prepare(instance, None, False)
        if instance.n == 0:
            return Queens()
        found = self._first_solution(instance)
        return None if found is None else Queens(found)

    def first_columns(self, instance: Instance) -> npt.NDArray[np.int32] | None:
        """The first solution as a numpy int32 array (``columns[row] == col``), or None when there is
        none: for boards too large for a tuple. Backends with ``array_answers`` give it straight
        from their search; the others convert ``first_solution``."""
        self._prepare(instance, None, False)
        if self.array_answers:
            return self._first_columns(instance)
        import numpy as np

        solution = self.first_solution(instance)
        return None if solution is None else np.asarray(solution, dtype=np.int32)

    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        """The number of solutions (symmetry classes with ``unique``), at most ``limit``."""
        self._prepare(instance, limit, unique, Answer.COUNT)
        if limit == 0:
            return 0
        if instance.n == 0:
            return 1
        return self._count(instance, limit, unique)

    @property
    def count_tolerance(self) -> float:
        """The relative tolerance ``t`` of its counts (see :func:`count_within_tolerance`): 0 for an
        exact counter. A property, not a class constant: an approximate counter's is an option
        (``approxmc``'s ``epsilon``)."""
        return 0.0

    def model_size(self, instance: Instance, *, unique: bool = False) -> ModelSize | None:
        """The size of the model this backend builds for ``instance``; None for plain searches."""
        self._prepare(instance, None, unique, answer=None)
        return self._model_size(instance, unique)

    def memory_estimate(self, instance: Instance) -> ModelEstimate | None:
        """The memory of the model (or the arrays) this backend, with its options, builds for a
        first solution of ``instance`` (a count for a count-only backend), by closed forms before
        anything is built; None when it builds nothing that grows faster than the board."""
        return None

    def reach(self, first: bool) -> int | None:
        """The largest board (in free rows) this backend, with its options, answers a first solution
        of (``first``) or counts, by a bound of its own besides the memory and time bounds; None
        when it has none."""
        return None

    def check_fits(self, estimate: ModelEstimate, backend: str | None = None) -> None:
        """Raise ``ModelTooLargeError`` when ``estimate`` is over this backend's memory budget; the
        refusal names ``backend`` (default: this backend's name)."""
        check_fits(estimate, backend=backend or self.name, budget=self.memory_budget_mb)

    # -- hooks -------------------------------------------------------------------------------

    @abstractmethod
    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        """Yield every solution of ``instance`` (n >= 1) once, lazily; ``limit`` is a hint to stop early."""

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        """Yield one representative per symmetry class (default: filter the canonical ones)."""
        return (sol for sol in self._solutions(instance, None) if is_canonical(sol))

    def _first_solution(self, instance: Instance) -> Solution | None:
        """One solution of ``instance`` (n >= 1) or None (default: the first one enumerated)."""
        iterator = self._solutions(instance, 1)
        try:
            return next(iterator, None)
        finally:
            close_stream(iterator)

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        """The count for n >= 1 and ``limit`` None or > 0 (default: count the solutions enumerated)."""
        source = self._unique_solutions(instance, limit) if unique else self._solutions(instance, limit)
        return sum(1 for _ in (islice(source, limit) if limit is not None else source))

    def _solution_arrays(
        self, instance: Instance, limit: int | None, unique: bool
    ) -> Iterator[npt.NDArray[np.int64]] | None:
        """The solutions as 2-D int64 arrays (n >= 1), for backends whose search gives them so
        (default: None)."""
        return None

    def _first_columns(self, instance: Instance) -> npt.NDArray[np.int32] | None:
        """The first solution as an int32 array, for backends with ``array_answers`` (n >= 0)."""
        raise NotImplementedError(f"backend {self.name} declares array_answers but has no _first_columns")

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize | None:
        """The size of the model built for ``instance`` (default: None, a search builds none)."""
        return None

    # -- optional: constellation batches (declared by ``counts_constellation_batches``) --------

    def _no_batches(self) -> NQueensError:
        return NQueensError(f"backend {self.name} does not count batches of start constellations")

    def start_constellations(self, n: int) -> int:
        """How many start constellations the empty n x n board has: the most batches its count
        splits into (0 when the board is too small to split this way)."""
        raise self._no_batches()

    def count_constellation_batch(self, n: int, index: int, batches: int) -> BatchCount:
        """Solutions and classes of batch ``index`` of ``batches`` of the empty n x n board's start
        constellations; the batches of one ``batches`` add up to the board's counts."""
        raise self._no_batches()

    def recount_constellation_batch(self, n: int, index: int, batches: int, counter: Backend) -> BatchCount:
        """The same batch counted by another algorithm: ``counter`` counts the board with each
        constellation's queens pre-placed (its own search), which checks ``count_constellation_batch``."""
        raise self._no_batches()

    def batch_count_releases_gil(self, n: int) -> bool:
        """Whether ``count_constellation_batch`` of n releases the GIL (threads of one process then
        count batches side by side); imports nothing."""
        raise self._no_batches()

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"
