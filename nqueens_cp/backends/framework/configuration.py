"""A configuration: a backend with options, written ``name:key=value:key=value``.

:class:`Configuration` owns both directions: :meth:`Configuration.parse` reads a label (checking
the backend and every option by constructing it), :meth:`Configuration.of` writes the label of a
backend already made, every option spelled out (its defaults included). One backend can appear
several times with different options (``sat:encoding=pairwise``, ``sat:encoding=seqcounter``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.registry import backend_class, canonical_backend_name
from nqueens_cp.core.arguments import require_str
from nqueens_cp.core.errors import BackendOptionError, UnknownBackendError


def _jsonable(value: Any) -> Any:
    return value if value is None or isinstance(value, (bool, int, float, str)) else str(value)


@dataclass(frozen=True)
class Configuration:
    """A backend plus options; ``label`` is how it is written and shown (``sat:encoding=pairwise``)."""

    label: str
    backend: str
    #: The options as given (raw strings), in the order given.
    options: tuple[tuple[str, str], ...] = ()
    #: Every option of the backend after validation and defaults (JSON-friendly values).
    resolved: tuple[tuple[str, Any], ...] = ()
    #: The backend's one-line summary.
    summary: str = ""

    @staticmethod
    def split(text: str) -> tuple[str, dict[str, str]]:
        """The backend name and raw option strings of a label, checked for syntax only
        (``"sat:encoding=pairwise:solver=glucose4"`` -> ``("sat", {"encoding": ..., "solver": ...})``)."""
        require_str(text, "configuration")
        name, *parts = text.strip().split(":")
        options: dict[str, str] = {}
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key or not value:
                raise BackendOptionError(f"malformed option {part!r} in {text!r} (expected key=value)")
            options[key.strip().replace("-", "_")] = value.strip()
        if not name:
            raise UnknownBackendError(f"no backend name in {text!r}")
        return name, options

    @staticmethod
    def backend_of(label: str) -> str:
        """The backend name of a label (``sat:encoding=pairwise`` -> ``sat``)."""
        return label.partition(":")[0]

    @classmethod
    def parse(cls, text: str, *, available: bool = True) -> Configuration:
        """Parse and validate one label: an unknown backend, option or value raises an
        ``NQueensError``; with ``available`` (the default) so does a backend that cannot run here."""
        name, options = cls.split(text)
        name = canonical_backend_name(name)  # CPSAT:... is cpsat:...
        backend_type = backend_class(name)
        if available:
            backend_type.ensure_available()
        backend = backend_type(memory_budget_mb=None, **options)
        label = ":".join([name, *(f"{key}={value}" for key, value in options.items())])
        resolved = tuple((key, _jsonable(value)) for key, value in backend.options.items())
        return cls(label, name, tuple(options.items()), resolved, backend_type.summary)

    @classmethod
    def of(cls, backend: Backend) -> Configuration:
        """The configuration of ``backend`` as made, every option given (defaults included, sorted)."""
        options = tuple(sorted((key, str(value)) for key, value in backend.options.items()))
        label = ":".join([backend.name, *(f"{key}={value}" for key, value in options)])
        resolved = tuple((key, _jsonable(value)) for key, value in backend.options.items())
        return cls(label, backend.name, options, resolved, backend.summary)

    def backend_class(self) -> type[Backend]:
        """The registered class of this configuration's backend."""
        return backend_class(self.backend)

    def create(self, memory_budget_mb: float | None = None) -> Backend:
        """A fresh backend for this configuration, with ``memory_budget_mb`` (None: the default budget)."""
        return self.backend_class()(memory_budget_mb=memory_budget_mb, **dict(self.options))
