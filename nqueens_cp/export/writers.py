"""Writers for the exported models: DIMACS CNF, CP-SAT protobuf text, MiniZinc and OPB.

Every writer returns the whole file as a string, deterministically (the same instance gives the
same bytes), so ``models/`` can be checked against the code. The CNF comes from the ``sat``
backend's :func:`~nqueens_cp.backends.sat.build_cnf` and the CP-SAT model from the ``cpsat``
backend's :func:`~nqueens_cp.backends.cpsat.build_cpsat_model`: what is exported is exactly what
those backends solve. The OPB and MiniZinc models are written here, from the same lines of the
board (:func:`~nqueens_cp.backends.sat.lines_of`) and the same three AllDifferent constraints.

In the DIMACS and OPB files, square ``(r, c)`` (0-based) is variable ``r*n + c + 1``.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Callable

from ..atomic import atomic_write
from ..backends.sat import ENCODINGS, build_cnf, lines_of
from ..errors import BackendOptionError, BackendUnavailableError
from ..instance import Instance

#: The encoding ``dimacs`` exports by default: the documented, readable seqcounter (the ``sat``
#: backend's own default is chosen for enumeration speed and may differ).
DEFAULT_ENCODING = "seqcounter"

__all__ = [
    "FORMATS",
    "FORMAT_SUFFIXES",
    "cpsat_text",
    "dimacs_text",
    "export_model",
    "minizinc_text",
    "opb_text",
    "write_text_atomic",
]

#: The export formats, and the file suffix each is written with.
FORMAT_SUFFIXES: dict[str, str] = {
    "dimacs": ".cnf",
    "cpsat": ".cpsat.pbtxt",
    "minizinc": ".mzn",
    "opb": ".opb",
}
FORMATS: tuple[str, ...] = tuple(FORMAT_SUFFIXES)


def _require(module: str, package: str) -> None:
    if importlib.util.find_spec(module) is None:
        raise BackendUnavailableError(f"this export needs the {package} package, which is not installed")


def _placed(instance: Instance) -> str:
    if not instance.fixed:
        return "none"
    return " ".join(f"{r}:{c}" for r, c in instance.fixed)


def _fix_flags(instance: Instance) -> str:
    return "".join(f" --fix {r}:{c}" for r, c in instance.fixed)


def dimacs_text(instance: Instance, encoding: str = DEFAULT_ENCODING) -> str:
    """The CNF of ``instance`` (``sat`` backend, cardinality ``encoding``) in DIMACS format, with a decoding key."""
    if encoding not in ENCODINGS:
        raise BackendOptionError(f"unknown encoding {encoding!r} (choose from {', '.join(ENCODINGS)})")
    _require("pysat", "python-sat")
    built = build_cnf(instance, encoding)
    n = instance.n
    squares = n * n
    total = built.cnf.nv
    lines = [
        "c N-Queens as CNF, written by nqueens-cp (`nqueens-cp export N --format dimacs`)",
        f"c n = {n}",
        f"c encoding = {encoding} (pysat.card.CardEnc, bound 1)",
        f"c pre-placed queens (row:col, 0-based) = {_placed(instance)}",
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


def cpsat_text(instance: Instance) -> str:
    """The ``cpsat`` backend's model of ``instance`` as protobuf text (``CpModelProto``), ``#`` comments first."""
    _require("ortools", "ortools")
    from ..backends.cpsat import build_cpsat_model

    built = build_cpsat_model(instance)
    n = instance.n
    header = [
        "# N-Queens as an OR-Tools CP-SAT model (CpModelProto in protobuf text format), written by nqueens-cp",
        f"# n = {n}",
        f"# pre-placed queens (row:col, 0-based) = {_placed(instance)}",
        f"# variable i (named q<i>) is the column of the queen on row i, domain [0, {max(n - 1, 0)}]",
        "# constraints: all_diff(q[i]), all_diff(q[i] + i), all_diff(q[i] - i);"
        " one linear q[r] == c per pre-placed queen",
        "# load: model = cp_model.CpModel(); model.Proto().parse_text_format(open(FILE).read())",
    ]
    body = str(built.model.Proto())
    return "\n".join(header) + "\n" + body + ("" if body.endswith("\n") else "\n")


