"""The generated CLI reference names every sub-command and every option, and the site's pieces fit.

``docs/hooks/cli_reference.py`` renders ``docs/cli.md`` from the argparse parsers when MkDocs builds
the site (``mkdocs build --strict`` runs in ``.ci/run``). These tests call the same renderer (no
MkDocs, no network) and check its output against the parsers, walked independently here.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from nqueens_cp.cli import build_parser

from .conftest import docs_hook

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


cli_reference = docs_hook("cli_reference")
nav_extra = docs_hook("nav_extra")
repo_links = docs_hook("repo_links")


def _commands(parser: argparse.ArgumentParser, prefix: str) -> list[tuple[str, argparse.ArgumentParser]]:
    """``(full command, parser)`` for ``parser`` and every sub-command below it, found from its actions."""
    found = [(prefix, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _commands(sub, f"{prefix} {name}")
    return found


def _sections(reference: str) -> dict[str, str]:
    """The reference's text under each ``## `command` `` heading, by command."""
    parts = re.split(r"^## `([^`]+)`\s*$", reference, flags=re.MULTILINE)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def missing_from_reference(parser: argparse.ArgumentParser, reference: str) -> list[str]:
    """Every sub-command without a section, and every option or positional argument not in its section."""
    sections = _sections(reference)
    missing = []
    for command, sub in _commands(parser, parser.prog):
        section = sections.get(command)
        if section is None:
            missing.append(command)
            continue
        for action in sub._actions:
            if isinstance(action, argparse._SubParsersAction) or action.help == argparse.SUPPRESS:
                continue
            names = action.option_strings or [action.metavar or action.dest]
            for name in names:
                # a list item of the section starts with the flag: "- `--limit K`: ..." or "- `-o FILE, --output FILE`"
                if not re.search(rf"^- `(?:[^`]*[ ,])?{re.escape(str(name))}(?=[ ,`=])", section, flags=re.MULTILINE):
                    missing.append(f"{command} {name}")
    return missing


def test_every_subcommand_and_option_is_in_the_reference() -> None:
    parser = build_parser()
    reference = cli_reference.render_cli_reference(parser)
    assert missing_from_reference(parser, reference) == []
    commands = [command for command, _ in _commands(parser, parser.prog)]
    assert {"nqueens-cp solve", "nqueens-cp compare", "nqueens-cp export"} <= set(commands)


def test_the_check_finds_an_option_or_a_command_left_out() -> None:
    """The check above can fail: drop one option's line, or one command's section, and it is named."""
    parser = build_parser()
    reference = cli_reference.render_cli_reference(parser)
    without_limit = re.sub(r"^- `--limit K`.*\n", "", reference, count=1, flags=re.MULTILINE)
    assert without_limit != reference
    assert "nqueens-cp solve --limit" in missing_from_reference(parser, without_limit)
    without_decode = reference.replace("## `nqueens-cp decode`", "## `nqueens-cp decoded`")
    assert "nqueens-cp decode" in missing_from_reference(parser, without_decode)


def test_reference_keeps_help_texts_and_usage() -> None:
    parser = build_parser()
    reference = cli_reference.render_cli_reference(parser)
    sections = _sections(reference)
    for command, sub in _commands(parser, parser.prog):
        assert f"usage: {sub.prog}" in sections[command]
        for action in sub._actions:
            if action.help and action.help != argparse.SUPPRESS and "%(" not in action.help:
                first_words = " ".join(action.help.split()[:3])
                assert cli_reference.escape(first_words) in " ".join(sections[command].split()), (command, action.dest)


