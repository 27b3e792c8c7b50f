"""A name that is its own value wherever it is written (text, JSON, CSV, a command line): the base of
the package's string enums (Python 3.11's ``enum.StrEnum``, for 3.10)."""

from __future__ import annotations

import enum


class Name(str, enum.Enum):
    """A ``str`` enum whose ``str()`` is its value: ``f"{Answer.COUNT}"`` is ``count``, and a plain
    string compares and hashes equal to its member."""

    def __str__(self) -> str:
        return str(self.value)
