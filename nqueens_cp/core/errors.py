"""The package's one exception hierarchy: every error it raises on purpose is an ``NQueensError``."""

from __future__ import annotations

from typing import Iterable


class NQueensError(Exception):
    """Base of every error raised by nqueens-cp."""


class InvalidInstanceError(NQueensError, ValueError):
    """The instance is malformed: bad ``n``, a queen off the board, two queens given for one row."""


class InvalidArgumentError(NQueensError, TypeError, ValueError):
    """A public function was given an argument of the wrong type or value; the message names it.

    Also a ``TypeError`` and a ``ValueError``, so code that catches those keeps working.
    """


class UnknownBackendError(NQueensError, KeyError):
    """No backend is registered under that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class BackendOptionError(NQueensError, ValueError):
    """A backend option is unknown, of the wrong type, or has a value the backend refuses."""


class BackendUnavailableError(NQueensError, ImportError):
    """The solver package a backend needs is not installed."""


class SolverError(NQueensError, RuntimeError):
    """A solver failed or stopped before it could answer (for example a time limit was hit)."""


class SearchStoppedError(SolverError):
    """A solver reached a bound it was given (a time limit) before it had answered: the run
    stopped, nothing is known to be wrong, and what it produced so far (solutions already
    streamed) stands. The command line ends such a run with its own exit status (3)."""


class InvalidWitnessError(SolverError):
    """A backend's witness of a family problem failed the independent checker (or its claimed value)."""


class SearchBoundError(SolverError):
    """An incomplete search (local search) stopped at its step or time bound without a solution.

    It proves nothing: the instance may still have one. The command line says "no completion found
    within the bound" (exit status 1), never "no solution". ``bound`` says which bound was reached.
    """

    def __init__(self, bound: str) -> None:
        self.bound = bound
        super().__init__(f"no completion found within the bound ({bound}; local search cannot prove that none exists)")

    def describe(self, instance: str) -> str:
        """The message, naming the instance."""
        return f"no completion found within the bound for {instance} ({self.bound}; local search cannot prove that none exists)"


class CheckpointError(NQueensError):
    """A checkpoint file cannot be used: made for another run, unreadable, or not a checkpoint."""


class CheckpointLockedError(CheckpointError):
    """Another run holds the checkpoint file (one run per file at a time)."""


class SubProblemError(NQueensError, RuntimeError):
    """A sub-problem of a split run kept failing after its retries; the run has no complete result."""


class WrongCountError(SubProblemError):
    """A split run's result is wrong: its total differs from the published count, or two backends
    counting the same sub-problem (``verify``) disagree. The message names the sub-problems.

    A subclass of :class:`SubProblemError` because it means the same to a caller: no result.
    """


class ModelFileError(NQueensError, ValueError):
    """A file to read back (a solver's answer for an exported model) is unreadable or malformed."""


class ResultsFileError(NQueensError, ValueError):
    """A saved results file cannot be read (not JSON, wrong schema version, missing fields)."""


class OutputError(NQueensError, OSError):
    """An output file or directory cannot be written."""


class OutputExistsError(OutputError, FileExistsError):
    """An output file exists already and overwriting it was not asked for (``--force``)."""


class ModelTooLargeError(NQueensError):
    """A model or search would not fit the machine (memory) or could not answer in reasonable time;
    refused before anything is built. The message gives the estimate and what to use instead."""


class InstanceFileError(NQueensError, ValueError):
    """An instance file (a CSPLib ``.param``) cannot be read: the message is ``FILE:LINE: why``."""


class CertificationError(NQueensError):
    """A certificate failed its check: a proof step that does not follow, a proof that derives no
    conflict, a malformed CNF or proof, or a found solution that is not one. The message names it.

    A checked answer that fails is a wrong answer, not bad input: the command line exits with 1.
    """


def describe_exception(error: BaseException) -> str:
    """``Type: message (at file:line in function)``: where a run failed, in one line."""
    import os
    import traceback

    text = f"{type(error).__name__}: {error}".rstrip(": ")
    frames = traceback.extract_tb(error.__traceback__)
    if frames:
        last = frames[-1]
        text += f" (at {os.path.basename(last.filename)}:{last.lineno} in {last.name})"
    return text


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``"; did you mean 'cpsat'?"`` for the choice closest to ``word`` (case ignored), or ``""``."""
    from difflib import get_close_matches

    by_lower = {choice.lower(): choice for choice in choices}
    close = get_close_matches(word.lower(), list(by_lower), n=1, cutoff=0.6)
    return f"; did you mean {by_lower[close[0]]!r}?" if close else ""
