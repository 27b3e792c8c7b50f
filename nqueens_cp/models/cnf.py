"""The CNF of N-Queens over n² Booleans, with every cardinality encoding of ``pysat.card`` and three more.

``q(r, c)`` (``IDPool`` key ``("q", r, c)``) is true when a queen stands on row ``r``, column
``c``; the pool creates the squares first, so ``q(r, c)`` is DIMACS variable ``r*n + c + 1``
(:func:`~nqueens_cp.models.geometry.square_variable`) and auxiliary variables come after. Each
row holds exactly one queen; each column and each diagonal of two or more squares at most one
(:func:`~nqueens_cp.models.geometry.lines`). ``CardEnc`` turns each of these into clauses with
the chosen encoding:

==============  ==============================================================
``pairwise``    one binary clause per pair of squares, no auxiliaries (Prestwich 2009)
``seqcounter``  sequential counter (Sinz, CP 2005)
``sortnetwrk``  sorting network (Batcher 1968)
``cardnetwrk``  cardinality network (Asín, Nieuwenhuis, Oliveras, Rodríguez-Carbonell, SAT 2009)
``bitwise``     bitwise / binary encoding (Prestwich 2009)
``ladder``      ladder / regular encoding (Gent and Nightingale 2004; Ansótegui and Manyà 2004)
``totalizer``   totalizer (Bailleux and Boufkhad, CP 2003)
``mtotalizer``  modulo totalizer (Ogawa, Liu, Hasegawa, Koshimura, Fujita, ICTAI 2013)
``kmtotalizer`` k-modulo totalizer (Morgado, Ignatiev, Marques-Silva, JSAT 2015)
``commander``   commander encoding (Klieber and Kwon, CFV 2007)
``product``     recursive 2-product encoding (Chen, ModRef 2010)
``bimander``    bimander encoding (Nguyen and Mai, SoICT 2015)
==============  ==============================================================

The last three are not in PySAT: they come from :mod:`nqueens_cp.models.amo` (default options),
and a row is then its at-least-one clause followed by the at-most-one (``CardEnc.equals`` gives
the same two parts for PySAT's encodings).

A pre-placed queen is a unit clause. With ``unique``, lex-leader clauses
(:mod:`nqueens_cp.models.lex_leader`) keep one solution per symmetry class.

An instance with blocked squares, or with pre-placed queens on at least half of its rows, gets the
*reduced* CNF instead (:mod:`nqueens_cp.models.reduction`): one variable per open square only
(numbered 1, 2, ... row by row: :attr:`QueensCnf.squares`), each free row and each free column
exactly one queen, each diagonal with two or more open squares at most one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Sequence

from nqueens_cp.core.arguments import require_bool, require_choice, require_instance
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import require_symmetric
from nqueens_cp.models.amo import AMO_ENCODERS, atmost_one
from nqueens_cp.models.geometry import ModelSize, lines
from nqueens_cp.models.lex_leader import add_cnf_lex_leader
from nqueens_cp.models.reduction import reduce_instance, uses_reduction

if TYPE_CHECKING:
    from pysat.formula import CNF, IDPool

#: PySAT ``EncType`` encodings that support a bound of 1 (``native`` needs a cardinality solver).
PYSAT_ENCODINGS: tuple[str, ...] = (
    "pairwise", "seqcounter", "sortnetwrk", "cardnetwrk", "bitwise",
    "ladder", "totalizer", "mtotalizer", "kmtotalizer",
)

#: Every encoding ``build_cnf`` knows: PySAT's, then the at-most-one encoders of ``models.amo``.
ENCODINGS: tuple[str, ...] = (*PYSAT_ENCODINGS, *AMO_ENCODERS)

#: The encoding the ``sat`` backend solves with by default: pairwise adds no auxiliary variables,
#: so the formula is n*n variables and binary clauses only, which enumerates fastest (docs/choosing.md,
#: "Choosing the SAT encoding and solver").
DEFAULT_ENCODING = "pairwise"


@dataclass(frozen=True)
class QueensCnf:
    """A built CNF and the map between squares and DIMACS variables."""

    n: int
    encoding: str
    cnf: CNF
    pool: IDPool
    #: The square of each queen variable, row by row: variable ``i + 1`` is ``squares[i]``. Every
    #: square of the board (so ``queen(r, c) == r*n + c + 1``), or the open squares of a reduced CNF.
    squares: tuple[tuple[int, int], ...] = ()
    #: The pre-placed queens a reduced CNF leaves out (their rows hold no variable).
    fixed: tuple[tuple[int, int], ...] = ()

    def queen(self, row: int, col: int) -> int:
        """The DIMACS variable of square (row, col) (a ``KeyError`` for a square a reduced CNF left out)."""
        return int(self.pool.obj2id[("q", row, col)])

    def decode(self, model: Sequence[int]) -> Solution:
        """The board a model (a list of signed literals) places: the true queen variables, and the
        pre-placed queens a reduced CNF left out."""
        cols = [-1] * self.n
        for row, col in self.fixed:
            cols[row] = col
        for lit in model:
            if 0 < lit <= len(self.squares):
                row, col = self.squares[lit - 1]
                cols[row] = col
        return tuple(cols)

    def size(self) -> ModelSize:
        return ModelSize(self.cnf.nv, len(self.cnf.clauses), "clauses")


def check_encoding(encoding: str) -> None:
    """Raise ``BackendOptionError`` unless ``encoding`` is one of :data:`ENCODINGS`."""
    require_choice(encoding, ENCODINGS, "encoding")


def build_cnf(instance: Instance, encoding: str = DEFAULT_ENCODING, unique: bool = False) -> QueensCnf:
    """The CNF of ``instance`` with cardinality ``encoding``; ``unique`` adds the lex-leader clauses."""
    require_instance(instance)
    require_bool(unique, "unique")
    check_encoding(encoding)
    from pysat.formula import CNF, IDPool

    if uses_reduction(instance):
        if unique:
            require_symmetric(instance)
        return _build_reduced_cnf(instance, encoding)
    n = instance.n
    # -- variables: the squares first, so queen(r, c) == r*n + c + 1
    pool = IDPool()
    for r in range(n):
        for c in range(n):
            pool.id(("q", r, c))
    # -- constraints: exactly one per row, at most one per column and diagonal
    cnf = CNF()
    for kind, squares in lines(n):
        lits = [pool.id(("q", r, c)) for r, c in squares]
        if kind == "row" or len(lits) > 1 or encoding in AMO_ENCODERS:
            cnf.extend(_cardinality(encoding, lits, pool, exactly=kind == "row"))
    # -- the pre-placed queens
    for r, c in instance.fixed:
        cnf.append([pool.id(("q", r, c))])
    if unique:
        require_symmetric(instance)
        add_cnf_lex_leader(cnf, pool, n)
    cnf.nv = max(cnf.nv, pool.top)
    return QueensCnf(n, encoding, cnf, pool, tuple((r, c) for r in range(n) for c in range(n)))


def _cardinality(encoding: str, lits: list[int], pool: IDPool, *, exactly: bool) -> list[list[int]]:
    """The clauses of "exactly one" (or "at most one") of ``lits`` with ``encoding``: an
    at-most-one encoder of :mod:`.amo` plus the at-least-one clause, or ``pysat.card.CardEnc``."""
    if encoding in AMO_ENCODERS:
        return [*([lits] if exactly else []), *atmost_one(encoding, lits, pool)]
    from pysat.card import CardEnc, EncType

    enc = getattr(EncType, encoding)
    make = CardEnc.equals if exactly else CardEnc.atmost
    return [list(clause) for clause in make(lits=lits, bound=1, vpool=pool, encoding=enc).clauses]


def _build_reduced_cnf(instance: Instance, encoding: str) -> QueensCnf:
    """The CNF over the open squares of ``instance``'s reduction (see the module docstring)."""
    from pysat.formula import CNF, IDPool

    reduction = reduce_instance(instance)
    pool = IDPool()
    for square in reduction.squares:
        pool.id(("q", *square))
    cnf = CNF()
    impossible = not reduction.consistent
    for kind, squares in reduction.lines():
        lits = [pool.id(("q", r, c)) for r, c in squares]
        if kind in ("row", "column") and not lits:
            impossible = True  # a free line without an open square: no board
            continue
        cnf.extend(_cardinality(encoding, lits, pool, exactly=kind in ("row", "column")))
    if impossible:
        false = pool.id(("unsatisfiable",))
        cnf.extend([[false], [-false]])
    cnf.nv = max(cnf.nv, pool.top)
    return QueensCnf(instance.n, encoding, cnf, pool, reduction.squares, instance.fixed)
