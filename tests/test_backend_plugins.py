"""Backends from other packages, found through the ``nqueens_cp.backends`` entry points.

Each test lays out an installed distribution the way pip leaves one in site-packages (the
package's modules plus a ``*.dist-info`` folder with ``METADATA`` and ``entry_points.txt``) in a
temporary folder put on ``PYTHONPATH``, so ``importlib.metadata`` finds it like any installed
package. The working one is the example package of ``examples/nqueens-cp-example-backend``,
shown in docs/plugins.md; the broken ones fail to import, point at the wrong kind of object, or
take a built-in name.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from nqueens_cp.testing.backend_contract import CHECKS, check_first_solutions

from .conftest import REPO, run_cli

EXAMPLE = REPO / "examples" / "nqueens-cp-example-backend"

BROKEN_MODULE = '''
import nqueens_cp_no_such_dependency  # an import error

class Never:
    pass
'''
WRONG_CLASS_MODULE = '''
class NotABackend:
    name = "wrong"
'''


def install(site: Path, dist: str, entry_points: dict[str, str], modules: dict[str, str] | None = None) -> None:
    """Lay out distribution ``dist`` in ``site`` as an installed package: modules, METADATA, entry_points.txt."""
    info = site / f"{dist}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n", encoding="utf-8")
    lines = "".join(f"{name} = {target}\n" for name, target in entry_points.items())
    (info / "entry_points.txt").write_text(f"[nqueens_cp.backends]\n{lines}", encoding="utf-8")
    for module, text in (modules or {}).items():
        (site / f"{module}.py").write_text(text, encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A folder with the example package installed, and three broken ones."""
    site = tmp_path / "site"
    site.mkdir()
    shutil.copytree(EXAMPLE / "src" / "nqcp_example", site / "nqcp_example")
    install(site, "nqcp_example", {"sets": "nqcp_example.backend:SetsBackend"})
    install(site, "broken_import", {"broken-import": "broken_import_mod:Never"}, {"broken_import_mod": BROKEN_MODULE})
    install(site, "wrong_class", {"wrong-class": "wrong_class_mod:NotABackend"}, {"wrong_class_mod": WRONG_CLASS_MODULE})
    install(site, "name_taken", {"cpsat": "wrong_class_mod:NotABackend"})
    return site


def test_backends_lists_the_plugin_and_the_broken_ones_with_their_reasons(site: Path) -> None:
    done = run_cli("backends", pythonpath=[site])
    assert done.returncode == 0 and done.stderr == "", done.stderr
    lines = {line.split(":")[0]: line for line in done.stdout.splitlines() if not line.startswith(" ")}
    assert lines["sets"] == "sets: available"
    assert "ModuleNotFoundError" in lines["broken-import"] and "nqueens_cp_no_such_dependency" in lines["broken-import"]
    assert "is not a nqueens_cp Backend subclass" in lines["wrong-class"]
    taken = next(line for name, line in lines.items() if name.startswith("cpsat ("))
    assert "taken by a built-in backend" in taken
    assert lines["cpsat"] == "cpsat: available"  # the built-in one stays


def test_solve_and_compare_use_the_plugin(site: Path, tmp_path: Path) -> None:
    done = run_cli("solve", "8", "--backend", "sets", "--count", pythonpath=[site])
    assert (done.returncode, done.stdout) == (0, "92\n"), done.stderr
    done = run_cli("compare", "--n", "4-7", "--backends", "bitboard,sets", "--repeat", "1",
                   "--out", str(tmp_path / "out"), pythonpath=[site])
    assert done.returncode == 0, done.stderr
    assert "RESULT: PASS" in done.stdout and "sets" in done.stdout
    # the default comparison leaves the broken ones out and does not fail
    assert "broken-import" not in done.stdout


@pytest.mark.parametrize(("name", "reason"), [("broken-import", "does not load"),
                                              ("wrong-class", "not a nqueens_cp Backend subclass")])
def test_a_broken_plugin_is_one_line_not_a_traceback(site: Path, tmp_path: Path, name: str, reason: str) -> None:
    for args in (("solve", "8", "--backend", name),
                 ("compare", "--n", "4", "--backends", f"bitboard,{name}", "--out", str(tmp_path / name))):
        done = run_cli(*args, pythonpath=[site])
        assert done.returncode == 2, done
        assert done.stderr.count("\n") == 1 and reason in done.stderr and "Traceback" not in done.stderr
    done = run_cli("solve", "6", "--count", pythonpath=[site])  # other commands are not disturbed
    assert (done.returncode, done.stdout) == (0, "4\n")


def test_the_example_package_keeps_the_contract(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(site))
    from nqcp_example.backend import SetsBackend  # type: ignore[import-not-found]

    for check in CHECKS:
        if check is check_first_solutions:  # as the example's own test: rows in order reach n = 21 quickly
            check_first_solutions(SetsBackend(), range(0, 22))
        else:
            check(SetsBackend())
    sys.modules.pop("nqcp_example.backend", None)
    sys.modules.pop("nqcp_example", None)
