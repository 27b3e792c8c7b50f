"""Where the results of finished sub-problems are kept: in memory, or in an SQLite checkpoint file.

A checkpoint file has two tables:

* ``run`` (``key``, ``value`` as JSON): what the file was made for, namely the format version, the
  instance (``n`` and pre-placed queens), the backend and its options, the split depth, whether
  the first-row mirror was used, the task (``count``, ``all``, ``count-unique``, ``all-unique``) and
  the number of sub-problems. Opening a file made for any other run raises
  :class:`~nqueens_cp.core.errors.CheckpointError`.
* ``results``: one row per finished sub-problem (index, prefix, count, the zlib-compressed packed
  solutions for ``--all``, seconds, worker, checksum). ``index`` is the primary key, so a
  sub-problem can never be recorded twice.

Each row carries a checksum (SHA-256) of its content and of the run header. When a file is
opened, a row that fails it (edited by hand, damaged on disk, written for another header) is
deleted and listed in :attr:`CheckpointStore.rejected`, so the run computes that sub-problem
again instead of trusting it.

Each result is committed in its own transaction as it arrives (WAL journal), so a run killed at
any moment, ``kill -9`` included, loses at most the sub-problems that were still running; only
the process that owns the run writes to the file. One run per file at a time: the store holds an
exclusive ``flock`` on the file while it is open, and a second run is refused with
:class:`~nqueens_cp.core.errors.CheckpointLockedError`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import zlib
from abc import ABC, abstractmethod
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Mapping, Sequence

from nqueens_cp.core.errors import CheckpointError, CheckpointLockedError
from nqueens_cp.parallel.split import SubProblem
from nqueens_cp.parallel.tasks import SubResult

#: Bumped when the file layout changes; files of another version are refused.
FORMAT_VERSION = 2


class ResultStore(ABC):
    """Finished sub-problem results, by sub-problem index."""

    #: ``(index, prefix)`` of the rows found corrupt when the store was opened (deleted, to be
    #: computed again); only a checkpoint file has any.
    rejected: Sequence[tuple[int, str]] = ()

    @abstractmethod
    def done(self) -> set[int]:
        """Indices of the sub-problems already finished."""

    @abstractmethod
    def record(self, subproblem: SubProblem, result: SubResult) -> None:
        """Keep ``result``, the result of ``subproblem`` (durably, for a checkpoint)."""

    @abstractmethod
    def results(self) -> Iterator[SubResult]:
        """Every kept result, by index."""

    @abstractmethod
    def counts(self) -> Iterator[tuple[int, int]]:
        """``(index, count)`` for every kept result."""

    @abstractmethod
    def close(self) -> None:
        """Release the store."""


class MemoryStore(ResultStore):
    """Results kept in this process only (a run without ``--checkpoint``); counts, not solutions."""

    def __init__(self) -> None:
        self._results: dict[int, SubResult] = {}

    def done(self) -> set[int]:
        return set(self._results)

    def record(self, subproblem: SubProblem, result: SubResult) -> None:
        if result.index in self._results:
            raise CheckpointError(f"sub-problem {subproblem.label()} finished twice")
        self._results[result.index] = replace(result, packed=None)  # solutions were passed on already

    def results(self) -> Iterator[SubResult]:
        return iter([self._results[i] for i in sorted(self._results)])

    def counts(self) -> Iterator[tuple[int, int]]:
        return iter([(i, self._results[i].count) for i in sorted(self._results)])

    def close(self) -> None:
        """Nothing to release: the results stay readable in memory."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS results (
    idx INTEGER PRIMARY KEY,
    prefix TEXT NOT NULL,
    count INTEGER NOT NULL,
    solutions BLOB,
    seconds REAL NOT NULL,
    worker TEXT NOT NULL,
    checksum TEXT NOT NULL,
    finished TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


