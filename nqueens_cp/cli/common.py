"""Argument types and option groups shared by the sub-commands."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import InvalidInstanceError


def board_size(text: str) -> int:
    """argparse type for N: an integer >= 0."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"N must be an integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"N must be >= 0, got {value}")
    return value


def placement(text: str) -> tuple[int, int]:
    """argparse type for ``--fix R:C`` (0-based row and column)."""
    row, sep, col = text.partition(":")
    try:
        if not sep:
            raise ValueError
        return int(row), int(col)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--fix takes ROW:COL (0-based integers), got {text!r}") from None


def option_pair(text: str) -> tuple[str, str]:
    """argparse type for ``-O KEY=VALUE`` backend options."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise argparse.ArgumentTypeError(f"-O takes KEY=VALUE, got {text!r}")
    return key.strip().replace("-", "_"), value.strip()


def add_backend_options(
    parser: argparse.ArgumentParser, *, workers_help: str = "cpsat: number of search workers"
) -> None:
    """The backend options every solving command accepts (each goes to the chosen backend)."""
    group = parser.add_argument_group("backend options (passed to the backend, which checks them)")
    group.add_argument("--encoding", help="sat: cardinality encoding (see `nqueens-cp backends`)")
    group.add_argument("--solver", help="sat: PySAT solver name (see `nqueens-cp backends`)")
    group.add_argument("--workers", type=int, metavar="W", help=workers_help)
    group.add_argument("--time-limit", type=float, metavar="SECONDS", help="cpsat: time limit in seconds")
    group.add_argument(
        "-O", "--option", dest="extra_options", type=option_pair, action="append", default=None,
        metavar="KEY=VALUE", help="any other backend option, e.g. -O strategy=plain",
    )


def backend_options(args: argparse.Namespace) -> dict[str, Any]:
    """The backend options given on the command line, by backend option name."""
    options: dict[str, Any] = {}
    for name in ("encoding", "solver", "workers", "time_limit"):
        value = getattr(args, name, None)
        if value is not None:
            options[name] = value
    options.update(dict(args.extra_options or ()))
    return options


def check_placements(n: int, fixed: list[tuple[int, int]] | None) -> list[tuple[int, int]]:
    """Reject ``--fix`` squares off the board early, with the flag's own wording."""
    for row, col in fixed or ():
        if not (0 <= row < n and 0 <= col < n):
            raise InvalidInstanceError(f"--fix {row}:{col} is off the {n}x{n} board")
    return list(fixed or ())
