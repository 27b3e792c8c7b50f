"""At-most-one encodings that ``pysat.card`` does not have, written from the papers.

Every encoder has one signature, ``encoder(lits, pool, /, **option)`` (its option, if any, a
keyword with a default): it returns the clauses (lists of non-zero DIMACS literals) that allow at
most one of ``lits`` to be true, and takes its auxiliary variables from ``pool`` (a
``pysat.formula.IDPool``, or anything with its ``id()`` method), so that they are numbered after
the variables already in the pool, exactly like ``CardEnc.atmost(lits, bound=1, vpool=pool)``. The encodings, and their literature:

``commander``
    W. Klieber and G. Kwon, *Efficient CNF encoding for selecting 1 from N objects*, Fourth
    Workshop on Constraints in Formal Verification (CFV), 2007. The literals are cut into groups of
    ``group_size`` (default 3, the paper's choice); each group gets a commander variable that is
    true exactly when one of its literals is (``¬x ∨ c`` for each ``x``, ``¬c ∨ x₁ ∨ … ∨ x_g``), the
    group itself is pairwise at most one, and the commanders are encoded again the same way until
    ``group_size`` or fewer remain, which are encoded pairwise. A group of one literal is its own
    commander (no variable is created for it). Every auxiliary variable is *defined* by the inputs.

``product``
    J. Chen, *A new SAT encoding of the at-most-one constraint*, Tenth International Workshop on
    Constraint Modelling and Reformulation (ModRef), 2010 (the recursive 2-product encoding). The
    ``m`` literals are laid out on a ``p × q`` grid, ``p = ⌈√m⌉``, ``q = ⌈m/p⌉``, literal ``k``
    (0-based) at column ``k mod p`` and row ``k div p``; a column variable ``uᵢ`` and a row variable
    ``vⱼ`` are created for each column and row, with ``¬x ∨ uᵢ`` and ``¬x ∨ vⱼ`` for the literal at
    ``(i, j)``, and the ``u`` and the ``v`` are each made at most one by the same encoding, down to
    ``pairwise_up_to`` (default 4) literals, which are encoded pairwise. Two true literals differ
    in their column or their row, so two ``u`` or two ``v`` would be true.

``bimander``
    V.-H. Nguyen and S. T. Mai, *A new method to encode the at-most-one constraint into SAT*,
    Sixth International Symposium on Information and Communication Technology (SoICT), 2015 (first
    described by S. Hölldobler and V.-H. Nguyen, *An efficient encoding of the at-most-one
    constraint*, TU Dresden technical report, 2013). The literals are cut into ``⌈m/g⌉`` groups of
    ``g = group_size`` (default 2, the case with ``m/2`` groups that the paper reports beating the
    binary encoding); each group is pairwise at most one, and group ``i`` is given the code ``i`` on
    ``⌈log₂⌈m/g⌉⌉`` shared bit variables: for each literal ``x`` of group ``i`` and each bit ``j``,
    ``¬x ∨ bⱼ`` if bit ``j`` of ``i`` is 1, else ``¬x ∨ ¬bⱼ``. Two true literals in different groups
    would need two codes at once. ``group_size = 1`` is the binary (bitwise) encoding.

``pairwise``
    The binomial encoding, ``¬xᵢ ∨ ¬xⱼ`` for every pair; the base case of the three above.

For ``m ≤ 1`` literals every encoder returns no clause, and for ``m = 2`` the one clause ``¬x₁ ∨ ¬x₂``
(as PySAT's encoders do). :func:`atmost_one_size` gives the auxiliary variables and clauses each
encoder spends on ``m`` literals, computed from the construction (not by building it).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt
from typing import Callable, Protocol, Sequence

from nqueens_cp.core.errors import BackendOptionError

__all__ = [
    "AMO_ENCODERS",
    "DEFAULT_OPTIONS",
    "Cost",
    "VariablePool",
    "atmost_one",
    "atmost_one_size",
    "bimander",
    "ceil_log2",
    "commander",
    "pairwise",
    "product",
]

Clause = list[int]


class VariablePool(Protocol):
    """What the encoders need of ``pysat.formula.IDPool``: ``id()`` hands out the next free variable."""

    def id(self, obj: object = None) -> int: ...


def pairwise(lits: Sequence[int], pool: VariablePool, /) -> list[Clause]:
    """``¬xᵢ ∨ ¬xⱼ`` for every pair ``i < j``; no auxiliary variable (``pool`` is not used)."""
    return [[-lits[i], -lits[j]] for i in range(len(lits)) for j in range(i + 1, len(lits))]


def commander(lits: Sequence[int], pool: VariablePool, /, *, group_size: int = 3) -> list[Clause]:
    """Klieber and Kwon's commander encoding with groups of ``group_size`` (``>= 2``) literals."""
    _check_at_least("commander", "group_size", group_size, 2)
    clauses: list[Clause] = []
    current = list(lits)
    while len(current) > group_size:
        commanders: list[int] = []
        for start in range(0, len(current), group_size):
            group = current[start:start + group_size]
            if len(group) == 1:
                commanders.append(group[0])  # a lone literal commands itself
                continue
            command = pool.id()
            clauses += pairwise(group, pool)
            clauses += [[-x, command] for x in group]
            clauses.append([-command, *group])
            commanders.append(command)
        current = commanders
    return clauses + pairwise(current, pool)


