"""Lex-leader symmetry breaking for the CP-SAT and CNF models (``--unique``).

A solution ``q`` (``q[row] == col``) is the representative of its symmetry class when it is the
lexicographically smallest of its 8 images (see :mod:`nqueens_cp.core.symmetry`). The lex-leader
constraints state exactly that, inside the model: ``q <=lex g(q)`` for each of the 7 symmetries
``g`` other than the identity. Every class keeps exactly one member, the same one
:func:`nqueens_cp.core.symmetry.canonical` picks, so the models' solution sets equal the canonical filter.

Each symmetry is ``g(q)[i] = m(v[j])`` as defined in :mod:`nqueens_cp.core.symmetry`: ``v`` is ``q``
or its inverse permutation ``p``, ``j`` is ``i`` or ``n-1-i`` and ``m`` is the identity or
``x -> n-1-x``. Equivalently, ``g(q)[i] == c`` holds exactly when a queen stands on one square,
:meth:`~nqueens_cp.core.symmetry.Symmetry.square`, which is how the CNF reads it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from nqueens_cp.core.symmetry import SYMMETRIES, Symmetry

if TYPE_CHECKING:
    from ortools.sat.python import cp_model
    from pysat.formula import CNF, IDPool


#: The 7 symmetries other than the identity, from :data:`nqueens_cp.core.symmetry.SYMMETRIES`.
NON_IDENTITY: tuple[Symmetry, ...] = SYMMETRIES[1:]


# -- CP-SAT ---------------------------------------------------------------------------------------


def lex_leq(
    model: cp_model.CpModel,
    xs: Sequence[cp_model.LinearExprT],
    ys: Sequence[cp_model.LinearExprT],
    name: str = "lex",
) -> None:
    """Post ``xs <=lex ys`` on two equally long vectors of linear expressions.

    Booleans ``same[k]`` mean "the first k entries are equal" (``same[0]`` is true, so it is not
    created) and ``eq[k]`` means ``xs[k] == ys[k]``; both are fully reified, so every auxiliary
    variable is fixed by the ``xs``/``ys`` values and enumeration sees each solution once.
    ``same[k] -> xs[k] <= ys[k]``. For vectors of length ``L >= 2`` this adds ``2 * (L - 1)``
    Booleans and ``6 * (L - 1)`` constraints.
    """
    if len(xs) != len(ys):
        raise ValueError("lex_leq needs vectors of equal length")
    same: cp_model.IntVar | None = None  # None: the empty prefix, always equal
    for k, (x, y) in enumerate(zip(xs, ys, strict=True)):
        le = model.add(x <= y)
        if same is not None:
            le.only_enforce_if(same)
        if k == len(xs) - 1:
            break
        eq = model.new_bool_var(f"{name}_eq{k}")
        model.add(x == y).only_enforce_if(eq)
        model.add(x != y).only_enforce_if(~eq)
        nxt = model.new_bool_var(f"{name}_same{k + 1}")
        # nxt <-> same and eq
        model.add_implication(nxt, eq)
        if same is None:
            model.add_implication(eq, nxt)
        else:
            model.add_implication(nxt, same)
            model.add_bool_or([~same, ~eq, nxt])
        same = nxt


def add_cpsat_lex_leader(model: cp_model.CpModel, queens: Sequence[cp_model.IntVar]) -> None:
    """Post ``q <=lex g(q)`` for the 7 non-identity symmetries on the row variables ``queens``.

    The inverse permutation ``p`` (``n`` new variables) is tied to ``q`` by one ``AddInverse``;
    the images are then plain linear expressions of ``q`` and ``p``.
    """
    n = len(queens)
    if n <= 1:
        return
    inverse = [model.new_int_var(0, n - 1, f"p{col}") for col in range(n)]
    model.add_inverse(list(queens), inverse)
    for sym in NON_IDENTITY:
        source = inverse if sym.inverse else list(queens)
        image: list[cp_model.LinearExprT] = []
        for i in range(n):
            v = source[n - 1 - i if sym.reverse else i]
            image.append(n - 1 - v if sym.mirror else v)
        lex_leq(model, list(queens), image, name=f"lex_{sym.name}")


def cpsat_lex_leader_size(n: int) -> tuple[int, int]:
    """The variables and constraints :func:`add_cpsat_lex_leader` adds for board size ``n``."""
    if n <= 1:
        return 0, 0
    return n + 7 * 2 * (n - 1), 1 + 7 * 6 * (n - 1)


# -- CNF ------------------------------------------------------------------------------------------


def _clause(*lits: int) -> list[int] | None:
    """A clause without repeated literals, or None for a tautology."""
    seen = list(dict.fromkeys(lits))
    return None if any(-lit in seen for lit in seen) else seen


def add_cnf_lex_leader(cnf: CNF, pool: IDPool, n: int) -> None:
    """Add clauses for ``q <=lex g(q)`` over the queen variables ``pool.id(("q", r, c))``.

    ``ge(i, c)`` (``c`` in 1..n-1) means ``q[i] >= c``: the order encoding of row ``i``'s
    column, shared by all symmetries. For symmetry ``s``, ``same(s, i)`` (``i`` in 1..n-1)
    means the first ``i`` entries of ``q`` and ``g(q)`` are equal; the image's value is read
    one-hot from queen variables (``g(q)[i] == c`` iff a queen stands on ``square(n, i, c)``).
    Clauses, with ``same(s, 0)`` true:

    * ``same(s,i) ∧ [g(q)[i] = c] → ¬ge(i, c+1)``, i.e. ``q[i] <= g(q)[i]``;
    * ``same(s,i+1) → same(s,i)``, ``same(s,i+1) ∧ q(i,c) → [g(q)[i] = c]`` and
      ``same(s,i) ∧ q(i,c) ∧ [g(q)[i] = c] → same(s,i+1)``, so ``same`` is fully determined.
    """
    if n <= 1:
        return

    def q(r: int, c: int) -> int:
        return int(pool.id(("q", r, c)))

    def ge(i: int, c: int) -> int:
        return int(pool.id(("lex_ge", i, c)))

    clauses: list[list[int] | None] = []
    for i in range(n):
        for c in range(1, n):
            # ge(i,c) <-> q(i,c) or ge(i,c+1)   (ge(i,n-1) <-> q(i,n-1))
            rest = [q(i, c)] if c == n - 1 else [q(i, c), ge(i, c + 1)]
            clauses.append(_clause(-ge(i, c), *rest))
            clauses.extend(_clause(-lit, ge(i, c)) for lit in rest)
    for s, sym in enumerate(NON_IDENTITY):
        guard: int | None = None  # same(s, 0) is true: no literal
        for i in range(n):
            pre = [] if guard is None else [-guard]
            image = [q(*sym.square(n, i, c)) for c in range(n)]
            for c in range(n - 1):
                clauses.append(_clause(*pre, -image[c], -ge(i, c + 1)))
            if i == n - 1:
                break
            nxt = int(pool.id(("lex_same", s, i + 1)))
            if guard is not None:
                clauses.append(_clause(-nxt, guard))
            for c in range(n):
                clauses.append(_clause(-nxt, -q(i, c), image[c]))
                clauses.append(_clause(*pre, -q(i, c), -image[c], nxt))
            guard = nxt
    cnf.extend(clause for clause in clauses if clause is not None)
    cnf.nv = max(cnf.nv, pool.top)


def lex_leader_clauses(n: int) -> tuple[int, list[list[int]]]:
    """The lex-leader clauses of :func:`add_cnf_lex_leader` on their own, for the 0-1 models that
    take clauses as linear constraints (MIP, pseudo-Boolean, SMT): square ``(r, c)`` is variable
    ``r*n + c + 1``, the auxiliary variables follow. Returns the number of variables and the clauses."""
    from pysat.formula import CNF, IDPool

    pool = IDPool()
    for r in range(n):
        for c in range(n):
            pool.id(("q", r, c))
    cnf = CNF()
    add_cnf_lex_leader(cnf, pool, n)
    return max(pool.top, n * n), [list(clause) for clause in cnf.clauses]
