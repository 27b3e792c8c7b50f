"""Where the results of finished sub-problems are kept: in memory, or in an SQLite checkpoint file.

A checkpoint file has two tables:

* ``run`` (``key``, ``value`` as JSON): what the file was made for, namely the format version, the
  instance (``n`` and pre-placed queens), the backend and its options, the split depth, whether
  the first-row mirror was used, the task (``count``, ``all``, ``count-unique``, ``all-unique``) and
  the number of sub-problems. Opening a file made for any other run raises
  :class:`~nqueens_cp.errors.CheckpointError`.
* ``results``: one row per finished sub-problem (index, prefix, count, the zlib-compressed packed
  solutions for ``--all``, seconds, worker). ``index`` is the primary key, so a sub-problem can
  never be recorded twice.

Each result is committed in its own transaction as it arrives (WAL journal), so a run killed at
any moment, ``kill -9`` included, loses at most the sub-problems that were still running; only
the process that owns the run writes to the file. One run per file at a time.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from abc import ABC, abstractmethod
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterator, Mapping

from ..errors import CheckpointError
from .split import SubProblem
from .tasks import SubResult

#: Bumped when the file layout changes; files of another version are refused.
FORMAT_VERSION = 1


class ResultStore(ABC):
    """Finished sub-problem results, by sub-problem index."""

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
    finished TEXT NOT NULL DEFAULT (datetime('now'))
);
"""


def read_header(path: str | Path) -> dict[str, Any] | None:
    """The ``run`` header of an existing checkpoint file, or None when there is no such file yet."""
    path = Path(path)
    if not path.exists() or path.stat().st_size == 0:
        return None
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = connection.execute("SELECT key, value FROM run").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError as error:
        raise CheckpointError(f"{path} is not an nqueens-cp checkpoint ({error})") from None
    return {key: json.loads(value) for key, value in rows}


class CheckpointStore(ResultStore):
    """Results committed to the SQLite file ``path`` one by one, for a run described by ``header``.

    A new (or empty) file is initialised with ``header``; an existing one must carry exactly the
    same header, or :class:`~nqueens_cp.errors.CheckpointError` is raised.
    """

    def __init__(self, path: str | Path, header: Mapping[str, Any]) -> None:
        self.path = Path(path)
        self.header = {"format": FORMAT_VERSION, **header}
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except sqlite3.Error as error:
            raise CheckpointError(f"cannot open checkpoint {self.path}: {error}") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(_SCHEMA)
            self._check_header()
        except sqlite3.DatabaseError as error:
            self._db.close()
            raise CheckpointError(f"{self.path} is not an nqueens-cp checkpoint ({error})") from None
        except CheckpointError:
            self._db.close()
            raise

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
        try:
            with self._db:  # one transaction, committed before the next result is looked at
                self._db.execute(
                    "INSERT INTO results (idx, prefix, count, solutions, seconds, worker) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        result.index,
                        ",".join(map(str, subproblem.prefix)),
                        result.count,
                        blob,
                        result.seconds,
                        result.worker,
                    ),
                )
        except sqlite3.IntegrityError:
            raise CheckpointError(
                f"sub-problem {subproblem.label()} is already in {self.path}: is another run using it?"
            ) from None

    def results(self) -> Iterator[SubResult]:
        # One query per row: only one sub-problem's solutions are in memory at a time.
        for index in sorted(self.done()):
            count, blob, seconds, worker = self._db.execute(
                "SELECT count, solutions, seconds, worker FROM results WHERE idx = ?", (index,)
            ).fetchone()
            packed = zlib.decompress(blob) if blob is not None else None
            yield SubResult(index=index, count=count, packed=packed, seconds=seconds, worker=worker)

    def counts(self) -> Iterator[tuple[int, int]]:
        return iter(self._db.execute("SELECT idx, count FROM results ORDER BY idx").fetchall())

    def close(self) -> None:
        self._db.close()