def product(lits: Sequence[int], pool: VariablePool, /, *, pairwise_up_to: int = 4) -> list[Clause]:
    """Chen's recursive 2-product encoding; lines of ``pairwise_up_to`` (``>= 2``) or fewer literals are pairwise."""
    _check_at_least("product", "pairwise_up_to", pairwise_up_to, 2)
    m = len(lits)
    if m <= pairwise_up_to:
        return pairwise(lits, pool)
    p = _ceil_sqrt(m)
    q = -(-m // p)
    columns = [pool.id() for _ in range(p)]
    rows = [pool.id() for _ in range(q)]
    clauses: list[Clause] = []
    for k, x in enumerate(lits):
        clauses.append([-x, columns[k % p]])
        clauses.append([-x, rows[k // p]])
    clauses += product(columns, pool, pairwise_up_to=pairwise_up_to)
    clauses += product(rows, pool, pairwise_up_to=pairwise_up_to)
    return clauses


def bimander(lits: Sequence[int], pool: VariablePool, /, *, group_size: int = 2) -> list[Clause]:
    """Nguyen and Mai's bimander encoding: groups of ``group_size`` (``>= 1``) literals, binary group codes."""
    _check_at_least("bimander", "group_size", group_size, 1)
    m = len(lits)
    groups = -(-m // group_size)
    if m <= 2 or groups <= 1:
        return pairwise(lits, pool)
    bits = [pool.id() for _ in range(ceil_log2(groups))]
    clauses: list[Clause] = []
    for index in range(groups):
        group = lits[index * group_size:(index + 1) * group_size]
        clauses += pairwise(group, pool)
        for x in group:
            for j, bit in enumerate(bits):
                clauses.append([-x, bit if index >> j & 1 else -bit])
    return clauses


#: The encoders by name (each with the signature of the module docstring and the keyword of :data:`DEFAULT_OPTIONS`).
AMO_ENCODERS: dict[str, Callable[..., list[Clause]]] = {
    "commander": commander,
    "product": product,
    "bimander": bimander,
}

#: Each encoder's option and its default (what ``atmost_one(..., options={})`` uses).
DEFAULT_OPTIONS: dict[str, dict[str, int]] = {
    "commander": {"group_size": 3},
    "product": {"pairwise_up_to": 4},
    "bimander": {"group_size": 2},
}


def atmost_one(
    encoding: str, lits: Sequence[int], pool: VariablePool, options: dict[str, int] | None = None
) -> list[Clause]:
    """The clauses of ``encoding`` (a key of :data:`AMO_ENCODERS`) for at most one of ``lits``."""
    if encoding not in AMO_ENCODERS:
        raise BackendOptionError(f"unknown at-most-one encoding {encoding!r} (choose from {', '.join(AMO_ENCODERS)})")
    return AMO_ENCODERS[encoding](lits, pool, **_options(encoding, options))


@dataclass(frozen=True)
class Cost:
    """What one at-most-one (over ``m`` literals) costs: auxiliary variables and clauses."""

    aux: int
    clauses: int

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.aux + other.aux, self.clauses + other.clauses)


def atmost_one_size(encoding: str, m: int, options: dict[str, int] | None = None) -> Cost:
    """Auxiliary variables and clauses of ``atmost_one(encoding, <m literals>, pool, options)``, by formula."""
    if encoding == "pairwise":
        return _pairwise_size(m)
    chosen = _options(encoding, options)
    if encoding == "commander":
        return _commander_size(m, chosen["group_size"])
    if encoding == "product":
        return _product_size(m, chosen["pairwise_up_to"])
    return _bimander_size(m, chosen["group_size"])


def _pairwise_size(m: int) -> Cost:
    return Cost(0, m * (m - 1) // 2)


def _commander_size(m: int, g: int) -> Cost:
    """Per level: a full group costs 1 variable and ``g(g−1)/2 + g + 1`` clauses, a lone literal nothing."""
    size = Cost(0, 0)
    while m > g:
        full, rest = divmod(m, g)
        size += Cost(full, full * (_pairwise_size(g).clauses + g + 1))
        if rest >= 2:
            size += Cost(1, _pairwise_size(rest).clauses + rest + 1)
        m = full + (1 if rest else 0)
    return size + _pairwise_size(m)


def _product_size(m: int, base: int) -> Cost:
    """``(a, c)(m) = (p + q, 2m) + (a, c)(p) + (a, c)(q)`` above the pairwise base case."""
    if m <= base:
        return _pairwise_size(m)
    p = _ceil_sqrt(m)
    q = -(-m // p)
    return Cost(p + q, 2 * m) + _product_size(p, base) + _product_size(q, base)


def _bimander_size(m: int, g: int) -> Cost:
    """``⌈log₂ k⌉`` bits for ``k = ⌈m/g⌉`` groups; pairwise in each group plus one clause per literal and bit."""
    groups = -(-m // g)
    if m <= 2 or groups <= 1:
        return _pairwise_size(m)
    bits = ceil_log2(groups)
    full, rest = divmod(m, g)
    return Cost(bits, full * _pairwise_size(g).clauses + _pairwise_size(rest).clauses + m * bits)


def _options(encoding: str, options: dict[str, int] | None) -> dict[str, int]:
    if encoding not in DEFAULT_OPTIONS:
        raise BackendOptionError(f"unknown at-most-one encoding {encoding!r} (choose from {', '.join(AMO_ENCODERS)})")
    chosen = dict(DEFAULT_OPTIONS[encoding])
    for key, value in (options or {}).items():
        if key not in chosen:
            raise BackendOptionError(f"{encoding} has no option {key!r} (it has {', '.join(chosen)})")
        chosen[key] = value
    return chosen


def _check_at_least(encoding: str, option: str, value: int, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise BackendOptionError(f"{encoding}: {option} must be an integer >= {least}, got {value!r}")


def _ceil_sqrt(m: int) -> int:
    root = isqrt(m)
    return root if root * root == m else root + 1


def ceil_log2(m: int) -> int:
    """``⌈log2 m⌉`` for ``m >= 1``: the bits that number ``m`` things (0 for one)."""
    return (m - 1).bit_length()
