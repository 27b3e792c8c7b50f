"""The counting kernel's machine code kept on disk and loaded without numba (``searches.machine_code``)."""

from __future__ import annotations

import ctypes
import gc
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from nqueens_cp.searches import constellations as cons
from nqueens_cp.searches import constellations_abi as abi
from nqueens_cp.searches import constellations_kernel as kernel
from nqueens_cp.searches import machine_code

from .conftest import REPO

_COUNT_14 = (
    "import sys\n"
    "from nqueens_cp.searches.constellations import constellations\n"
    "from nqueens_cp.searches.constellations_kernel import count_batch\n"
    "print(count_batch(14, constellations(14)), 'numba' in sys.modules, 'numpy' in sys.modules)\n"
)


def _count_14(cache: Path) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", _COUNT_14], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_first_process_compiles_and_stores_the_next_loads_without_numba(tmp_path: Path) -> None:
    counted = "ConstellationCount(total=365596, classes=45752)"
    assert _count_14(tmp_path) == f"{counted} True True"  # compiled by numba
    stored = list((tmp_path / "nqueens-cp").glob("constellations.*.native"))
    assert len(stored) == 1
    assert _count_14(tmp_path) == f"{counted} False False"  # loaded: neither numba nor numpy imported


def test_a_damaged_cache_file_is_compiled_again(tmp_path: Path) -> None:
    assert _count_14(tmp_path).endswith("True True")
    (stored,) = (tmp_path / "nqueens-cp").glob("constellations.*.native")
    stored.write_bytes(stored.read_bytes()[:-100])  # cut short
    assert _count_14(tmp_path).endswith("True True")
    assert _count_14(tmp_path).endswith("False False")


def test_stored_code_reads_back_and_anything_else_reads_as_absent(tmp_path: Path) -> None:
    machine_code.store(tmp_path, "k", "key", {"symbol": "f", "externals": []}, b"\x7fELF\n\x00code")
    assert machine_code.load_cached(tmp_path, "k", "key") == (
        {"symbol": "f", "externals": [], "format": machine_code.FORMAT, "size": 10}, b"\x7fELF\n\x00code")
    assert machine_code.load_cached(tmp_path, "k", "other key") is None
    for damaged in (b"", b"no header", b'{"format": 1, "size": 99}\ncode', b"[1]\ncode", b"{not json\ncode"):
        (tmp_path / "k.key.native").write_bytes(damaged)
        assert machine_code.load_cached(tmp_path, "k", "key") is None


def test_a_cache_directory_that_cannot_be_written_is_no_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("")
    machine_code.store(blocker / "cache", "k", "key", {"symbol": "f"}, b"code")  # mkdir fails: ignored
    assert not (blocker / "cache").exists()


def test_the_key_follows_the_sources_numba_settings_and_not_the_cache_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "kernel.py"
    source.write_text("x = 1\n")
    key = machine_code.cache_key(source)
    assert machine_code.cache_key(source) == key
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    assert machine_code.cache_key(source) == key
    monkeypatch.setenv("NUMBA_OPT", "1")
    assert machine_code.cache_key(source) != key
    monkeypatch.delenv("NUMBA_OPT")
    source.write_text("x = 2\n")
    assert machine_code.cache_key(source) != key


def test_where_the_code_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = tmp_path / "package" / "kernel.py"
    module.parent.mkdir()
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "numba"))
    assert machine_code.cache_dir(module) == tmp_path / "numba" / "nqueens-cp"
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert machine_code.cache_dir(module) == module.parent / "__pycache__"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "user"))
    monkeypatch.setattr(os, "access", lambda path, mode: False)  # an installed, read-only package
    assert machine_code.cache_dir(module) == tmp_path / "user" / "nqueens-cp"


def test_the_kernel_calls_no_function_of_numba_but_its_error_path() -> None:
    """Loaded without numba, the code has numba's error-reporting functions bound to abort: it must
    call nothing else of numba's (an allocation would need its runtime)."""
    kernel.finish_batch(8, cons.constellations(8))  # stored
    cached = kernel.stored_code()[2]
    assert cached is not None
    externals = cached[0]["externals"]
    assert isinstance(externals, list)
    numba_functions = {name for name in externals if not name.startswith(("Py", "_Py"))}
    assert numba_functions <= machine_code.ERROR_PATH_FUNCTIONS


def test_a_missing_function_outside_the_error_path_is_refused() -> None:
    with pytest.raises(RuntimeError, match="calls nqueens_cp_no_such_function, which this process does not define"):
        machine_code.link({"symbol": "f", "externals": ["nqueens_cp_no_such_function"]}, b"")


def test_every_engine_owns_its_target_machine() -> None:
    """An execution engine frees its target machine with itself: one shared between engines left
    the next link with a freed one (a segmentation fault)."""
    kernel.finish_batch(8, cons.constellations(8))  # stored
    cached = kernel.stored_code()[2]
    assert cached is not None
    for _ in range(2):
        with pytest.raises(RuntimeError):
            machine_code.link({"symbol": "f", "externals": ["nqueens_cp_no_such_function"]}, b"")
        gc.collect()
        function = abi.CTYPES_PROTOTYPE(machine_code.link(*cached))
        table = (ctypes.c_int64 * 5)(*cons.constellations(8)[0].search_key, abi.PLAIN)
        out = (ctypes.c_int64 * 3)()
        states, scratch = kernel._work_buffers(8)
        function(8, 1, table, out, states, scratch)
        assert out[0] == cons.finish(8, cons.constellations(8)[0]).completions


def test_code_that_cannot_be_linked_runs_from_numbas_jit(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(header: object, code: bytes) -> int:
        raise RuntimeError("machine code calls numba_something_new, which this process does not define")

    monkeypatch.setattr(machine_code, "link", refuse)
    monkeypatch.setattr(kernel, "_loaded", [])
    items = cons.constellations(11)
    assert kernel.finish_batch(11, items) == [cons.finish(11, c) for c in items]
    assert kernel._numba_compiled


def test_threads_count_batches_side_by_side_with_one_kernel() -> None:
    n = 13
    items = cons.constellations(n)
    halves = [cons.batch(items, i, 2) for i in range(2)]
    found: dict[int, list[cons.Finished]] = {}
    threads = [threading.Thread(target=lambda i=i: found.__setitem__(i, kernel.finish_batch(n, halves[i])))
               for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found[0] == [cons.finish(n, c) for c in halves[0]]
    assert found[1] == [cons.finish(n, c) for c in halves[1]]
