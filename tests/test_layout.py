"""The package's layout: the import-linter contracts of pyproject.toml hold, and no import cycle."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from .conftest import REPO


def _import_graph() -> dict[str, set[str]]:
    grimp = pytest.importorskip("grimp")
    graph = grimp.build_graph("nqueens_cp")
    return {module: set(graph.find_modules_directly_imported_by(module)) for module in graph.modules}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` (modules in order), or None; every import counts, lazy ones too."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target):], target]
            if target not in state and (found := visit(target)) is not None:
                return found
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (found := visit(module)) is not None:
            return found
    return None


def test_no_import_cycle_in_the_package() -> None:
    cycle = _cycle(_import_graph())
    assert cycle is None, " -> ".join(cycle or ())


def test_the_cycle_finder_finds_cycles() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_import_contracts_hold() -> None:
    lint = shutil.which("lint-imports", path=str(REPO / ".venv" / "bin")) or shutil.which("lint-imports")
    if lint is None:
        pytest.importorskip("importlinter")
        lint = f"{sys.executable} -m importlinter.cli"
    done = subprocess.run([*lint.split(), "--no-cache"], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:]
    assert "0 broken" in done.stdout


#: The most lines a module of the package has: a longer one is split along a seam a reader would name.
MAX_MODULE_LINES = 500


def test_no_module_of_the_package_is_over_500_lines() -> None:
    lengths = {path.relative_to(REPO).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
               for path in (REPO / "nqueens_cp").rglob("*.py")}
    assert len(lengths) > 100  # the package was found
    assert {path: lines for path, lines in lengths.items() if lines > MAX_MODULE_LINES} == {}
