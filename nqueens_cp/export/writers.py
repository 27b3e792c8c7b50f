"""Writers for the exported models: DIMACS CNF, CP-SAT protobuf text, MiniZinc, OPB, XCSP3, ASP, SMT-LIB 2, LP and MPS.

Every writer returns the whole file as a string, deterministically (the same instance gives the
same bytes), so ``models/`` can be checked against the code. Every model comes from
:mod:`nqueens_cp.models` — the CNF from :func:`~nqueens_cp.models.cnf.build_cnf`, the CP-SAT model
from :func:`~nqueens_cp.models.cpsat.build_cpsat_model`, MiniZinc and OPB from
:mod:`nqueens_cp.models.text`, XCSP3 from :mod:`nqueens_cp.models.xcsp3`, the logic program from :mod:`nqueens_cp.models.asp`, SMT-LIB from :mod:`nqueens_cp.models.smt`, LP and MPS from :mod:`nqueens_cp.models.mip` — so what is exported is exactly what the backends solve; this module
adds the header comments that explain each file.

In the DIMACS and OPB files, square ``(r, c)`` (0-based) is variable ``r*n + c + 1``.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Callable

from nqueens_cp.core.arguments import require_instance
from nqueens_cp.core.errors import BackendOptionError, BackendUnavailableError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cnf import QueensCnf, build_cnf
from nqueens_cp.models.encodings import Encoding
from nqueens_cp.models.reduction import uses_reduction
from nqueens_cp.models.text import minizinc_text, opb_text, placed_text
from nqueens_cp.models.xcsp3 import xcsp3_text
from nqueens_cp.system.atomic import atomic_write

#: The encoding ``dimacs`` exports by default: the documented, readable seqcounter (the ``sat``
#: backend's own default is chosen for enumeration speed and may differ).
DEFAULT_ENCODING = Encoding.SEQCOUNTER

__all__ = [
    "FORMATS",
    "FORMAT_SUFFIXES",
    "asp_text",
    "cpsat_text",
    "dimacs_text",
    "export_model",
    "minizinc_text",
    "opb_text",
    "write_text_atomic",
]

#: The export formats, and the file suffix each is written with.
FORMAT_SUFFIXES: dict[str, str] = {
    "dimacs": ".cnf", "cpsat": ".cpsat.pbtxt", "minizinc": ".mzn", "opb": ".opb", "xcsp3": ".xml", "asp": ".asp.lp",
    "smt2": ".smt2", "smt2-int": ".int.smt2", "lp": ".lp", "mps": ".mps",
}
FORMATS: tuple[str, ...] = tuple(FORMAT_SUFFIXES)


def _require(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise BackendUnavailableError(f"this export needs the {package} package, which is not installed")


def _fix_flags(instance: Instance) -> str:
    return "".join(f" --fix {r}:{c}" for r, c in instance.fixed)


def _encoding_source(encoding: Encoding) -> str:
    """Where the at-most-one clauses of ``encoding`` come from, for the DIMACS header."""
    if not encoding.from_pysat:
        return f"nqueens_cp.models.amo.{encoding}, default options"
    return "pysat.card.CardEnc, bound 1"


def dimacs_text(instance: Instance, encoding: Encoding | str = DEFAULT_ENCODING) -> str:
    """The CNF of ``instance`` (``sat`` backend, cardinality ``encoding``) in DIMACS format, with a decoding key."""
    require_instance(instance)
    encoding = Encoding.parse(encoding)
    _require("pysat", "python-sat")
    built = build_cnf(instance, encoding)
    if uses_reduction(instance):
        return _reduced_dimacs_text(instance, encoding, built)
    n = instance.n
    squares = n * n
    total = built.cnf.nv
    lines = [
        "c N-Queens as CNF, written by nqueens-cp (`nqueens-cp export N --format dimacs`)",
        f"c n = {n}",
        f"c encoding = {encoding} ({_encoding_source(encoding)})",
        f"c pre-placed queens (row:col, 0-based) = {placed_text(instance)}",
        f"c variables = {total} ({squares} squares + {total - squares} auxiliary)",
        f"c clauses = {len(built.cnf.clauses)}",
        f"c square (r, c), 0-based, is variable r*{n} + c + 1: variables 1..{squares}",
    ]
    if total > squares:
        lines.append(f"c variables {squares + 1}..{total} are auxiliary variables of the {encoding} encoding")
    lines += [
        "c each row: exactly one queen; each column and each diagonal of length >= 2: at most one;",
        "c each pre-placed queen: a unit clause",
        f"c decode a model: nqueens-cp decode {n} MODEL_FILE{_fix_flags(instance)}",
        f"c square map, row r: the variables of columns 0..{max(n - 1, 0)}",
    ]
    for r in range(n):
        lines.append(f"c row {r}: " + " ".join(str(built.queen(r, c)) for c in range(n)))
    lines.append(f"p cnf {total} {len(built.cnf.clauses)}")
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in built.cnf.clauses)
    return "\n".join(lines) + "\n"


def _board_flags(instance: Instance) -> str:
    return _fix_flags(instance) + "".join(f" --block {r}:{c}" for r, c in instance.blocked)


def _reduced_dimacs_text(instance: Instance, encoding: Encoding, built: QueensCnf) -> str:
    """The header and clauses of a reduced CNF (variables 1..k are the open squares)."""
    n, squares, total = instance.n, len(built.squares), built.cnf.nv
    by_row: dict[int, list[str]] = {}
    for i, (r, c) in enumerate(built.squares):
        by_row.setdefault(r, []).append(f"{c}:{i + 1}")
    flags = _board_flags(instance) if n <= 64 else " (the same board: --instance FILE, --fix, --block)"
    lines = [
        "c N-Queens as CNF over the open squares, written by nqueens-cp (`nqueens-cp export`)",
        f"c n = {n}",
        f"c encoding = {encoding} (pysat.card.CardEnc, bound 1)",
        f"c pre-placed queens = {len(instance.fixed)}, blocked squares = {len(instance.blocked)}: propagated, "
        "so only the open squares (free row, free column, not blocked, on no diagonal of a pre-placed queen) "
        "have a variable (models/README.md, 'Models that shrink')",
        f"c variables = {total} ({squares} open squares + {total - squares} auxiliary)",
        f"c clauses = {len(built.cnf.clauses)}",
        "c each free row and each free column: exactly one queen; each diagonal with >= 2 open squares: at most one",
        f"c decode a model: nqueens-cp decode {n} MODEL_FILE{flags}",
        "c square map, free row r: col:variable for each open square",
        *(f"c row {r}: {' '.join(cells)}" for r, cells in by_row.items()),
        f"p cnf {total} {len(built.cnf.clauses)}",
    ]
    lines.extend(" ".join(map(str, clause)) + " 0" for clause in built.cnf.clauses)
    return "\n".join(lines) + "\n"


def cpsat_text(instance: Instance) -> str:
    """The ``cpsat`` backend's model of ``instance`` as protobuf text (``CpModelProto``), ``#`` comments first."""
    require_instance(instance)
    _require("ortools", "ortools")
    from nqueens_cp.models.cpsat import build_cpsat_model

    built = build_cpsat_model(instance)
    n = instance.n
    if uses_reduction(instance):
        header = [
            "# N-Queens as an OR-Tools CP-SAT model over the free rows (CpModelProto, protobuf text), "
            "written by nqueens-cp",
            f"# n = {n}; pre-placed queens = {len(instance.fixed)}, blocked squares = {len(instance.blocked)}: "
            "propagated (models/README.md, 'Models that shrink')",
            "# variable q<r> is the column of free row r, its domain the row's open columns;"
            " all_diff over q[r], q[r] + r, q[r] - r",
            "# load: model = cp_model.CpModel(); model.Proto().parse_text_format(open(FILE).read())",
        ]
        body = str(built.model.Proto())
        return "\n".join(header) + "\n" + body + ("" if body.endswith("\n") else "\n")
    header = [
        "# N-Queens as an OR-Tools CP-SAT model (CpModelProto in protobuf text format), written by nqueens-cp",
        f"# n = {n}",
        f"# pre-placed queens (row:col, 0-based) = {placed_text(instance)}",
        f"# variable i (named q<i>) is the column of the queen on row i, domain [0, {max(n - 1, 0)}]",
        "# constraints: all_diff(q[i]), all_diff(q[i] + i), all_diff(q[i] - i);"
        " one linear q[r] == c per pre-placed queen",
        "# load: model = cp_model.CpModel(); model.Proto().parse_text_format(open(FILE).read())",
    ]
    body = str(built.model.Proto())
    return "\n".join(header) + "\n" + body + ("" if body.endswith("\n") else "\n")