def header_digest(header: Mapping[str, Any]) -> str:
    """SHA-256 of a run header in canonical JSON (sorted keys): what each row's checksum is bound to."""
    canonical = json.dumps(json.loads(json.dumps(header)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def row_checksum(
    header: str, index: int, prefix: str, count: int, blob: bytes | None, seconds: float, worker: str
) -> str:
    """SHA-256 of one results row's content and the run's :func:`header_digest` ``header``."""
    solutions = "none" if blob is None else hashlib.sha256(blob).hexdigest()
    text = "\x1f".join([header, str(index), prefix, str(count), solutions, repr(float(seconds)), worker])
    return hashlib.sha256(text.encode()).hexdigest()


def _lock(path: Path) -> int:
    """An exclusive ``flock`` on ``path`` (created if missing), as an open descriptor; refused if held."""
    try:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as error:
        raise CheckpointError(f"cannot open checkpoint {path}: {error.strerror or error}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(descriptor)
        raise CheckpointLockedError(
            f"checkpoint {path} is locked: another run is using it (wait for it to finish, or use another file)"
        ) from None
    return descriptor


def read_header(path: str | Path) -> dict[str, Any] | None:
    """The ``run`` header of an existing checkpoint file, or None when there is no such file yet
    (or it is still being created: an SQLite file that holds no table at all)."""
    path = Path(path)
    if path.is_dir():
        raise CheckpointError(f"checkpoint {path} is a directory")
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if not connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
                return None  # created a moment ago by a run that has not written its schema yet
            rows = connection.execute("SELECT key, value FROM run").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise CheckpointError(f"{path} is not an nqueens-cp checkpoint ({error})") from None
    return {key: json.loads(value) for key, value in rows}


class CheckpointStore(ResultStore):
    """Results committed to the SQLite file ``path`` one by one, for a run described by ``header``.

    A new (or empty) file is initialised with ``header``; an existing one must carry exactly the
    same header, or :class:`~nqueens_cp.core.errors.CheckpointError` is raised. The file is locked
    while the store is open (:class:`~nqueens_cp.core.errors.CheckpointLockedError` if another store
    holds it). Rows failing their checksum are deleted on opening; their indices and prefixes
    are in :attr:`rejected`.
    """

    def __init__(self, path: str | Path, header: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT_VERSION, **header}
        self._digest = header_digest(self.header)
        self.rejected: list[tuple[int, str]] = []
        self._lock = _lock(self.path)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except sqlite3.Error as error:
            os.close(self._lock)
            raise CheckpointError(f"cannot open checkpoint {self.path}: {error}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._check_header()
            self.rejected = self._reject_bad_rows()
        except sqlite3.OperationalError as error:  # disk full, read-only, I/O error
            self.close()
            raise CheckpointError(f"cannot use checkpoint {self.path} ({error})") from None
        except sqlite3.DatabaseError as error:
            self.close()
            raise CheckpointError(f"{self.path} is not an nqueens-cp checkpoint ({error})") from None
        except CheckpointError:
            self.close()
            raise

    def _reject_bad_rows(self) -> list[tuple[int, str]]:
        """Delete every row whose checksum fails; return their ``(index, prefix)``."""
        bad = [
            (index, prefix)
            for index, prefix, count, blob, seconds, worker, checksum in self._db.execute(
                "SELECT idx, prefix, count, solutions, seconds, worker, checksum FROM results"
            )
            if not isinstance(count, int)
            or checksum != row_checksum(self._digest, index, str(prefix), count, blob, seconds, str(worker))
        ]
        if bad:
            with self._db:
                self._db.executemany("DELETE FROM results WHERE idx = ?", [(index,) for index, _ in bad])
        return bad

    def _check_header(self) -> None:
        stored = {key: json.loads(value) for key, value in self._db.execute("SELECT key, value FROM run")}
        expected = json.loads(json.dumps(self.header))  # compare in JSON terms (tuples become lists)
        if not stored:
            has_results = self._db.execute("SELECT COUNT(*) FROM results").fetchone()[0]
            if has_results:
                raise CheckpointError(f"{self.path} holds results but no run header; refusing to use it")
            with self._db:
                self._db.executemany(
                    "INSERT INTO run (key, value) VALUES (?, ?)",
                    [(key, json.dumps(value)) for key, value in expected.items()],
                )
            return
        if stored != expected:
            keys = sorted(set(stored) | set(expected))
            differences = "; ".join(
                f"{key}: {json.dumps(stored.get(key))} there, {json.dumps(expected.get(key))} here"
                for key in keys
                if stored.get(key) != expected.get(key)
            )
            raise CheckpointError(
                f"checkpoint {self.path} was made for another run ({differences}); "
                "use the command that made it, another file, or delete it"
            )

    def done(self) -> set[int]:
        return {row[0] for row in self._db.execute("SELECT idx FROM results")}

    def record(self, subproblem: SubProblem, result: SubResult) -> None:
        blob = zlib.compress(result.packed) if result.packed is not None else None
        prefix = ",".join(map(str, subproblem.prefix))
        checksum = row_checksum(
            self._digest, result.index, prefix, result.count, blob, result.seconds, result.worker
        )
        try:
            with self._db:  # one transaction, committed before the next result is looked at
                self._db.execute(
                    "INSERT INTO results (idx, prefix, count, solutions, seconds, worker, checksum) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (result.index, prefix, result.count, blob, result.seconds, result.worker, checksum),
                )
        except sqlite3.IntegrityError:
            raise CheckpointError(
                f"sub-problem {subproblem.label()} is already in {self.path}: is another run using it?"
            ) from None
        except sqlite3.OperationalError as error:  # disk full, file system turned read-only, ...
            raise CheckpointError(
                f"cannot write to checkpoint {self.path} ({error}); the sub-problems committed before "
                "are kept: run the same command again once it is writable"
            ) from None

    def results(self) -> Iterator[SubResult]:
        # One query per row: only one sub-problem's solutions are in memory at a time.
        for index in sorted(self.done()):
            prefix, count, blob, seconds, worker, checksum = self._db.execute(
                "SELECT prefix, count, solutions, seconds, worker, checksum FROM results WHERE idx = ?", (index,)
            ).fetchone()
            self._check_row(index, prefix, count, blob, seconds, worker, checksum)
            try:
                packed = zlib.decompress(blob) if blob is not None else None
            except zlib.error as error:
                raise CheckpointError(f"{self.path}: sub-problem #{index}'s solutions are damaged ({error})") from None
            yield SubResult(index=index, count=count, packed=packed, seconds=seconds, worker=worker)

    def counts(self) -> Iterator[tuple[int, int]]:
        rows = self._db.execute(
            "SELECT idx, prefix, count, solutions, seconds, worker, checksum FROM results ORDER BY idx"
        ).fetchall()
        for row in rows:
            self._check_row(*row)
        return iter([(row[0], row[2]) for row in rows])

    def forget(self, indices: list[int]) -> None:
        """Delete the rows of ``indices`` (results found wrong), so that a later run computes them anew."""
        with self._db:
            self._db.executemany("DELETE FROM results WHERE idx = ?", [(index,) for index in indices])

    def _check_row(
        self, index: int, prefix: str, count: int, blob: bytes | None, seconds: float, worker: str, checksum: str
    ) -> None:
        """Rows were checked on opening; one that changed since (another writer) stops the run."""
        if checksum != row_checksum(self._digest, index, prefix, count, blob, seconds, worker):
            raise CheckpointError(
                f"{self.path}: the row of sub-problem #{index} changed while this run was using the file"
            )

    def close(self) -> None:
        db = getattr(self, "_db", None)
        if db is not None:
            db.close()
        if self._lock >= 0:
            os.close(self._lock)  # releases the flock
            self._lock = -1
