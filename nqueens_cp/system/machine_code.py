"""Machine code of a numba-compiled C function, kept on disk and loaded with llvmlite alone.

numba's own cache (``cache=True``) still imports numba and fills its type registries before it loads
a kernel: 0.53-0.65 s of every counting process's start-up (with numpy's import), which no split
into threads can share, and 0.4-0.7 s of a command that checks and prints one huge board. A kernel compiled as a C function (``numba.cfunc``, buffers passed in,
nothing allocated) needs none of that at run time. This module turns the optimised LLVM IR numba
made of it into an object file for this CPU (:func:`emit_object`), keeps it in the cache directory
under a key of everything that shaped it (:func:`cache_key`, :func:`load_cached`, :func:`store`),
and links it into an llvmlite MCJIT engine of this process (:func:`link`): about 0.05 s with
llvmlite's import. A stored file carries the SHA-256 of its code in its header and is written
atomically; code whose digest does not match is never linked (damaged machine code crashes the
process that runs it), so the caller compiles again and replaces it. :class:`NativeKernel` does all of that for one
kernel: load, test, or compile, test and store.

The C functions called on error paths only (numba's GIL helpers, its exception raising, its freeing:
a cfunc reports an exception raised inside it through them) are bound to ``abort`` when this process
does not define them (``ERROR_PATH_FUNCTIONS``); code that calls any other function this process
lacks (numba's allocator, say) is refused. The kernels loaded this way raise nothing: they allocate
nothing, divide by nothing, index tuples only within range and run without bounds checks (numba's
default).
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import importlib.util
import json
import os
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import llvmlite
import llvmlite.binding as llvm

#: Version of the cache files' layout (a JSON header line with the code's size and SHA-256, then
#: the object file).
FORMAT = 2

#: numba's run-time functions a cfunc calls only to raise an exception or report one raised inside
#: it (take the GIL, build and raise the exception, free its data); bound to ``abort`` where numba
#: is not loaded. Any other function the code calls must exist in the process.
ERROR_PATH_FUNCTIONS = frozenset({
    "numba_gil_ensure", "numba_gil_release", "numba_do_raise", "numba_unpickle",
    "numba_runtime_build_excinfo_struct", "NRT_MemInfo_call_dtor", "NRT_Free",
})

_lock = threading.Lock()
_engines: list[llvm.ExecutionEngine] = []  # linked code lives as long as its engine


def _host_target() -> llvm.TargetMachine:
    """A new target machine as numba's JIT compiles for: this CPU and its features, static
    relocation on x86 (as numba's JIT needs), optimisation level 3. New each time: an execution
    engine takes ownership of its target machine and frees it with itself."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=os.environ.get("NUMBA_CPU_NAME") or llvm.get_host_cpu_name(),
        features=os.environ.get("NUMBA_CPU_FEATURES") or llvm.get_host_cpu_features().flatten(),
        opt=3,
        reloc="static" if target.name.startswith("x86") else "default",
        codemodel="jitdefault",
        jit=True,
    )


def cache_key(*sources: Path) -> str:
    """A key of the kernel's ``sources`` (their bytes), the numba and llvmlite that compile it,
    numba's settings (``NUMBA_*`` variables), this CPU and this format: code under another key is
    never loaded."""
    digest = hashlib.sha256(f"{FORMAT} {llvmlite.__version__} {sys.version_info[:2]}".encode())
    numba_spec = importlib.util.find_spec("numba")  # finds, does not import
    numba_version = Path(numba_spec.origin).with_name("_version.py") if numba_spec and numba_spec.origin else None
    for source in (*sources, *([numba_version] if numba_version else [])):
        digest.update(source.read_bytes() if source.is_file() else str(source).encode())
    settings = sorted((k, v) for k, v in os.environ.items() if k.startswith("NUMBA_") and k != "NUMBA_CACHE_DIR")
    digest.update(repr(settings).encode())
    digest.update(f"{llvm.get_host_cpu_name()} {llvm.get_host_cpu_features().flatten()}".encode())
    return digest.hexdigest()[:24]


def cache_dir(beside: Path) -> Path:
    """Where the machine code of the module file ``beside`` is kept: ``NUMBA_CACHE_DIR`` if set (as
    numba's own cache), else the ``__pycache__`` beside it when writable, else the user's cache
    (``$XDG_CACHE_HOME`` or ``~/.cache``) under ``nqueens-cp``."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]) / "nqueens-cp"
    pycache = beside.parent / "__pycache__"
    if os.access(pycache if pycache.exists() else beside.parent, os.W_OK):
        return pycache
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "nqueens-cp"


def _cache_file(directory: Path, name: str, key: str) -> Path:
    return directory / f"{name}.{key}.native"


def load_cached(directory: Path, name: str, key: str) -> tuple[dict[str, object], bytes] | None:
    """The header and object code stored for ``name`` under ``key``, or None: none stored,
    unreadable, another format, or code whose size or SHA-256 is not the header's."""
    try:
        data = _cache_file(directory, name, key).read_bytes()
        line, code = data.split(b"\n", 1)
        header = json.loads(line)
    except (OSError, ValueError):
        return None
    if (not isinstance(header, dict) or header.get("format") != FORMAT or len(code) != header.get("size")
            or hashlib.sha256(code).hexdigest() != header.get("sha256")):
        return None
    return header, code


