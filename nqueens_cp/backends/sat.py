"""``sat``: a CNF over n*n Booleans, cardinality constraints from ``pysat.card``, PySAT solvers.

``q(r, c)`` (``IDPool`` key ``("q", r, c)``) is true when a queen stands on row ``r``, column
``c``. Each row holds exactly one queen; each column, each up diagonal (``r + c`` constant) and
each down diagonal (``r - c`` constant) holds at most one. ``CardEnc`` turns each of these into
clauses with the chosen encoding (some add auxiliary variables). A pre-placed queen is a unit
clause. Enumeration blocks each board found on its queen variables alone: the clause
``¬q(0, c0) ∨ … ∨ ¬q(n-1, c_{n-1})``. Blocking on auxiliary variables too could let one board
come back with other auxiliary values.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Sequence

from ..errors import BackendOptionError, NQueensError
from ..instance import Instance, Solution
from ..symmetry_breaking import add_cnf_lex_leader
from .base import Backend, ModelSize, OptionSpec

if TYPE_CHECKING:
    from pysat.formula import CNF, IDPool

#: PySAT ``EncType`` encodings that support a bound of 1 (``native`` needs a cardinality solver).
ENCODINGS: tuple[str, ...] = (
    "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise",
    "ladder", "totalizer", "mtotalizer", "kmtotalizer",
)

#: PySAT solvers that take clauses after a solve call, which enumeration by blocking needs.
ENUMERATING_SOLVERS: tuple[str, ...] = (
    "cadical103", "cadical153", "cadical195", "cadical300", "ergo", "gluecard3", "gluecard4",
    "glucose3", "glucose4", "glucose42", "lingeling", "maplechrono", "maplecm", "maplesat",
    "mergesat3", "minicard", "minisat22", "minisatep",
)

#: Solvers refused, and why.
REFUSED_SOLVERS: dict[str, str] = {
    "kissat404": "Kissat is not incremental: it aborts the process when a blocking clause is added after solving",
    "cryptosat": "CryptoMiniSat needs the separate pycryptosat package, which python-sat does not install",
    "minisatgh": "the GitHub MiniSat build is not compiled into this python-sat",
}

#: The fastest pair measured for enumeration (``benchmarks/bench_sat.py --grid``, README section
#: "Choosing the SAT encoding and solver"): pairwise needs no auxiliary variables, so the formula
#: is n*n variables and binary clauses only, which CaDiCaL 1.9.5 propagates fastest, and it stays
#: fastest as the blocking clauses pile up (n = 10, 11, 12).
DEFAULT_ENCODING = "pairwise"
DEFAULT_SOLVER = "cadical195"


def canonical_solver_name(name: str) -> str:
    """The PySAT solver called ``name`` (aliases such as ``g4`` or ``m22`` allowed), checked to enumerate."""
    wanted = name.strip().lower()
    if wanted in ENUMERATING_SOLVERS:
        return wanted
    if importlib.util.find_spec("pysat") is None:
        return wanted  # the backend reports the missing package when it is used
    from pysat.solvers import SolverNames

    for canonical, aliases in vars(SolverNames).items():
        if not canonical.startswith("_") and wanted in aliases:
            if canonical in REFUSED_SOLVERS:
                raise BackendOptionError(f"solver {name!r} cannot enumerate: {REFUSED_SOLVERS[canonical]}")
            if canonical in ENUMERATING_SOLVERS:
                return str(canonical)
    raise BackendOptionError(
        f"unknown solver {name!r} (choose from {', '.join(ENUMERATING_SOLVERS)})"
    )


@dataclass(frozen=True)
class QueensCnf:
    """A built CNF and the map between squares and DIMACS variables."""

    n: int
    encoding: str
    cnf: CNF
    pool: IDPool

    def queen(self, row: int, col: int) -> int:
        """The DIMACS variable of square (row, col)."""
        return int(self.pool.obj2id[("q", row, col)])

    @property
    def queen_variables(self) -> range:
        """Variables 1..n*n are the squares, row by row: ``queen(r, c) == r*n + c + 1``."""
        return range(1, self.n * self.n + 1)

    def decode(self, model: Sequence[int]) -> Solution:
        """The board a model (a list of signed literals) places: the true queen variables."""
        n = self.n
        cols = [-1] * n
        for lit in model:
            if 0 < lit <= n * n:
                row, col = divmod(lit - 1, n)
                cols[row] = col
        return tuple(cols)

    def size(self) -> ModelSize:
        return ModelSize(self.cnf.nv, len(self.cnf.clauses), "clauses")


def lines_of(n: int) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Every line of the board with its kind: rows, columns, up and down diagonals (squares in order)."""
    for r in range(n):
        yield "row", [(r, c) for c in range(n)]
    for c in range(n):
        yield "column", [(r, c) for r in range(n)]
    for s in range(2 * n - 1):
        yield "up", [(r, s - r) for r in range(n) if 0 <= s - r < n]
    for d in range(-(n - 1), n):
        yield "down", [(r, r - d) for r in range(n) if 0 <= r - d < n]


