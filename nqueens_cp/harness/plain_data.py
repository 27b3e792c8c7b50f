"""Frozen dataclasses to plain JSON-ready data and back, by their type hints: what the results
file (:class:`~nqueens_cp.harness.results.ComparisonResults`) is written from and read into. Reading
checks every value against its field's type on the way, a ``ResultsFileError`` naming where it
does not fit."""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from typing import Any, Union

from nqueens_cp.core.errors import ResultsFileError


def to_plain(value: Any) -> Any:
    """``value`` (a dataclass, tuples and lists of them, or a plain value) as lists, dicts and plain values."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_plain(item) for item in value]
    return value


def from_plain(hint: Any, data: Any, where: str) -> Any:
    """``data`` (parsed JSON) converted to the type ``hint``, checked on the way."""
    if hint is Any:
        return freeze(data)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin is Union or origin is types.UnionType:
        if data is None and type(None) in args:
            return None
        for option in (a for a in args if a is not type(None)):
            try:
                return from_plain(option, data, where)
            except ResultsFileError:
                continue
        raise ResultsFileError(f"{where}: unexpected value {data!r}")
    if origin is tuple:
        if not isinstance(data, list):
            raise ResultsFileError(f"{where}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_plain(args[0], item, f"{where}[{i}]") for i, item in enumerate(data))
        if len(args) != len(data):
            raise ResultsFileError(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(from_plain(a, item, f"{where}[{i}]") for i, (a, item) in enumerate(zip(args, data, strict=True)))
    if dataclasses.is_dataclass(hint) and isinstance(hint, type):
        if not isinstance(data, dict):
            raise ResultsFileError(f"{where}: expected an object, got {data!r}")
        hints = typing.get_type_hints(hint)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(hint):
            if f.name in data:
                kwargs[f.name] = from_plain(hints[f.name], data[f.name], f"{where}.{f.name}")
            elif f.default is dataclasses.MISSING:
                raise ResultsFileError(f"{where}: missing field {f.name!r}")
        return hint(**kwargs)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        try:
            return hint(data)
        except ValueError:
            raise ResultsFileError(f"{where}: unknown value {data!r}") from None
    if hint is float:
        if isinstance(data, (int, float)) and not isinstance(data, bool):
            return float(data)
        raise ResultsFileError(f"{where}: expected a number, got {data!r}")
    if hint in (int, str, bool):
        if type(data) is hint:
            return data
        raise ResultsFileError(f"{where}: expected {hint.__name__}, got {data!r}")
    raise ResultsFileError(f"{where}: cannot read type {hint!r}")  # pragma: no cover - model bug


def freeze(data: Any) -> Any:
    """``data`` with every list made a tuple (hashable, as a frozen dataclass's fields are)."""
    if isinstance(data, list):
        return tuple(freeze(item) for item in data)
    return data
