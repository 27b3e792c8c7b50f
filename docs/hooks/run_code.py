"""The code of a page run when the site is built, its output shown under it: a tutorial cannot rot.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). Each fenced block whose info string is
``python exec`` is run, in the page's order, in one namespace per page (as the cells of a notebook)
and in a fresh temporary working directory; the block is shown as ordinary Python, followed by what
it printed, and, when its last line is an expression, by that value as Jupyter shows it: drawn when
it has ``_repr_svg_`` (an ``Instance``, a ``BoardView``), else its ``repr``. A block that raises stops
the build, naming the page, the block and the error: the strict build in CI fails with it.
"""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import tempfile
import traceback
from typing import Any

_BLOCK = re.compile(r"^```python exec[^\n]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)
_SVG_MARKER = re.compile(r"<!-- run-code-svg: (\d+) -->")

#: The drawings of the pages built so far, by number (the HTML is put in by ``on_page_content``).
_DRAWINGS: list[str] = []


class CodeBlockError(RuntimeError):
    """A code block of a page raised."""


def _run(code: str, namespace: dict[str, Any]) -> tuple[str, Any]:
    """Run ``code`` in ``namespace``: what it printed, and the value of its last line if that is an expression."""
    tree = ast.parse(code)
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    assert last is None or isinstance(last, ast.Expr)
    out = io.StringIO()
    value = None
    with contextlib.redirect_stdout(out):
        exec(compile(tree, "<code block>", "exec"), namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), "<code block>", "eval"), namespace)
    return out.getvalue(), value


def run_blocks(markdown: str, where: str = "page") -> str:
    """``markdown`` with every ``python exec`` block run and followed by its output (see the module)."""
    namespace: dict[str, Any] = {"__name__": "__docs__"}
    number = 0
    here = os.getcwd()

    def replace(match: re.Match[str]) -> str:
        nonlocal number
        number += 1
        code = match.group(1)
        try:
            printed, value = _run(code, namespace)
        except Exception as error:
            line = markdown[:match.start()].count("\n") + 1
            raise CodeBlockError(f"{where}: code block {number} (line {line}) raised "
                                 f"{type(error).__name__}: {error}\n{traceback.format_exc()}") from error
        parts = ["```python", code.rstrip("\n"), "```", ""]
        if value is not None and not hasattr(value, "_repr_svg_"):
            printed += repr(value) + "\n"
        if printed.strip():
            parts += ['```text title="output"', printed.rstrip("\n"), "```", ""]
        if value is not None and hasattr(value, "_repr_svg_"):
            _DRAWINGS.append(value._repr_svg_())
            parts += [f"<!-- run-code-svg: {len(_DRAWINGS) - 1} -->", ""]
        return "\n".join(parts)

    with tempfile.TemporaryDirectory(prefix="nqueens-docs-") as scratch:
        os.chdir(scratch)
        try:
            return _BLOCK.sub(replace, markdown)
        finally:
            os.chdir(here)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: run the page's ``python exec`` blocks."""
    if "```python exec" not in markdown:
        return markdown
    return run_blocks(markdown, page.file.src_uri)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: put the drawings in."""
    return _SVG_MARKER.sub(lambda m: f'<div class="nq-output">{_DRAWINGS[int(m.group(1))]}</div>', html)
