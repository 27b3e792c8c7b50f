"""Pages under ``docs/`` that ``nav`` in ``mkdocs.yml`` does not list go into a last nav section.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). A branch that adds a page (``docs/local-search.md``,
say) gets it built and reachable from the navigation without touching ``mkdocs.yml``: it appears
under :data:`SECTION`, titled by its first heading, until someone gives it its place in ``nav``.
A page that is not there is simply not listed, so ``mkdocs build --strict`` holds either way.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

#: Title of the nav section that collects the pages ``nav`` does not list.
SECTION = "More"

#: Folders under ``docs/`` that hold no pages of the site.
NOT_PAGES = ("hooks",)


def _listed(items: Any) -> set[str]:
    """Every page path a nav (list of strings and one-key dicts, nested) names."""
    found: set[str] = set()
    if isinstance(items, str):
        found.add(items)
    elif isinstance(items, list):
        for item in items:
            found |= _listed(item)
    elif isinstance(items, dict):
        for value in items.values():
            found |= _listed(value)
    return found


def unlisted_pages(docs_dir: Path, nav: Any) -> list[str]:
    """The Markdown pages under ``docs_dir`` that ``nav`` does not name, sorted, as paths relative to it."""
    listed = _listed(nav)
    pages = []
    for path in sorted(docs_dir.rglob("*.md")):
        relative = path.relative_to(docs_dir).as_posix()
        if relative.split("/")[0] in NOT_PAGES or relative in listed:
            continue
        pages.append(relative)
    return pages


def on_config(config: Any) -> Any:
    """MkDocs hook: append the pages ``nav`` does not list as the section :data:`SECTION`."""
    nav = config.get("nav")
    if not nav:  # no nav given: MkDocs lists every page itself
        return config
    extra = unlisted_pages(Path(config["docs_dir"]), nav)
    if extra:
        config["nav"] = [*nav, {SECTION: extra}]
    return config
