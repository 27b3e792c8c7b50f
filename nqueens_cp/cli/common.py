"""Argument types and option groups shared by the sub-commands."""

from __future__ import annotations

import argparse
from typing import Any, Callable

from nqueens_cp.cli.words import OPTION_FLAGS
from nqueens_cp.core.errors import InvalidInstanceError
from nqueens_cp.core.instance import MAX_N, Instance

#: The built-in backends that take each option of :data:`OPTION_FLAGS` (tests check it against their
#: option specs; the help says it without importing every backend).
OPTION_BACKENDS: dict[str, tuple[str, ...]] = {
    "encoding": ("sat", "ganak", "approxmc"),
    "solver": ("sat", "minizinc", "cpmpy", "xcsp3"),
    "search_workers": ("cpsat",),
    "time_limit": ("cpsat", "mip", "choco", "cpmpy", "localsearch", "asp", "smt", "minizinc", "sat"),
}


def integer(name: str, minimum: int | None = None, maximum: int | None = None) -> Callable[[str], int]:
    """An argparse type for an integer called ``name`` (in its messages), from ``minimum`` to ``maximum``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if minimum is not None and value < minimum:
            raise argparse.ArgumentTypeError(f"{name} must be >= {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise argparse.ArgumentTypeError(f"{name} must be <= {maximum}, got {value}")
        return value

    return parse


def number(name: str) -> Callable[[str], float]:
    """An argparse type for a number called ``name`` that must be > 0 (seconds, megabytes)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number, got {text!r}") from None
        if not value > 0 or value == float("inf"):
            raise argparse.ArgumentTypeError(f"{name} must be a number > 0, got {text!r}")
        return value

    return parse


#: argparse type for N: an integer from 0 to :data:`~nqueens_cp.core.instance.MAX_N`.
board_size = integer("N", minimum=0, maximum=MAX_N)


def backend_name(text: str) -> str:
    """argparse type for ``--backend``: the registered name, case ignored; unknown names are refused
    naming the closest one."""
    from nqueens_cp.backends.framework.registry import canonical_backend_name

    return canonical_backend_name(text)


def square(flag: str) -> Callable[[str], tuple[int, int]]:
    """argparse type for a square ``R:C`` (0-based row and column) given with ``flag``."""

    def parse(text: str) -> tuple[int, int]:
        row, sep, col = text.partition(":")
        try:
            if not sep:
                raise ValueError
            return int(row), int(col)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{flag} takes ROW:COL (0-based integers), got {text!r}") from None

    return parse


#: argparse type for ``--fix R:C``.
fixed_square = square("--fix")


class PositionalOrFlag(argparse.Action):
    """Stores a value that may be given as a positional argument or as a flag (``8`` or ``--n 8``):
    an absent positional leaves the flag's value alone, and two different values are refused."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        if values is None:  # the positional, not given
            return
        given = getattr(namespace, self.dest, None)
        if given is not None and given != values:
            parser.error(f"{self.metavar} given twice, as {_shown(given)} and {_shown(values)}: give it once")
        setattr(namespace, self.dest, values)


def _shown(value: Any) -> str:
    """A parsed value as it is written on the command line (a tuple of sizes as ``4,5``)."""
    return ",".join(map(str, value)) if isinstance(value, tuple) else str(value)


def add_board_arguments(
    parser: argparse.ArgumentParser, *, n_help: str = "board size (n >= 0)",
    fix_help: str = "pre-place a queen (0-based)",
) -> None:
    """The instance every board command takes: ``N`` or ``--instance FILE`` (``--diagonals D``),
    and any number of ``--fix R:C`` and ``--block R:C``."""
    parser.add_argument("n", type=board_size, metavar="N", nargs="?", action=PositionalOrFlag,
                        help=f"{n_help}; not with --instance")
    parser.add_argument("--n", dest="n", type=board_size, metavar="N", action=PositionalOrFlag,
                        help="the same as N (as compare --n)")
    parser.add_argument("--fix", type=fixed_square, action="append", metavar="R:C", help=fix_help)
    parser.add_argument("--block", type=square("--block"), action="append", metavar="R:C",
                        help="block a square: no queen may stand there (0-based)")
    parser.add_argument("--instance", metavar="FILE",
                        help="read the instance from FILE (N comes from it): a CSPLib 079 Excluded Diagonals "
                        ".param (n, numdiags, diags) or an Essence' completion .param (letting n, letting init)")
    parser.add_argument("--diagonals", type=integer("--diagonals", 0), metavar="D",
                        help="with an Excluded Diagonals --instance: use its first D diagonals (default all)")


def board_instance(args: argparse.Namespace) -> tuple[Instance, str]:
    """The instance the board arguments describe, and how to name it in messages (one line)."""
    from nqueens_cp.cli import UsageError
    from nqueens_cp.instances.files import load_instance_file

    if args.instance is None:
        if args.n is None:
            raise UsageError("give the board size N or --instance FILE")
        if args.diagonals is not None:
            raise UsageError("--diagonals applies to --instance FILE only")
        instance = Instance(args.n, check_squares(args.n, args.fix, "--fix"),
                            check_squares(args.n, args.block, "--block"))
        return instance, str(instance)
    if args.n is not None:
        raise UsageError("give N or --instance FILE, not both (the file gives N)")
    read = load_instance_file(args.instance, args.diagonals)
    n = read.instance.n
    instance = read.instance.with_fixed(check_squares(n, args.fix, "--fix")).with_blocked(
        check_squares(n, args.block, "--block"))
    what = f"{args.instance} (n={n}" + ("" if read.diagonals is None else f", {read.diagonals} diagonals")
    extra = len(args.fix or ()) + len(args.block or ())
    return instance, what + (f", {extra} squares given on the command line)" if extra else ")")


def option_pair(text: str) -> tuple[str, str]:
    """argparse type for ``-O KEY=VALUE`` backend options."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"-O takes KEY=VALUE, got {text!r}")
    return key.strip().replace("-", "_"), value.strip()


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """The backend options every solving command accepts (each goes to the chosen backend)."""
    group = parser.add_argument_group("backend options (passed to the backend, which checks them)")
    group.add_argument(OPTION_FLAGS["encoding"], action=TypedFlag, help=f"{_takers('encoding')}: cardinality encoding of the CNF "
                       "(see `nqueens-cp backends`)")
    group.add_argument(OPTION_FLAGS["solver"], action=TypedFlag, help="sat: PySAT solver name; minizinc, cpmpy, xcsp3: their solver "
                       "(see `nqueens-cp backends`)")
    group.add_argument(OPTION_FLAGS["search_workers"], type=integer("--search-workers", 1), action=TypedFlag,
                       metavar="W",
                       help="cpsat: number of CP-SAT search workers for a first solution (a portfolio; "
                       "enumeration and counting always use one: split them with --workers)")
    group.add_argument(OPTION_FLAGS["time_limit"], dest="time_limit", type=number("--time-limit"), action=TypedFlag,
                       metavar="SECONDS", help=f"{_takers('time_limit')}: seconds the backend may search before it "
                       "stops")
    group.add_argument("--timeout", dest="time_limit", type=number("--timeout"), action=TypedFlag, metavar="SECONDS",
                       help="the same as --time-limit (the word compare uses)")
    group.add_argument(
        "-O", "--option", dest="extra_options", type=option_pair, action="append", default=None,
        metavar="KEY=VALUE", help="any other backend option, e.g. -O strategy=plain",
    )
    group.add_argument(
        "--max-model-mb", type=number("--max-model-mb"), metavar="MB",
        help="refuse a model whose estimated memory is over MB (default: a quarter of this machine's "
        "memory, at most 4096)",
    )


