"""The blocks a report is made of. Builders produce them from data; renderers only format them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Heading:
    """A section title; level 1 is the document title."""

    text: str
    level: int = 2


@dataclass(frozen=True)
class Paragraph:
    """Running text; ``strong`` for the verdict at the top of a report."""

    text: str
    strong: bool = False


@dataclass(frozen=True)
class Item:
    """A bullet, with optional detail lines under it."""

    text: str
    details: tuple[str, ...] = ()


@dataclass(frozen=True)
class Bullets:
    """A bulleted list."""

    items: tuple[Item, ...]


@dataclass(frozen=True)
class Code:
    """Verbatim text, such as a command line."""

    text: str


@dataclass(frozen=True)
class Table:
    """A table of already formatted cells, with an optional note under it."""

    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    note: str = ""


@dataclass(frozen=True)
class Image:
    """A picture stored next to the report (a relative path)."""

    path: str
    alt: str


@dataclass(frozen=True)
class Figure:
    """A picture carried inside the report as SVG markup (HTML shows it inline; text formats its caption)."""

    svg: str
    caption: str


Block = Heading | Paragraph | Bullets | Code | Table | Image | Figure
#: A report: blocks in reading order.
Document = tuple[Block, ...]
