"""Model sizes as formulas of n, derived from the constructions (not measured).

The CNF of :func:`nqueens_cp.models.cnf.build_cnf` for an ``n x n`` board with ``p``
pre-placed queens has, for every cardinality encoding,

* variables ``V(n) = n² + (2n + 2)·a(n) + 4·Σ_{ℓ=2}^{n-1} a(ℓ)``
* clauses   ``C(n) = n + (2n + 2)·c(n) + 4·Σ_{ℓ=2}^{n-1} c(ℓ) + p``

where ``a(ℓ)`` and ``c(ℓ)`` are the auxiliary variables and the clauses the encoding spends on
one "at most one of ℓ literals" (:func:`atmost_one_cost`). The board has ``n`` rows (each an
"exactly one": the at-most-one plus one at-least-one clause, hence the lone ``n``), ``n`` columns
and two main diagonals of length ``n``, and for every ``ℓ`` in ``2..n-1`` four diagonals of
length ``ℓ`` (two in each direction); diagonals of length 1 are skipped. Pre-placed queens are
unit clauses.

Where the sums have a simple closed form it is given as a :class:`Poly` in
:data:`CLOSED_FORMS` (valid for ``n >= 4``); the encodings whose line costs involve logarithms,
roots, group sizes or a recursion (bitwise, the networks, the totalizers, commander, product,
bimander) have none, and their sizes are the sums. ``models/README.md`` states the same formulas; the
tests check the closed forms against the sums and both against the generated CNFs.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import isqrt

from nqueens_cp.core.errors import BackendOptionError
from nqueens_cp.models.amo import Cost, atmost_one_size, ceil_log2
from nqueens_cp.models.encodings import Encoding
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.lines import line_model_size

__all__ = [
    "CLOSED_FORMS",
    "Cost",
    "Poly",
    "atmost_one_cost",
    "closed_form",
    "cnf_size",
    "cpsat_size",
    "line_size",
    "opb_size",
    "row_model_size",
]


def _batcher_comparators(size: int) -> int:
    """Comparators in Batcher's odd-even merge sort of ``size = 2^k`` inputs: ``(k² − k + 4)·2^(k−2) − 1``."""
    k = size.bit_length() - 1
    if k < 1:
        return 0
    return (k * k - k + 4) * 2 ** (k - 2) - 1 if k >= 2 else 1


def _totalizer_tree(m: int) -> Cost:
    """Totalizer node over ``m`` inputs (``m >= 2``): ``m`` output variables, unary adder clauses, children."""
    if m < 2:
        return Cost(0, 0)
    left, right = m - m // 2, m // 2
    here = Cost(m, left + right + left * right)
    return here + _totalizer_tree(left) + _totalizer_tree(right)


