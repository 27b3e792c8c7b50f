"""The SAT encodings of "at most one" as one named type (as PySAT's ``EncType``), with their facts.

:class:`Encoding` names each encoding the CNF can use (:mod:`nqueens_cp.models.cnf` lists them with
their literature); its members say whether PySAT writes it and whether it introduces auxiliary
variables. What each costs per line is a formula of :func:`nqueens_cp.models.sizes.atmost_one_cost`.
"""

from __future__ import annotations

from typing import Any

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.core.names import Name
from nqueens_cp.models.amo import AMO_ENCODERS


class Encoding(Name):
    """A cardinality encoding of the CNF (the table of :mod:`nqueens_cp.models.cnf`); the value is its name on the command
    line (``-O encoding=seqcounter``), in DIMACS headers and in saved results. A ``str`` enum: the
    option's string value compares equal to its member."""

    PAIRWISE = "pairwise"
    SEQCOUNTER = "seqcounter"
    SORTNETWRK = "sortnetwrk"
    CARDNETWRK = "cardnetwrk"
    BITWISE = "bitwise"
    LADDER = "ladder"
    TOTALIZER = "totalizer"
    MTOTALIZER = "mtotalizer"
    KMTOTALIZER = "kmtotalizer"
    COMMANDER = "commander"
    PRODUCT = "product"
    BIMANDER = "bimander"


    @classmethod
    def parse(cls, name: str) -> Encoding:
        """The encoding called ``name``; ``BackendOptionError`` naming the choices for any other."""
        try:
            return cls(name)
        except ValueError:
            raise BackendOptionError(
                f"unknown encoding {name!r} (choose from {', '.join(map(str, ENCODINGS))})") from None

    @property
    def from_pysat(self) -> bool:
        """Whether PySAT's ``CardEnc`` writes it (else :mod:`nqueens_cp.models.amo`, default options)."""
        return self.value not in AMO_ENCODERS

    @property
    def introduces_auxiliaries(self) -> bool:
        """Whether its clauses use variables besides the squares' (all but ``pairwise``): a proof
        then needs :mod:`nqueens_cp.proofs.auxiliary`, a model count a projection."""
        return self is not Encoding.PAIRWISE

    def pysat_type(self) -> Any:
        """Its ``pysat.card.EncType`` constant (for a :attr:`from_pysat` encoding)."""
        from pysat.card import EncType

        return getattr(EncType, self.value)


#: Every encoding ``build_cnf`` knows: PySAT's (``EncType`` encodings that support a bound of 1;
#: ``native`` needs a cardinality solver), then the at-most-one encoders of ``models.amo``.
ENCODINGS: tuple[Encoding, ...] = tuple(Encoding)
#: The PySAT encodings alone.
PYSAT_ENCODINGS: tuple[Encoding, ...] = tuple(encoding for encoding in Encoding if encoding.from_pysat)
