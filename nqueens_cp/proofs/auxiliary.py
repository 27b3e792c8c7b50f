"""Clauses over auxiliary variables: every board of the instance extends to a model of them.

An encoding other than ``pairwise`` writes clauses over variables of its own (a counter's
registers, a commander, ...) besides the square variables; the rules (:mod:`.rules`) cannot judge
such a clause alone. What a certificate needs of them is that they forbid no solution: every
board, written as an assignment of the square variables, extends to values of the auxiliary
variables satisfying every clause. :func:`check_auxiliary_clauses` checks that exactly, with no
solver:

1. The clauses are split into *components*: two clauses are in one component when they share an
   auxiliary variable. Components share no auxiliary variable, so a board extends to all of them
   when it extends to each.
2. The squares a component's clauses mention, ``S``, must hold few *placements*: the sets of
   queens a board can put on ``S`` (no two attacking each other, only possible squares, the
   pre-placed queens of ``S``, a queen in ``S`` for each row and column whose possible squares all
   lie in ``S``). An encoding of one line (a row, a column, a diagonal) has ``|S| + 1`` of them,
   or ``|S|``; a component with more than :data:`MAX_PLACEMENTS` is refused as not checkable.
3. For each placement, a small DPLL search (unit propagation, branching) over the component's
   auxiliary variables finds values satisfying every clause, and the values found are checked
   clause by clause. Components equal up to the names of their variables (the encodings of lines
   of one length) are searched once per placement. A placement with no such values means the CNF forbids boards: refused,
   naming the first clause (in the CNF's order) without which the component's clauses before it
   are satisfied.

Clauses the rules already imply whatever the auxiliary values (their square literals alone are
implied) are left out by the caller: every board satisfies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.errors import CertificationError
from nqueens_cp.proofs.rules import attack, possible_lines

#: The most placements of queens tried on one component's squares (a line of n squares has n + 1).
MAX_PLACEMENTS = 1024
#: The most branches one search for auxiliary values may take before the check gives up.
MAX_DECISIONS = 100_000

Square = tuple[int, int]


@dataclass(frozen=True)
class AuxiliaryCheck:
    """What :func:`check_auxiliary_clauses` checked."""

    clauses: int
    variables: int
    components: int
    #: Searches for auxiliary values made: one per placement of queens on a component's squares,
    #: once for components equal up to the names of their variables.
    searches: int


def clause_text(clause: Sequence[int]) -> str:
    """A clause as DIMACS writes it: ``-7 18 0``."""
    return " ".join(map(str, (*clause, 0)))


def check_auxiliary_clauses(
    n: int,
    fixed: Sequence[Square],
    possible: set[Square],
    squares: Sequence[Square],
    clauses: Sequence[Sequence[int]],
    positions: Sequence[int],
) -> AuxiliaryCheck:
    """Check that every board extends to the ``clauses`` at ``positions`` (see the module docstring).

    Variable ``i + 1`` is ``squares[i]`` for ``i < len(squares)``; a greater variable is auxiliary.
    ``possible`` is the set of squares a board may hold a queen on
    (:func:`~.rules.possible_squares`). Raises ``CertificationError`` with one line naming a
    clause when some board has no extension, or when the check cannot decide.
    """
    top = len(squares)
    parent: dict[int, int] = {}

    def root(variable: int) -> int:
        parent.setdefault(variable, variable)
        while parent[variable] != variable:
            parent[variable] = parent[parent[variable]]
            variable = parent[variable]
        return variable

    for position in positions:
        auxiliary = [abs(lit) for lit in clauses[position] if abs(lit) > top]
        first = root(auxiliary[0])
        for variable in auxiliary[1:]:
            other = root(variable)
            if other != first:
                parent[other] = first
    components: dict[int, list[int]] = {}
    for position in sorted(positions):
        lit = next(lit for lit in clauses[position] if abs(lit) > top)
        components.setdefault(root(abs(lit)), []).append(position)
    fixed_set = set(fixed)
    must_hold = possible_lines(n, possible)
    tried = 0
    extending: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], set[frozenset[int]]] = {}
    for members in components.values():
        component = [tuple(clauses[position]) for position in members]
        mentioned = sorted({abs(lit) for clause in component for lit in clause if abs(lit) <= top})
        placements = _placements(mentioned, squares, possible, fixed_set, must_hold)
        if placements is None:
            spots = ", ".join(str(squares[v - 1]) for v in mentioned[:3])
            raise CertificationError(
                f"cannot check CNF clause {members[0] + 1} ({clause_text(component[0])}) over auxiliary variables: "
                f"its component's {len(component)} clauses mention {len(mentioned)} squares ({spots}, ...) "
                f"that boards fill in more ways than the check tries ({MAX_PLACEMENTS:,})"
            )
        # components equal up to the names of their variables (lines of one length) extend alike
        name: dict[int, int] = {}
        shape = tuple(tuple(name.setdefault(abs(lit), len(name) + 1) * (1 if lit > 0 else -1) for lit in clause)
                      for clause in component)
        known = extending.setdefault((shape, tuple(name[v] for v in mentioned)), set())
        for queens in placements:
            named = frozenset(name[v] for v in queens)
            if named in known:
                continue
            tried += 1
            values = {v: v in queens for v in mentioned}
            if _extension(component, values, members[0]) is None:
                _refuse(component, members, values, queens, mentioned, squares)
            known.add(named)
    variables = {abs(lit) for position in positions for lit in clauses[position] if abs(lit) > top}
    return AuxiliaryCheck(len(positions), len(variables), len(components), tried)


def _placements(
    mentioned: Sequence[int], squares: Sequence[Square], possible: set[Square], fixed: set[Square],
    must_hold: Sequence[frozenset[Square]],
) -> list[frozenset[int]] | None:
    """Every set of variables of ``mentioned`` a board can make true (the sets of queens it can put
    there, a superset of those it does); None when there are more than :data:`MAX_PLACEMENTS`."""
    on = [v for v in mentioned if squares[v - 1] in possible]
    spots = {squares[v - 1] for v in mentioned}
    forced = [v for v in on if squares[v - 1] in fixed]
    covered = [line for line in must_hold if line and line <= spots]
    found: list[frozenset[int]] = []
    budget = [MAX_PLACEMENTS * 16]

    def complete(chosen: list[int]) -> bool:
        held = {squares[v - 1] for v in chosen}
        return all(v in chosen for v in forced) and all(line & held for line in covered)

    def extend(start: int, chosen: list[int]) -> bool:
        """Add the placements holding ``chosen`` and others from ``on[start:]``; False to give up."""
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if complete(chosen):
            found.append(frozenset(chosen))
            if len(found) > MAX_PLACEMENTS:
                return False
        for k in range(start, len(on)):
            square = squares[on[k] - 1]
            if not any(attack(square, squares[v - 1]) for v in chosen):
                chosen.append(on[k])
                going = extend(k + 1, chosen)
                chosen.pop()
                if not going:
                    return False
        return True

    return found if extend(0, []) else None


def _extension(
    component: Sequence[tuple[int, ...]], values: dict[int, bool], where: int
) -> dict[int, bool] | None:
    """Values of the auxiliary variables that, with the square ``values``, satisfy every clause of
    ``component`` (checked clause by clause), or None when there are none."""
    left: list[tuple[int, ...]] = []
    for clause in component:
        if any(values.get(abs(lit)) == (lit > 0) for lit in clause if abs(lit) in values):
            continue
        rest = tuple(lit for lit in clause if abs(lit) not in values)
        if not rest:
            return None
        left.append(rest)
    model = satisfying_values(left, where)
    if model is None:
        return None
    every = {**values, **model}
    for clause in component:
        if not any(every.get(abs(lit), False) == (lit > 0) for lit in clause):
            raise CertificationError(  # a fault of this check: refuse rather than trust it
                f"the search for auxiliary values of CNF clause {where + 1} returned values falsifying "
                f"({clause_text(clause)})"
            )
    return every


def satisfying_values(clauses: Sequence[tuple[int, ...]], where: int) -> dict[int, bool] | None:
    """A model of ``clauses`` (unit propagation, then branching on a literal of the first clause not
    yet satisfied), or None when there is none; every variable of ``clauses`` gets a value. Past
    :data:`MAX_DECISIONS` it raises ``CertificationError`` naming CNF clause ``where + 1``."""
    occurs: dict[int, list[int]] = {}
    for index, clause in enumerate(clauses):
        for lit in clause:
            occurs.setdefault(lit, []).append(index)
    value: dict[int, bool] = {}
    trail: list[int] = []

    def assign(first: int) -> bool:
        """Make ``first`` true and propagate; False on a conflict."""
        queue = [first]
        while queue:
            lit = queue.pop()
            held = value.get(abs(lit))
            if held is not None:
                if held != (lit > 0):
                    return False
                continue
            value[abs(lit)] = lit > 0
            trail.append(abs(lit))
            for index in occurs.get(-lit, ()):
                free = 0
                unit = 0
                for other in clauses[index]:
                    state = value.get(abs(other))
                    if state is None:
                        free += 1
                        unit = other
                    elif state == (other > 0):
                        break
                else:
                    if free == 0:
                        return False
                    if free == 1:
                        queue.append(unit)
        return True

    def undo(mark: int) -> None:
        while len(trail) > mark:
            del value[trail.pop()]

    if any(not clause for clause in clauses):
        return None
    if not all(assign(clause[0]) for clause in clauses if len(clause) == 1):
        return None
    # each frame: (trail length and first open clause before the decision, the literal decided,
    # whether it is the negation of the first choice); the clauses before ``cursor`` are satisfied
    stack: list[tuple[int, int, int, bool]] = []
    decisions = 0
    cursor = 0
    while True:
        while cursor < len(clauses) and any(value.get(abs(lit)) == (lit > 0) for lit in clauses[cursor]):
            cursor += 1
        if cursor == len(clauses):
            return {**dict.fromkeys((abs(lit) for clause in clauses for lit in clause), False), **value}
        lit = next(lit for lit in clauses[cursor] if abs(lit) not in value)
        decisions += 1
        if decisions > MAX_DECISIONS:
            raise CertificationError(
                f"cannot check CNF clause {where + 1} over auxiliary variables: the search for their "
                f"values took more than {MAX_DECISIONS:,} decisions"
            )
        mark = len(trail)
        if assign(lit):
            stack.append((mark, cursor, lit, False))
            continue
        undo(mark)
        # the decision failed: flip it, or backtrack to the last decision not yet flipped
        while True:
            if assign(-lit):
                stack.append((mark, cursor, -lit, True))
                break
            undo(mark)
            while stack and stack[-1][3]:
                stack.pop()
            if not stack:
                return None
            mark, cursor, lit, _ = stack.pop()
            undo(mark)


def _refuse(
    component: Sequence[tuple[int, ...]], members: Sequence[int], values: dict[int, bool],
    queens: frozenset[int], mentioned: Sequence[int], squares: Sequence[Square],
) -> None:
    """Raise the refusal naming the first clause of ``component`` at which the placement ``values``
    stops extending (its clauses before it extend, with it they do not)."""
    low, high = 0, len(component)  # the prefix of length high does not extend; of length low does
    while high - low > 1:
        middle = (low + high) // 2
        if _extension(component[:middle], values, members[0]) is None:
            high = middle
        else:
            low = middle
    clause = component[high - 1]
    if queens:
        spots = [str(squares[v - 1]) for v in sorted(queens)]
        on = f"a queen on {spots[0]}" if len(spots) == 1 else f"queens on {', '.join(spots[:-1])} and {spots[-1]}"
        placed = f"with {on} and none on the other {len(mentioned) - len(queens)} squares they mention"
    elif mentioned:
        placed = f"with no queen on the {len(mentioned)} squares they mention"
    else:
        placed = "whatever the board"
    raise CertificationError(
        f"CNF clause {members[high - 1] + 1} ({clause_text(clause)}) over auxiliary variables forbids "
        f"boards: {placed}, no values of the auxiliary variables satisfy it and the clauses before it "
        "that share them"
    )