def build_cnf(instance: Instance, encoding: str = DEFAULT_ENCODING, unique: bool = False) -> QueensCnf:
    """The CNF of ``instance`` with cardinality ``encoding`` (built, not solved).

    With ``unique``, lex-leader clauses keep one solution per symmetry class (the
    lexicographically smallest image); see :mod:`nqueens_cp.symmetry_breaking`.
    """
    if encoding not in ENCODINGS:
        raise BackendOptionError(f"unknown encoding {encoding!r} (choose from {', '.join(ENCODINGS)})")
    from pysat.card import CardEnc, EncType
    from pysat.formula import CNF, IDPool

    n = instance.n
    pool = IDPool()
    for r in range(n):
        for c in range(n):
            pool.id(("q", r, c))  # squares first, so queen(r, c) == r*n + c + 1
    cnf = CNF()
    enc = getattr(EncType, encoding)
    for kind, squares in lines_of(n):
        lits = [pool.id(("q", r, c)) for r, c in squares]
        if kind == "row":
            cnf.extend(CardEnc.equals(lits=lits, bound=1, vpool=pool, encoding=enc).clauses)
        elif len(lits) > 1:
            cnf.extend(CardEnc.atmost(lits=lits, bound=1, vpool=pool, encoding=enc).clauses)
    for r, c in instance.fixed:
        cnf.append([pool.id(("q", r, c))])
    if unique:
        if instance.fixed:
            raise NQueensError("unique (solutions up to symmetry) needs an instance with no pre-placed queens")
        add_cnf_lex_leader(cnf, pool, n)
    cnf.nv = max(cnf.nv, pool.top)
    return QueensCnf(n, encoding, cnf, pool)


class SatBackend(Backend):
    name = "sat"
    summary = "CNF over n*n Booleans with pysat.card encodings, solved and enumerated by PySAT"
    requires = ("pysat",)
    option_specs = (
        OptionSpec("encoding", str, DEFAULT_ENCODING, "cardinality encoding", choices=ENCODINGS),
        OptionSpec(
            "solver", str, DEFAULT_SOLVER, "PySAT solver (must accept clauses after solving; aliases allowed)",
            choices=ENUMERATING_SOLVERS, normalize=canonical_solver_name,
        ),
    )

    def model_size(self, instance: Instance) -> ModelSize:
        self.ensure_available()
        return build_cnf(instance, self.options["encoding"]).size()

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._search(instance, unique=True)

    def _search(self, instance: Instance, *, unique: bool) -> Iterator[Solution]:
        from pysat.solvers import Solver

        if instance.n == 0:
            yield ()
            return
        built = build_cnf(instance, self.options["encoding"], unique=unique)
        n = instance.n
        with Solver(name=self.options["solver"], bootstrap_with=built.cnf.clauses) as solver:
            while solver.solve():
                model = solver.get_model()
                queens = [lit for lit in model[: n * n] if lit > 0]
                yield built.decode(queens)
                solver.add_clause([-lit for lit in queens])