def store(directory: Path, name: str, key: str, header: dict[str, object], code: bytes) -> None:
    """Keep ``code`` for later processes, with its size and SHA-256 (written atomically, so a reader
    never sees half a file); a directory that cannot be written only costs the next process a compile."""
    from nqueens_cp.system.atomic import (
        atomic_write,  # only after a compile: tempfile's import is no start-up cost
    )

    stamped = {**header, "format": FORMAT, "size": len(code), "sha256": hashlib.sha256(code).hexdigest()}
    try:
        directory.mkdir(parents=True, exist_ok=True)
        atomic_write(_cache_file(directory, name, key), json.dumps(stamped).encode() + b"\n" + code)
    except OSError:
        pass


def discard(directory: Path, name: str, key: str) -> None:
    """Remove the code stored for ``name`` under ``key``, if any (it was found wrong)."""
    with contextlib.suppress(OSError):
        _cache_file(directory, name, key).unlink(missing_ok=True)


def emit_object(ir: str, symbol: str, public_name: str) -> tuple[dict[str, object], bytes]:
    """The object file of the LLVM ``ir`` for this CPU, with its function ``symbol`` renamed
    ``public_name``; the header lists the external functions it calls."""
    module = llvm.parse_assembly(ir)
    module.get_function(symbol).name = public_name
    module.verify()
    externals = sorted(f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm."))
    return {"symbol": public_name, "externals": externals}, _host_target().emit_object(module)


def link(header: dict[str, object], code: bytes) -> int:
    """Link ``code`` into a new execution engine of this process; the address of its function."""
    with _lock:
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _host_target())
        externals = header.get("externals", [])
        for name in externals if isinstance(externals, list) else []:
            if llvm.address_of_symbol(name) is not None:
                continue
            if name not in ERROR_PATH_FUNCTIONS:
                raise RuntimeError(f"machine code calls {name}, which this process does not define")
            llvm.add_symbol(name, ctypes.cast(ctypes.CDLL(None).abort, ctypes.c_void_p).value)
        engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = int(engine.get_function_address(str(header["symbol"])))
        if not address:
            raise RuntimeError(f"machine code without its function {header['symbol']}")
        _engines.append(engine)
        return address


@dataclass
class NativeKernel:
    """One kernel's C function, loaded once per process: its stored machine code when that links and
    passes ``works``, else compiled by numba (``compile`` returns the ``numba.cfunc``), tested the
    same way and stored in its place. Code this process cannot link (it calls a function the process
    lacks, say after a numba upgrade) runs from numba's own JIT instead, tested too.

    ``name`` names the cache file and the function's symbol; ``sources`` are the files whose bytes
    shape the code (:func:`cache_key`); ``beside`` the module whose ``__pycache__`` keeps it
    (:func:`cache_dir`); ``prototype`` the ctypes type of the function.
    """

    name: str
    sources: tuple[Path, ...]
    beside: Path
    prototype: Any
    compile: Callable[[], Any]
    works: Callable[[Any], bool]
    _loaded: list[Any] = field(default_factory=list, repr=False)
    _numba_compiled: list[Any] = field(default_factory=list, repr=False)  # its code lives as long as it does
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def symbol(self) -> str:
        return f"nqueens_cp_{self.name}"

    def stored_code(self) -> tuple[Path, str, tuple[dict[str, object], bytes] | None]:
        """Where the machine code is kept, its key, and what is stored there under that key."""
        directory = cache_dir(self.beside)
        key = cache_key(*self.sources)
        return directory, key, load_cached(directory, self.name, key)

    def function(self) -> Any:
        """The kernel's C function (the first thread to ask loads it)."""
        with self._lock:
            if self._loaded:
                return self._loaded[0]
            directory, key, cached = self.stored_code()  # None when absent or its digest does not match
            function = self._linked(cached) if cached is not None else None
            if function is None:
                discard(directory, self.name, key)
                compiled = self.compile()
                fresh = emit_object(compiled.inspect_llvm(), compiled.native_name, self.symbol)
                function = self._linked(fresh)
                if function is not None:
                    store(directory, self.name, key, *fresh)
                else:
                    self._numba_compiled.append(compiled)
                    function = self.prototype(compiled.address)
                    if not self.works(function):
                        raise RuntimeError(f"the compiled {self.name} kernel fails its own test")
            self._loaded.append(function)
            return function

    def _linked(self, code: tuple[dict[str, object], bytes]) -> Any | None:
        """The function of the machine ``code`` linked into this process, or None when it cannot be
        linked or fails its test: code that links is not yet code that works."""
        try:
            function = self.prototype(link(*code))
        except RuntimeError:
            return None
        return function if self.works(function) else None