def _mto_node(size: int, p: int, k: int | None) -> tuple[Cost, int, int]:
    """Cost of a modulo-totalizer sub-tree whose own outputs are already allocated.

    Returns the cost of everything *below* the node's outputs plus its own merge, and the sizes of
    its upper (quotient) and lower (remainder) output vectors, as PySAT's ``mto_MTO_A`` builds them.
    """
    upper = size // p if k is None else min(size // p, k // p)
    lower = p - 1
    cost = Cost(0, 0)
    children: list[tuple[int, int]] = []
    for part in (size - size // 2, size // 2):
        if part < p:
            cost += _totalizer_tree(part)  # a plain totalizer; its outputs are the lower digits
            children.append((0, part))
        else:
            c_upper = part // p if k is None else min(part // p, k // p)
            cost += Cost(c_upper + p - 1, 0)  # the child's outputs, allocated by the parent
            below, _, _ = _mto_node(part, p, k)
            cost += below
            children.append((c_upper, p - 1))
    (alfa, m), (beta, n) = children
    # mto_MUA_A: one carry variable; phi1 (lower digits) and phi2 (upper digits) clauses.
    phi1 = n + m + m * n
    phi2 = 1 + 2 * beta + 2 * alfa + 2 * alfa * beta
    return cost + Cost(1, phi1 + phi2), upper, lower


def _mto_atmost_one(m: int, p: int, k: int | None) -> Cost:
    upper = m // p if k is None else min(m // p, k // p)
    cost = Cost(upper + p - 1, 0)
    below, upper_size, _ = _mto_node(m, p, k)
    # Comparator for bound 1 (1 // p == 0): every upper digit false, remainder digits 2..p-1 false.
    return cost + below + Cost(0, upper_size + (p - 2))


def atmost_one_cost(encoding: Encoding | str, m: int) -> Cost:
    """Auxiliary variables and clauses of PySAT's ``CardEnc.atmost(m literals, bound=1)``, or of
    :func:`nqueens_cp.models.amo.atmost_one` (default options) for ``commander``, ``product`` and
    ``bimander``, whose costs are recurrences in ``m`` (:func:`~nqueens_cp.models.amo.atmost_one_size`).

    For every encoding, ``m <= 1`` costs nothing and ``m == 2`` is the single clause ``¬x1 ∨ ¬x2``.
    """
    encoding = Encoding.parse(encoding)
    if m <= 1:
        return Cost(0, 0)
    if m == 2:
        return Cost(0, 1)
    if encoding is Encoding.PAIRWISE:
        return Cost(0, m * (m - 1) // 2)
    if encoding is Encoding.SEQCOUNTER:
        return Cost(m - 1, 3 * m - 4)
    if encoding is Encoding.BITWISE:
        bits = ceil_log2(m)
        return Cost(bits, m * bits)
    if encoding is Encoding.LADDER:
        return Cost(m + 1, 4 * m)
    if encoding is Encoding.KMTOTALIZER:
        return Cost(2 * m - 2, 4 * m - 4)
    if encoding is Encoding.CARDNETWRK:
        pad = m % 2
        blocks = (m + pad) // 2
        return Cost(8 * blocks - 6 + pad, 12 * blocks - 8 + pad)
    if encoding is Encoding.SORTNETWRK:
        size = 1 << ceil_log2(m)
        pad = int(size != m)
        comparators = _batcher_comparators(size)
        return Cost(2 * comparators + pad, 3 * comparators + 1 + pad)
    if encoding is Encoding.TOTALIZER:
        return _totalizer_tree(m) + Cost(0, 1)
    if encoding is Encoding.MTOTALIZER:
        return _mto_atmost_one(m, max(2, isqrt(m)), None)
    if not encoding.from_pysat:
        return atmost_one_size(encoding.value, m)
    raise BackendOptionError(f"no size formula for encoding {encoding.value!r}")


def cnf_size(encoding: Encoding | str, n: int, preplaced: int = 0) -> ModelSize:
    """Variables and clauses of ``build_cnf(Instance(n, <preplaced queens>), encoding)``, by the sum formula."""
    if n == 0:
        return ModelSize(0, preplaced, "clauses")
    full = atmost_one_cost(encoding, n)
    aux = (2 * n + 2) * full.aux
    clauses = n + (2 * n + 2) * full.clauses + preplaced
    for length in range(2, n):
        part = atmost_one_cost(encoding, length)
        aux += 4 * part.aux
        clauses += 4 * part.clauses
    return ModelSize(n * n + aux, clauses, "clauses")


@dataclass(frozen=True)
class Poly:
    """A polynomial in n with rational coefficients: ``sum(coeffs[i] * n**i) / denominator``."""

    coeffs: tuple[int, ...]  # lowest degree first
    denominator: int = 1

    def __call__(self, n: int) -> int:
        value = Fraction(sum(c * n**i for i, c in enumerate(self.coeffs)), self.denominator)
        if value.denominator != 1:
            raise ValueError(f"{self} is not an integer at n={n}")
        return int(value)

    def __str__(self) -> str:
        powers = {0: "", 1: "n", 2: "n²", 3: "n³"}
        terms: list[str] = []
        for degree in range(len(self.coeffs) - 1, -1, -1):
            coeff = self.coeffs[degree]
            if coeff == 0:
                continue
            magnitude = abs(coeff)
            body = powers[degree] if magnitude == 1 and degree else f"{magnitude}{powers[degree]}"
            sign = "-" if coeff < 0 else "+"
            terms.append(f"{sign} {body}" if terms else f"-{body}" if coeff < 0 else body)
        text = " ".join(terms) or "0"
        return f"({text})/{self.denominator}" if self.denominator != 1 else text


#: Closed forms (variables, clauses) of the CNF without pre-placed queens, valid for n >= 4; add p
#: clauses for p pre-placed queens. ``cardnetwrk`` depends on the parity of n: keys "cardnetwrk/even"
#: and "cardnetwrk/odd". Encodings absent here are given by the sums of :func:`cnf_size` only.
CLOSED_FORMS: dict[str, tuple[Poly, Poly]] = {
    "pairwise": (Poly((0, 0, 1)), Poly((0, 4, -6, 5), 3)),
    "seqcounter": (Poly((-2, -6, 5)), Poly((8, -23, 12))),
    "ladder": (Poly((-22, 6, 5)), Poly((-44, 1, 16))),
    "kmtotalizer": (Poly((-4, -12, 9)), Poly((-4, -23, 16))),
    "cardnetwrk/even": (Poly((-8, -26, 17)), Poly((-16, -33, 24))),
    "cardnetwrk/odd": (Poly((-8, -16, 17)), Poly((-16, -19, 24))),
}


def closed_form(encoding: Encoding | str, n: int) -> tuple[Poly, Poly] | None:
    """The closed forms (variables, clauses) for ``encoding`` at board size ``n``, if there are any."""
    if encoding == Encoding.CARDNETWRK:
        return CLOSED_FORMS.get(f"cardnetwrk/{'even' if n % 2 == 0 else 'odd'}")
    return CLOSED_FORMS.get(encoding)


def opb_size(n: int, preplaced: int = 0) -> ModelSize:
    """The OPB model: n² variables; n row equalities, one at-most-one per column and per diagonal of length >= 2."""
    if n == 0:
        return ModelSize(0, preplaced)
    lines = n + n + 2 * (2 * n - 3) if n >= 2 else 1
    return ModelSize(n * n, lines + preplaced)


def line_size(n: int, preplaced: int = 0) -> ModelSize:
    """The 0-1 line model (:mod:`.lines`) that the ASP program, the MIP, the PB model and the Boolean
    SMT model state: n² variables, ``2n`` row and column equalities, ``2(2n − 3)`` diagonal
    "at most one" constraints and ``p`` forced squares, ``6n − 6 + p`` in all for n >= 2."""
    return line_model_size(n, preplaced)


def cpsat_size(n: int, preplaced: int = 0) -> ModelSize:
    """The CP-SAT model: n integer variables, three AllDifferent constraints and one equality per pre-placed queen."""
    return ModelSize(n, 3 + preplaced)


def row_model_size(n: int, preplaced: int = 0, *, auxiliary: bool = False) -> ModelSize:
    """The row model of :mod:`nqueens_cp.models.rows` (Choco, CPMpy, XCSP3): n variables, three
    AllDifferent and one equality per pre-placed queen; with ``auxiliary`` diagonal variables (the
    Choco formulation without views), 2n more variables and 2n ``arithm`` constraints."""
    extra = 2 * n if auxiliary else 0
    return ModelSize(n + extra, 3 + preplaced + extra)
