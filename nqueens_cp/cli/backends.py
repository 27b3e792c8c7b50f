"""``nqueens-cp backends``: each backend, whether it is usable here, and its options."""

from __future__ import annotations

import argparse
from typing import Any

from ..backends.base import OptionSpec
from ..backends.registry import backend_class, backend_names
from .common import OPTION_FLAGS


def option_usage(spec: OptionSpec) -> str:
    """How an option is typed on ``solve``: its own flag where it has one, else ``-O name=VALUE``."""
    value = "|".join(map(str, spec.choices)) if spec.choices and len(spec.choices) <= 4 else spec.type.__name__.upper()
    if spec.name in OPTION_FLAGS:
        return f"{OPTION_FLAGS[spec.name]} {value}"
    return f"-O {spec.name}={value}"


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
            print(f"    {option_usage(spec)} (default {spec.default}): {spec.help}")
            if spec.choices and len(spec.choices) > 4:
                print(f"        choices: {', '.join(map(str, spec.choices))}")

    return 0
