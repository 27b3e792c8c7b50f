"""Render the JSON Schema of ``results.json`` as the field-by-field tables of the page that asks.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``): a page holding the line ``<!-- results-schema -->``
gets one table per object of ``nqueens_cp/harness/results.schema.json`` (field, type, meaning),
from the schema's own descriptions: the schema is the one place they are written.
"""

from __future__ import annotations

from typing import Any

MARKER = "<!-- results-schema -->"


def _type(spec: dict[str, Any], defs: dict[str, Any]) -> str:
    """A field's type in words: ``integer or null``, ``list of [string, any]``, ``settings`` (a table below)."""
    if "$ref" in spec:
        name = spec["$ref"].rsplit("/", 1)[-1]
        target = defs[name]
        return f"[{name}](#{name})" if "properties" in target else _type(target, defs)
    if "const" in spec:
        return f"`{spec['const']}`"
    if "enum" in spec:
        return "one of " + ", ".join(f"`{value}`" for value in spec["enum"])
    kind = spec.get("type", "any")
    kinds = kind if isinstance(kind, list) else [kind]
    words = []
    for one in kinds:
        if one == "array":
            items = spec.get("items", {})
            if "prefixItems" in items:
                parts = ", ".join(str(part.get("type", "any")) for part in items["prefixItems"])
                words.append(f"list of [{parts}]")
            elif "$ref" in items:
                words.append(f"list of {_type(items, defs)}")
            else:
                words.append(f"list of {items.get('type', 'object' if 'properties' in items else 'any')}")
        else:
            words.append(str(one))
    return " or ".join(words)


def _table(title: str, spec: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    lines = [f"### {title}", "", spec.get("description", ""), "", "| field | type | meaning |", "|---|---|---|"]
    for name, field in spec["properties"].items():
        described = defs[field["$ref"].rsplit("/", 1)[-1]] if "$ref" in field else field
        meaning = described.get("description", "").replace("|", "\\|")
        lines.append(f"| `{name}` | {_type(field, defs)} | {meaning} |")
    return [*lines, ""]


def render_results_schema() -> str:
    """Every object of the results schema as a Markdown table, the top level first."""
    from nqueens_cp.harness.results import results_schema

    schema = results_schema()
    defs: dict[str, Any] = schema.get("$defs", {})
    lines = _table("results (the top level)", schema, defs)
    for name in ("configurations", "runs", "checks", "merged"):
        lines += _table(f"{name} (each item)", schema["properties"][name]["items"], defs)
    lines += _table("task", schema["properties"]["task"], defs)
    for name in ("settings", "environment"):
        lines += _table(name, defs[name], defs)
    lines += _table("model_size", defs["model_size"], defs)
    return "\n".join(lines)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: put the tables where a page holds :data:`MARKER`."""
    return markdown.replace(MARKER, render_results_schema()) if MARKER in markdown else markdown
