"""Regenerate the example models under ``models/`` (n = 8) from the code.

Run from the repository root::

    python -m nqueens_cp.export.regenerate models

It writes ``models/cnf/queens8-<encoding>.cnf`` for every ``sat`` encoding, the CP-SAT model
``models/queens8.cpsat.pbtxt``, the MiniZinc model ``models/queens8.mzn`` and the pseudo-Boolean
model ``models/queens8.opb``, the XCSP3 model ``models/queens8.xml``, the logic program ``models/queens8.asp.lp`` and the SMT-LIB models ``models/queens8.smt2`` and ``models/queens8.int.smt2``, the 0-1 program ``models/queens8.lp`` and ``models/queens8.mps``. ``tests/test_models_dir.py`` fails when ``models/`` differs from
what this would write.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Sequence

from nqueens_cp.core.instance import Instance
from nqueens_cp.export.writers import FORMAT_SUFFIXES, export_model, write_text_atomic
from nqueens_cp.models.encodings import ENCODINGS

__all__ = ["EXAMPLE_FORMATS", "EXAMPLE_N", "example_models", "main", "regenerate"]

#: The board size of the examples under ``models/``.
EXAMPLE_N = 8
#: The formats written besides one DIMACS file per encoding.
EXAMPLE_FORMATS: tuple[str, ...] = ("cpsat", "minizinc", "opb", "xcsp3", "asp", "smt2", "smt2-int", "lp", "mps")


def example_models(n: int = EXAMPLE_N) -> dict[str, str]:
    """Every example file, by its path relative to ``models/``, with its content."""
    instance = Instance(n)
    files = {
        f"cnf/queens{n}-{encoding}.cnf": export_model(instance, "dimacs", encoding) for encoding in ENCODINGS
    }
    for fmt in EXAMPLE_FORMATS:
        files[f"queens{n}{FORMAT_SUFFIXES[fmt]}"] = export_model(instance, fmt)
    return files


def regenerate(directory: str | Path, n: int = EXAMPLE_N) -> list[Path]:
    """Write the example models into ``directory``; returns the paths written."""
    root = Path(directory)
    written: list[Path] = []
    for relative, text in example_models(n).items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text_atomic(path, text)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m nqueens_cp.export.regenerate [DIR]`` (default ``models``)."""
    parser = argparse.ArgumentParser(prog="python -m nqueens_cp.export.regenerate", description=__doc__.split("\n")[0])
    parser.add_argument("directory", nargs="?", default="models", help="the models directory (default: models)")
    args = parser.parse_args(argv)
    for path in regenerate(args.directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
