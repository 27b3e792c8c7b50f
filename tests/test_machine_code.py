"""The counting kernel's machine code kept on disk and loaded without numba (``searches.machine_code``)."""

from __future__ import annotations

import ctypes
import gc
import hashlib
import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Callable

import pytest

from nqueens_cp.searches import constellations as cons
from nqueens_cp.searches.native import constellations_abi as abi
from nqueens_cp.searches.native import constellations_kernel as kernel
from nqueens_cp.searches.native import machine_code

from .conftest import REPO

_COUNT_14 = (
    "import sys\n"
    "from nqueens_cp.searches.constellations import constellations\n"
    "from nqueens_cp.searches.native.constellations_kernel import count_batch\n"
    "print(count_batch(14, constellations(14)), 'numba' in sys.modules, 'numpy' in sys.modules)\n"
)


_COUNTED_14 = "ConstellationCount(total=365596, classes=45752)"


def _count_14(cache: Path) -> str:
    """Count n = 14 in a new process whose machine code is kept under ``cache``: the count, and
    whether numba and numpy were imported (they are when the kernel is compiled)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", _COUNT_14], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr)
    return done.stdout.strip()


@pytest.fixture(scope="module")
def stored_14(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The kernel's cache file, as the first process compiled and stored it."""
    cache = tmp_path_factory.mktemp("machine-code")
    assert _count_14(cache) == f"{_COUNTED_14} True True"  # compiled by numba
    (stored,) = (cache / "nqueens-cp").glob("constellations.*.native")
    assert _count_14(cache) == f"{_COUNTED_14} False False"  # loaded: neither numba nor numpy imported
    return stored


def test_the_first_process_compiles_and_stores_the_next_loads_without_numba(stored_14: Path) -> None:
    header, code = stored_14.read_bytes().split(b"\n", 1)
    assert json.loads(header)["sha256"] == hashlib.sha256(code).hexdigest()


def _zeroed(data: bytes) -> bytes:
    start = data.index(b"\n") + 1 + len(data) // 4
    return data[:start] + bytes(len(data) // 4) + data[start + len(data) // 4:]


def _bits_flipped(data: bytes) -> bytes:
    flipped = bytearray(data)
    start = data.index(b"\n") + 1
    for position in range(start + 64, len(data), (len(data) - start) // 16):
        flipped[position] ^= 1 << (position % 8)
    return bytes(flipped)


def _foreign_header(data: bytes) -> bytes:
    """The same code under the header of another function: its digest matches, it does not link."""
    header, code = data.split(b"\n", 1)
    foreign = {**json.loads(header), "symbol": "another_kernel"}
    return json.dumps(foreign).encode() + b"\n" + code


@pytest.mark.parametrize("damage", [
    pytest.param(lambda data: data[:-100], id="cut short", marks=pytest.mark.slow),
    pytest.param(_zeroed, id="zeroed bytes"),
    pytest.param(_bits_flipped, id="flipped bits", marks=pytest.mark.slow),
    pytest.param(_foreign_header, id="foreign header", marks=pytest.mark.slow),
])
def test_a_damaged_cache_file_is_compiled_again_and_replaced(
        damage: Callable[[bytes], bytes], stored_14: Path, tmp_path: Path) -> None:
    """Damaged bytes of the same size once crashed every later count (SIGSEGV, SIGBUS, SIGILL, or a
    hang) and were never replaced: each count runs in its own process here."""
    damaged = damage(stored_14.read_bytes())
    assert damaged != stored_14.read_bytes()
    (tmp_path / "nqueens-cp").mkdir()
    stored = tmp_path / "nqueens-cp" / stored_14.name
    stored.write_bytes(damaged)
    assert _count_14(tmp_path) == f"{_COUNTED_14} True True"  # compiled again
    assert stored.read_bytes() != damaged
    assert _count_14(tmp_path) == f"{_COUNTED_14} False False"  # the new file loads


def test_stored_code_that_links_but_counts_wrong_is_compiled_again_and_replaced(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Code whose digest matches and that links is still not trusted before it counts n = 8 right:
    here a function of the kernel's name and signature that does nothing."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernel, "_loaded", [])
    monkeypatch.setattr(kernel, "_numba_compiled", [])
    directory, key, _ = kernel.stored_code()
    ir = "define void @f(i64 %n, i64 %c, i64* %t, i64* %o, i64* %s, i64* %w) { ret void }"
    header, code = machine_code.emit_object(ir, "f", abi.SYMBOL)
    machine_code.store(directory, abi.NAME, key, header, code)
    assert kernel.stored_code()[2] == ({**header, "format": machine_code.FORMAT, "size": len(code),
                                        "sha256": hashlib.sha256(code).hexdigest()}, code)
    items = cons.constellations(11)
    assert kernel.finish_batch(11, items) == [cons.finish(11, c) for c in items]
    stored = kernel.stored_code()[2]
    assert stored is not None and stored[1] != code  # replaced by the code compiled again
    assert not kernel._numba_compiled  # and that code runs: not numba's JIT


def test_stored_code_reads_back_and_anything_else_reads_as_absent(tmp_path: Path) -> None:
    code = b"\x7fELF\n\x00code and more code"
    machine_code.store(tmp_path, "k", "key", {"symbol": "f", "externals": []}, code)
    digest = hashlib.sha256(code).hexdigest()
    assert machine_code.load_cached(tmp_path, "k", "key") == (
        {"symbol": "f", "externals": [], "format": machine_code.FORMAT, "size": len(code), "sha256": digest}, code)
    assert machine_code.load_cached(tmp_path, "k", "other key") is None
    assert list(tmp_path.iterdir()) == [tmp_path / "k.key.native"]  # no temporary file left
    header = json.dumps({"symbol": "f", "externals": [], "format": machine_code.FORMAT, "size": len(code),
                         "sha256": digest}).encode()
    same_size = [bytes(len(code)), code[:-1] + b"\x00", bytes([code[0] ^ 4]) + code[1:]]
    for damaged in (b"", b"no header", b'{"format": 2, "size": 99}\ncode', b"[1]\ncode", b"{not json\ncode",
                    *(header + b"\n" + wrong for wrong in same_size),
                    header.replace(b'"format": 2', b'"format": 1') + b"\n" + code):
        (tmp_path / "k.key.native").write_bytes(damaged)
        assert machine_code.load_cached(tmp_path, "k", "key") is None, damaged
    machine_code.discard(tmp_path, "k", "key")
    assert not (tmp_path / "k.key.native").exists()
    machine_code.discard(tmp_path, "k", "key")  # nothing to remove: no error


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


def test_code_that_cannot_be_linked_runs_from_numbas_jit(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
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
