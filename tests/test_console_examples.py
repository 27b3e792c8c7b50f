"""Every ```` ```console ```` example of README.md and docs/*.md is run, and its output compared.

A block is a transcript: each ``$ command`` line (a trailing ``\\`` continues it on the next line)
runs in ``bash`` in one temporary directory per block (later commands see the files earlier ones
wrote), where every top-level entry of the repository is linked, so ``benchmarks/...`` paths work;
``nqueens-cp`` is this checkout's. The lines up to the next ``$`` are the expected output, stdout
and stderr together, compared line by line (trailing spaces and blank lines at the end ignored),
with two conventions:

- a line ``...`` alone stands for any number of lines (none too): output left out;
- a trailing comment of two spaces or more then ``#`` on an output line is a note to the reader,
  not output. A note on the command or on its output that says ``exit N`` or ``exit status N``
  is checked; without one the command must exit 0.

An HTML comment on the line before the fence marks a block (``;`` between marks):
``<!-- console: slow; needs cadical minizinc -->``. ``slow``: run with the slow tests only;
``needs PROGRAM...``: skipped when a program is not on PATH (under CI a skip fails:
``tests/ci_skips.py``); ``output varies``: run, exit statuses checked, output not compared;
``not run: REASON``: shown only (say which test covers it instead).
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from .conftest import REPO

#: The pages whose console examples are run.
PAGES = (REPO / "README.md", *sorted((REPO / "docs").glob("*.md")))

_MARKS = re.compile(r"<!--\s*console:\s*(.*?)\s*-->")
_NOTE = re.compile(r"\s{2,}#\s.*$")
_EXIT = re.compile(r"#.*\bexit(?: status)? (\d+)\b")
_INSTALL = re.compile(r"(^|[;&|(]\s*)(pip|python3? -m pip|uv pip)\s")


@dataclass
class Command:
    """One ``$`` command of a block, the output shown under it, and the exit status it must end with."""

    line: int
    text: str
    expected: list[str] = field(default_factory=list)
    status: int = 0


@dataclass
class Block:
    """A console block of ``page`` starting at ``line`` (the fence), with its marks."""

    page: Path
    line: int
    marks: list[str]
    commands: list[Command]

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"

    @property
    def where(self) -> str:
        return str(self.page.relative_to(REPO))

    def mark(self, prefix: str) -> str | None:
        """The first mark that starts with ``prefix``, or None."""
        return next((mark for mark in self.marks if mark.startswith(prefix)), None)


def _exit_status(note: str) -> int | None:
    found = _EXIT.search(note)
    return int(found.group(1)) if found else None


def parse(page: Path, text: str) -> list[Block]:
    """The console blocks of a Markdown ``text`` (of ``page``)."""
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        if lines[index].strip() != "```console":
            index += 1
            continue
        marked = _MARKS.fullmatch(lines[index - 1].strip()) if index else None
        marks = [mark.strip() for mark in marked.group(1).split(";")] if marked else []
        block = Block(page, index + 1, marks, [])
        index += 1
        while index < len(lines) and lines[index].strip() != "```":
            line = lines[index]
            if line.startswith("$ "):
                command = Command(index + 1, line[2:])
                while command.text.endswith("\\") and index + 1 < len(lines):
                    index += 1
                    command.text += "\n" + lines[index]
                command.status = _exit_status(command.text) or 0
                block.commands.append(command)
            elif block.commands:
                command = block.commands[-1]
                note = _NOTE.search(line)
                if note and (status := _exit_status(note.group())) is not None:
                    command.status = status
                command.expected.append(_NOTE.sub("", line).rstrip())
            else:
                raise ValueError(f"{page}:{index + 1}: output before the first $ command")
            index += 1
        blocks.append(block)
        index += 1
    return blocks


def _trimmed(lines: list[str]) -> list[str]:
    while lines and not lines[-1]:
        lines = lines[:-1]
    return lines


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the ``actual`` lines are the ``expected`` ones, a line ``...`` standing for any lines
    (blank lines at the end of either are left out)."""
    expected, actual = _trimmed(expected), _trimmed(actual)
    pattern = "".join(r"(?:.*\n)*?" if line == "..." else re.escape(line) + r"\n" for line in expected)
    return re.fullmatch(pattern, "".join(line + "\n" for line in actual)) is not None


def _workspace(directory: Path) -> None:
    """Link every top-level entry of the repository into ``directory``."""
    for entry in REPO.iterdir():
        if entry.name not in (".git",) and not (directory / entry.name).exists():
            (directory / entry.name).symlink_to(entry)


def _environment() -> dict[str, str]:
    """This interpreter's scripts first on PATH, this checkout first on PYTHONPATH."""
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", "")))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(REPO), env.get("PYTHONPATH"))))
    return env


