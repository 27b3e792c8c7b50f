"""Renderers: a report ``Document`` formatted as text. They only format; every value comes from the data.

Formats: ``github`` (Markdown), ``grid``, ``plain`` and ``simple`` (text), ``latex`` (a complete
LaTeX document) and ``html`` (a complete HTML page). Tables are made by tabulate in the
matching table format.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable

from nqueens_cp.reports.document import Bullets, Code, Document, Figure, Heading, Image, Paragraph, Table

#: Every format the renderers know, and the file extension a report in it gets.
EXTENSIONS: dict[str, str] = {
    "github": "md",
    "grid": "txt",
    "plain": "txt",
    "simple": "txt",
    "latex": "tex",
    "html": "html",
}
FORMATS: tuple[str, ...] = tuple(EXTENSIONS)


def _table(table: Table, fmt: str) -> str:
    from tabulate import tabulate

    return tabulate(
        [list(row) for row in table.rows], headers=list(table.headers), tablefmt=fmt, disable_numparse=True
    )


@dataclass(frozen=True)
class _LineStyle:
    """How a line-oriented format (Markdown, tabulate's text formats) writes each kind of block."""

    table_format: str
    heading: Callable[[Heading], str]
    strong: Callable[[str], str]
    detail: Callable[[str], str]
    code: Callable[[str], str]
    image: Callable[[Image], str]
    figure: Callable[[Figure], str]

    def render(self, document: Document) -> str:
        parts: list[str] = []
        for block in document:
            if isinstance(block, Heading):
                parts.append(self.heading(block))
            elif isinstance(block, Paragraph):
                parts.append(self.strong(block.text) if block.strong else block.text)
            elif isinstance(block, Bullets):
                lines = []
                for item in block.items:
                    lines.append(f"- {item.text}")
                    lines.extend(self.detail(detail) for detail in item.details)
                parts.append("\n".join(lines))
            elif isinstance(block, Code):
                parts.append(self.code(block.text))
            elif isinstance(block, Table):
                parts.append(_table(block, self.table_format) + (f"\n\n{block.note}" if block.note else ""))
            elif isinstance(block, Image):
                parts.append(self.image(block))
            elif isinstance(block, Figure):
                parts.append(self.figure(block))
        return "\n\n".join(parts) + "\n"


_MARKDOWN = _LineStyle(
    "github",
    heading=lambda block: "#" * block.level + " " + block.text,
    strong=lambda text: f"> **{text}**",
    detail=lambda detail: f"  - `{detail}`",
    code=lambda text: f"```\n{text}\n```",
    image=lambda block: f"![{block.alt}]({block.path})",
    figure=lambda block: f"*[figure: {block.caption}]*",
)


def render_markdown(document: Document) -> str:
    """GitHub-flavoured Markdown."""
    return _MARKDOWN.render(document)


def _text_renderer(fmt: str) -> Callable[[Document], str]:
    """Plain text with tabulate's ``fmt`` tables."""
    return _LineStyle(
        fmt,
        heading=lambda block: block.text + "\n" + ("=" if block.level == 1 else "-") * len(block.text),
        strong=lambda text: f"*** {text} ***",
        detail=lambda detail: f"      {detail}",
        code=lambda text: "\n".join("    " + line for line in text.splitlines()),
        image=lambda block: f"[plot: {block.path}]",
        figure=lambda block: f"[figure: {block.caption}]",
    ).render


_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
    "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def render_latex(document: Document) -> str:
    """A complete LaTeX document (article, landscape; tables shrunk to the text width when wider)."""
    title = next((b.text for b in document if isinstance(b, Heading) and b.level == 1), "nqueens-cp report")
    parts = [
        r"\documentclass{article}",
        r"\usepackage[margin=1.5cm,landscape]{geometry}",
        r"\usepackage{graphicx}",
        r"\usepackage{adjustbox}",
        r"\usepackage[T1]{fontenc}",
        r"\begin{document}",
    ]
    for block in document:
        if isinstance(block, Heading):
            if block.level == 1:
                parts.append(r"\section*{" + latex_escape(title) + "}")
            else:
                command = "subsection" if block.level == 2 else "subsubsection"
                parts.append("\\" + command + "*{" + latex_escape(block.text) + "}")
        elif isinstance(block, Paragraph):
            text = latex_escape(block.text)
            parts.append(r"\noindent\fbox{\textbf{" + text + "}}" if block.strong else text)
        elif isinstance(block, Bullets):
            lines = [r"\begin{itemize}"]
            for item in block.items:
                lines.append(r"\item " + latex_escape(item.text))
                if item.details:
                    lines.append(r"\begin{itemize}")
                    lines.extend(r"\item \texttt{" + latex_escape(detail) + "}" for detail in item.details)
                    lines.append(r"\end{itemize}")
            lines.append(r"\end{itemize}")
            parts.append("\n".join(lines))
        elif isinstance(block, Code):
            parts.append("\\begin{verbatim}\n" + block.text + "\n\\end{verbatim}")
        elif isinstance(block, Table):
            body = r"\begin{adjustbox}{max width=\textwidth}" + "\n" + _table(block, "latex") + "\n" + r"\end{adjustbox}"
            if block.note:
                body += "\n\n{\\small " + latex_escape(block.note) + "}"
            parts.append(body)
        elif isinstance(block, Image):
            parts.append(r"\IfFileExists{" + block.path + r"}{\includegraphics[width=0.8\textwidth]{"
                         + block.path + "}}{}")
        elif isinstance(block, Figure):
            parts.append(r"\textit{[figure: " + latex_escape(block.caption) + "]}")
    parts.append(r"\end{document}")
    return "\n\n".join(parts) + "\n"


def render_html(document: Document) -> str:
    """A complete HTML page."""
    title = next((b.text for b in document if isinstance(b, Heading) and b.level == 1), "nqueens-cp report")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        f'<head><meta charset="utf-8"><title>{html.escape(title)}</title>',
        "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin:0.5em 0}"
        "th,td{border:1px solid #bbb;padding:2px 8px;text-align:left}"
        ".verdict{font-weight:bold;padding:0.5em;border:2px solid #444}.note{font-size:small;color:#444}"
        "figure.svg{display:inline-block;margin:0.5em;vertical-align:top}figcaption{font-size:small}"
        "</style></head>",
        "<body>",
    ]
    for block in document:
        if isinstance(block, Heading):
            level = min(block.level, 6)
            parts.append(f"<h{level}>{html.escape(block.text)}</h{level}>")
        elif isinstance(block, Paragraph):
            css = ' class="verdict"' if block.strong else ""
            parts.append(f"<p{css}>{html.escape(block.text)}</p>")
        elif isinstance(block, Bullets):
            lines = ["<ul>"]
            for item in block.items:
                details = "".join(f"<li><code>{html.escape(d)}</code></li>" for d in item.details)
                lines.append(f"<li>{html.escape(item.text)}" + (f"<ul>{details}</ul>" if details else "") + "</li>")
            lines.append("</ul>")
            parts.append("\n".join(lines))
        elif isinstance(block, Code):
            parts.append(f"<pre>{html.escape(block.text)}</pre>")
        elif isinstance(block, Table):
            parts.append(_table(block, "html"))
            if block.note:
                parts.append(f'<p class="note">{html.escape(block.note)}</p>')
        elif isinstance(block, Image):
            parts.append(f'<img src="{html.escape(block.path)}" alt="{html.escape(block.alt)}">')
        elif isinstance(block, Figure):
            parts.append(f'<figure class="svg">{block.svg}<figcaption>{html.escape(block.caption)}</figcaption></figure>')
    parts += ["</body>", "</html>"]
    return "\n".join(parts) + "\n"


_RENDERERS: dict[str, Callable[[Document], str]] = {
    "github": render_markdown,
    "grid": _text_renderer("grid"),
    "plain": _text_renderer("plain"),
    "simple": _text_renderer("simple"),
    "latex": render_latex,
    "html": render_html,
}


def render(document: Document, fmt: str) -> str:
    """``document`` in format ``fmt`` (one of ``FORMATS``)."""
    try:
        renderer = _RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})") from None
    return renderer(document)
