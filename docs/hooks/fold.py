"""Long pages as a summary with the details one click away: each long section folded.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). For each page named in ``extra: fold:`` (page ->
heading level, or -> ``{level: L, first: W}``), every section under a heading of that level or
above (down to ``##``) keeps its heading and its first block (a paragraph, a list, a table or a
code block) in sight, with the pictures that follow it (``<!-- picture: ... -->``); the rest of
it, when it holds more than :data:`MIN_WORDS` words, goes into a collapsible block
(pymdownx.details, ``??? info``) that says how much it holds. With ``first: W``, a first block of
more than W words (a table of measurements, a long script) is folded with the rest, unless the
line before it is :data:`KEEP` (the page's "which wins" table). The headings inside a folded block
stay headings, so the table of contents and every link to them still work.

The included files (``--8<-- "models/README.md"``, pymdownx.snippets) are read in here first, so
the pages that only include a file are folded too; the file in the repository is not changed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

#: A section's rest is folded only when it holds more words than this.
MIN_WORDS = 60
#: The line that keeps the block after it in sight whatever its length (a page's "which wins" table).
KEEP = "<!-- fold: keep -->"

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^(#{1,6})\s")
_COMMENT = re.compile(r"^\s*<!--.*-->\s*$")
_SNIPPET = re.compile(r'^--8<--\s+"([^"]+)"\s*$', re.MULTILINE)


def include_snippets(markdown: str, base: Path) -> str:
    """``markdown`` with each whole-line ``--8<-- "path"`` replaced by that file (relative to ``base``)."""
    return _SNIPPET.sub(lambda m: (base / m.group(1)).read_text(encoding="utf-8").rstrip("\n"), markdown)


def _blocks(lines: list[str]) -> list[tuple[int, int]]:
    """``(start, end)`` line ranges of the top-level blocks of ``lines`` (a fenced block is one)."""
    blocks: list[tuple[int, int]] = []
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        if _FENCE.match(lines[i]):
            fence = _FENCE.match(lines[i]).group(1)  # type: ignore[union-attr]
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(fence):
                i += 1
            i += 1
        elif _COMMENT.match(lines[i]):  # a whole-line comment (a picture, KEEP) is a block of its own
            i += 1
        else:
            while i < len(lines) and lines[i].strip() and not _FENCE.match(lines[i]) and not _COMMENT.match(lines[i]):
                i += 1
        blocks.append((start, min(i, len(lines))))
    return blocks


def _summary(lines: list[str]) -> str:
    words = sum(len(line.split()) for line in lines)
    tables = sum(1 for line in lines if re.match(r"^\s*\|\s*:?-{3,}", line))
    return f"Details: {words:,} words" + (f", {tables} table{'s' if tables > 1 else ''}" if tables else "")


def fold(markdown: str, level: int, first: int | None = None) -> str:
    """``markdown`` with the long sections under headings of ``level`` or above folded (see the
    module); ``first``: the most words a section's first block may hold and stay in sight (None: any)."""
    lines = markdown.split("\n")
    sections: list[list[str]] = [[]]
    in_fence = ""
    for line in lines:
        fence = _FENCE.match(line)
        if fence and not in_fence:
            in_fence = fence.group(1)
        elif in_fence and line.strip().startswith(in_fence):
            in_fence = ""
        elif not in_fence and (title := _HEADING.match(line)) and 2 <= len(title.group(1)) <= level:
            sections.append([])
        sections[-1].append(line)
    out: list[str] = sections[0]
    for section in sections[1:]:
        out += _fold_section(section[0], section[1:], first)
    return "\n".join(out)


def _words(lines: list[str]) -> int:
    return sum(len(line.split()) for line in lines)


def _fold_section(heading: str, body: list[str], first: int | None) -> list[str]:
    """One section, its rest (or all of it, see the module) folded when long."""
    # the first block stays in sight, and the pictures (HTML comments: docs/hooks/pictures.py) after it
    blocks = [(start, end) for start, end in _blocks(body) if not body[start].lstrip().startswith("<!--")]
    if not blocks:
        return [heading, *body]
    first_start, first_end = blocks[0]
    before = [line.strip() for line in body[:first_start] if line.strip()]
    kept = bool(before) and before[-1] == KEEP
    if not kept and first is not None and _words(body[first_start:first_end]) > first:  # too long for a glance
        split = first_start
    elif len(blocks) >= 2:
        split = blocks[1][0]
    else:
        return [heading, *body]
    rest = body[split:]
    while rest and not rest[-1].strip():
        rest.pop()
    if _words(rest) <= MIN_WORDS:
        return [heading, *body]
    out = [heading, *body[:split], f'??? info "{_summary(rest)}"', ""]
    out += [("    " + line) if line.strip() else "" for line in rest]
    return [*out, "", ""]


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: fold the pages named in ``extra: fold:`` (page -> level, or -> ``{level: L,
    first: W}``)."""
    pages = (config.get("extra") or {}).get("fold") or {}
    setting = pages.get(page.file.src_uri)
    if not setting:
        return markdown
    level, first = (setting, None) if isinstance(setting, int) else (setting["level"], setting.get("first"))
    base = Path(config["config_file_path"]).parent
    return fold(include_snippets(markdown, base), int(level), None if first is None else int(first))
