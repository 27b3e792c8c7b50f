"""The CLI reference, generated from the argparse parsers at build time, so it cannot go stale.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``): a page holding the line ``<!-- cli-reference -->``
gets it replaced by :func:`render_cli_reference`, which walks ``nqueens_cp.cli.build_parser()``:
the top-level command, then every sub-command (and any sub-command of those) with its usage, its
description, every argument group with each option's flags, metavar and help (``%(default)s``
expanded, as ``--help`` shows it), and its epilog. Only argparse and the package are imported,
so ``tests/test_docs.py`` calls the same function without MkDocs.

The backends' own options (``-O KEY=VALUE``, or a flag of their own) are not argparse options: a
page holding ``<!-- backend-options -->`` gets them from each built-in backend's ``option_specs``
(:func:`render_backend_options`), as ``nqueens-cp backends`` prints them.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

MARKER = "<!-- cli-reference -->"

#: A page holding this line gets every built-in backend's options (:func:`render_backend_options`).
BACKEND_OPTIONS_MARKER = "<!-- backend-options -->"

#: Width the usage lines are wrapped at (``--help`` wraps at the terminal's).
USAGE_WIDTH = 76

_SPECIAL = re.compile(r"([\\*_\[\]#|])")
_ENTITIES = {"<": "&lt;", ">": "&gt;"}  # Markdown has no backslash escape for these
_CODE_SPAN = re.compile(r"(`[^`]+`)")


def escape(text: str) -> str:
    """Help text as Markdown: characters Markdown would read as markup escaped, `code spans` kept."""
    parts = _CODE_SPAN.split(" ".join(text.split()))
    return "".join(part if part.startswith("`") and part.endswith("`") and len(part) > 1
                   else re.sub("[<>]", lambda m: _ENTITIES[m.group()], _SPECIAL.sub(r"\\\1", part))
                   for part in parts)


def subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser, str | None]]:
    """``(name, parser, one-line help)`` of each sub-command of ``parser``, in the order they were added."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            seen: set[int] = set()
            for name, sub in action.choices.items():
                if id(sub) in seen:  # an alias
                    continue
                seen.add(id(sub))
                found.append((name, sub, helps.get(name)))
    return found


def _formatter(parser: argparse.ArgumentParser) -> argparse.HelpFormatter:
    return argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH, max_help_position=32)


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = _formatter(parser)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return formatter.format_help().strip()


def _prose(parser: argparse.ArgumentParser, text: str | None) -> list[str]:
    """A description or epilog: a paragraph, or a text block where the parser keeps the formatting."""
    if not text:
        return []
    text = text.replace("%(prog)s", parser.prog)
    formatter_class = parser.formatter_class
    if isinstance(formatter_class, type) and issubclass(formatter_class, argparse.RawDescriptionHelpFormatter):
        return ["```text", text.strip("\n"), "```", ""]
    return [escape(text), ""]


def _invocation(formatter: argparse.HelpFormatter, action: argparse.Action) -> str:
    return formatter._format_action_invocation(action)


def _help(formatter: argparse.HelpFormatter, action: argparse.Action) -> str:
    if not action.help:
        return ""
    return formatter._expand_help(action)


def _argument_lines(parser: argparse.ArgumentParser) -> list[str]:
    formatter = _formatter(parser)
    exclusive = {
        id(action): group
        for group in parser._mutually_exclusive_groups
        for action in group._group_actions
    }
    lines: list[str] = []
    for group in parser._action_groups:
        actions = [
            action for action in group._group_actions
            if action.help is not argparse.SUPPRESS and not isinstance(action, argparse._SubParsersAction)
        ]
        if not actions:
            continue
        lines += [f"**{escape(group.title or 'arguments')}**", ""]
        if group.description:
            lines += [escape(group.description), ""]
        for action in actions:
            text = _help(formatter, action)
            partners = exclusive.get(id(action))
            if partners is not None:
                others = [
                    other.option_strings[0] for other in partners._group_actions
                    if other is not action and other.option_strings
                ]
                if others:
                    text += f" (not with {', '.join(others)})"
            if action.choices is not None and not isinstance(action.choices, dict) and action.metavar:
                text += f" (one of: {', '.join(str(choice) for choice in action.choices)})"
            lines.append(f"- `{_invocation(formatter, action)}`" + (f": {escape(text)}" if text else ""))
        lines.append("")
    return lines


def _section(command: str, parser: argparse.ArgumentParser, summary: str | None) -> list[str]:
    lines = [f"## `{command}`", ""]
    if summary:
        lines += [f"*{escape(summary)}*", ""]
    lines += ["```text", _usage(parser), "```", ""]
    lines += _prose(parser, parser.description)
    lines += _argument_lines(parser)
    lines += _prose(parser, parser.epilog)
    for name, sub, help_text in subcommands(parser):
        lines += _section(f"{command} {name}", sub, help_text)
    return lines


def render_cli_reference(parser: argparse.ArgumentParser | None = None) -> str:
    """The reference of ``parser`` (default: the ``nqueens-cp`` command line) as Markdown."""
    if parser is None:
        from nqueens_cp.cli import build_parser

        parser = build_parser()
    commands = subcommands(parser)
    lines = ["| command | what it does |", "|---|---|"]
    lines += [
        f"| [`{parser.prog} {name}`](#{parser.prog}-{name}) | {escape(help_text or '')} |"
        for name, _, help_text in commands
    ]
    lines.append("")
    lines += _section(parser.prog, parser, None)
    return "\n".join(lines).rstrip() + "\n"


def builtin_backends() -> list[tuple[str, Any]]:
    """``(name, class)`` of every backend of this package (another installed package's are left out)."""
    from nqueens_cp.backends.framework.registry import backend_class, backend_names

    found = []
    for name in backend_names():
        try:
            cls = backend_class(name)
        except Exception:  # another package's backend that does not load: not documented here
            continue
        if cls.__module__.startswith("nqueens_cp."):
            found.append((name, cls))
    return found


def render_backend_options() -> str:
    """Every built-in backend's summary and options (flag or ``-O``, default, allowed values, help)."""
    from nqueens_cp.cli.backends import largest_board, option_usage

    lines: list[str] = []
    for name, cls in builtin_backends():
        lines += [f"### `{name}` options", "", escape(cls.summary), "", escape(largest_board(name, cls).capitalize()) + ".", ""]
        if not cls.option_specs:
            lines += ["No options.", ""]
            continue
        for spec in cls.option_specs:
            facts = [f"default `{spec.default}`"]
            if spec.choices:
                facts.append("one of: " + ", ".join(f"`{choice}`" for choice in spec.choices))
            lines.append(f"- `{option_usage(spec)}` ({'; '.join(facts)}): {escape(spec.help)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: put the generated reference where a page holds :data:`MARKER` (or the backends' options)."""
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, render_cli_reference())
    if BACKEND_OPTIONS_MARKER in markdown:
        markdown = markdown.replace(BACKEND_OPTIONS_MARKER, render_backend_options())
    return markdown
