"""Certified optima of the N-Queens family: "nothing better than k", from a DRUP refutation.

The iterated SAT search of the ``sat`` backend ends with an unsatisfiable call: the rows of the
problem, as clauses, and "the objective is better than k" (at most k - 1 queens or colours, at
least k + 1 queens in each army), as the clauses of a cardinality encoding. :func:`certify_optimum`
makes that a proof that k is optimal, trusting neither the solver nor the code that wrote the
clauses:

1. the witness passes the independent checker (:mod:`nqueens_cp.core.family_checker`): k is reached;
2. the DRUP proof refutes the formula (:func:`~.drup.check_drup`, the checker of ``--certify``);
3. every valid answer better than k gives values to all the formula's variables satisfying every
   clause, so (2) leaves none. The formula comes cut into *parts*, each said to encode a
   cardinality constraint ``lower <= (true literals of L) <= upper``. Each part's constraint is
   checked to hold for every valid answer better than k (:func:`_rule_problem`: from the problem's
   definition and :func:`~nqueens_cp.core.problems.attacks` alone; the colouring with its colours
   renamed, see there), and each clause of the part to follow from the constraint and the
   definitions of the part's auxiliary variables.

An auxiliary variable is *defined* as "at least t of the literals S", S a subset of its part's
literals (or of their negations): the definitions are read off the clauses that derive the
variable (``¬a ∨ ¬b ∨ v``: a and b give v), as the sequential counter's registers and the
totalizer's outputs are built, and nothing of that reading is trusted, since a wrong definition
makes a clause fail its check, never pass it. A clause then speaks of counts of the subsets of
L; it follows from the constraint when no counts of L's subsets meet the constraint and falsify
every literal. The subsets a clause names are nested or disjoint (a laminar family; others are
refused as not checkable), and then the counts are decided exactly by intervals, from the
innermost subsets out. Auxiliary variables are not shared between parts. Answers give the
auxiliary variables their defined values, every clause holds: (3).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.cardinality import CardinalityPart
from nqueens_cp.core.errors import CertificationError
from nqueens_cp.core.family_checker import witness_problems, witness_value
from nqueens_cp.core.problems import Goal, Problem, Square, Witness, attacks
from nqueens_cp.proofs.auxiliary import clause_text
from nqueens_cp.proofs.certificate import without_deletions_of
from nqueens_cp.proofs.drup import ProofCheck, check_drup, dimacs_text


@dataclass(frozen=True)
class OptimumCertificate:
    """A checked optimum: the witness's value, proved optimal, and what made it certain."""

    problem: Problem
    n: int
    value: int
    proof: ProofCheck
    parts: int
    clauses: int
    auxiliaries: int
    cnf_text: str
    proof_text: str
    check_seconds: float

    def summary(self) -> str:
        """One line saying what was checked."""
        better = "larger" if self.problem.goal is Goal.PEACEABLE else "smaller"
        return (f"certified: optimum {self.value} (a witness checked; DRUP proof of {self.proof.lemmas} lemmas refutes "
                f"{better} values: every one of its {self.clauses} clauses, in {self.parts} cardinality constraints, "
                f"follows from the problem's rules, the bound and the definitions of {self.auxiliaries} auxiliary "
                f"variables; checked in {self.check_seconds:.2f} s)")


def certify_optimum(problem: Problem, n: int, witness: Witness, variables: int,
                    clauses: Sequence[Sequence[int]], parts: Sequence[CardinalityPart], proof_text: str,
                    colours: int = 0) -> OptimumCertificate:
    """Check that ``witness`` is optimal for ``problem`` on the n x n board, given the formula (its
    ``clauses`` over ``variables`` variables, cut into ``parts``) and its DRUP refutation (see the
    module docstring); ``colours``: the colouring model's palette. ``CertificationError`` with one
    line naming what failed."""
    started = time.perf_counter()
    problems = witness_problems(problem, n, witness)
    if problems:
        raise CertificationError(f"the witness of {problem.value} is not valid: {problems[0]}")
    value = witness_value(problem, witness)
    layout = _Layout(problem, n, variables, value, colours)
    formula = [tuple(clause) for clause in clauses]
    _check_cover(parts, len(formula))
    owner: dict[int, int] = {}
    for index, part in enumerate(parts):
        trouble = _rule_problem(layout, part)
        if trouble is not None:
            raise CertificationError(f"constraint {part.name} (clauses {part.first + 1}-{part.last}): {trouble}")
        for position in range(part.first, part.last):
            for literal in formula[position]:
                if literal == 0 or abs(literal) > variables:
                    raise CertificationError(f"CNF clause {position + 1} ({clause_text(formula[position])}) names "
                                             "a variable outside the formula")
                if abs(literal) > layout.primaries and owner.setdefault(abs(literal), index) != index:
                    raise CertificationError(f"auxiliary variable {abs(literal)} is shared by constraints "
                                             f"{parts[owner[abs(literal)]].name} and {part.name}")
        _check_part(layout, part, formula)
    cnf_text = dimacs_text(variables, formula)
    proof_text = without_deletions_of(proof_text, formula)
    proof = check_drup(cnf_text, proof_text)
    return OptimumCertificate(problem, n, value, proof, len(parts), len(formula), len(owner), cnf_text, proof_text,
                              time.perf_counter() - started)


