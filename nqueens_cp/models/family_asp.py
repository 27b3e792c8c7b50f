"""The N-Queens family as answer set programs (clingo's language), built as text, not solved.

Like the classic program (:mod:`.asp`), a program is facts about the board and rules that are the
same for every board: ``on(L,R,C)`` says square ``(R, C)`` lies on line ``L`` (the lines of
:func:`~nqueens_cp.models.family.family_lines`, numbered; wrapped around the edges on the torus),
``exactly(L)`` marks a row or a column of a placement, ``knight(R1,C1,R2,C2)`` a knight's jump
(superqueens). The answer's atoms are ``q(R,C)`` (a queen), ``colour(R,C,K)``, ``w(R,C)`` and
``b(R,C)`` (the two armies); :func:`atoms_witness` reads them back into the witness the
independent checker judges (the MiniZinc models print the same atoms).

=================  =========================================================================  ======================
problem            rules                                                                      chosen atoms, facts
=================  =========================================================================  ======================
toroidal           a choice per square; each row and column exactly one queen, each wrapped   n², 4n²
                   diagonal at most one; ``q(0,0)`` (the torus's column shift: a count is
                   n times the answer sets)
superqueens        the classic lines, and ``:- knight(R1,C1,R2,C2), q(R1,C1), q(R2,C2).``     n², 4n² - 4 + 4(n-1)(n-2)
domination         ``covered(R,C)`` derived from a queen on the square or on one of its lines; n², 4n² - 4
                   ``:- square(R,C), not covered(R,C).``; ``#minimize { 1,R,C : q(R,C) }``
independent-       the same, and at most one queen on each line                               n², 4n² - 4
domination
colouring          exactly one ``colour(R,C,K)`` per square (K < k, the palette of            k·n², 4n² - 4
                   :func:`~nqueens_cp.models.family.colour_bound`); no line holds a colour
                   twice; row 0 coloured 0 .. n-1; colours used in order;
                   ``#minimize { 1,K : used(K) }``
peaceable          at most one of ``w(R,C)``, ``b(R,C)`` per square; ``white(L)`` derived     2n², 4n² - 4
                   from a white queen on line L, a black queen on a white line forbidden;
                   ``#sum`` of the white minus the black is 0; the first queen white (the
                   armies swapped); ``#maximize { 1,R,C : w(R,C) }``
=================  =========================================================================  ======================

(Facts: the ``on`` facts of the lines of two or more squares, rows and columns always, and the
knight's jumps; n >= 2.) clasp proves an optimum when its optimisation ends (``OPTIMUM FOUND``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from nqueens_cp.core.problems import Goal, Problem, Witness
from nqueens_cp.models.family import colour_bound, family_lines, knight_pairs
from nqueens_cp.models.geometry import ModelSize

Atom = tuple[str, tuple[int, ...]]
"""An answer's atom: its name and its integer arguments (``("q", (2, 5))``)."""

_CHOICES: dict[Goal, tuple[str, ...]] = {
    Goal.PLACE: (
        "% a queen may stand on every square; every row and column holds one, every other line at most one",
        "{ q(R,C) } :- square(R,C).",
        ":- exactly(L), not 1 { q(R,C) : on(L,R,C) } 1.",
        ":- line(L), 2 { q(R,C) : on(L,R,C) }.",
        ":- knight(R1,C1,R2,C2), q(R1,C1), q(R2,C2).",
    ),
    Goal.DOMINATE: (
        "% a queen may stand on every square; every square is occupied or attacked",
        "{ q(R,C) } :- square(R,C).",
        "covered(R,C) :- q(R,C).",
        "covered(R,C) :- on(L,R,C), on(L,A,B), q(A,B).",
        ":- square(R,C), not covered(R,C).",
        "#minimize { 1,R,C : q(R,C) }.",
    ),
    Goal.COLOUR: (
        "% one colour per square, no line holding a colour twice",
        "1 { colour(R,C,K) : palette(K) } 1 :- square(R,C).",
        ":- line(L), palette(K), 2 { colour(R,C,K) : on(L,R,C) }.",
        "% row 0 is a clique: any colouring can be renamed so that it is coloured 0 .. n-1",
        ":- square(0,C), not colour(0,C,C).",
        "used(K) :- colour(_,_,K).",
        ":- used(K), palette(K-1), not used(K-1).",
        "#minimize { 1,K : used(K) }.",
    ),
    Goal.PEACEABLE: (
        "% a white queen, a black queen or none on every square",
        "{ w(R,C) ; b(R,C) } 1 :- square(R,C).",
        "% no black queen on a line that holds a white one",
        "white(L) :- on(L,R,C), w(R,C).",
        ":- on(L,R,C), b(R,C), white(L).",
        "% as many white queens as black",
        ":- #sum { 1,w,R,C : w(R,C) ; -1,b,R,C : b(R,C) } != 0.",
        "% the armies swapped are one answer: the first queen (row by row) is white, so a black queen",
        "% has a queen before it; seen(I): a queen stands on a square numbered below I (R*n + C)",
        "seen(R*n+C+1) :- w(R,C).",
        "seen(R*n+C+1) :- b(R,C).",
        "seen(I+1) :- seen(I), I < n*n.",
        ":- b(R,C), not seen(R*n+C).",
        "#maximize { 1,R,C : w(R,C) }.",
    ),
}
_SHOWN = {Goal.PLACE: ("q/2",), Goal.DOMINATE: ("q/2",), Goal.DOMINATE_INDEPENDENT: ("q/2",),
          Goal.COLOUR: ("colour/3",), Goal.PEACEABLE: ("w/2", "b/2")}


