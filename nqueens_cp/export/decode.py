"""Reading a SAT (or pseudo-Boolean) solver's answer for an exported model back into a board.

Accepted, in any mix (comment lines ``c ...`` and ``* ...`` are skipped):

* SAT-competition output: ``s SATISFIABLE`` / ``s UNSATISFIABLE`` and ``v`` lines of literals;
* MiniSat's result file: ``SAT`` (or ``UNSAT``) then a line of literals ending in ``0``;
* a bare DIMACS model: lines of signed literals, optionally ending in ``0``;
* literals written ``x12`` / ``-x12``, as pseudo-Boolean solvers such as minisat+ print them.

Only the square variables matter (square ``(r, c)`` is ``r*n + c + 1`` in every export of a full
model; a reduced model numbers the open squares 1, 2, ... and the pre-placed queens complete the
board, :mod:`nqueens_cp.models.reduction`); auxiliary variables are ignored.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from nqueens_cp.core.checker import solution_problems
from nqueens_cp.core.errors import ModelFileError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.reduction import reduce_instance, uses_reduction

__all__ = ["Board", "SolverAnswer", "board_from_literals", "parse_solver_output", "size_mismatch"]

_STATUS = {
    "SAT": "SATISFIABLE",
    "SATISFIABLE": "SATISFIABLE",
    "UNSAT": "UNSATISFIABLE",
    "UNSATISFIABLE": "UNSATISFIABLE",
    "UNKNOWN": "UNKNOWN",
    "INDETERMINATE": "UNKNOWN",
    "INDET": "UNKNOWN",
}
_LITERAL = re.compile(r"^(-?)x?(\d+)$")


@dataclass(frozen=True)
class SolverAnswer:
    """What a solver said: its status (``SATISFIABLE``, ``UNSATISFIABLE``, ``UNKNOWN`` or ``None`` if it
    printed none) and the literals of its model, in the order given."""

    status: str | None
    literals: tuple[int, ...]


def _literals(tokens: list[str], where: str) -> list[int]:
    found: list[int] = []
    for token in tokens:
        match = _LITERAL.match(token)
        if match is None:
            raise ModelFileError(f"{where}: {token!r} is not a literal")
        value = int(match.group(2))
        if value:
            found.append(-value if match.group(1) else value)
    return found


def parse_solver_output(text: str, source: str = "solver output") -> SolverAnswer:
    """The status and model in ``text``; ``ModelFileError`` if it is not a solver's answer."""
    status: str | None = None
    literals: list[int] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line[0] in "c*%#":
            continue
        where = f"{source}, line {number}"
        first, *rest = line.split()
        if first == "p":
            raise ModelFileError(f"{source}: this is a DIMACS CNF ({' '.join(line.split()[:4])} ...), not a solver's "
                                 "answer: give it to a SAT solver first")
        if line.endswith(";") or first.startswith(("+", "min:")):
            raise ModelFileError(f"{where}: this is a pseudo-Boolean model (OPB), not a solver's answer: give it "
                                 "to a PB solver first")
        if first == "s":
            if len(rest) != 1 or rest[0].upper() not in _STATUS:
                raise ModelFileError(f"{where}: unknown status line {line!r}")
            status = _STATUS[rest[0].upper()]
        elif line.upper() in _STATUS:
            status = _STATUS[line.upper()]
        elif first == "v":
            literals += _literals(rest, where)
        else:
            literals += _literals(line.split(), where)
    if status is None and not literals:
        raise ModelFileError(f"{source}: no solver status and no model found")
    seen: dict[int, int] = {}
    for lit in literals:
        if seen.get(abs(lit), lit) != lit:
            raise ModelFileError(f"{source}: variable {abs(lit)} is given both true and false")
        seen[abs(lit)] = lit
    if status == "UNSATISFIABLE" and literals:
        raise ModelFileError(f"{source}: says UNSATISFIABLE but also gives a model")
    return SolverAnswer(status, tuple(literals))


@dataclass(frozen=True)
class Board:
    """The queens a model places, read row by row.

    ``solution`` is the board as a :data:`~nqueens_cp.core.instance.Solution` when every row holds
    exactly one queen (validity is then for the checker to judge), else ``None``; ``problems``
    lists the rows that do not.
    """

    n: int
    queens: tuple[tuple[int, int], ...]
    solution: Solution | None
    problems: tuple[str, ...]

    def _repr_svg_(self) -> str:
        """The queens drawn as SVG, shown by Jupyter (:func:`nqueens_cp.core.board.board_svg`)."""
        from nqueens_cp.core.board import board_svg

        return board_svg(self.queens, n=self.n)


