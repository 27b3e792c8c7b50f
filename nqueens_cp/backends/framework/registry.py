"""The single registry of backends. Backend modules are imported only when a backend is asked for.

Besides the built-in backends, any installed package can add its own through an entry point in
the group ``nqueens_cp.backends`` (in its ``pyproject.toml``:
``[project.entry-points."nqueens_cp.backends"] mine = "mypkg.module:MyBackend"``). Such a backend
is listed by ``backend_names`` after the built-in ones and used like them. One that cannot be
loaded (its import fails, the object is not a concrete ``Backend`` subclass, or its name is a
built-in one) raises ``BackendUnavailableError`` with the reason when asked for, and
``nqueens-cp backends`` shows that reason: it never breaks the other commands.
"""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.core.arguments import require_str
from nqueens_cp.core.errors import BackendUnavailableError, UnknownBackendError, did_you_mean

if TYPE_CHECKING:
    from importlib import metadata

#: The entry-point group other packages register backends in.
ENTRY_POINT_GROUP = "nqueens_cp.backends"

# name -> "module:Class", or a class registered at run time (tests register deliberately broken ones).
_REGISTRY: dict[str, str | type[Backend]] = {
    "backtrack": "nqueens_cp.backends.backtrack:BacktrackBackend",
    "bitboard": "nqueens_cp.backends.bitboard:BitboardBackend",
    "cpsat": "nqueens_cp.backends.cpsat:CpSatBackend",
    "sat": "nqueens_cp.backends.sat:SatBackend",
    "minizinc": "nqueens_cp.backends.minizinc:MiniZincBackend",
    "asp": "nqueens_cp.backends.asp:AspBackend",
    "pb": "nqueens_cp.backends.pb:PbBackend",
    "smt": "nqueens_cp.backends.smt:SmtBackend",
    "mip": "nqueens_cp.backends.mip:MipBackend",
    "choco": "nqueens_cp.backends.choco:ChocoBackend",
    "xcsp3": "nqueens_cp.backends.xcsp3:Xcsp3Backend",
    "cpmpy": "nqueens_cp.backends.cpmpy:CpmpyBackend",
    "ganak": "nqueens_cp.backends.ganak:GanakBackend",
    "approxmc": "nqueens_cp.backends.approxmc:ApproxMcBackend",
    "bdd": "nqueens_cp.backends.bdd:BddBackend",
    "localsearch": "nqueens_cp.backends.localsearch:LocalSearchBackend",
    "construction": "nqueens_cp.backends.construction:ConstructionBackend",
}


# name -> the entry point of another package's backend (loaded when first asked for)
_PLUGINS: dict[str, metadata.EntryPoint] = {}
# name -> why another package's backend cannot be used
_BROKEN: dict[str, str] = {}
_plugins_found = False


def _origin(entry: metadata.EntryPoint) -> str:
    dist = getattr(entry, "dist", None)
    package = f" of {dist.name} {dist.version}" if dist is not None else ""
    return f"entry point {entry.name} = {entry.value!r}{package}"


def _find_plugins() -> None:
    """Read the ``nqueens_cp.backends`` entry points of the installed packages (once)."""
    global _plugins_found
    if _plugins_found:
        return
    _plugins_found = True
    from importlib import metadata  # imported only here: listing the installed packages costs start-up time

    try:
        entries = list(metadata.entry_points(group=ENTRY_POINT_GROUP))
    except Exception as error:  # a broken installed distribution must not break the command line
        _BROKEN["(entry points)"] = f"cannot read the {ENTRY_POINT_GROUP} entry points: {error}"
        return
    for entry in entries:
        if entry.name in _REGISTRY:
            _BROKEN.setdefault(f"{entry.name} ({_origin(entry)})",
                               f"{_origin(entry)}: the name {entry.name!r} is taken by a built-in backend")
        elif entry.name not in _PLUGINS:
            _PLUGINS[entry.name] = entry


def _load_plugin(name: str, entry: metadata.EntryPoint) -> type[Backend]:
    """The class behind ``entry``, checked; ``BackendUnavailableError`` with the reason otherwise."""
    if name in _BROKEN:
        raise BackendUnavailableError(f"backend {name} cannot be used: {_BROKEN[name]}")
    try:
        target = entry.load()
    except Exception as error:
        reason = f"{_origin(entry)} does not load: {type(error).__name__}: {error}"
    else:
        if not (isinstance(target, type) and issubclass(target, Backend)):
            reason = f"{_origin(entry)} is not a nqueens_cp Backend subclass (got {target!r})"
        elif inspect.isabstract(target):
            missing = ", ".join(sorted(getattr(target, "__abstractmethods__", ())))
            reason = f"{_origin(entry)}: {target.__name__} is abstract (does not implement {missing})"
        elif not isinstance(getattr(target, "summary", None), str) or not isinstance(getattr(target, "name", None), str):
            reason = f"{_origin(entry)}: {target.__name__} has no name or summary (class attributes)"
        else:
            return target
    _BROKEN[name] = reason
    raise BackendUnavailableError(f"backend {name} cannot be used: {reason}")


def broken_plugins() -> dict[str, str]:
    """Other packages' backends that cannot be used, with the reason (after ``backend_names`` found them)."""
    _find_plugins()
    return dict(_BROKEN)


def backend_names() -> list[str]:
    """The backend names: the built-in ones in registration order, then those of other packages."""
    _find_plugins()
    return [*_REGISTRY, *(name for name in _PLUGINS if name not in _REGISTRY)]


def builtin_backend_names() -> list[str]:
    """The names of this package's backends, in registration order (no other package's, and no
    module imported: cheap enough for ``--help``)."""
    return [name for name, target in _REGISTRY.items()
            if (target if isinstance(target, str) else target.__module__).startswith("nqueens_cp.")]


def register_backend(name: str, target: str | type[Backend]) -> None:
    """Register ``target`` (a Backend subclass or ``"module:Class"``) under ``name``."""
    _REGISTRY[name] = target


def unregister_backend(name: str) -> None:
    """Remove ``name`` from the registry (for tests that registered a backend of their own)."""
    _REGISTRY.pop(name, None)


def canonical_backend_name(name: str) -> str:
    """The registered name ``name`` stands for, case ignored (``CPSAT`` -> ``cpsat``); an
    ``UnknownBackendError`` naming the closest one otherwise."""
    require_str(name, "backend name")
    if name in _REGISTRY:  # a built-in name needs no look at the installed packages (start-up time)
        return name
    names = backend_names()
    if name in names:
        return name
    same = [known for known in names if known.lower() == name.lower()]
    if len(same) == 1:
        return same[0]
    raise UnknownBackendError(f"unknown backend {name!r}{did_you_mean(name, names)} (choose from {', '.join(names)})")


def backend_class(name: str) -> type[Backend]:
    """The class registered as ``name`` (case ignored); imports its module, but not its solver package."""
    name = canonical_backend_name(name)
    if name not in _REGISTRY:
        _REGISTRY[name] = _load_plugin(name, _PLUGINS[name])
    target = _REGISTRY[name]
    if isinstance(target, str):
        module_name, _, class_name = target.partition(":")
        target = getattr(importlib.import_module(module_name), class_name)
        _REGISTRY[name] = target
    return target


def create_backend(name: str, *, memory_budget_mb: float | None = None, **options: Any) -> Backend:
    """A ready backend: ``create_backend("sat", encoding="seqcounter")``; ``memory_budget_mb``: the
    megabytes a model may take before it is refused (None: a quarter of the machine's memory, at
    most 4 GiB)."""
    return backend_class(name)(memory_budget_mb=memory_budget_mb, **options)
