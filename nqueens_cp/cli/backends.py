"""``nqueens-cp backends``: each backend, whether it is usable here, and its options."""

from __future__ import annotations

import argparse
from typing import Any

from ..backends.registry import backend_class, backend_names


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser("backends", help="list the backends, their availability and options")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in backend_names():
        cls = backend_class(name)
        missing = cls.missing_packages()
        status = "available" if not missing else f"unavailable (missing {', '.join(missing)})"
        print(f"{name}: {status}")
        print(f"    {cls.summary}")
        for spec in cls.option_specs:
            line = f"    --{spec.name.replace('_', '-')} ({spec.type.__name__}, default {spec.default})"
            print(f"{line}: {spec.help}")
            if spec.choices:
                print(f"        choices: {', '.join(map(str, spec.choices))}")
    return 0
