"""The N-Queens family as MiniZinc models, built as text for one board, not solved.

The constraint programs of :mod:`.family_cp` (the formulation Choco and CPMpy state) written in
MiniZinc, each for one n: every line's constraint written out, from the lines of
:func:`~nqueens_cp.models.family.family_lines` (rows, columns, diagonals; wrapped on the torus), so
a reader sees the whole model and MiniZinc flattens it for any solver (the minizinc backend runs
Gecode). Integer and 0-1 variables, 0-based arrays:

=================  ===========================================================================  ======================
problem            variables and constraints                                                    size (variables,
                                                                                                constraints)
=================  ===========================================================================  ======================
toroidal           ``q[i]`` per row; ``alldifferent`` on ``q``, ``(q[i] + i) mod n`` and        n, 4
                   ``(q[i] - i + n) mod n``; ``q[0] = 0`` (the torus's column shift: a count
                   is n times the solutions)
superqueens        ``q[i]``; ``alldifferent`` on ``q``, ``q[i] + i``, ``q[i] - i``;             n, 2n
                   ``abs(q[i] - q[i+1]) != 2``, ``abs(q[i] - q[i+2]) != 1``
domination         ``x[r,c]`` in 0..1; per square ``x[s] + Σ_{a attacks s} x[a] >= 1``;        n², n²
                   ``solve minimize sum(x)``
independent-       the same, and ``Σ_{s in L} x[s] <= 1`` per line L                           n², n² + 6n - 6
domination
colouring          ``c[r,c]`` in 0..k-1 (k: :func:`~nqueens_cp.models.family.colour_bound`);     n², 6n - 6 + n
                   ``alldifferent`` per line; ``c[0,j] = j``; the colours n..k-1 first used in  (+ 1 when k > n)
                   order (``value_precede_chain``); ``solve minimize max(c) + 1``
peaceable          ``w[r,c]``, ``b[r,c]`` in 0..1, ``w + b <= 1`` per square; per line L flags  2n² + 2(6n - 6),
                   ``white[L] >= w[s]``, ``black[L] >= b[s]`` (s on L), ``white[L] + black[L]  n² + 2(4n² - 4)
                   <= 1``; ``sum(w) = sum(b)``; ``lex_lesseq(b, w)``; ``solve maximize sum(w)``  + 6n - 6 + 2
=================  ===========================================================================  ======================

(A line is one of two or more squares: 6n - 6 of them on the n x n board, n >= 2; their squares
number 4n² - 4.) The output prints the answer as the atoms of :mod:`.family_asp` (``q(R,C)``,
``colour(R,C,K)``, ``w(R,C)``, ``b(R,C)``), which ``decode --problem`` reads back.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens_cp.core.problems import Goal, Problem, Square, attacks
from nqueens_cp.models.family import colour_bound, family_lines
from nqueens_cp.models.family_cp import cp_lines, placement_knight_gaps
from nqueens_cp.models.geometry import ModelSize

#: The global constraints each model uses, included one by one (Debian's Gecode cannot take globals.mzn).
_GLOBALS = {Goal.PLACE: ("alldifferent",), Goal.DOMINATE: (), Goal.DOMINATE_INDEPENDENT: (),
            Goal.COLOUR: ("alldifferent", "value_precede_chain"), Goal.PEACEABLE: ("lex_lesseq",)}
_EVERY = "i in 0..n-1, j in 0..n-1"


@dataclass(frozen=True)
class FamilyMiniZincModel:
    """A built MiniZinc model of ``problem`` on the n x n board: its text and what it declares."""

    problem: Problem
    n: int
    text: str
    variables: int
    constraints: int

    def size(self) -> ModelSize:
        """Decision variables and constraint items."""
        return ModelSize(self.variables, self.constraints, "constraints")


def _cells(array: str, squares: list[Square]) -> str:
    return ", ".join(f"{array}[{r},{c}]" for r, c in squares)


def _constraint(text: str) -> str:
    """``constraint C;`` with C's comment (after ``  % ``) behind the semicolon."""
    body, mark, comment = text.partition("  % ")
    return f"constraint {body};" + (f"  % {comment}" if mark else "")


