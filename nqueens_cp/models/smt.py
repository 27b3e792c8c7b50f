"""N-Queens in SMT-LIB 2, built as text (declarations and assertions), not solved.

Two models, the one text both the ``smt`` backend (through z3's own SMT-LIB parser) and the
``--format smt2`` export state:

* ``bool`` (the default): the line model (:mod:`.lines`), a Boolean ``x<i>`` per square (square
  ``(r, c)`` is ``x<r*n + c + 1>`` on a full board, the OPB numbering), ``((_ pbeq 1 1 … 1) …)`` per
  row and column and ``((_ at-most 1) …)`` per diagonal: z3's cardinality extensions of SMT-LIB,
  which its SAT core propagates natively. A standard-only alternative, ``(<= (+ (ite x 1 0) …) 1)``,
  sends the default solver into linear arithmetic (counting n = 10 took 44 s against 1.7 s,
  ``benchmarks/bench_paradigms.py``), so the extension is used.
* ``int``: the textbook SMT model, ``q<r>`` an integer per row in ``[0, n)`` and three
  ``distinct`` over ``q<r>``, ``(+ q<r> r)`` and ``(- q<r> r)``, logic ``QF_LIA``. z3 expands each
  ``distinct`` into pairwise disequalities, each a disjunction of two strict inequalities, and
  searches over arithmetic bounds: it is the slow one, kept to show why.

Reduced instances (blocked squares, many pre-placed queens) get both models over their free part
(:mod:`.reduction`): the open squares, or the free rows with their open columns as an
``(or (= q a) …)`` domain. With ``unique`` the Boolean model adds the lex-leader clauses of
:func:`~nqueens_cp.models.lex_leader.lex_leader_clauses`; the integer model has no symmetry
breaking and refuses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from nqueens_cp.core.arguments import require_bool, require_choice, require_instance
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.symmetry import require_symmetric
from nqueens_cp.models.geometry import MEGABYTE, ModelEstimate, ModelSize
from nqueens_cp.models.lex_leader import lex_leader_clauses
from nqueens_cp.models.lines import build_line_model
from nqueens_cp.models.reduction import model_rows, reduce_instance, uses_reduction
from nqueens_cp.models.text import blocked_text, placed_text

#: The SMT models, the default first.
MODELS: tuple[str, ...] = ("bool", "int")


@dataclass(frozen=True)
class SmtModel:
    """A built SMT model: the SMT-LIB declarations and assertions, and how to read a board back."""

    n: int
    kind: str
    #: ``(declare-fun …)`` and ``(assert …)`` commands, no ``set-logic`` or ``check-sat``.
    body: str
    #: The decision variables: one per square (``bool``) or per free row (``int``).
    names: tuple[str, ...]
    #: ``bool``: the square of each name; ``int``: ``(row, -1)`` for each name.
    squares: tuple[tuple[int, int], ...]
    settled: tuple[tuple[int, int], ...]
    assertions: int

    def decode(self, values: dict[str, int | bool]) -> Solution:
        """The board of a model's ``values`` (name -> Boolean or column)."""
        cols = [-1] * self.n
        for row, col in self.settled:
            cols[row] = col
        for name, (row, col) in zip(self.names, self.squares, strict=True):
            if self.kind == "int":
                cols[row] = int(values[name])
            elif values[name]:
                cols[row] = col
        return tuple(cols)

    def size(self) -> ModelSize:
        return ModelSize(len(self.names), self.assertions, "assertions")


def build_smt_model(instance: Instance, kind: str = "bool", unique: bool = False) -> SmtModel:
    """The SMT model ``kind`` of ``instance`` (see the module docstring)."""
    require_instance(instance)
    require_bool(unique, "unique")
    require_choice(kind, MODELS, "SMT model")
    if unique:
        require_symmetric(instance)
        if kind == "int":
            raise NQueensError("the int SMT model has no symmetry breaking: use option model=bool for unique solutions")
    return _int_model(instance) if kind == "int" else _bool_model(instance, unique)


def _bool_model(instance: Instance, unique: bool) -> SmtModel:
    model = build_line_model(instance)
    names = [f"x{i + 1}" for i in range(len(model.squares))]
    commands = [f"(declare-fun {name} () Bool)" for name in names]
    asserts: list[str] = []
    for line in model.exactly_one:
        if not line:
            asserts.append("(assert false)")  # a free row or column without an open square
            continue
        asserts.append(f"(assert ((_ pbeq 1 {' '.join(['1'] * len(line))}) {' '.join(names[i] for i in line)}))")
    asserts += [f"(assert ((_ at-most 1) {' '.join(names[i] for i in line)}))" for line in model.at_most_one]
    asserts += [f"(assert {names[i]})" for i in model.forced]
    if not model.consistent:
        asserts.append("(assert false)")
    if unique and instance.n > 1:
        variables, clauses = lex_leader_clauses(instance.n)
        commands += [f"(declare-fun x{v} () Bool)" for v in range(len(names) + 1, variables + 1)]
        for clause in clauses:
            literals = " ".join(f"x{lit}" if lit > 0 else f"(not x{-lit})" for lit in clause)
            asserts.append(f"(assert (or {literals}))")
    return SmtModel(instance.n, "bool", "\n".join([*commands, *asserts]) + "\n", tuple(names), model.squares,
                    model.settled, len(asserts))


