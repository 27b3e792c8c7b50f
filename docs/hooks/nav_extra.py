"""The nav of ``mkdocs.yml`` made to fit the pages that are there.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``), two rules:

- Pages under ``docs/`` that ``nav`` does not list go into a last nav section, :data:`SECTION`,
  titled by their first heading: a branch that adds a page is built and reachable without
  touching ``mkdocs.yml``, until someone gives the page its place in ``nav``.
- Pages named in ``extra: optional_pages:`` may be listed in ``nav`` before they exist: an entry
  for one that is not there is dropped (a section left empty goes too), so ``mkdocs build
  --strict`` holds before and after the page lands. Any other nav entry for a missing page is
  still an error of the strict build.
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


def without_missing(items: Any, missing: set[str]) -> Any:
    """``items`` (a nav or part of one) without the entries for the pages in ``missing``, nor sections left empty."""
    if isinstance(items, str):
        return None if items in missing else items
    if isinstance(items, dict):
        kept = {}
        for title, value in items.items():
            value = without_missing(value, missing)
            if value is not None and value != []:
                kept[title] = value
        return kept or None
    if isinstance(items, list):
        return [item for item in (without_missing(item, missing) for item in items) if item is not None]
    return items


def on_config(config: Any) -> Any:
    """MkDocs hook: drop absent optional pages from ``nav``, append the pages it does not list as :data:`SECTION`."""
    nav = config.get("nav")
    if not nav:  # no nav given: MkDocs lists every page itself
        return config
    docs_dir = Path(config["docs_dir"])
    optional = (config.get("extra") or {}).get("optional_pages") or []
    absent = {page for page in optional if not (docs_dir / page).is_file()}
    nav = without_missing(nav, absent)
    extra = unlisted_pages(docs_dir, nav)
    config["nav"] = [*nav, {SECTION: extra}] if extra else nav
    return config