def minizinc_text(instance: Instance) -> str:
    """A self-contained MiniZinc model of ``instance``: the instance data first, then the model."""
    n = instance.n
    k = len(instance.fixed)
    if k:
        rows = " | ".join(f"{r}, {c}" for r, c in instance.fixed)
        fixed = f"array[1..{k}, 1..2] of int: fixed = [| {rows} |];"
    else:
        fixed = "array[1..0, 1..2] of int: fixed = array2d(1..0, 1..2, []);"
    return "\n".join([
        "% N-Queens as a MiniZinc model, written by nqueens-cp (`nqueens-cp export N --format minizinc`).",
        "% Rows and columns are 0-based, as everywhere in nqueens-cp.",
        "% Run: minizinc --solver gecode --all-solutions FILE.mzn",
        "",
        "% ---- instance data",
        f"int: n = {n};",
        "% pre-placed queens, one (row, col) pair per line of the array",
        f"int: k = {k};",
        fixed,
        "",
        "% ---- model",
        'include "alldifferent.mzn";',
        "",
        "% q[i] is the column of the queen on row i",
        "array[0..n-1] of var 0..n-1: q;",
        "",
        "% no two queens share a column",
        "constraint alldifferent(q);",
        "% no two queens share an up diagonal (row + col constant)",
        "constraint alldifferent([q[i] + i | i in 0..n-1]);",
        "% no two queens share a down diagonal (row - col constant)",
        "constraint alldifferent([q[i] - i | i in 0..n-1]);",
        "% the pre-placed queens",
        "constraint forall(j in 1..k)(q[fixed[j, 1]] = fixed[j, 2]);",
        "",
        "solve satisfy;",
        "",
        "output [show(q), \"\\n\"];",
        "",
    ])


def opb_text(instance: Instance) -> str:
    """The pseudo-Boolean (OPB, PB-competition format) model of ``instance`` over the n² square variables.

    Rows are ``= 1``; columns and diagonals of length >= 2 are "at most one", written in the
    competition's ``>=`` form as ``-x_a -x_b ... >= -1``; pre-placed queens are ``+1 x = 1``.
    """
    n = instance.n

    def var(r: int, c: int) -> str:
        return f"x{r * n + c + 1}"

    families: dict[str, list[str]] = {"row": [], "column": [], "up": [], "down": []}
    for kind, squares in lines_of(n):
        if kind == "row":
            families[kind].append(" ".join(f"+1 {var(r, c)}" for r, c in squares) + " = 1 ;")
        elif len(squares) > 1:
            families[kind].append(" ".join(f"-1 {var(r, c)}" for r, c in squares) + " >= -1 ;")
    placed = [f"+1 {var(r, c)} = 1 ;" for r, c in instance.fixed]
    count = sum(map(len, families.values())) + len(placed)
    lines = [
        f"* #variable= {n * n} #constraint= {count}",
        "* N-Queens as pseudo-Boolean constraints (OPB), written by nqueens-cp",
        f"* n = {n}; pre-placed queens (row:col, 0-based) = {_placed(instance)}",
        f"* x(r*{n} + c + 1) is true when a queen stands on square (r, c), 0-based",
        "* rows: exactly one queen each",
        *families["row"],
        "* columns: at most one queen each (-sum >= -1)",
        *families["column"],
        "* up diagonals (row + col constant), length >= 2: at most one",
        *families["up"],
        "* down diagonals (row - col constant), length >= 2: at most one",
        *families["down"],
    ]
    if placed:
        lines += ["* pre-placed queens", *placed]
    return "\n".join(lines) + "\n"


_WRITERS: dict[str, Callable[[Instance], str]] = {
    "cpsat": cpsat_text,
    "minizinc": minizinc_text,
    "opb": opb_text,
}


def export_model(instance: Instance, fmt: str, encoding: str | None = None) -> str:
    """The model of ``instance`` in format ``fmt``; ``encoding`` is for ``dimacs`` only."""
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