def _int_model(instance: Instance) -> SmtModel:
    n = instance.n
    if uses_reduction(instance):
        reduction = reduce_instance(instance)
        rows = reduction.rows
        domains: dict[int, list[int]] = {r: [] for r in rows}
        for r, c in reduction.squares:
            domains[r].append(c)
        settled = instance.fixed
        possible = reduction.consistent
    else:
        rows = tuple(range(n))
        domains = {r: list(range(n)) for r in rows}
        settled = ()
        possible = True
    names = [f"q{r}" for r in rows]
    commands = [f"(declare-fun {name} () Int)" for name in names]
    asserts: list[str] = []
    for r, name in zip(rows, names, strict=True):
        columns = domains[r]
        if not columns:
            possible = False
        elif len(columns) == n:
            asserts.append(f"(assert (and (<= 0 {name}) (< {name} {n})))")
        else:
            asserts.append(f"(assert (or {' '.join(f'(= {name} {c})' for c in columns)}))")
    if len(rows) > 1:
        asserts.append(f"(assert (distinct {' '.join(names)}))")
        asserts.append(f"(assert (distinct {' '.join(f'(+ {name} {r})' for r, name in zip(rows, names, strict=True))}))")
        asserts.append(f"(assert (distinct {' '.join(f'(- {name} {r})' for r, name in zip(rows, names, strict=True))}))")
    if not uses_reduction(instance):
        asserts += [f"(assert (= q{r} {c}))" for r, c in instance.fixed]
    if not possible:
        asserts.append("(assert false)")
    return SmtModel(n, "int", "\n".join([*commands, *asserts]) + "\n", tuple(names),
                    tuple((r, -1) for r in rows), settled, len(asserts))


#: The logic each model's export declares: the Boolean model uses z3's cardinality extensions,
#: outside any standard logic, so it declares none (``ALL`` would do for z3 too).
EXPORT_LOGIC = {"bool": None, "int": "QF_LIA"}


def smt2_text(instance: Instance, kind: str = "bool") -> str:
    """The whole SMT-LIB 2 file of ``instance``: header comments, the model, ``(check-sat)``, ``(get-model)``."""
    built = build_smt_model(instance, kind)
    logic = EXPORT_LOGIC[kind]
    if kind == "bool":
        meaning = (f"x<i> is true when a queen stands on square i (full board: x<r*{instance.n} + c + 1> is (r, c), "
                   "0-based; a reduced board numbers its open squares row by row)")
    else:
        meaning = "q<r> is the column (0-based) of the queen on row r"
    return "\n".join([
        f"; N-Queens in SMT-LIB 2 ({kind} model), written by nqueens-cp "
        f"(`nqueens-cp export N --format {'smt2' if kind == 'bool' else 'smt2-int'}`)",
        f"; n = {instance.n}; pre-placed queens (row:col) = {placed_text(instance)}",
        f"; blocked squares (row:col) = {blocked_text(instance)}",
        f"; {meaning}",
        "; Run: z3 FILE.smt2" + ("" if logic else " (pbeq and at-most are z3's cardinality extensions)"),
        *([f"(set-logic {logic})"] if logic else []),
        built.body.rstrip("\n"),
        "(check-sat)",
        "(get-model)",
        "",
    ])


#: Bytes one square of the Boolean SMT model costs in z3 (text, parse and solver; peak memory over
#: start-up for a first solution: 5.7 KB at n = 128, 4.6 KB at n = 256).
BYTES_PER_SMT_SQUARE = 6000
#: Bytes one pair of rows costs in the integer SMT model (z3 expands each distinct into pairwise
#: disequalities, three per pair, and its arithmetic search keeps bounds on them: 92 KB at n = 32).
BYTES_PER_SMT_ROW_PAIR = 100_000


def smt_memory(instance: Instance, model: str) -> ModelEstimate:
    """The SMT model of ``instance`` in z3: O(n²) for both (squares, or the distinct's row pairs)."""
    n = model_rows(instance)
    if model == "int":
        pairs = n * (n - 1) // 2
        return ModelEstimate(f"integer SMT model of n = {instance.n}", ModelSize(n, 3 * pairs, "disequalities"),
                             pairs * BYTES_PER_SMT_ROW_PAIR / MEGABYTE)
    return ModelEstimate(f"Boolean SMT model of n = {instance.n}", ModelSize(n * n, 6 * n),
                         n * n * BYTES_PER_SMT_SQUARE / MEGABYTE)
