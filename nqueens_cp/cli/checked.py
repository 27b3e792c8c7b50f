"""Every board ``solve`` prints is checked first, by the independent checker (:mod:`nqueens_cp.core.checker`).

A board that does not solve the instance is not printed. With ``--all`` no board may come twice:
a backend whose stream is in lexicographic order (it says so) has each board compared with the
one before (O(1) memory); any other's boards are kept as exact digests (their columns as bytes)
in a set of at most ``SPILL_AT``, which, when full, is written sorted to a temporary file as a run
and emptied; the runs are merged at the end. A repeat within the set is found before it is
printed; one across runs only at the end, and said so.
"""

from __future__ import annotations

import heapq
import os
import tempfile
from array import array
from typing import IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, NoReturn

from nqueens_cp.core.checker import board_problem, columns_problem, first_invalid_board
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution

if TYPE_CHECKING:
    import numpy.typing as npt

#: Digests kept in memory before they are written to a temporary file as a sorted run.
SPILL_AT = 1 << 19

#: Digests read from each run at a time while the runs are merged.
MERGE_CHUNK = 1 << 12


class InvalidAnswerError(NQueensError):
    """A backend gave a board that is not a solution, or one twice (exit status 1)."""


class AnswerCheck:
    """The checks of one backend's answers to one instance (``described`` names it in messages).

    ``ordered``: the backend declares its boards in strictly increasing lexicographic order.
    ``board_problem``: why a board is not an answer (None when it is), when it is not a solution of
    ``instance`` that is asked (a placement of the N-Queens family: the family's checker).
    """

    def __init__(self, instance: Instance, backend: str, described: str, *, ordered: bool = False,
                 spill_at: int | None = None, board_problem: Callable[[Solution], str | None] | None = None) -> None:
        self.instance = instance
        self._board_problem = board_problem
        self.backend = backend
        self.described = described
        self.ordered = ordered
        self.spill_at = SPILL_AT if spill_at is None else spill_at
        self._previous: Solution | None = None
        self._previous_row: npt.NDArray[Any] | None = None
        self._seen: set[bytes] = set()
        self._runs: list[tuple[int, int]] = []  # (offset, digests) of each run in the file
        self._file: IO[bytes] | None = None
        self._width = instance.n * (1 if instance.n <= 256 else 4)

    def _fail(self, what: str) -> NoReturn:
        raise InvalidAnswerError(f"{self.backend} returned {what}")

    def _invalid(self, problem: str) -> NoReturn:
        self._fail(f"an invalid board for {self.described}: {problem}")

    def check(self, board: Solution) -> None:
        """Check one board (a tuple)."""
        problem = board_problem(self.instance, board) if self._board_problem is None else self._board_problem(board)
        if problem is not None:
            self._invalid(problem)

    def columns(self, columns: npt.NDArray[Any]) -> None:
        """Check one board given as a numpy array (O(n), compiled on large boards)."""
        problem = columns_problem(self.instance, columns)
        if problem is not None:
            self._invalid(problem)

    def boards(self, solutions: Iterable[Solution]) -> Iterator[Solution]:
        """``solutions``, each checked (valid, and not a repeat) before it is passed on."""
        for board in solutions:
            self.check(board)
            if self.ordered:
                if self._previous is not None and not board > self._previous:
                    self._out_of_order(board, self._previous)
                self._previous = board
            else:
                self._remember(board)
            yield board

    def batches(self, batches: Iterable[npt.NDArray[Any]]) -> Iterator[Solution]:
        """The boards of ``batches`` (2-D arrays, a board per row) as tuples, each batch checked
        (compiled) before any of its boards is passed on."""
        for batch in batches:
            failed = first_invalid_board(self.instance, batch, self._previous_row if self.ordered else None)
            if failed is not None:
                index, problem = failed
                if problem:
                    self._invalid(problem)
                before = batch[index - 1] if index else self._previous_row
                assert before is not None
                self._out_of_order(tuple(batch[index].tolist()), tuple(before.tolist()))
            if not len(batch):
                continue
            self._previous_row = batch[-1].copy()
            if self.ordered:
                yield from map(tuple, batch.tolist())
                continue
            for board in map(tuple, batch.tolist()):
                self._remember(board)
                yield board

    def _out_of_order(self, board: Solution, before: Solution) -> NoReturn:
        if board == before:
            self._fail(f"the board {_text(board)} twice for {self.described}")
        self._fail(f"the board {_text(board)} after {_text(before)} for {self.described}, "
                   "out of the lexicographic order it declares")

    def _digest(self, board: Solution) -> bytes:
        return bytes(board) if self.instance.n <= 256 else array("I", board).tobytes()

    def _board(self, digest: bytes) -> Solution:
        return tuple(digest) if self.instance.n <= 256 else tuple(array("I", digest))

    def _remember(self, board: Solution) -> None:
        digest = self._digest(board)
        if digest in self._seen:
            self._fail(f"the board {_text(board)} twice for {self.described}")
        self._seen.add(digest)
        if len(self._seen) >= self.spill_at:
            self._spill()

    def _spill(self) -> None:
        """Write the digests in memory to the temporary file as a sorted run, and forget them."""
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="nqueens-cp-digests-")  # noqa: SIM115 (closed by close())
        self._file.seek(0, os.SEEK_END)
        self._runs.append((self._file.tell(), len(self._seen)))
        self._file.write(b"".join(sorted(self._seen)))
        self._seen.clear()

    def _run(self, offset: int, count: int) -> Iterator[bytes]:
        assert self._file is not None
        width, fd = self._width, self._file.fileno()
        for first in range(0, count, MERGE_CHUNK):
            block = os.pread(fd, width * min(MERGE_CHUNK, count - first), offset + width * first)
            yield from (block[at:at + width] for at in range(0, len(block), width))

    def finish(self) -> None:
        """After the last board: merge the runs (if any were written) to find a repeat across them."""
        if self._file is None:
            return
        try:
            self._spill()
            self._file.flush()
            previous = None
            for digest in heapq.merge(*(self._run(offset, count) for offset, count in self._runs)):
                if digest == previous:
                    self._fail(f"the board {_text(self._board(digest))} twice for {self.described} "
                               "(found once every board was written: the output above has it twice)")
                previous = digest
        finally:
            self.close()

    def close(self) -> None:
        """Remove the temporary file, if one was written."""
        if self._file is not None:
            self._file.close()
            self._file = None


def _text(board: Solution) -> str:
    return "(" + " ".join(map(str, board)) + ")"
