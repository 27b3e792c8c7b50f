"""N-Queens as an answer set program (clingo's input language), built as text, not solved.

The instance is a set of facts over the line model (:mod:`.lines`): ``on(L, R, C)`` says square
``(R, C)`` lies on line ``L`` (``row(R)``, ``col(C)``, ``up(R+C)`` or ``down(R-C)``),
``exactly(L)`` and ``atmost(L)`` say how many queens line ``L`` holds, ``fixed(R, C)`` is a
pre-placed queen. The rules are the same for every board, in one of two formulations:

* ``lines`` (the default): a choice per square and one cardinality constraint per line,
  ``:- exactly(L), not 1 { q(R,C) : on(L,R,C) } 1.`` and ``:- atmost(L), 2 { q(R,C) : on(L,R,C) }.``
  The grounder makes one aggregate per line (O(n²) in all); clasp propagates each as a whole.
* ``pairwise``: the textbook program, a choice per square with integrity constraints on pairs,
  ``:- on(L,R1,C1), on(L,R2,C2), (R1,C1) < (R2,C2), q(R1,C1), q(R2,C2).``, plus one "covered"
  atom per exactly-one line. It grounds O(n³) rules and propagates only pairs
  (``benchmarks/bench_paradigms.py``: about 5 times slower to count n = 12).

Facts and not arithmetic in the rules keep one program for full and reduced boards (blocked
squares, many pre-placed queens: only the open squares get ``on`` facts) and ground fastest:
measured against a ``#const n`` program whose rules compute the diagonals (``q(R,D-R)``) the
facts ground n = 256 in 2.0 s against 4.7 s, and count n = 12 in 3.5 s against 6.4 s.

With ``unique`` the lex-leader constraints (:mod:`.lex_leader`'s method, written in ASP) keep one
board per symmetry class: ``img(S,I,C,R,K)`` says that in image ``S`` row ``I`` holds column ``C``
when a queen stands on ``(R, K)``; ``same(S,I)`` (rows before ``I`` agree) is derived, never
chosen, so each answer set is still one board:
``:- same(S,I), q(I,C), g(S,I,D), C > D.``
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from nqueens_cp.core.arguments import require_choice
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.symmetry import SYMMETRIES
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize, line_lengths, pairs_on
from nqueens_cp.models.lines import LineModel, build_line_model
from nqueens_cp.models.reduction import model_rows
from nqueens_cp.models.text import blocked_text, placed_text

Formulation = Literal["lines", "pairwise"]
#: The ASP formulations, the default first.
FORMULATIONS: tuple[Formulation, ...] = ("lines", "pairwise")

_RULES: dict[str, tuple[str, ...]] = {
    "lines": (
        "% a queen may stand on every square of the instance",
        "{ q(R,C) } :- on(_,R,C).",
        "% every exactly-one line holds one queen, every at-most-one line no two",
        ":- exactly(L), not 1 { q(R,C) : on(L,R,C) } 1.",
        ":- atmost(L), 2 { q(R,C) : on(L,R,C) }.",
    ),
    "pairwise": (
        "% a queen may stand on every square of the instance",
        "{ q(R,C) } :- on(_,R,C).",
        "% every exactly-one line holds a queen",
        "covered(L) :- on(L,R,C), q(R,C).",
        ":- exactly(L), not covered(L).",
        "% no two queens on one line",
        ":- on(L,R1,C1), on(L,R2,C2), (R1,C1) < (R2,C2), q(R1,C1), q(R2,C2).",
    ),
}

_LEX_RULES = (
    "% ---- one board per symmetry class: q <=lex g(q) for the 7 symmetries g other than the identity",
    "% img(S,I,C,R,K): in image S, row I holds column C exactly when a queen stands on (R,K)",
    "g(S,I,C) :- img(S,I,C,R,K), q(R,K).",
    "same(S,0) :- img(S,_,_,_,_).",
    "same(S,I+1) :- same(S,I), q(I,C), g(S,I,C).",
    ":- same(S,I), q(I,C), g(S,I,D), C > D.",
)


@dataclass(frozen=True)
class AspProgram:
    """A built program: its whole text (facts and rules) and the line model it states."""

    text: str
    lines: LineModel
    formulation: str
    unique: bool = False

    def size(self) -> ModelSize:
        """Choice atoms (one per square) and constraints (one per line and pre-placed queen)."""
        return ModelSize(len(self.lines.squares), self.lines.size().constraints, "line constraints")


def asp_program(instance: Instance, formulation: str = "lines", unique: bool = False) -> AspProgram:
    """The whole program of ``instance`` (facts, rules, ``#show q/2.``), deterministic text."""
    require_choice(formulation, FORMULATIONS, "ASP formulation")
    model = build_line_model(instance, unique)
    n = instance.n
    facts: list[str] = []
    families = [("exactly", line) for line in model.exactly_one] + [("atmost", line) for line in model.at_most_one]
    for (family, line), name in zip(families, model.names, strict=True):
        # a free row or column without an open square has no "on" fact: the constraint then fails
        squares = " ".join(f"on({name},{r},{c})." for r, c in (model.squares[i] for i in line))
        facts.append(f"{family}({name}). {squares}".rstrip())
    facts.extend(f"fixed({model.squares[i][0]},{model.squares[i][1]})." for i in model.forced)
    if not model.consistent:
        facts += ["% the pre-placed queens attack each other: no answer set", ":- #true."]
    reduced = bool(model.settled) or len(model.squares) < n * n
    header = [
        "% N-Queens as an answer set program, written by nqueens-cp (`nqueens-cp export N --format asp`)",
        f"% n = {n}; pre-placed queens (row:col, 0-based) = {placed_text(instance)}",
        f"% blocked squares (row:col) = {blocked_text(instance)}",
        "% Run: clingo FILE 0   (0: every answer set; the asp backend adds --configuration=crafty)",
        "% q(R,C): a queen on row R, column C (0-based). on(L,R,C): square (R,C) lies on line L, one of",
        "% row(R), col(C), up(R+C), down(R-C); exactly(L) / atmost(L): line L holds exactly / at most one queen.",
    ]
    if reduced:
        header.append("% The pre-placed queens are propagated: only the open squares (free row, free column, not"
                      " blocked, on no diagonal of a pre-placed queen) are on lines; the pre-placed queens are not"
                      " part of the answer sets (models/README.md, 'Models that shrink').")
    lex: list[str] = []
    if unique and n > 1:
        for s, sym in enumerate(SYMMETRIES[1:], start=1):
            lex.append(" ".join(f"img({s},{i},{c},{r},{k})." for i in range(n) for c in range(n)
                                for r, k in [sym.square(n, i, c)]))
        lex = [*_LEX_RULES, *lex]
    text = "\n".join([
        *header,
        "",
        "% ---- instance: the lines of the board",
        *facts,
        "",
        f"% ---- model (formulation {formulation})",
        *_RULES[formulation],
        ":- fixed(R,C), not q(R,C).",
        *(["", *lex] if lex else []),
        "",
        "#defined fixed/2. #defined img/5.",
        "#show q/2.",
        "",
    ])
    return AspProgram(text, model, formulation, unique)


#: Bytes one square-on-a-line fact of the ``lines`` program costs in gringo and clasp (peak
#: memory over start-up: 530 B at n = 128, 256 and 512).
BYTES_PER_ASP_LINE_SQUARE = 550
#: Bytes one pair of squares on a line costs in the ``pairwise`` program (158 B at n = 64, 176 B at n = 32).
BYTES_PER_ASP_PAIR = 180


def asp_memory(instance: Instance, formulation: str) -> ModelEstimate:
    """The ground ASP program of ``instance``: the full board of its model rows (an upper bound when reduced)."""
    n = model_rows(instance)
    lengths = line_lengths(n)
    if formulation == "pairwise":
        pairs = pairs_on(lengths)
        size = ModelSize(n * n, pairs, "ground pair constraints")
        megabytes = pairs * BYTES_PER_ASP_PAIR / MEGABYTE
    else:
        size = ModelSize(n * n, len(lengths), "line constraints")
        megabytes = sum(lengths) * BYTES_PER_ASP_LINE_SQUARE / MEGABYTE
    return ModelEstimate(f"ground {formulation} ASP program of n = {instance.n}", size, megabytes)
