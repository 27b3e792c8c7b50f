"""The interface every backend implements, and the small types it reports with."""

from __future__ import annotations

import importlib.util
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from itertools import islice
from types import MappingProxyType
from typing import Any, Callable, ClassVar, Iterator, Mapping

from ..arguments import checked_solve_call
from ..errors import BackendOptionError, BackendUnavailableError, NQueensError
from ..instance import Instance, Solution
from ..symmetry import is_canonical

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
            elif self.type is int and isinstance(value, float):
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
            raise BackendOptionError(f"option {self.name}: unknown value {value!r} (choose from {allowed})")
        if self.type is float and math.isnan(converted):
            raise BackendOptionError(f"option {self.name}: must be a number, got {value!r}")
        if self.minimum is not None and converted < self.minimum:
            raise BackendOptionError(f"option {self.name}: must be >= {self.minimum:g}, got {value!r}")
        if self.type is int and not -MAX_INT_OPTION <= converted <= MAX_INT_OPTION:
            raise BackendOptionError(f"option {self.name}: must be within +-{MAX_INT_OPTION}, got {value!r}")
        return converted


@dataclass(frozen=True)
class ModelSize:
    """Size of the model a backend built: variables and constraints (``unit`` names what was counted)."""

    variables: int
    constraints: int
    unit: str = "constraints"


class Backend(ABC):
    """A way of solving N-Queens instances.

    Subclasses set ``name``, ``summary``, ``option_specs`` and ``requires`` (the importable
    packages they need, imported lazily inside their methods) and implement ``_solutions``.
    Options are validated once, in the constructor. The arguments of ``solutions``, ``count``,
    ``first_solution`` and ``model_size`` are checked before any backend code runs (a subclass's
    overrides are wrapped by ``__init_subclass__``), so a wrong type raises
    :class:`~nqueens_cp.errors.InvalidArgumentError` naming the argument.
    """

    name: ClassVar[str]
    summary: ClassVar[str]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    requires: ClassVar[tuple[str, ...]] = ()

    #: The solving methods whose arguments are checked (see the class docstring).
    CHECKED_METHODS: ClassVar[tuple[str, ...]] = ("solutions", "count", "first_solution", "model_size")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls.CHECKED_METHODS:
            method = cls.__dict__.get(name)
            if callable(method) and not getattr(method, "__wrapped_checked__", False):
                setattr(cls, name, checked_solve_call(method))

    def __init__(self, **options: object) -> None:
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise BackendOptionError(
                f"backend {self.name} has no option {unknown[0]!r} (its options: {known})"
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
    def ensure_available(cls) -> None:
        """Raise ``BackendUnavailableError`` with an install hint if a required package is missing."""
        missing = cls.missing_packages()
        if missing:
            raise BackendUnavailableError(
                f"backend {cls.name} needs {', '.join(missing)}: pip install nqueens-cp (it declares them)"
            )

    # -- solving ---------------------------------------------------------------------------

    @abstractmethod
    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        """Yield every solution of ``instance`` once, lazily; ``limit`` is a hint to stop early."""

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        """Yield one representative per symmetry class (default: filter the canonical ones)."""
        return (sol for sol in self._solutions(instance, None) if is_canonical(sol))

    @checked_solve_call
    def solutions(
        self, instance: Instance, *, limit: int | None = None, unique: bool = False
    ) -> Iterator[Solution]:
        """A lazy iterator over the solutions of ``instance``: at most ``limit`` of them.

        With ``unique``, one representative per class of the square's 8 symmetries: the
        lexicographically smallest image. ``unique`` needs an instance with no pre-placed queens.
        """
        if limit is not None and limit < 0:
            raise BackendOptionError(f"limit must be >= 0, got {limit}")
        self.ensure_available()
        if unique and instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        if limit == 0:
            return iter(())
        source = self._unique_solutions(instance, limit) if unique else self._solutions(instance, limit)
        return islice(source, limit) if limit is not None else source

    @checked_solve_call
    def first_solution(self, instance: Instance) -> Solution | None:
        """One solution of ``instance``, or None when it has none."""
        iterator = self.solutions(instance, limit=1)
        try:
            return next(iterator, None)
        finally:
            close = getattr(iterator, "close", None)
            if close is not None:
                close()

    @checked_solve_call
    def count(self, instance: Instance, *, limit: int | None = None, unique: bool = False) -> int:
        """The number of solutions (at most ``limit``); backends may override with a faster count."""
        return sum(1 for _ in self.solutions(instance, limit=limit, unique=unique))

    @checked_solve_call
    def model_size(self, instance: Instance) -> ModelSize | None:
        """The size of the model this backend builds for ``instance``; None for plain searches."""
        return None

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"