def asp_text(instance: Instance) -> str:
    """The ``asp`` backend's logic program of ``instance`` (facts and rules; ``clingo FILE 0`` enumerates)."""
    require_instance(instance)
    from nqueens_cp.models.asp import asp_program

    return asp_program(instance).text


def smt2_bool_text(instance: Instance) -> str:
    """The ``smt`` backend's Boolean model of ``instance`` as SMT-LIB 2 (z3's cardinality extensions)."""
    require_instance(instance)
    from nqueens_cp.models.smt import smt2_text

    return smt2_text(instance, "bool")


def smt2_int_text(instance: Instance) -> str:
    """The ``smt`` backend's integer model of ``instance`` (three ``distinct``) as SMT-LIB 2, logic QF_LIA."""
    require_instance(instance)
    from nqueens_cp.models.smt import smt2_text

    return smt2_text(instance, "int")


def lp_text(instance: Instance) -> str:
    """The ``mip`` backend's 0-1 program of ``instance`` in CPLEX LP format."""
    require_instance(instance)
    from nqueens_cp.models.mip import lp_text as write

    return write(instance)


def mps_text(instance: Instance) -> str:
    """The ``mip`` backend's 0-1 program of ``instance`` in free MPS format."""
    require_instance(instance)
    from nqueens_cp.models.mip import mps_text as write

    return write(instance)


_WRITERS: dict[str, Callable[[Instance], str]] = {
    "lp": lp_text,
    "mps": mps_text,
    "smt2": smt2_bool_text,
    "smt2-int": smt2_int_text,
    "asp": asp_text,
    "cpsat": cpsat_text,
    "minizinc": minizinc_text,
    "opb": opb_text,
    "xcsp3": xcsp3_text,
}


def export_model(instance: Instance, fmt: str, encoding: str | None = None) -> str:
    """The model of ``instance`` in format ``fmt``; ``encoding`` is for ``dimacs`` only."""
    require_instance(instance)
    if fmt not in FORMAT_SUFFIXES:
        raise BackendOptionError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")
    if fmt == "dimacs":
        return dimacs_text(instance, encoding or DEFAULT_ENCODING)
    if encoding is not None:
        raise BackendOptionError(f"--encoding applies to --format dimacs only, not {fmt}")
    return _WRITERS[fmt](instance)


def write_text_atomic(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically: a temporary file in the same directory, then a rename."""
    atomic_write(path, text)
