"""``xcsp3``: the row model written as XCSP3 (:mod:`nqueens_cp.models.xcsp3`), solved by a Java solver that reads it.

``pycsp3`` ships two XCSP3 solvers as jars: ACE (Lecoutre, "ACE, a generic constraint solver",
arXiv:2302.05405; the default) and Choco's XCSP3 parser. The backend writes the instance to a
temporary ``.xml`` file, runs ``java -jar`` on it and reads the solutions as the solver prints them
(``<values> ... </values>`` of each ``<instantiation>``); closing the iterator early stops the Java
process. This is the route a competition solver takes, file in, answers out: the same model as the
in-process ``choco`` backend, plus a JVM start (about 0.4 s) and the text round trip.

The backend needs ``pycsp3`` (for the jars, which it finds without importing pycsp3: importing it
reads ``sys.argv`` and compiles at exit) and Java 11 or later on the PATH.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from typing import Callable, ClassVar, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import RowModelBackend
from nqueens_cp.core.errors import SolverError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.rows import row_model
from nqueens_cp.models.xcsp3 import xcsp3_text

#: The solvers of ``-O solver=`` and the jar of each, under pycsp3's ``solvers`` folder.
JARS: dict[str, str] = {"ace": "ace/ACE-*.jar", "choco": "choco/choco-parsers-*.jar"}
#: How to install Java, for the message of an unusable backend.
JAVA_HINT = "install Java 11 or later (Debian/Ubuntu: apt-get install default-jre-headless)"

_VALUES = re.compile(r"<values>([^<]*)</values>")
#: ACE prints a solution found while parsing (every variable fixed) as ``q: [0, 4, ...]`` instead.
_FIXED = re.compile(r"^\s*q: \[([0-9, ]*)\]")
#: ACE colours its lines (``\x1b[92ms SATISFIABLE\x1b[0m``): the codes are removed before reading one.
_COLOUR = re.compile(r"\x1b\[[0-9;]*m")
#: The status lines (``s ...``) of an answer: every other status (``UNKNOWN``, none at all) is no answer.
ANSWERED = ("SATISFIABLE", "UNSATISFIABLE", "OPTIMUM FOUND")


def solver_jar(solver: str) -> str | None:
    """The jar of ``solver`` inside the installed pycsp3 package, or None."""
    spec = importlib.util.find_spec("pycsp3")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        found = sorted(glob.glob(os.path.join(folder, "solvers", JARS[solver])))
        if found:
            return found[-1]
    return None


def solver_command(solver: str, path: str, limit: int | None) -> list[str]:
    """The command that solves the XCSP3 file ``path``: every solution, or the first ``limit``."""
    jar = solver_jar(solver)
    if jar is None:
        raise SolverError(f"xcsp3: no {solver} jar in the installed pycsp3")
    java = shutil.which("java") or "java"
    if solver == "ace":
        count = "all" if limit is None else str(limit)
        return [java, "-jar", jar, path, f"-s={count}", "-xe", "-xc=false", "-v=0"]
    limit_option = [] if limit is None else [f"-limit=[{limit}sols]"]
    return [java, "-cp", jar, "org.chocosolver.parser.xcsp.ChocoXCSP", path, "-a", *limit_option]


class Xcsp3Backend(RowModelBackend):
    """The XCSP3 text of the row model, solved by ACE or Choco as a Java program."""

    name: ClassVar[str] = "xcsp3"
    row_model_solver = "ACE"
    summary: ClassVar[str] = "row model written as XCSP3 (.xml), solved by ACE or Choco (Java jars shipped by pycsp3)"
    requires: ClassVar[tuple[str, ...]] = ("pycsp3",)
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("solver", str, "ace", "XCSP3 solver: ace or choco", choices=tuple(JARS)),
    )

    @classmethod
    def unavailable_reason(cls) -> str | None:
        if cls.missing_packages():
            return "backend xcsp3 needs the Python package pycsp3 (it ships the solvers): pip install 'nqueens-cp[paradigms]'"
        if shutil.which("java") is None:
            return f"backend xcsp3 runs the Java solvers of pycsp3, and java is not on the PATH: {JAVA_HINT}"
        if solver_jar("ace") is None:
            return "backend xcsp3: the installed pycsp3 has no ACE jar: pip install --force-reinstall pycsp3"
        return None

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        self.check_fits(self.memory_estimate(instance))
        model = row_model(instance)
        if not model.feasible:  # ACE refuses a file whose constraints no value satisfies
            return
        if len(model.rows) < 2:  # no constraint between rows (ACE refuses a model without one)
            equal = dict(model.equalities)
            for values in ([()] if not model.rows else [(v,) for v in model.domains[0] if equal.get(0, v) == v]):
                yield model.board(values)
            return
        with tempfile.TemporaryDirectory(prefix="nqueens-xcsp3-") as folder:
            path = os.path.join(folder, "queens.xml")
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(xcsp3_text(instance))
            errors = os.path.join(folder, "stderr.txt")
            yield from _run(solver_command(self.options["solver"], path, limit), model.board, errors,
                            complete=limit is None)


def _run(
    command: list[str], to_board: Callable[[list[int]], Solution], errors: str, *, complete: bool = True
) -> Iterator[Solution]:
    """Run ``command`` and yield a board per ``<values>`` it prints; the process ends with the iterator.

    The end of the boards is an answer only when the solver says so: its status line must be one of
    :data:`ANSWERED` (``UNSATISFIABLE`` when it printed none), and when every board was asked for
    (``complete``) it must not report an incomplete exploration. Otherwise :class:`SolverError`: a
    solver that stops early (out of memory, a limit of its own) is never read as "no more solutions".
    """
    with open(errors, "w", encoding="utf-8") as error_file:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=error_file, text=True, bufsize=1)
        assert process.stdout is not None
        pending = ""
        found = 0
        fixed: list[int] | None = None
        status: str | None = None
        incomplete = False
        try:
            for line in process.stdout:
                line = _COLOUR.sub("", line)
                if line.startswith("s "):
                    status = line[2:].strip()
                    break  # the status line; Choco prints the last solution again after it
                last = _FIXED.match(line)
                if last:  # ACE repeats the last solution so; only a solution found while parsing comes only so
                    fixed = [int(value) for value in last.group(1).split(",")]
                    continue
                pending = pending + line if pending else (line if "<values>" in line else "")
                if not pending:
                    continue
                match = _VALUES.search(pending)
                if match is None:
                    continue  # Choco writes the values over several lines
                pending = ""
                found += 1
                yield to_board([int(value) for value in match.group(1).split()])
            if not found and fixed is not None:
                yield to_board(fixed)
            for line in process.stdout:  # the statistics after the status line
                incomplete = incomplete or "INCOMPLETE EXPLORATION" in _COLOUR.sub("", line)
            exit_status = process.wait()
            if exit_status != 0:
                with open(errors, encoding="utf-8", errors="replace") as handle:
                    said = [line.strip() for line in handle if line.strip() and not line.startswith("\tat ")]
                raise SolverError(f"xcsp3: the solver exited with status {exit_status}: {said[-1] if said else ''}")
            boards = found or int(fixed is not None)
            if status not in ANSWERED or (status == "UNSATISFIABLE") == bool(boards):
                raise SolverError(f"xcsp3: the solver ended with status {status or '(none)'} after {boards} "
                                  "board(s): no answer")
            if complete and incomplete:
                raise SolverError(f"xcsp3: the solver stopped before exploring every board ({found} found)")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            process.stdout.close()
