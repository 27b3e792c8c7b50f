"""N-Queens as a binary decision diagram (Bryant 1986), built with the ``dd`` package, and counted.

The Boolean model over the open squares (``x(r, c)``, the CNF's variables, ordered row by row):
every free row and column exactly one queen, every diagonal at most one. A reduced ordered BDD
of the conjunction has one path to ``True`` per solution, so :meth:`BDD.count` gives the number of
solutions in time linear in the diagram's size, without visiting them; the diagram itself grows
exponentially with n (Kunkle, Slavici and Cooperman, "Parallel disk-based computation for large,
monolithic binary decision diagrams", PASCO 2010, built the 12-queens BDD and beyond), and that is
where this counter stands.

Two formulations (``build``):

* ``lines``: the conjunction of one "exactly one" or "at most one" BDD per line, conjoined row by
  row: each row's constraint, then every column and diagonal once its last square's row is in
  (the diagram of the rows so far stays a diagram of partial boards).
* ``squares``: the conjunction over the rows of "one queen on the row", where a queen on
  ``(r, c)`` implies no queen on any square it attacks in the rows below (the classic textbook
  construction, e.g. Knuth, TAOCP 7.1.4); the rows are conjoined from the last up.

``dd`` wraps CUDD (Somenzi) as ``dd.cudd`` when it was built with it, else ``dd.autoref``, its
pure-Python BDD; :func:`bdd_library` says which one is used.
"""

from __future__ import annotations

from typing import Any

from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.reduction import reduce_instance

#: The formulations of ``build``.
BUILDS: tuple[str, ...] = ("lines", "squares")


def bdd_library() -> str:
    """``cudd`` when ``dd`` has its CUDD wrapper here, else ``autoref`` (pure Python)."""
    try:
        from dd import cudd  # noqa: F401
    except ImportError:
        return "autoref"
    return "cudd"


def new_manager(library: str | None = None) -> Any:
    """A fresh BDD manager of ``library`` (default: :func:`bdd_library`)."""
    if (library or bdd_library()) == "cudd":
        from dd import cudd

        return cudd.BDD()
    from dd import autoref

    return autoref.BDD()


def _name(square: tuple[int, int]) -> str:
    return f"x{square[0]}_{square[1]}"


def _exactly_one(bdd: Any, names: list[str], exactly: bool) -> Any:
    """At most one of ``names`` (and at least one when ``exactly``), as a BDD built bottom up."""
    none, one = bdd.true, bdd.false  # no variable of the suffix true / exactly one true
    for name in reversed(names):
        var = bdd.var(name)
        none, one = (~var) & none, bdd.ite(var, none, one)
    return one if exactly else (none | one)


def build_queens_bdd(bdd: Any, instance: Instance, build: str = "lines") -> tuple[Any, int]:
    """The BDD of ``instance``'s solutions in manager ``bdd`` and the number of its variables."""
    reduction = reduce_instance(instance)
    squares = reduction.squares
    bdd.declare(*(_name(square) for square in squares))
    if not reduction.consistent:
        return bdd.false, len(squares)
    if build == "squares":
        return _by_squares(bdd, reduction), len(squares)
    lines = list(reduction.lines())
    last_row = {index: max((r for r, _ in line), default=-1) for index, (_, line) in enumerate(lines)}
    result = bdd.true
    pending = sorted(range(len(lines)), key=lambda index: last_row[index])
    for index in pending:
        kind, line = lines[index]
        if not line and kind in ("row", "column"):
            return bdd.false, len(squares)
        result &= _exactly_one(bdd, [_name(square) for square in line], kind in ("row", "column"))
        if result == bdd.false:
            break
    return result, len(squares)


def _by_squares(bdd: Any, reduction: Any) -> Any:
    """Rows from the last up: one queen on the row, each excluding the squares it attacks below."""
    by_row: dict[int, list[tuple[int, int]]] = {r: [] for r in reduction.rows}
    for square in reduction.squares:
        by_row[square[0]].append(square)
    open_squares = set(reduction.squares)
    result = bdd.true
    for row in reversed(reduction.rows):
        choices = bdd.false
        for r, c in by_row[row]:
            below = [(rr, cc) for rr, cc in open_squares if rr > r and (cc == c or abs(cc - c) == rr - r)]
            term = bdd.var(_name((r, c)))
            for other in row_others(by_row[row], (r, c)):
                term &= ~bdd.var(_name(other))
            for square in below:
                term &= ~bdd.var(_name(square))
            choices |= term
        result = choices & result
        if result == bdd.false:
            break
    return result


def row_others(row: list[tuple[int, int]], square: tuple[int, int]) -> list[tuple[int, int]]:
    """The other open squares of ``square``'s row."""
    return [other for other in row if other != square]


def bdd_size(instance: Instance) -> ModelSize:
    """Variables (open squares) and line constraints conjoined: free rows and columns, diagonals of 2+ open squares."""
    reduction = reduce_instance(instance)
    return ModelSize(len(reduction.squares), sum(1 for _ in reduction.lines()), "line constraints")