def board_from_literals(instance: Instance, literals: tuple[int, ...] | list[int]) -> Board:
    """The board the true square variables of ``literals`` place on ``instance``'s n x n board."""
    n = instance.n
    if uses_reduction(instance):  # a reduced model: variable i is the i-th open square
        squares = reduce_instance(instance).squares
        queens = sorted([*instance.fixed, *(squares[lit - 1] for lit in set(literals) if 0 < lit <= len(squares))])
    else:
        queens = sorted(divmod(lit - 1, n) for lit in set(literals) if 0 < lit <= n * n)
    by_row: dict[int, list[int]] = {}
    for r, c in queens:
        by_row.setdefault(r, []).append(c)
    problems: list[str] = []
    for r in range(n):
        cols = by_row.get(r, [])
        if not cols:
            problems.append(f"row {r} has no queen")
        elif len(cols) > 1:
            problems.append(f"row {r} has {len(cols)} queens (columns {', '.join(map(str, cols))})")
    solution = None if problems else tuple(by_row[r][0] for r in range(n))
    return Board(n, tuple(queens), solution, tuple(problems))


def size_mismatch(instance: Instance, literals: tuple[int, ...] | list[int]) -> str | None:
    """Why ``literals`` cannot be an answer for ``instance``'s board size, or None when they may be.

    Only a complete model (every variable 1..V given, true or false, as solvers print it) tells
    its formula's size: V below the board's square variables means a smaller board's formula; a
    board that is not a solution, from V = m² for another m whose board it solves (the pairwise
    CNF has no auxiliary variables), means the m x m board's.
    """
    variables = {abs(lit) for lit in literals}
    top = max(variables, default=0)
    if not variables or len(variables) != top:  # not a complete model: its size is unknown
        return None
    squares = len(reduce_instance(instance).squares) if uses_reduction(instance) else instance.n ** 2
    side = math.isqrt(top)
    guess = f"; it reads as an answer for n = {side}" if side * side == top else ""
    if top < squares:
        return (f"the model has {top} variables, fewer than the {squares} squares of the board of n = {instance.n}: "
                f"the sizes disagree{guess}")
    board = board_from_literals(instance, literals)
    if board.solution is not None and not solution_problems(instance, board.solution):
        return None
    if side * side == top and side != instance.n and not instance.fixed and not instance.blocked:
        other = board_from_literals(Instance(side), literals)
        if other.solution is not None and not solution_problems(Instance(side), other.solution):
            return f"the model's {top} variables are the squares of the board of n = {side}, not {instance.n}: the sizes disagree"
    return _auxiliary_size_mismatch(instance, literals, top)


#: The largest board size whose CNFs with auxiliary variables :func:`size_mismatch` tries (their
#: size formulas take a few milliseconds a size there, seconds at n = 1,000).
AUXILIARY_SIZES_MAX_N = 200


def _auxiliary_size_mismatch(instance: Instance, literals: tuple[int, ...] | list[int], top: int) -> str | None:
    """The mismatch of a complete model of ``top`` variables that is no encoding's CNF of
    ``instance``'s size but one encoding's CNF of another size m, whose board it solves: the
    default export (seqcounter) adds auxiliary variables after the squares, so an 8 x 8 model's
    answer has more variables than the 81 squares of n = 9 and reads as a wrong 9 x 9 board."""
    from nqueens_cp.models.encodings import ENCODINGS
    from nqueens_cp.models.sizes import cnf_size

    if (uses_reduction(instance) or instance.n > AUXILIARY_SIZES_MAX_N
            or any(cnf_size(encoding, instance.n).variables == top for encoding in ENCODINGS)):
        return None
    sizes: dict[int, list[str]] = {}  # each other size m with a CNF of top variables: its encodings
    for encoding in ENCODINGS:
        low, high = 1, min(math.isqrt(top), AUXILIARY_SIZES_MAX_N)  # V(m) >= m², rising in m
        while low < high:
            middle = (low + high) // 2
            if cnf_size(encoding, middle).variables < top:
                low = middle + 1
            else:
                high = middle
        if low != instance.n and cnf_size(encoding, low).variables == top:
            sizes.setdefault(low, []).append(encoding.value)
    for size, encodings in sizes.items():
        other = board_from_literals(Instance(size), literals)
        if other.solution is not None and not solution_problems(Instance(size), other.solution):
            return (f"the model's {top} variables are those of the {' or '.join(encodings)} CNF of n = {size}, "
                    f"not {instance.n}: the sizes disagree")
    return None
