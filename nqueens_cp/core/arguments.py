"""Checks of the arguments public functions receive, so that a wrong type or value raises an
:class:`~nqueens_cp.core.errors.InvalidArgumentError` naming the argument, never a ``TypeError`` from
deep inside a solver library."""

from __future__ import annotations

from typing import Any, Mapping

from nqueens_cp.core.errors import BackendOptionError, InvalidArgumentError
from nqueens_cp.core.instance import Instance


def _shown(value: object) -> str:
    text = repr(value)
    return f"{text[:60]}... ({type(value).__name__})" if len(text) > 60 else f"{text} ({type(value).__name__})"


def require_instance(value: object, name: str = "instance") -> Instance:
    """``value`` if it is an :class:`Instance`."""
    if not isinstance(value, Instance):
        raise InvalidArgumentError(f"{name} must be an nqueens_cp.Instance, got {_shown(value)}")
    return value


def require_int(value: object, name: str, *, minimum: int | None = None, optional: bool = False) -> Any:
    """``value`` if it is an int (not a bool) of at least ``minimum``; None too with ``optional``."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        kind = "an integer or None" if optional else "an integer"
        raise InvalidArgumentError(f"{name} must be {kind}, got {_shown(value)}")
    if minimum is not None and value < minimum:
        raise InvalidArgumentError(f"{name} must be >= {minimum}, got {value}")
    return value


def require_bool(value: object, name: str) -> bool:
    """``value`` if it is a bool."""
    if not isinstance(value, bool):
        raise InvalidArgumentError(f"{name} must be True or False, got {_shown(value)}")
    return value


def require_choice(value: str, choices: tuple[str, ...], what: str) -> None:
    """Raise ``BackendOptionError`` unless ``value`` is one of ``choices`` (a model builder's
    formulation or encoding; ``what`` names it in the message: "unknown <what> ...")."""
    if value not in choices:
        raise BackendOptionError(f"unknown {what} {value!r} (choose from {', '.join(choices)})")


def require_str(value: object, name: str, *, optional: bool = False) -> Any:
    """``value`` if it is a non-empty str (or None with ``optional``)."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value:
        raise InvalidArgumentError(f"{name} must be a non-empty string, got {_shown(value)}")
    return value


def require_mapping(value: object, name: str) -> Mapping[str, Any]:
    """``value`` (None as an empty mapping) if it is a mapping with string keys."""
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(key, str) for key in value):
        raise InvalidArgumentError(f"{name} must be a mapping of option names to values, got {_shown(value)}")
    return value


def require_solution(value: object, name: str = "solution") -> None:
    """``value`` must be a sequence (its entries are the checker's business)."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or not hasattr(value, "__iter__"):
        raise InvalidArgumentError(f"{name} must be a sequence of column indices, got {_shown(value)}")