def test_a_new_option_shows_without_touching_the_docs() -> None:
    """A parser grown by another option or sub-command is rendered with it: nothing is listed by hand."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    extra = subparsers.add_parser("brand-new", help="a sub-command made up for this test")
    extra.add_argument("--shiny", metavar="X", help="an option made up for this test, with * and <tags>")
    reference = cli_reference.render_cli_reference(parser)
    assert missing_from_reference(parser, reference) == []
    assert r"with \* and &lt;tags&gt;" in _sections(reference)["nqueens-cp brand-new"]


def test_the_cli_page_holds_the_marker_and_mkdocs_runs_the_hooks() -> None:
    assert cli_reference.MARKER in (DOCS / "cli.md").read_text(encoding="utf-8")
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for hook in ("docs/hooks/cli_reference.py", "docs/hooks/nav_extra.py", "docs/hooks/repo_links.py"):
        assert hook in config
    page = cli_reference.on_page_markdown((DOCS / "cli.md").read_text(encoding="utf-8"), None, None, None)
    assert cli_reference.MARKER not in page and "## `nqueens-cp solve`" in page


@pytest.mark.parametrize(
    "included",
    [
        "models/README.md",
        "benchmarks/RESULTS.md",
        "examples/nqueens-cp-example-backend/pyproject.toml",
        "examples/nqueens-cp-example-backend/src/nqcp_example/backend.py",
    ],
)
def test_included_files_are_included_not_copied(included: str) -> None:
    """The models reference, the results and the example package are the files themselves, included."""
    pages = "".join(path.read_text(encoding="utf-8") for path in DOCS.glob("*.md"))
    assert f'--8<-- "{included}"' in pages
    assert (ROOT / included).is_file()


def test_pages_nav_leaves_out_are_collected(tmp_path: Path) -> None:
    for name in ("index.md", "a.md", "local-search.md", "hooks/skip.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("# x\n", encoding="utf-8")
    nav = [{"Home": "index.md"}, {"Guide": [{"A": "a.md"}]}]
    assert nav_extra.unlisted_pages(tmp_path, nav) == ["local-search.md"]
    config = nav_extra.on_config({"nav": nav, "docs_dir": str(tmp_path)})
    assert config["nav"][-1] == {nav_extra.SECTION: ["local-search.md"]}


def test_optional_pages_are_listed_when_they_exist(tmp_path: Path) -> None:
    """An optional page's nav entry stays when the page is there and goes when it is not (its section too)."""
    (tmp_path / "index.md").write_text("# x\n", encoding="utf-8")
    nav = [
        {"Home": "index.md"},
        {"Methods": [{"Local search": "local-search.md"}, {"Certified": "certified.md"}]},
        {"Later": [{"Paradigms": "paradigms.md"}]},
    ]
    optional = ["local-search.md", "certified.md", "paradigms.md"]
    config = nav_extra.on_config({"nav": nav, "docs_dir": str(tmp_path), "extra": {"optional_pages": optional}})
    assert config["nav"] == [{"Home": "index.md"}]
    (tmp_path / "certified.md").write_text("# c\n", encoding="utf-8")
    config = nav_extra.on_config({"nav": nav, "docs_dir": str(tmp_path), "extra": {"optional_pages": optional}})
    assert config["nav"] == [{"Home": "index.md"}, {"Methods": [{"Certified": "certified.md"}]}]
    # a page not declared optional keeps its entry, missing or not: the strict build reports it
    config = nav_extra.on_config({"nav": nav, "docs_dir": str(tmp_path), "extra": {}})
    assert config["nav"] == nav


def test_mkdocs_nav_holds_the_optional_pages_at_their_place() -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in ("local-search.md", "certified.md", "paradigms.md"):
        assert f": {page}" in config and f"    - {page}" in config, page


def test_links_to_included_files_point_at_their_pages() -> None:
    text = "See [the models](../models/README.md#the-at-most-one-encodings) and [figures](../benchmarks/RESULTS.md)."
    assert repo_links.rewrite(text) == "See [the models](models.md#the-at-most-one-encodings) and [figures](results.md)."
    assert repo_links.rewrite("[other](../tests/x.md)") == "[other](../tests/x.md)"


def test_every_backend_option_is_on_the_backends_page() -> None:
    """Each built-in backend's options (not argparse's: ``-O KEY=VALUE``) are rendered from its option specs."""
    from nqueens_cp.backends.framework.registry import backend_class

    assert cli_reference.BACKEND_OPTIONS_MARKER in (DOCS / "backends.md").read_text(encoding="utf-8")
    rendered = cli_reference.render_backend_options()
    sections = dict(
        zip(*[iter(re.split(r"^### `([^`]+)` options\s*$", rendered, flags=re.MULTILINE)[1:])] * 2, strict=True)
    )
    names = [name for name, _ in cli_reference.builtin_backends()]
    assert {"backtrack", "bitboard", "cpsat", "sat", "minizinc"} <= set(names)
    assert set(sections) == set(names)
    for name in names:
        for spec in backend_class(name).option_specs:
            assert re.search(rf"^- `(?:-O {spec.name}=|--{spec.name.replace('_', '-')} )", sections[name], re.MULTILINE), (
                name, spec.name)


def test_readme_is_a_front_page_whose_links_hold() -> None:
    """The README keeps its two set-up commands word for word, stays a front page, and links only to files that exist."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "pip install . && nqueens-cp compare\n" in readme
    assert "pip install -e '.[test,dask]' && pytest\n" in readme
    assert len(readme.splitlines()) <= 250
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [target for target in targets if "://" not in target]
    assert local, "the README links to no page"
    assert [target for target in local if not (ROOT / target).exists()] == []


def test_the_help_and_the_package_docstring_name_every_backend() -> None:
    """``nqueens-cp --help`` lists the backends from the registry; the package docstring names each."""
    import nqueens_cp
    from nqueens_cp.backends.framework.registry import builtin_backend_names

    names = builtin_backend_names()
    assert {"backtrack", "bitboard", "cpsat", "sat", "ganak", "localsearch", "construction"} <= set(names)
    description = " ".join((build_parser().description or "").split())
    assert f"{len(names)} backends: {', '.join(names)} " in description
    assert nqueens_cp.__doc__ is not None
    assert set(re.findall(r"``([a-z0-9]+)``", nqueens_cp.__doc__)) >= set(names)
