"""The ``nqueens-cp`` command line. Each sub-command lives in its own module of this package.

Start-up stays fast: no solver package is imported until a backend is actually used.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
from typing import TYPE_CHECKING, Any, NoReturn, Sequence

from nqueens_cp.core.errors import NQueensError, SearchStoppedError, SolverError
from nqueens_cp.system.interrupts import exit_status

if TYPE_CHECKING:
    from nqueens_cp.system.interrupts import StopSignals

#: Sub-command modules under ``nqueens_cp.cli``; each defines ``add_parser(subparsers)`` and ``run(args)``.
COMMANDS: tuple[str, ...] = ("solve", "backends", "export", "decode", "compare", "report")

PROG = "nqueens-cp"

#: Exit status of a run that stopped before it was done, with nothing found wrong: a comparison
#: in which some board size got no answer, a solver's time limit reached in the middle of ``--all``.
EXIT_STOPPED = 3
#: Exit status of a command interrupted by SIGINT (Ctrl-C), and of one terminated by SIGTERM.
EXIT_INTERRUPTED, EXIT_TERMINATED = exit_status(signal.SIGINT), exit_status(signal.SIGTERM)


class UsageError(NQueensError):
    """Bad command-line usage (exit status 2)."""


class OneLineParser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2, naming the closest
    command, flag or choice to a mistyped one ("did you mean")."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{PROG}: error: {message}\n")
        raise SystemExit(2)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is not None and value not in action.choices:
            from nqueens_cp.core.errors import did_you_mean

            choices = ", ".join(map(repr, action.choices))
            hint = did_you_mean(str(value), map(str, action.choices))
            raise argparse.ArgumentError(action, f"invalid choice: {value!r}{hint} (choose from {choices})")

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None,
    ) -> tuple[argparse.Namespace, list[str]]:
        if self._subparsers is None and args is not None:  # a sub-command's parser: it knows its flags
            # An unknown flag is named first: its value would otherwise be read as a positional argument.
            from nqueens_cp.core.errors import did_you_mean

            flags = [flag for action in self._actions for flag in action.option_strings if flag.startswith("--")]
            for word in args:
                if word == "--":
                    break
                name = word.partition("=")[0]
                if name.startswith("--") and not any(flag.startswith(name) for flag in flags):
                    self.error(f"unrecognized argument {name}{did_you_mean(name, flags)}")
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and self._subparsers is None:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser, with every sub-command registered; or, given the ``command`` about to run,
    with that one alone (the other modules and what they import stay unloaded; same parse)."""
    from nqueens_cp import __version__
    from nqueens_cp.backends.framework.registry import builtin_backend_names

    backends = builtin_backend_names()
    parser = OneLineParser(
        prog=PROG,
        description=f"Solve, cross-validate and benchmark N-Queens with {len(backends)} backends: "
        f"{', '.join(backends)} (nqueens-cp backends: what each is and whether it runs here).",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    subparsers.required = False  # no command: the usage and the commands, see _main
    for name in COMMANDS if command not in COMMANDS else (command,):
        importlib.import_module(f"{__name__}.{name}").add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status.

    0 ok; 1 no solution, a check failed, a run failed or ran out of memory; 2 bad input or an
    output that cannot be written; 3 stopped with nothing found wrong but not everything answered
    (:data:`EXIT_STOPPED`); 130 interrupted (SIGINT, Ctrl-C; :data:`EXIT_INTERRUPTED`); 143 terminated
    (SIGTERM; :data:`EXIT_TERMINATED`). Whatever
    happens, stderr gets one line, never a traceback: an unexpected exception is reported as an
    internal error (exit status 1).
    """
    from nqueens_cp.system.interrupts import StopSignals

    with StopSignals(announce=_stopped_by) as sigint:
        return _main(argv, sigint)


def _main(argv: Sequence[str] | None, sigint: StopSignals) -> int:
    """:func:`main`, watched by ``sigint``: an exception after Ctrl-C or SIGTERM is a stop."""
    from nqueens_cp.system.interrupts import is_interruption

    try:
        arguments = sys.argv[1:] if argv is None else list(argv)
        parser = build_parser(arguments[0] if arguments else None)
        args = parser.parse_args(arguments)
        if args.command is None:
            sys.stderr.write(parser.format_help())
            parser.error(f"give a COMMAND ({PROG} COMMAND --help shows its options)")
        status: int = args.run(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at interpreter exit
    except SystemExit as stop:  # argparse: --help, --version, or a usage error already reported
        return stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 2
    except SearchStoppedError as error:  # a bound was reached: the run stopped, nothing is wrong
        if sigint.seen:
            return _interrupted(sigint)
        sys.stdout.flush()
        sys.stderr.write(f"{PROG}: stopped: {error}; no complete answer\n")
        return EXIT_STOPPED
    except NQueensError as error:
        if sigint.seen or is_interruption(error):
            return _interrupted(sigint)
        from nqueens_cp.cli.words import command_line_words

        sys.stderr.write(f"{PROG}: error: {command_line_words(str(error))}\n")
        return 1 if isinstance(error, SolverError) else 2  # a run that failed is not bad input
    except KeyboardInterrupt:
        return _interrupted(sigint)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining at exit.
        silence_stdout()
        return 0
    except OSError as error:  # an output the program was asked to write cannot be written
        silence_stdout()
        where = f" ({error.filename})" if error.filename else ""
        sys.stderr.write(f"{PROG}: error: {error.strerror or error}{where}\n")
        return 2
    except MemoryError:
        sys.stderr.write(f"{PROG}: error: out of memory (try a smaller board or another backend)\n")
        return 1
    except Exception as error:  # a bug: still one line, with where it happened
        if sigint.seen or is_interruption(error):  # a library's own report of Ctrl-C
            return _interrupted(sigint)
        from nqueens_cp.core.errors import describe_exception

        sys.stderr.write(f"{PROG}: internal error: {describe_exception(error)}; please report it\n")
        return 1
    return status


def _interrupted(sigint: StopSignals) -> int:
    """Say "interrupted" (or "terminated") on stderr; the exit status of a command so stopped."""
    return _stopped_by(sigint.signum if sigint.signum is not None else signal.SIGINT)


def _stopped_by(signum: int) -> int:
    """Say on stderr what stopped the command: "interrupted" (SIGINT, Ctrl-C; exit status 130)
    or "terminated" (SIGTERM; 143); the exit status."""
    sys.stderr.write(f"{PROG}: {'terminated' if signum == signal.SIGTERM else 'interrupted'}\n")
    return exit_status(signum)


def run() -> NoReturn:
    """The ``nqueens-cp`` and ``python -m nqueens_cp`` entry point: :func:`main`, then exit.

    Before exiting, every object is moved out of the garbage collector's sight (``gc.freeze``):
    the collection at interpreter exit would otherwise walk numba's object graph, 0.1 s of every
    command that ran a compiled kernel. Files and stores are closed by then; nothing is lost.
    """
    status = main()
    gc.freeze()
    sys.exit(status)


def silence_stdout() -> None:
    """Point stdout at /dev/null, so that Python's flush at exit cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
