"""``nqueens-cp backends``: each backend (built-in or from another package), whether it is usable here, and its options."""

from __future__ import annotations

import argparse
from typing import Any

from ..backends.registry import backend_class, backend_names, broken_plugins
from ..errors import NQueensError


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
        for spec in cls.option_specs:
            line = f"    --{spec.name.replace('_', '-')} ({spec.type.__name__}, default {spec.default})"
            print(f"{line}: {spec.help}")
            choices = cls.option_choices(spec)
            if choices:
                print(f"        choices: {', '.join(map(str, choices))}")
    for name, reason in broken_plugins().items():
        if name not in names:
            print(f"{name}: broken: {reason}")
    return 0
