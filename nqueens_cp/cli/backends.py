"""``nqueens-cp backends``: each backend (built-in or from another package), whether it is usable here, and its options."""

from __future__ import annotations

import argparse
from typing import Any

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.registry import backend_class, backend_names, broken_plugins
from nqueens_cp.cli.words import OPTION_FLAGS
from nqueens_cp.core.errors import NQueensError


def option_usage(spec: OptionSpec, choices: tuple[Any, ...] | None = None) -> str:
    """How an option is typed on ``solve``: its own flag where it has one, else ``-O name=VALUE``.

    ``choices`` are the values accepted here (default ``spec.choices``; some backends find theirs at run time).
    """
    choices = spec.choices if choices is None else choices
    value = "|".join(map(str, choices)) if choices and len(choices) <= 4 else spec.type.__name__.upper()
    if spec.name in OPTION_FLAGS:
        return f"{OPTION_FLAGS[spec.name]} {value}"
    return f"-O {spec.name}={value}"


def largest_board(name: str, cls: Any) -> str:
    """The largest board the backend takes, with its default options (``backends/limits.py``)."""
    from nqueens_cp.backends.framework.base import Answer
    from nqueens_cp.backends.framework.largest import largest_accepted_n
    from nqueens_cp.backends.framework.limits import FIRST_SOLUTION_MAX_N

    question = "a first solution" if Answer.FIRST in cls.answers else "a count"
    lifted = ("; more with --time-limit, which stops it there" if name in FIRST_SOLUTION_MAX_N
              and any(spec.name == "time_limit" for spec in cls.option_specs) else "")
    return f"largest board: n = {largest_accepted_n(name):,} for {question} (memory and time bounds){lifted}"


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("backends", help="list the backends, their availability and options")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = backend_names()
    for name in names:
        try:
            cls = backend_class(name)
        except NQueensError as error:  # another package's backend that does not load: say why, go on
            print(f"{name}: broken: {error}")
            continue
        reason = cls.unavailable_reason()
        print(f"{name}: " + ("available" if reason is None else f"unavailable: {reason}"))
        print(f"    {cls.summary}")
        print(f"    {largest_board(name, cls)}")
        for spec in cls.option_specs:
            choices = cls.option_choices(spec)
            print(f"    {option_usage(spec, choices)} (default {spec.default}): {spec.help}")
            if choices and len(choices) > 4:
                print(f"        choices: {', '.join(map(str, choices))}")
    for name, reason in broken_plugins().items():
        if name not in names:
            print(f"{name}: broken: {reason}")
    return 0
