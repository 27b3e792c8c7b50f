"""Code in table cells wraps between words, never inside one; file paths link to the source.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``), on each page's HTML:

- The theme lets inline code break anywhere, so a narrow table column cut
  ``nqueens_cp/models/geometry.py`` into ``geom`` and ``etry.py``. ``docs/stylesheets/extra.css``
  forbids that in table cells, and :func:`break_points` gives the browser the places where a
  break reads well: a ``<wbr>`` after each ``/``, ``_``, ``(``, ``=`` and comma of a ``<code>``
  inside a table cell.
- In running text, :func:`whole_words` keeps an inline ``<code>`` of one word (an option, a name)
  on one line: ``--unique`` broke into ``--`` and ``unique``.
- With ``repo_url`` (set in ``mkdocs.yml``), :func:`link_sources` makes each inline ``<code>`` that names a file or
  folder of the repository (``nqueens_cp/models/cpsat.py``, ``benchmarks/``) a link to it there.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: The branch the source links point at.
BRANCH = "main"

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


_PRE = re.compile(r"(<pre\b.*?</pre>)", re.DOTALL)
_PATH_CODE = re.compile(r"(<a\b[^>]*>)?<code>([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]*)+|[A-Za-z0-9_-]+\.(?:py|md|toml|yml))</code>")


def link_sources(html: str, repo_url: str, root: Path = ROOT) -> str:
    """``html`` with each inline ``<code>`` naming a path under ``root`` linked to it at ``repo_url``."""
    base = repo_url.rstrip("/")

    def code(match: re.Match[str]) -> str:
        path = match.group(2)
        target = root / path
        if match.group(1) or path.startswith(("/", ".")) or ".." in path or not target.exists():
            return match.group(0)
        kind = "tree" if target.is_dir() else "blob"
        return f'<a href="{base}/{kind}/{BRANCH}/{path.rstrip("/")}"><code>{path}</code></a>'

    parts = _PRE.split(html)
    return "".join(part if part.startswith("<pre") else _PATH_CODE.sub(code, part) for part in parts)


_WORD_CODE = re.compile(r"<code>([^<\s]{1,60})</code>")


def whole_words(html: str) -> str:
    """``html`` with each inline ``<code>`` of one word (no space, at most 60 characters) marked
    ``class="nq-word"``, which the stylesheet keeps on one line in running text: ``--unique`` never
    splits into ``--`` and ``unique``. Code blocks and code with break points are left as they are."""
    parts = _PRE.split(html)
    return "".join(part if part.startswith("<pre") else _WORD_CODE.sub(r'<code class="nq-word">\1</code>', part)
                   for part in parts)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: link the source paths (when ``repo_url`` is set), put the break points in, keep
    one-word code whole."""
    repo_url = config.get("repo_url")
    if repo_url:
        html = link_sources(html, repo_url)
    return whole_words(break_points(html))