def _check_cover(parts: Sequence[CardinalityPart], clauses: int) -> None:
    """The parts cut the clauses into consecutive ranges, each clause in one."""
    at = 0
    for part in parts:
        if part.first != at or part.last < part.first:
            raise CertificationError(f"constraint {part.name} claims clauses {part.first + 1}-{part.last}, "
                                     f"expected to start at clause {at + 1}")
        at = part.last
    if at != clauses:
        raise CertificationError(f"clauses {at + 1}-{clauses} belong to no constraint")


# -- which constraints every better answer meets --------------------------------------------------

class _Layout:
    """The variables of the problem's 0-1 model (as the backends number them), the better-answer
    hypothesis, and the squares' attacks."""

    def __init__(self, problem: Problem, n: int, variables: int, value: int, colours: int) -> None:
        self.problem, self.n, self.value = problem, n, value
        goal = problem.goal
        squares = n * n
        if goal is Goal.COLOUR:
            # a palette of k colours: k n² "square s has colour j" and k "colour j is used" variables;
            # any better colouring (value - 1 colours, at least n: row 0 is a clique) fits in it
            self.colours = colours
            self.primaries = colours * squares + colours
            if self.primaries > variables or colours < max(n, value - 1):
                raise CertificationError(f"a palette of {colours} colours in {variables} variables holds no "
                                         f"colouring of n = {n} with {value - 1} colours")
        else:
            self.colours = 0
            self.primaries = 2 * squares if goal is Goal.PEACEABLE else squares
        if goal is Goal.PEACEABLE:
            objective = range(1, squares + 1)
        elif goal is Goal.COLOUR:
            objective = range(self.colours * squares + 1, self.primaries + 1)
        else:
            objective = range(1, squares + 1)
        self.objective = frozenset(objective)

    def square(self, variable: int) -> Square:
        index = (variable - 1) % (self.n * self.n)
        return index // self.n, index % self.n

    def attack(self, a: Square, b: Square) -> bool:
        return attacks(self.problem.rules, self.n, a, b)

    def clique(self, squares: Sequence[Square]) -> bool:
        return all(self.attack(a, b) for i, a in enumerate(squares) for b in squares[i + 1:])


def _rule_problem(layout: _Layout, part: CardinalityPart) -> str | None:
    """Why ``part``'s constraint may fail for a valid answer better than the witness (None: it holds
    for every one). Variables are those of :mod:`nqueens_cp.models.family`: square (r, c) is
    ``r*n + c + 1``; a black queen's is ``n² +`` that; colour k of a square ``k n² +`` that, and
    "colour k is used" ``k_max n² + k + 1``."""
    literals, lower, upper = part.literals, part.lower, part.upper
    variables = [abs(literal) for literal in literals]
    if len(set(variables)) != len(variables) or not all(0 < v <= layout.primaries for v in variables):
        return "its literals must be distinct variables of the model"
    size = len(literals)
    low = 0 if lower is None else lower
    high = size if upper is None else upper
    if low <= 0 and high >= size:
        return None  # no constraint at all
    positive = all(literal > 0 for literal in literals)
    goal = layout.problem.goal
    # the hypothesis: better than the witness
    if positive and set(literals) == layout.objective:
        if goal is Goal.PEACEABLE and high >= size and low <= layout.value + 1:
            return None
        if goal is not Goal.PEACEABLE and low <= 0 and high >= layout.value - 1:
            return None
    squares = [layout.square(v) for v in variables]
    if goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT) and positive:
        if high >= size and low <= 1:  # every square occupied or attacked: its cover is in L
            held = set(squares)
            if any(all(a in held for a in _cover(layout, s)) for s in squares):
                return None
            return "no square has its queen and every attacker among its literals"
        if low <= 0 and high >= 1 and goal is Goal.DOMINATE_INDEPENDENT:
            return None if layout.clique(squares) else "its squares do not all attack each other"
        return "not a rule of " + layout.problem.value
    if goal is Goal.PEACEABLE:
        return _peaceable_rule(layout, literals, low, high)
    if goal is Goal.COLOUR:
        return _colouring_rule(layout, literals, low, high)
    return "not a rule of " + layout.problem.value