@dataclass(frozen=True)
class FamilyAspProgram:
    """A built program of ``problem`` on the n x n board: its text, its chosen atoms and its facts."""

    problem: Problem
    n: int
    text: str
    chosen: int
    facts: int

    def size(self) -> ModelSize:
        """Atoms of the choice rules and facts about the board (lines and knight's jumps)."""
        return ModelSize(self.chosen, self.facts, "board facts")


def family_asp_program(problem: Problem, n: int) -> FamilyAspProgram:
    """The answer set program of ``problem`` on the n x n board (see the module's table)."""
    goal = problem.goal
    rules = problem.rules
    facts: list[str] = []
    count = 0
    for index, (name, line) in enumerate(family_lines(rules, n)):
        rowcol = name.startswith(("row", "column"))
        if len(line) < 2 and not (rowcol and goal is Goal.PLACE):
            continue
        kind = "exactly" if rowcol and goal is Goal.PLACE else "line"
        facts.append(f"{kind}({index}). " + " ".join(f"on({index},{r},{c})." for r, c in line) + f"  % {name}")
        count += len(line)
    if rules.knight:
        pairs = [f"knight({a[0]},{a[1]},{b[0]},{b[1]})." for a, b in knight_pairs(n)]
        facts += [" ".join(pairs[i:i + 8]) for i in range(0, len(pairs), 8)]
        count += len(pairs)
    body = list(_CHOICES[Goal.DOMINATE if goal is Goal.DOMINATE_INDEPENDENT else goal])
    if goal is Goal.DOMINATE_INDEPENDENT:
        body[-1:-1] = ["% no two queens on one line", ":- line(L), 2 { q(R,C) : on(L,R,C) }."]
    if problem is Problem.TOROIDAL:
        body += ["% a placement shifted by a column is one: the first row's queen in column 0", "q(0,0)."]
    k = colour_bound(n)
    chosen = n * n * (k if goal is Goal.COLOUR else 2 if goal is Goal.PEACEABLE else 1)
    objective = {Goal.PLACE: "none: every answer set is a placement",
                 Goal.COLOUR: f"the fewest colours (palette 0 .. {k - 1})",
                 Goal.PEACEABLE: "the most white queens"}.get(goal, "the fewest queens")
    text = "\n".join([
        f"% {problem.value} on the {n} x {n} board as an answer set program, written by nqueens-cp "
        f"(`nqueens-cp export {n} --problem {problem.value} --format asp`)",
        f"% optimum: {objective}; run: clingo FILE{' 0' if goal is Goal.PLACE else ''}",
        f"% read an answer back: clingo FILE | nqueens-cp decode {n} - --problem {problem.value}",
        "% on(L,R,C): square (R,C) (0-based) lies on line L; exactly(L): a row or column holding one queen",
        "",
        "% ---- the board",
        *facts,
        *([f"palette(0..{k - 1})."] if goal is Goal.COLOUR else []),
        f"#const n = {n}.",
        f"square(0..{n - 1},0..{n - 1}).",
        "",
        "% ---- the model",
        *body,
        "",
        "#defined on/3. #defined exactly/1. #defined line/1. #defined knight/4.",
        *(f"#show {shown}." for shown in _SHOWN[goal]),
        "",
    ])
    return FamilyAspProgram(problem, n, text, chosen, count)


_ATOM = re.compile(r"\b(q|w|b|colour)\((\d+),(\d+)(?:,(\d+))?\)")


def parse_atoms(text: str) -> list[Atom]:
    """The atoms ``q(R,C)``, ``w(R,C)``, ``b(R,C)`` and ``colour(R,C,K)`` written in ``text``, in order."""
    return [(m.group(1), tuple(int(g) for g in m.groups()[1:] if g is not None)) for m in _ATOM.finditer(text)]


def atoms_witness(problem: Problem, n: int, atoms: Iterable[Atom]) -> Witness:
    """The witness an answer's atoms describe (a placement's missing row is column -1, a square
    without a colour -1: the checker refuses them)."""
    goal = problem.goal
    held = list(atoms)
    if goal is Goal.COLOUR:
        grid = [[-1] * n for _ in range(n)]
        for name, args in held:
            if name == "colour" and len(args) == 3 and max(args[0], args[1]) < n:
                grid[args[0]][args[1]] = args[2]
        return tuple(tuple(row) for row in grid)
    squares = {name: frozenset((a[0], a[1]) for m, a in held if m == name and len(a) == 2) for name in ("q", "w", "b")}
    if goal is Goal.PEACEABLE:
        return squares["w"], squares["b"]
    if goal is Goal.PLACE:
        columns = dict(sorted(squares["q"]))
        return tuple(columns.get(r, -1) for r in range(n))
    return squares["q"]