class TypedFlag(argparse.Action):
    """Stores the value, and in ``typed_flags`` (option name -> flag) which flag of it was typed: a
    refusal names ``--timeout`` when that is what the user wrote, not ``--time-limit``."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.typed_flags = {**(getattr(namespace, "typed_flags", None) or {}), self.dest: option_string}


def _takers(option: str) -> str:
    """``cpsat, mip, localsearch``: the built-in backends that take ``option``."""
    return ", ".join(OPTION_BACKENDS[option])


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The backend options given on the command line, by backend option name (``--max-model-mb`` is
    not one: it is the backend's ``memory_budget_mb``). With ``args.backend`` chosen, an option it does not take but another backend does is refused
    naming that backend (``--encoding seqcounter``: add ``--backend sat``)."""
    options: dict[str, Any] = {}
    for name in OPTION_FLAGS:
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    options.update(dict(args.extra_options or ()))
    if getattr(args, "backend", None) is not None:
        refuse_misplaced_options(args.backend, options, getattr(args, "typed_flags", None) or {})
    return options


def refuse_misplaced_options(backend: str, options: dict[str, Any], typed: dict[str, str] | None = None) -> None:
    """A ``UsageError`` for an option ``backend`` does not take that another backend does, naming the
    first that takes its value (or, when none takes it, why the first refuses it: ``did you mean``);
    a misspelt option of ``backend`` itself is left to the backend. ``typed``: the flag typed for
    an option (``--timeout`` for ``time_limit``), named instead of its usual one."""
    from nqueens_cp.backends.framework.registry import backend_class, backend_names
    from nqueens_cp.cli import UsageError
    from nqueens_cp.core.errors import NQueensError, did_you_mean

    own = {spec.name for spec in backend_class(backend).option_specs}
    for key, value in options.items():
        if key in own or (key not in OPTION_FLAGS and did_you_mean(key, own)):  # a flag cannot be misspelt here
            continue
        takers: list[str] = []
        holders: list[str] = []  # the backends with the option, whether they take this value or not
        refusal = ""
        for name in backend_names():
            try:
                specs = {spec.name: spec for spec in backend_class(name).option_specs}
            except NQueensError:  # cannot be loaded here
                continue
            if key not in specs:
                continue
            holders.append(name)
            try:
                specs[key].coerce(value)
                takers.append(name)
            except NQueensError as refused:
                refusal = refusal or str(refused).removeprefix(f"option {key}: ")
        option_flag = (typed or {}).get(key) or OPTION_FLAGS.get(key)
        shown = f"{value:g}" if isinstance(value, float) else value
        flag = f"{option_flag} {shown}" if option_flag else f"-O {key}={value}"
        if takers:
            raise UsageError(f"backend {backend} has no option {key!r} ({flag} is an option of "
                             f"{', '.join(takers)}): add --backend {takers[0]}")
        if holders:  # a value no backend takes, of an option the chosen one lacks: both said
            raise UsageError(f"{flag}: {refusal}; and backend {backend} has no option {key!r} "
                             f"({option_flag or '-O ' + key} is an option of {', '.join(holders)}): add --backend {holders[0]}")


def check_squares(n: int, fixed: list[tuple[int, int]] | None, flag: str = "--fix") -> list[tuple[int, int]]:
    """Reject ``--fix`` (or ``--block``) squares off the board early, with the flag's own wording."""
    for row, col in fixed or ():
        if not (0 <= row < n and 0 <= col < n):
            raise InvalidInstanceError(f"{flag} {row}:{col} is off the {n}x{n} board")
    return list(fixed or ())