def _cover(layout: _Layout, square: Square) -> list[Square]:
    n = layout.n
    return [square, *((r, c) for r in range(n) for c in range(n) if layout.attack((r, c), square))]


def _peaceable_rule(layout: _Layout, literals: tuple[int, ...], low: int, high: int) -> str | None:
    squares = layout.n * layout.n
    if len(literals) == 2 and low <= 0 and high >= 1 and all(v > 0 for v in literals):
        white, black = sorted(literals)
        if white <= squares < black:
            a, b = layout.square(white), layout.square(black)
            return None if a == b or layout.attack(a, b) else "a white and a black queen that do not attack"
    equal = {*range(1, squares + 1), *(-v for v in range(squares + 1, 2 * squares + 1))}
    if set(literals) == equal and low <= squares <= high:
        return None  # as many white queens as black: n² of the white and the empty black squares
    return "not a rule of peaceable armies"


def _colouring_rule(layout: _Layout, literals: tuple[int, ...], low: int, high: int) -> str | None:
    """The colouring's constraints hold for every colouring with fewer colours than the witness
    once its colours are renamed: row 0's squares (a clique: n colours) get colours 0 .. n-1 from
    left to right, the other colours used n, n+1, ...; then "colour k is used" is "k < c", c the
    colours used (c <= the witness's value - 1 <= the palette)."""
    n, squares, colours = layout.n, layout.n * layout.n, layout.colours

    def colour_of(variable: int) -> int:
        return (variable - 1) // squares

    def used(variable: int) -> int | None:
        return variable - colours * squares - 1 if variable > colours * squares else None

    xs = [v for v in literals if v > 0 and used(v) is None]
    if len(xs) == len(literals) and low <= 1 <= high:  # the squares' colours alone
        cells = {layout.square(v) for v in xs}
        if len(xs) == 1 and low == 1:  # a unit: (0, c) has colour c
            (r, c), k = layout.square(xs[0]), colour_of(xs[0])
            return None if r == 0 and k == c < n else "a square's colour fixed other than by row 0's renaming"
        if len(cells) == 1 and len({colour_of(v) for v in xs}) == colours:
            return None  # a square has one colour of the palette
    if low <= 0 and high >= 1 and len(literals) >= 2:
        flags = [-v for v in literals if v < 0 and used(-v) is not None]
        rest = [v for v in literals if v > 0 and used(v) is None]
        if len(flags) == 1 and len(rest) == len(literals) - 1:
            flagged = used(flags[0])
            if flagged is not None and all(colour_of(v) == flagged for v in rest) and layout.clique([layout.square(v) for v in rest]):
                return None  # a clique holds colour k at most once, and only if k is used
    if len(literals) == 2 and low <= 1 and high >= 2 and min(literals) < 0 < max(literals):
        earlier, later = used(max(literals)), used(-min(literals))
        if earlier is not None and later is not None and earlier < later:
            return None  # colour a used if a later one is
    return "not a rule of the colouring"


# -- each clause from its constraint and the definitions -------------------------------------------

Atom = tuple[frozenset[int], int]
"""``(S, t)``: at least t of the literals S are true."""


def _definitions(layout: _Layout, clauses: Sequence[tuple[int, ...]]) -> dict[int, Atom]:
    """The definition of each auxiliary variable of a part's ``clauses``: the clauses with one
    positive auxiliary literal derive it from the others' negations (their *bodies*); a body of
    disjoint atoms gives "at least the sum of their t of their union", and the variable is "at least
    the least such sum of the union of its bodies"; a variable never derived is false (S empty)."""
    top = layout.primaries
    bodies: dict[int, list[list[int]]] = {}
    auxiliary: set[int] = set()
    for clause in clauses:
        auxiliary.update(abs(lit) for lit in clause if abs(lit) > top)
        heads = [lit for lit in clause if lit > top]
        if len(heads) == 1:
            bodies.setdefault(heads[0], []).append([-lit for lit in clause if lit != heads[0]])
    defined: dict[int, Atom] = {}
    interned: dict[frozenset[int], frozenset[int]] = {}

    def define(variable: int, visiting: set[int]) -> Atom:
        if variable in defined:
            return defined[variable]
        visiting.add(variable)
        union: set[int] = set()
        least: int | None = None
        for body in bodies.get(variable, ()):
            atoms: list[Atom] = []
            for literal in body:
                if abs(literal) <= top:
                    atoms.append((frozenset((literal,)), 1))
                elif literal > 0 and literal not in visiting:
                    atoms.append(define(literal, visiting))
                else:
                    break
            else:
                joined: set[int] = set()
                if sum(len(s) for s, _ in atoms) == len(joined.union(*(s for s, _ in atoms))):
                    union.update(*(s for s, _ in atoms))
                    total = sum(t for _, t in atoms)
                    least = total if least is None else min(least, total)
        visiting.discard(variable)
        key = frozenset(union)
        atom = (interned.setdefault(key, key), 1 if least is None else least)
        defined[variable] = atom
        return atom

    for variable in sorted(auxiliary):
        define(variable, set())
    return defined


