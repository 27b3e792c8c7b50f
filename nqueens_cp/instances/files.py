"""Reading instance files: CSPLib problem 079's Excluded Diagonals and Essence' completion ``.param``.

Excluded Diagonals (the generator's output)::

    n =  10
    numdiags =  13
    diags =  [[18, 0], [1, 1], [12, 0], ...]

``[d, 1]`` excludes the sum diagonal row + col = d; ``[d, 0]`` the difference diagonal
row - col = d - (n - 1). An instance with D diagonals takes the FIRST D pairs only (CSPLib: other
subsets are not valid samples), so a file holds ``numdiags + 1`` instances.

n-Queens Completion (Essence' parameters, as the paper's translation writes them)::

    letting n = 2550
    letting init = [[52, 19], [58, 31], ...]

``init`` lists the pre-placed queens as ``[row, col]``, 0-based. Two of them in one row have no
completion; that instance is represented with the row's first queen on a blocked square (which
has no solution either, so the answer is the same), since an instance holds one queen per row.

A value may run over several lines; ``$`` starts a comment (Essence'), and a ``language`` line is
skipped. Every problem is an :class:`~nqueens_cp.core.errors.InstanceFileError` whose message is
``FILE:LINE: why``.

Answers files (:func:`read_answers`) say which Excluded Diagonals instances have a solution, in
the columns of CSPLib 079's ``results-shiftqueens.tsv``; :func:`answer_of` looks a file named like
the generator's ``diag-N-4-ID.param`` up in one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from nqueens_cp.core.errors import InstanceFileError, InvalidInstanceError
from nqueens_cp.core.instance import MAX_N, Instance
from nqueens_cp.instances.excluded_diagonals import Diagonal, ExcludedDiagonals

_ASSIGNMENT = re.compile(r"^\s*(?:letting\s+)?([A-Za-z_]\w*)\s*(?:=|\bbe\b)(.*)$")
_INTEGER = re.compile(r"\s*(-?\d+)\s*")
_PAIR_LIST = re.compile(r"\s*\[\s*(?:\[\s*-?\d+\s*,\s*-?\d+\s*\]\s*(?:,\s*\[\s*-?\d+\s*,\s*-?\d+\s*\]\s*)*)?\]\s*")
_PAIR = re.compile(r"\[\s*(-?\d+)\s*,\s*(-?\d+)\s*\]")


@dataclass(frozen=True)
class _Value:
    """The text given to one name, and the line where each of its characters stood."""

    name: str
    text: str
    line: int  # the line of the name

    def line_of(self, offset: int) -> int:
        return self.line + self.text.count("\n", 0, offset)


@dataclass(frozen=True)
class ExcludedDiagonalsFile:
    """An Excluded Diagonals ``.param`` file: its path, the problem with every diagonal, and the
    line of ``numdiags`` (for errors about the number of diagonals asked for)."""

    path: str
    problem: ExcludedDiagonals
    numdiags_line: int

    def first(self, count: int | None) -> ExcludedDiagonals:
        """The instance of the first ``count`` diagonals (None: all of them)."""
        if count is None:
            return self.problem
        total = len(self.problem.diagonals)
        if not 0 <= count <= total:
            raise InstanceFileError(
                f"{self.path}:{self.numdiags_line}: {count} diagonals asked for, numdiags is {total}"
            )
        return self.problem.first(count)


def _read_text(path: str | Path) -> str:
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InstanceFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InstanceFileError(f"{path}: is a directory") from None
    except UnicodeDecodeError:
        raise InstanceFileError(f"{path}: not a text file") from None
    except OSError as error:
        raise InstanceFileError(f"{path}: cannot read: {error.strerror or error}") from None


def _assignments(path: str, text: str) -> dict[str, _Value]:
    """Every ``name = value`` of the file (a value may continue on the next lines)."""
    values: dict[str, _Value] = {}
    current: list[str] | None = None
    name, start = "", 0

    def close() -> None:
        if current is not None:
            values[name] = _Value(name, "\n".join(current), start)

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("$", 1)[0]
        if not line.strip() or re.match(r"^\s*language\b", line):
            if current is not None:
                current.append("")
            continue
        match = _ASSIGNMENT.match(line)
        if match:
            close()
            name, start = match.group(1), number
            if name in values:
                raise InstanceFileError(f"{path}:{number}: {name} is given twice")
            current = [match.group(2)]
        elif current is None:
            raise InstanceFileError(f"{path}:{number}: expected `name = value`, got {raw.strip()[:40]!r}")
        else:
            current.append(line)
    close()
    if not values:
        raise InstanceFileError(f"{path}:1: no `name = value` line: not an instance file")
    return values


def _integer(path: str, value: _Value) -> int:
    match = _INTEGER.fullmatch(value.text)
    if not match:
        raise InstanceFileError(f"{path}:{value.line}: {value.name} must be an integer, got {value.text.strip()[:40]!r}")
    return int(match.group(1))


def _pairs(path: str, value: _Value) -> list[tuple[int, int, int]]:
    """The ``[a, b]`` pairs of a list value, each with its line."""
    if not _PAIR_LIST.fullmatch(value.text):
        raise InstanceFileError(f"{path}:{value.line}: {value.name} must be a list of [integer, integer] pairs")
    return [(int(m.group(1)), int(m.group(2)), value.line_of(m.start())) for m in _PAIR.finditer(value.text)]


def _require(path: str, values: dict[str, _Value], names: tuple[str, ...], kind: str) -> None:
    last = max(value.line for value in values.values())
    for name in names:
        if name not in values:
            raise InstanceFileError(f"{path}:{last}: no `{name} = ...` in this {kind} file")
    extra = sorted(set(values) - set(names), key=lambda key: values[key].line)
    if extra:
        raise InstanceFileError(f"{path}:{values[extra[0]].line}: unknown name {extra[0]!r} in a {kind} file")


def _board_size(path: str, value: _Value) -> int:
    """The file's n, checked against the board limit before anything is built from it."""
    n = _integer(path, value)
    if n < 0:
        raise InstanceFileError(f"{path}:{value.line}: n must be >= 0, got {n}")
    if n > MAX_N:
        raise InstanceFileError(f"{path}:{value.line}: n must be <= {MAX_N}, got {n}")
    return n


