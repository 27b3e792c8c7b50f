"""The single registry of backends. Backend modules are imported only when a backend is asked for."""

from __future__ import annotations

import importlib
from typing import Any

from ..arguments import require_str
from ..errors import BackendOptionError, UnknownBackendError
from .base import Backend

# name -> "module:Class", or a class registered at run time (tests register deliberately broken ones).
_REGISTRY: dict[str, str | type[Backend]] = {
    "backtrack": "nqueens_cp.backends.backtrack:BacktrackBackend",
    "bitboard": "nqueens_cp.backends.bitboard:BitboardBackend",
    "cpsat": "nqueens_cp.backends.cpsat:CpSatBackend",
    "sat": "nqueens_cp.backends.sat:SatBackend",
}


def backend_names() -> list[str]:
    """The registered backend names, in registration order."""
    return list(_REGISTRY)


def register_backend(name: str, target: str | type[Backend]) -> None:
    """Register ``target`` (a Backend subclass or ``"module:Class"``) under ``name``."""
    _REGISTRY[name] = target


def unregister_backend(name: str) -> None:
    """Remove ``name`` from the registry (for tests that registered a backend of their own)."""
    _REGISTRY.pop(name, None)


def backend_class(name: str) -> type[Backend]:
    """The class registered as ``name``; imports its module, but not its solver package."""
    require_str(name, "backend name")
    try:
        target = _REGISTRY[name]
    except KeyError:
        known = ", ".join(_REGISTRY)
        raise UnknownBackendError(f"unknown backend {name!r} (choose from {known})") from None
    if isinstance(target, str):
        module_name, _, class_name = target.partition(":")
        target = getattr(importlib.import_module(module_name), class_name)
        _REGISTRY[name] = target
    return target


def create_backend(name: str, **options: Any) -> Backend:
    """A ready backend: ``create_backend("sat", encoding="seqcounter")``."""
    return backend_class(name)(**options)


def parse_config(text: str) -> tuple[str, dict[str, str]]:
    """Split ``"sat:encoding=pairwise:solver=glucose4"`` into the name and its raw option strings."""
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
