"""Compiled kernels kept on disk as machine code and loaded without numba (``system.machine_code``):
the counting kernel, the checker's pass over a huge board and the formatter of its columns."""

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

import numpy as np
import pytest

from nqueens_cp.core import clash_kernel
from nqueens_cp.searches import columns_text
from nqueens_cp.searches import constellations as cons
from nqueens_cp.searches.native import constellations_abi as abi
from nqueens_cp.searches.native import constellations_kernel as kernel
from nqueens_cp.system import machine_code

from .conftest import REPO

#: Per kernel: a program that uses it and prints its answer and whether numba and numpy were
#: imported (they are when the kernel is compiled), and that answer.
_PROGRAMS = {
    "constellations": (
        "from nqueens_cp.searches.constellations import constellations\n"
        "from nqueens_cp.searches.native.constellations_kernel import count_batch\n"
        "answer = count_batch(14, constellations(14))\n",
        "ConstellationCount(total=365596, classes=45752)"),
    "first_clash": (
        "import numpy as np\n"
        "from nqueens_cp.core.clash_kernel import first_clash\n"
        "answer = (first_clash(np.array([1, 3, 0, 2], np.int32)), first_clash(np.array([1, 3, 2, 0], np.int32)))\n",
        "(-1, 2)"),
    "decimal_text": (
        "import numpy as np\n"
        "from nqueens_cp.searches.columns_text import decimal_text\n"
        "answer = decimal_text(np.array([1, 30, 402], np.int32), b' ')\n",
        "b'1 30 402 '"),
}


def _run(name: str, cache: Path) -> str:
    """Run kernel ``name``'s program in a new process whose machine code is kept under ``cache``: its
    answer, and whether numba and numpy were imported."""
    program = _PROGRAMS[name][0] + "import sys\nprint(answer, 'numba' in sys.modules, 'numpy' in sys.modules)\n"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    done = subprocess.run([sys.executable, "-c", program], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr)
    return done.stdout.strip()


def _compiled(name: str) -> str:
    return f"{_PROGRAMS[name][1]} True True"


def _loaded(name: str) -> str:
    """Loaded from the stored code: no numba (and for the counting kernel, no numpy either)."""
    return f"{_PROGRAMS[name][1]} False {name != 'constellations'}"


@pytest.fixture(scope="module", params=[
    pytest.param("constellations", marks=pytest.mark.slow),  # each compiles in a process of its own: 10 s
    pytest.param("first_clash", marks=pytest.mark.slow),  # the same machinery: slow, as each compiles in a process
    pytest.param("decimal_text", marks=pytest.mark.slow),
])
def stored(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    """A kernel's name and its cache file, as the first process compiled and stored it."""
    name = request.param
    cache = tmp_path_factory.mktemp("machine-code")
    assert _run(name, cache) == _compiled(name)
    (file,) = (cache / "nqueens-cp").glob(f"{name}.*.native")
    assert _run(name, cache) == _loaded(name)
    return name, file


def test_the_first_process_compiles_and_stores_the_next_loads_without_numba(stored: tuple[str, Path]) -> None:
    header, code = stored[1].read_bytes().split(b"\n", 1)
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
        damage: Callable[[bytes], bytes], stored: tuple[str, Path], tmp_path: Path) -> None:
    """Damaged bytes of the same size once crashed every later count (SIGSEGV, SIGBUS, SIGILL, or a
    hang) and were never replaced: each run is a process of its own here."""
    name, file = stored
    damaged = damage(file.read_bytes())
    assert damaged != file.read_bytes()
    (tmp_path / "nqueens-cp").mkdir()
    copy = tmp_path / "nqueens-cp" / file.name
    copy.write_bytes(damaged)
    assert _run(name, tmp_path) == _compiled(name)  # compiled again
    assert copy.read_bytes() != damaged
    assert _run(name, tmp_path) == _loaded(name)  # the new file loads


def test_stored_code_that_links_but_counts_wrong_is_compiled_again_and_replaced(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Code whose digest matches and that links is still not trusted before it counts n = 8 right:
    here a function of the kernel's name and signature that does nothing."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kernel.KERNEL, "_loaded", [])
    monkeypatch.setattr(kernel.KERNEL, "_numba_compiled", [])
    directory, key, _ = kernel.KERNEL.stored_code()
    ir = "define void @f(i64 %n, i64 %c, i64* %t, i64* %o, i64* %s, i64* %w) { ret void }"
    header, code = machine_code.emit_object(ir, "f", kernel.KERNEL.symbol)
    machine_code.store(directory, abi.NAME, key, header, code)
    assert kernel.KERNEL.stored_code()[2] == ({**header, "format": machine_code.FORMAT, "size": len(code),
                                               "sha256": hashlib.sha256(code).hexdigest()}, code)
    items = cons.constellations(11)
    assert kernel.finish_batch(11, items) == [cons.finish(11, c) for c in items]
    stored = kernel.KERNEL.stored_code()[2]
    assert stored is not None and stored[1] != code  # replaced by the code compiled again
    assert not kernel.KERNEL._numba_compiled  # and that code runs: not numba's JIT


@pytest.mark.parametrize("native, ir, use", [
    pytest.param(clash_kernel.KERNEL, "define i64 @f(i32* %c, i64 %n, i64* %b) { ret i64 -1 }",
                 lambda: clash_kernel.first_clash(np.array([1, 3, 2, 0], np.int32)) == 2, id="checker: passes all"),
    pytest.param(columns_text.KERNEL, "define i64 @f(i32* %v, i64 %k, i8* %s, i64 %l, i8* %t) { ret i64 0 }",
                 lambda: columns_text.decimal_text(np.array([5, 17], np.int32), b" ") == b"5 17 ",
                 id="formatter: writes nothing"),
])
def test_stored_code_that_links_but_answers_wrong_is_compiled_again(
        native: machine_code.NativeKernel, ir: str, use: Callable[[], bool], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """A checker whose code passes every board would print whatever a backend returned: stored code
    is tested on known boards (or values) before it is trusted."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native, "_loaded", [])
    monkeypatch.setattr(native, "_numba_compiled", [])
    directory, key, _ = native.stored_code()
    header, code = machine_code.emit_object(ir, "f", native.symbol)
    machine_code.store(directory, native.name, key, header, code)
    assert use()
    stored = native.stored_code()[2]
    assert stored is not None and stored[1] != code
    assert not native._numba_compiled


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
    cached = kernel.KERNEL.stored_code()[2]
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
    cached = kernel.KERNEL.stored_code()[2]
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
    monkeypatch.setattr(kernel.KERNEL, "_loaded", [])
    monkeypatch.setattr(kernel.KERNEL, "_numba_compiled", [])
    items = cons.constellations(11)
    assert kernel.finish_batch(11, items) == [cons.finish(11, c) for c in items]
    assert kernel.KERNEL._numba_compiled


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