def _parse_excluded(path: str, values: dict[str, _Value]) -> ExcludedDiagonalsFile:
    _require(path, values, ("n", "numdiags", "diags"), "Excluded Diagonals")
    n = _board_size(path, values["n"])
    numdiags = _integer(path, values["numdiags"])
    pairs = _pairs(path, values["diags"])
    if numdiags != len(pairs):
        raise InstanceFileError(f"{path}:{values['numdiags'].line}: numdiags is {numdiags} but diags lists {len(pairs)}")
    diagonals = []
    for index, kind, line in pairs:
        if kind not in (0, 1):
            raise InstanceFileError(f"{path}:{line}: [{index}, {kind}]: the type must be 1 (sum) or 0 (difference)")
        if not 0 <= index <= 2 * n - 2:
            raise InstanceFileError(f"{path}:{line}: [{index}, {kind}]: diagonal off the {n}x{n} board (0..{2 * n - 2})")
        diagonals.append(Diagonal("sum", index) if kind == 1 else Diagonal("difference", index - (n - 1)))
    return ExcludedDiagonalsFile(path, ExcludedDiagonals(n, tuple(diagonals)), values["numdiags"].line)


def _parse_completion(path: str, values: dict[str, _Value]) -> Instance:
    _require(path, values, ("n", "init"), "completion")
    n = _board_size(path, values["n"])
    fixed: dict[int, int] = {}
    blocked: list[tuple[int, int]] = []
    for row, col, line in _pairs(path, values["init"]):
        if not (0 <= row < n and 0 <= col < n):
            raise InstanceFileError(f"{path}:{line}: init queen [{row}, {col}] is off the {n}x{n} board")
        if row in fixed:
            blocked.append((row, fixed[row]))  # two queens in one row: no completion (see the docstring)
        else:
            fixed[row] = col
    try:
        return Instance(n, fixed, blocked)
    except InvalidInstanceError as error:  # not expected after the checks above
        raise InstanceFileError(f"{path}:{values['init'].line}: {error}") from None


def read_excluded_diagonals(path: str | Path) -> ExcludedDiagonalsFile:
    """An Excluded Diagonals ``.param`` file (every diagonal; take a prefix with ``.first(D)``)."""
    name = str(path)
    return _parse_excluded(name, _assignments(name, _read_text(path)))


