"""The XCSP3 export: the text pycsp3 compiles for the same model, read back by ACE and Choco's own readers."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from nqueens_cp import Instance, create_backend
from nqueens_cp.export import export_model
from nqueens_cp.testing.backend_contract import reference_solutions

from .conftest import require_backend, run_cli

PYCSP3_MODEL = """
from pycsp3 import *
n = {n}
q = VarArray(size=n, dom=range(n))
satisfy(
    AllDifferent(q),
    AllDifferent(q[i] + i for i in range(n)),
    AllDifferent(q[i] - i for i in range(n)),
)
"""


def _elements(text: str) -> list[str]:
    """The XML without comments, one element per item, whitespace normalised."""
    body = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    return [" ".join(part.split()) for part in re.split(r"(?=<)", body) if part.strip()]


@pytest.mark.parametrize("n", [5, 8])
def test_the_export_is_what_pycsp3_compiles(tmp_path: object, n: int) -> None:
    import importlib.util
    from pathlib import Path

    if importlib.util.find_spec("pycsp3") is None:  # not imported here: pycsp3 compiles at interpreter exit
        pytest.skip("pycsp3 is not installed")

    folder = Path(str(tmp_path))
    (folder / "model.py").write_text(PYCSP3_MODEL.format(n=n))
    subprocess.run([sys.executable, "model.py", f"-output=q{n}.xml"], cwd=folder, check=True,
                   capture_output=True, timeout=120)
    compiled = (folder / f"q{n}.xml").read_text()
    assert _elements(export_model(Instance(n), "xcsp3")) == _elements(compiled)


@pytest.mark.slow  # a Java start: 4.6 s
def test_the_export_is_read_back_by_ace_with_the_same_solution_set(tmp_path: object) -> None:
    require_backend("xcsp3")
    from pathlib import Path

    from nqueens_cp.backends.xcsp3 import solver_command

    for instance in (Instance(6), Instance(7, {1: 3}), Instance(7, blocked=[(0, 0), (2, 5)])):
        path = Path(str(tmp_path)) / "queens.xml"
        path.write_text(export_model(instance, "xcsp3"))
        done = subprocess.run(solver_command("ace", str(path), None), capture_output=True, text=True, timeout=120)
        boards = {tuple(map(int, m.split())) for m in re.findall(r"<values>([^<]*)</values>", done.stdout)}
        # (the blocked instance's model is over its free rows, here every row: the values are its board)
        assert boards == reference_solutions(instance), instance


@pytest.mark.slow
@pytest.mark.parametrize("solver", ["ace", "choco"])
def test_both_java_solvers_agree_with_choco_in_process(solver: str) -> None:
    require_backend("xcsp3")
    require_backend("choco")
    for instance in (Instance(8), Instance(9, {0: 2}), Instance(8, blocked=[(3, 3), (4, 4)])):
        expected = set(create_backend("choco").solutions(instance))
        assert set(create_backend("xcsp3", solver=solver).solutions(instance)) == expected


def test_export_command_writes_xcsp3(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "q.xml"
    done = run_cli("export", "6", "--format", "xcsp3", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert '<array id="q" size="[6]"> 0..5 </array>' in out.read_text()


def _printed(tmp_path, text: str) -> list[str]:  # type: ignore[no-untyped-def]
    """A stand-in solver that prints ``text``: the command ``_run`` is given."""
    script = tmp_path / "solver.out"
    script.write_text(text, encoding="utf-8")
    return ["cat", str(script)]


@pytest.mark.parametrize(
    "output",
    [
        "c the solver ran out of memory\n",  # no status line at all
        "\x1b[92ms UNKNOWN\x1b[0m\n",  # ACE's colours around a status that answers nothing
        "s SATISFIABLE\nd FOUND SOLUTIONS 0\n",  # satisfiable, yet no board printed
    ],
)
def test_a_solver_that_ends_without_an_answer_is_an_error_not_no_solution(tmp_path, output: str) -> None:  # type: ignore[no-untyped-def]
    from nqueens_cp.backends.xcsp3 import _run
    from nqueens_cp.core.errors import SolverError

    with pytest.raises(SolverError, match="no answer"):
        list(_run(_printed(tmp_path, output), tuple, str(tmp_path / "err.txt")))


def test_an_incomplete_exploration_is_no_complete_enumeration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from nqueens_cp.backends.xcsp3 import _run
    from nqueens_cp.core.errors import SolverError

    output = ("v <instantiation> <values> 1 3 0 2 </values> </instantiation>\n\x1b[92ms SATISFIABLE\x1b[0m\n"
              "\x1b[91md INCOMPLETE EXPLORATION\x1b[0m\n")
    command = _printed(tmp_path, output)
    assert list(_run(command, tuple, str(tmp_path / "err.txt"), complete=False)) == [(1, 3, 0, 2)]
    with pytest.raises(SolverError, match="before exploring every board"):
        list(_run(command, tuple, str(tmp_path / "err.txt")))


def test_ace_s_coloured_unsatisfiable_is_read_as_no_solution(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from nqueens_cp.backends.xcsp3 import _run

    output = "\x1b[92ms UNSATISFIABLE\x1b[0m\n\x1b[92md COMPLETE EXPLORATION\x1b[0m\n"
    assert list(_run(_printed(tmp_path, output), tuple, str(tmp_path / "err.txt"))) == []
