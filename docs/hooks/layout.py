"""Code in table cells wraps between words, never inside one.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). The theme lets inline code break anywhere, so a
narrow table column cut ``nqueens_cp/models/geometry.py`` into ``geom`` and ``etry.py``.
``docs/stylesheets/extra.css`` forbids that in table cells, and this hook gives the browser the
places where a break reads well: a ``<wbr>`` after each ``/``, ``_``, ``(``, ``=`` and comma of a
``<code>`` inside a table cell.
"""

from __future__ import annotations

import re
from typing import Any

_CELL = re.compile(r"(<t[dh][^>]*>)(.*?)(</t[dh]>)", re.DOTALL)
_CODE = re.compile(r"(<code>)([^<]*)(</code>)")
_BREAK_AFTER = re.compile(r"([/_(=,])(?!$)")


def break_points(html: str) -> str:
    """``html`` with a ``<wbr>`` after each break character of the inline code in its table cells."""
    def code(match: re.Match[str]) -> str:
        return match.group(1) + _BREAK_AFTER.sub(r"\1<wbr>", match.group(2)) + match.group(3)

    def cell(match: re.Match[str]) -> str:
        return match.group(1) + _CODE.sub(code, match.group(2)) + match.group(3)

    return _CELL.sub(cell, html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: put the break points in."""
    return break_points(html)