@dataclass(frozen=True)
class InstanceFile:
    """An instance read from a file of either kind: ``diagonals`` is the number D of diagonals
    taken from an Excluded Diagonals file, None for a completion file."""

    path: str
    instance: Instance
    diagonals: int | None


def load_instance_file(path: str | Path, diagonals: int | None = None) -> InstanceFile:
    """The instance in ``path``, of either kind (told apart by its names: ``init`` is completion).

    ``diagonals`` takes the first D diagonals of an Excluded Diagonals file (None: all); it is an
    error for a completion file.
    """
    name = str(path)
    values = _assignments(name, _read_text(path))
    if "init" in values:
        if diagonals is not None:
            raise InstanceFileError(f"{name}:{values['init'].line}: --diagonals applies to Excluded Diagonals files, "
                                    "this is a completion file")
        return InstanceFile(name, _parse_completion(name, values), None)
    read = _parse_excluded(name, values)
    count = len(read.problem.diagonals) if diagonals is None else diagonals
    return InstanceFile(name, read.first(count).instance(), count)


def read_instance(path: str | Path, diagonals: int | None = None) -> Instance:
    """The instance in ``path``, of either kind (see :func:`load_instance_file`)."""
    return load_instance_file(path, diagonals).instance


#: Answers files key instances by (n, diagonals taken, the generator's id).
AnswerKey = tuple[int, int, int]


def read_answers(path: str) -> dict[AnswerKey, bool]:
    """An answers file in the columns of CSPLib 079's ``results-shiftqueens.tsv`` (``n``,
    ``diagonals``, ``id``, ``satisfiable``; more columns are ignored), plain or gzipped."""
    import csv
    import gzip

    opener: Any = gzip.open if path.endswith(".gz") else open
    table: dict[AnswerKey, bool] = {}
    try:
        with opener(path, "rt", encoding="utf-8") as handle:
            reader = csv.DictReader(handle, delimiter="\t")
            missing = {"n", "diagonals", "id", "satisfiable"} - set(reader.fieldnames or ())
            if missing:
                raise InstanceFileError(f"{path}:1: an answers file needs the columns n, diagonals, id, satisfiable "
                                        f"(missing: {', '.join(sorted(missing))})")
            for line, row in enumerate(reader, start=2):
                try:
                    key = (int(row["n"]), int(row["diagonals"]), int(row["id"]))
                    verdict = {"1": True, "0": False}[row["satisfiable"].strip()]
                except (KeyError, ValueError, TypeError, AttributeError):
                    raise InstanceFileError(f"{path}:{line}: not a row of n, diagonals, id, satisfiable (1 or 0)") from None
                table[key] = verdict
    except OSError as error:
        raise InstanceFileError(f"{path}: cannot read: {error.strerror or error}") from None
    except (UnicodeDecodeError, EOFError, gzip.BadGzipFile):
        raise InstanceFileError(f"{path}: not a text (or gzipped text) answers file") from None
    return table


def _csplib_name(path: str | Path) -> tuple[int, int] | None:
    """(N, ID) of a file named like CSPLib's ``diag-N-4-ID.param``; None for another name."""
    match = re.fullmatch(r"diag-(\d+)-\d+-(\d+)\.param", Path(path).name)
    return (int(match.group(1)), int(match.group(2))) if match else None


def listed_diagonals(table: dict[AnswerKey, bool], path: str | Path) -> tuple[int, ...]:
    """Every number of diagonals ``table`` lists for the CSPLib file ``path`` (``diag-N-4-ID.param``), ascending."""
    named = _csplib_name(path)
    if named is None:
        return ()
    n, ident = named
    return tuple(sorted(d for (size, d, key) in table if size == n and key == ident))


def answer_of(table: dict[AnswerKey, bool], path: str | Path, diagonals: int) -> bool | None:
    """Whether the instance of ``path`` with its first ``diagonals`` diagonals has a solution by
    ``table``, for a file named like CSPLib's ``diag-N-4-ID.param``; None when unknown."""
    named = _csplib_name(path)
    return table.get((named[0], diagonals, named[1])) if named else None