def _check_part(layout: _Layout, part: CardinalityPart, clauses: Sequence[tuple[int, ...]]) -> None:
    """Every clause of ``part`` follows from its constraint and the definitions (module docstring)."""
    own = clauses[part.first:part.last]
    definitions = _definitions(layout, own)
    literals = frozenset(part.literals)
    size = len(literals)
    rule = (literals, 0 if part.lower is None else part.lower, size if part.upper is None else part.upper)
    for offset, clause in enumerate(own):
        trouble = _clause_problem(layout, clause, literals, rule, definitions)
        if trouble is not None:
            position = part.first + offset
            raise CertificationError(f"CNF clause {position + 1} ({clause_text(clause)}) of constraint {part.name} "
                                     f"{trouble}")


Bounds = tuple[frozenset[int], int, int]
"""``(S, low, high)``: between low and high of the literals S (a subset of the constraint's) are true."""


def _clause_problem(layout: _Layout, clause: tuple[int, ...], literals: frozenset[int], rule: Bounds,
                    definitions: dict[int, Atom]) -> str | None:
    """Why ``clause`` may be false where the constraint holds (None: it cannot be)."""
    falsified: list[Bounds] = [rule]
    for literal in clause:
        if abs(literal) <= layout.primaries:
            if literal in literals:
                falsified.append((frozenset((literal,)), 0, 0))
            elif -literal in literals:
                falsified.append((frozenset((-literal,)), 1, 1))
            else:
                return f"names variable {abs(literal)}, which its constraint does not"
            continue
        span, least = definitions[abs(literal)]
        # the literal is false: fewer than t of S when positive, at least t when negative
        low, high = (0, least - 1) if literal > 0 else (least, len(span))
        if not span:
            if low <= 0 <= high:
                continue  # false whatever the answer: no condition
            return None  # true whatever the answer
        if span <= literals:
            falsified.append((span, low, high))
        elif all(-lit in literals for lit in span):  # a count of the negations: |S| minus theirs
            falsified.append((frozenset(-lit for lit in span), len(span) - high, len(span) - low))
        else:
            return f"defines variable {abs(literal)} over literals outside its constraint"
    feasible = _counts_possible(falsified)
    if feasible is None:
        return "cannot be checked: it names overlapping counts of its constraint's literals"
    return "does not follow from it and the definitions of its auxiliary variables" if feasible else None


def _counts_possible(bounds: list[Bounds]) -> bool | None:
    """Whether some truth values of the literals meet every ``(S, low, high)`` of ``bounds``; None when
    the sets are neither nested nor disjoint. The first set contains every other."""
    merged: dict[frozenset[int], list[int]] = {}
    for span, low, high in bounds:
        have = merged.setdefault(span, [0, len(span)])
        have[0], have[1] = max(have[0], low), min(have[1], high)
        if have[0] > have[1]:
            return False
    spans = sorted(merged, key=len, reverse=True)
    parent: dict[frozenset[int], frozenset[int] | None] = {}
    for index, span in enumerate(spans):
        holder = None
        for other in spans[:index]:
            if span <= other:
                holder = other  # the smallest so far that holds it: spans are sorted by size
            elif not span.isdisjoint(other):
                return None
        parent[span] = holder
    # from the innermost out: a set's count is its children's counts plus its own free literals'
    reach = dict.fromkeys(spans, (0, 0))
    free = {span: len(span) for span in spans}
    for span in reversed(spans):
        low, high = merged[span]
        sub_low, sub_high = reach[span]
        low, high = max(low, sub_low), min(high, sub_high + free[span])
        if low > high:
            return False
        holder = parent[span]
        if holder is not None:
            reach[holder] = (reach[holder][0] + low, reach[holder][1] + high)
            free[holder] -= len(span)
    return True