def family_minizinc_model(problem: Problem, n: int) -> FamilyMiniZincModel:
    """The MiniZinc model of ``problem`` on the n x n board (see the module's table)."""
    goal = problem.goal
    rules = problem.rules
    lines = cp_lines(rules, n)
    squares = [(r, c) for r in range(n) for c in range(n)]
    declarations: list[str] = []
    constraints: list[str] = []
    if goal is Goal.PLACE:
        declarations.append("array[0..n-1] of var 0..n-1: q;  % q[i]: the column of row i's queen")
        constraints.append("alldifferent(q)")
        if rules.toroidal:
            constraints += ["alldifferent([(q[i] + i) mod n | i in 0..n-1])",
                            "alldifferent([(q[i] - i + n) mod n | i in 0..n-1])",
                            "q[0] = 0  % a placement shifted by a column is one"]
        else:
            constraints += ["alldifferent([q[i] + i | i in 0..n-1])", "alldifferent([q[i] - i | i in 0..n-1])"]
        if rules.knight:
            constraints += [f"abs(q[{i}] - q[{j}]) != {gap}" for i, j, gap in placement_knight_gaps(n)]
        solve = "solve satisfy;"
        output = 'output [ "q(\\(i),\\(q[i])) " | i in 0..n-1 ] ++ ["\\n"];'
        variables = n
    elif goal in (Goal.DOMINATE, Goal.DOMINATE_INDEPENDENT):
        declarations.append("array[0..n-1, 0..n-1] of var 0..1: x;  % x[r,c] = 1: a queen on square (r, c)")
        for square in squares:
            attackers = [a for a in squares if attacks(rules, n, a, square)]
            constraints.append(f"x[{square[0]},{square[1]}]" + "".join(f" + x[{a},{b}]" for a, b in attackers)
                               + f" >= 1  % ({square[0]},{square[1]}) occupied or attacked")
        if goal is Goal.DOMINATE_INDEPENDENT:
            constraints += [f"sum([{_cells('x', line)}]) <= 1" for line in lines]
        solve = "solve minimize sum(x);"
        output = f'output [ if fix(x[i,j]) = 1 then "q(\\(i),\\(j)) " else "" endif | {_EVERY} ] ++ ["\\n"];'
        variables = n * n
    elif goal is Goal.COLOUR:
        k = colour_bound(n)
        declarations += [f"int: k = {k};  % the palette: the least prime p >= max(n, 5)",
                         "array[0..n-1, 0..n-1] of var 0..k-1: c;  % c[r,c]: the colour of square (r, c)"]
        constraints += [f"alldifferent([{_cells('c', line)}])" for line in lines]
        constraints += [f"c[0,{j}] = {j}  % row 0 is a clique: coloured 0 .. n-1" for j in range(n)]
        if k > n:
            constraints.append("value_precede_chain([j | j in n..k-1], array1d(c))  % the colours beyond row 0's in order")
        solve = "solve minimize max(array1d(c)) + 1;"
        output = f'output [ "colour(\\(i),\\(j),\\(c[i,j])) " | {_EVERY} ] ++ ["\\n"];'
        variables = n * n
    else:
        declarations += ["array[0..n-1, 0..n-1] of var 0..1: w;  % a white queen on (r, c)",
                         "array[0..n-1, 0..n-1] of var 0..1: b;  % a black queen on (r, c)",
                         f"array[0..{len(lines) - 1}] of var 0..1: white;  % line L holds a white queen",
                         f"array[0..{len(lines) - 1}] of var 0..1: black;  % line L holds a black queen"]
        constraints += [f"w[{r},{c}] + b[{r},{c}] <= 1" for r, c in squares]
        named = [name for name, line in family_lines(rules, n) if len(line) > 1]
        for index, (name, line) in enumerate(zip(named, lines, strict=True)):
            constraints += [f"white[{index}] >= w[{r},{c}]  % {name}" for r, c in line]
            constraints += [f"black[{index}] >= b[{r},{c}]" for r, c in line]
            constraints.append(f"white[{index}] + black[{index}] <= 1")
        constraints += ["sum(w) = sum(b)  % armies of one size",
                        "lex_lesseq(array1d(b), array1d(w))  % the armies swapped are one answer"]
        solve = "solve maximize sum(w);"
        output = (f'output [ if fix(w[i,j]) = 1 then "w(\\(i),\\(j)) " elseif fix(b[i,j]) = 1 then "b(\\(i),\\(j)) " '
                  f'else "" endif | {_EVERY} ] ++ ["\\n"];')
        variables = 2 * n * n + 2 * len(lines)
    text = "\n".join([
        f"% {problem.value} on the {n} x {n} board, written by nqueens-cp "
        f"(`nqueens-cp export {n} --problem {problem.value} --format minizinc`)",
        f"% run: minizinc --solver gecode FILE{' --all-solutions' if goal is Goal.PLACE else ''}",
        f"% read an answer back: nqueens-cp decode {n} ANSWER_FILE --problem {problem.value}",
        *(f'include "{name}.mzn";' for name in _GLOBALS[goal]),
        f"int: n = {n};",
        *declarations,
        *(_constraint(constraint) for constraint in constraints),
        solve,
        output,
        "",
    ])
    return FamilyMiniZincModel(problem, n, text, variables, len(constraints))
