"""Links from a page to the repository files the site includes point at their pages instead.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). A page under ``docs/`` may link to
``../models/README.md`` or ``../benchmarks/RESULTS.md`` (the links work when the page is read on
the repository's web view); the site holds those files as ``models.md`` and ``results.md``
(included by pymdownx.snippets), so the links are rewritten to them before the strict build checks
them. Anchors are kept: ``../models/README.md#the-at-most-one-encodings`` becomes
``models.md#the-at-most-one-encodings``.
"""

from __future__ import annotations

import re
from typing import Any

#: Repository file, as linked from a page at the top of ``docs/`` -> the page of the site that includes it.
INCLUDED = {
    "../models/README.md": "models.md",
    "../benchmarks/RESULTS.md": "results.md",
}

_LINK = re.compile(r"\]\((" + "|".join(re.escape(path) for path in INCLUDED) + r")(#[^)\s]*)?\)")


def rewrite(markdown: str) -> str:
    """``markdown`` with every link to an :data:`INCLUDED` file pointed at its page."""
    return _LINK.sub(lambda match: f"]({INCLUDED[match.group(1)]}{match.group(2) or ''})", markdown)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: :func:`rewrite` the pages at the top of ``docs/`` (the links are relative to it)."""
    if "/" in page.file.src_uri:
        return markdown
    return rewrite(markdown)