def run(block: Block, directory: Path) -> list[str]:
    """Run the commands of ``block`` in ``directory``; one message per command that went wrong."""
    env = _environment()
    installs = [f"{block.where}:{command.line}: $ {command.text}\ninstalls packages into this "
                "environment: mark the block 'not run: REASON'" for command in block.commands if _INSTALL.search(command.text)]
    if installs:
        return installs
    directory.mkdir(parents=True, exist_ok=True)
    _workspace(directory)
    problems = []
    for command in block.commands:
        done = subprocess.run(["bash", "-c", command.text], cwd=directory, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        actual = [line.rstrip() for line in done.stdout.splitlines()]
        wrong_output = block.mark("output varies") is None and not matches(command.expected, actual)
        if wrong_output or done.returncode != command.status:
            diff = "\n".join(difflib.unified_diff(command.expected, actual, "shown", "printed", lineterm=""))
            problems.append(f"{block.where}:{command.line}: $ {command.text}\n"
                            f"exit status {done.returncode} (expected {command.status})\n"
                            + (diff if wrong_output else "output as shown"))
    return problems


def all_blocks() -> list[Block]:
    """The console blocks of every page of :data:`PAGES`."""
    return [block for page in PAGES for block in parse(page, page.read_text(encoding="utf-8"))]


def _params() -> list[object]:
    return [pytest.param(block, marks=[pytest.mark.slow] if block.mark("slow") else [], id=block.name)
            for block in all_blocks() if block.mark("not run") is None]


@pytest.mark.parametrize("block", _params())
def test_console_example(block: Block, tmp_path: Path) -> None:
    needs = block.mark("needs ")
    missing = [program for program in (needs or "").split()[1:] if shutil.which(program) is None]
    if missing:
        pytest.skip(f"{block.name} needs {', '.join(missing)}, not on PATH")
    problems = run(block, tmp_path)
    assert not problems, "the example does not do what the page shows:\n\n" + "\n\n".join(problems)


def test_every_block_left_unrun_says_why() -> None:
    unrun = [block for block in all_blocks() if block.mark("not run") is not None]
    assert all(len(str(block.mark("not run"))) > len("not run: ") + 10 for block in unrun)
    assert len(unrun) <= 2, [block.name for block in unrun]  # the exception, not the rule


_PAGE = """Text.

<!-- console: slow; needs cadical minizinc -->
```console
$ echo one \\
    two          # a note
one two
$ printf 'a\\nb\\nc\\n'; exit 3
a
...
c          # a note: exit status 3
```

```console
$ true
```
"""


def test_a_page_is_read_into_commands_expected_lines_exit_statuses_and_marks() -> None:
    first, second = parse(REPO / "page.md", _PAGE)
    assert (first.line, first.marks, second.marks) == (4, ["slow", "needs cadical minizinc"], [])
    assert [(c.line, c.text, c.expected, c.status) for c in first.commands] == [
        (5, "echo one \\\n    two          # a note", ["one two"], 0),
        (8, "printf 'a\\nb\\nc\\n'; exit 3", ["a", "...", "c"], 3),
    ]
    assert first.mark("needs ") == "needs cadical minizinc" and first.mark("output varies") is None


def test_an_ellipsis_stands_for_any_lines_and_nothing_else_does() -> None:
    assert matches(["a", "...", "c"], ["a", "c"]) and matches(["a", "...", "c"], ["a", "x", "y", "c"])
    assert matches(["..."], []) and matches([], []) and matches(["a"], ["a", ""])
    assert not matches(["a", "...", "c"], ["a", "x"]) and not matches(["a"], ["a", "b"])
    assert not matches(["a.c"], ["abc"])  # the rest is compared literally


def test_the_check_names_the_command_and_shows_the_diff(tmp_path: Path) -> None:
    """A block that runs as shown passes; changed output or exit status is reported with the command."""
    (block, _) = parse(REPO / "page.md", _PAGE)
    assert run(block, tmp_path / "as-shown") == []
    wrong = parse(REPO / "page.md", _PAGE.replace("one two\n", "one three\n").replace("exit status 3", "exit 0"))[0]
    first, second = run(wrong, tmp_path / "wrong")
    assert first.startswith("page.md:5: $ echo one \\\n    two") and "-one three\n+one two" in first
    assert second.startswith("page.md:8: $ printf") and "exit status 3 (expected 0)\noutput as shown" in second


def test_output_that_varies_is_not_compared_but_the_exit_status_is(tmp_path: Path) -> None:
    page = "<!-- console: output varies -->\n```console\n$ date\nMon 1 Jan\n$ false\n```\n"
    (block,) = parse(REPO / "page.md", page)
    (problem,) = run(block, tmp_path)
    assert problem.startswith("page.md:5: $ false\nexit status 1 (expected 0)")


def test_a_block_that_installs_packages_is_not_run(tmp_path: Path) -> None:
    (block,) = parse(REPO / "page.md", "```console\n$ touch ran\n$ pip install ./x && true\n```\n")
    (problem,) = run(block, tmp_path)
    assert "installs packages" in problem and not (tmp_path / "ran").exists()


def test_no_transcript_is_left_outside_a_console_block() -> None:
    """A ``$ command`` with its output in a block of another language (``text``, ``sh``) is never
    run: such a transcript of ``solve 40 --count`` once sat in docs/solving.md as ``text``."""
    fence = re.compile(r"^\s*(```+|~~~+)\s*(\S*)")
    outside = []
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        index = 0
        while index < len(lines):
            opened = fence.match(lines[index])
            if opened:
                end = next((at for at in range(index + 1, len(lines))
                            if lines[at].strip().startswith(opened.group(1))), len(lines))
                if opened.group(2) != "console" and any(line.startswith("$ ") for line in lines[index + 1:end]):
                    outside.append(f"{page.relative_to(REPO)}:{index + 1}")
                index = end
            index += 1
    assert not outside, f"transcripts in blocks that are not console: {outside}"
