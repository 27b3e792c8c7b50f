"""The N-Queens family's models written for outside solvers, and their answers read back.

Every file is written from the one 0-1 linear model of :func:`~nqueens_cp.models.family.build_family_model`
(the model CP-SAT and HiGHS solve), so an outside solver answers exactly that model:

=========  ==========================================================================================
format     what is written
=========  ==========================================================================================
``lp``     CPLEX LP: ``Minimize``/``Maximize`` the objective, every row, every variable ``Binary``
``mps``    free MPS, ``OBJSENSE MAX`` for a maximisation, every variable ``BV``
``opb``    pseudo-Boolean (PB competition OPB): ``min:`` the objective (a maximisation as the minimum
           of its negation), each row as ``>=`` or ``=`` (a ``<=`` row negated)
``wcnf``   weighted MaxSAT (an optimisation problem): every row as hard clauses, one soft unit clause
           per objective term (``-x`` of weight 1 for a minimised ``x``, ``x`` for a maximised one)
``dimacs`` CNF (a placement problem): every row as clauses
``smt2``   SMT-LIB 2 for z3: the same 0-1 program over Booleans, one pseudo-Boolean assertion per row,
           ``(minimize ...)``/``(maximize ...)`` (:mod:`nqueens_cp.models.family_smt`, what the smt
           backend solves), then ``(check-sat)`` and ``(get-model)``
=========  ==========================================================================================

Two more are the paradigms' own models, not the 0-1 program: ``asp`` (the answer set program of
:mod:`nqueens_cp.models.family_asp`, for clingo) and ``minizinc`` (the MiniZinc model of
:mod:`nqueens_cp.models.family_minizinc`, for Gecode or any MiniZinc solver), the models the asp
and minizinc backends solve; their answers name the pieces (``q(R,C)``, ``colour(R,C,K)``,
``w(R,C)``, ``b(R,C)``).

The CNFs are :func:`~nqueens_cp.models.family_cnf.family_cnf`'s, the clauses the ``sat`` backend
solves: each row a cardinality constraint over literals, by PySAT's sequential counter for at most
one and its totalizer for the rest; auxiliary variables come after the model's.

Variable ``v`` of the model is ``x<v>`` in LP, MPS, OPB and SMT-LIB and ``v`` in the CNFs; the
header of each file says what the variables mean. :func:`decode_family` reads a solver's answer
back (``s``/``v``/``o`` lines of SAT, MaxSAT and PB solvers, ``name value`` lines of MIP solvers'
solution files: HiGHS's, Gurobi's ``.sol``; z3's ``sat`` and ``(define-fun x<v> () Bool true)``;
clingo's and MiniZinc's printed atoms, the last answer's) into the witness, which the independent
checker judges.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from nqueens_cp.core.errors import BackendOptionError, ModelFileError
from nqueens_cp.core.family_checker import witness_problems, witness_value
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Direction, Goal, Problem, Witness
from nqueens_cp.export.decode import parse_solver_output
from nqueens_cp.models.family import FamilyModel, build_family_model
from nqueens_cp.models.family_asp import atoms_witness, family_asp_program, parse_atoms
from nqueens_cp.models.family_cnf import FamilyCnf, family_cnf, soft_literals
from nqueens_cp.models.family_minizinc import family_minizinc_model
from nqueens_cp.models.family_smt import family_smt_model
from nqueens_cp.models.linear import LinearRow

#: The family's export formats and their file suffixes.
FAMILY_FORMAT_SUFFIXES: dict[str, str] = {"lp": ".lp", "mps": ".mps", "opb": ".opb", "wcnf": ".wcnf",
                                          "dimacs": ".cnf", "smt2": ".smt2", "asp": ".asp.lp", "minizinc": ".mzn"}
FAMILY_FORMATS: tuple[str, ...] = tuple(FAMILY_FORMAT_SUFFIXES)
#: Terms written on one line of an LP file (its readers take long lines, a person reads short ones).
LP_TERMS_PER_LINE = 12


def _meaning(model: FamilyModel) -> list[str]:
    """What the model's variables are, for a file's header (without its comment mark)."""
    n, squares = model.n, model.n * model.n
    goal = model.problem.goal
    if goal is Goal.COLOUR:
        return [f"variable k*{squares} + r*{n} + c + 1 (k = 0..{model.colours - 1}): square (r, c) has colour k",
                f"variable {model.colours * squares} + k + 1: colour k is used; minimise the colours used"]
    if goal is Goal.PEACEABLE:
        return [f"variable r*{n} + c + 1: a white queen on square (r, c); variable {squares} + r*{n} + c + 1: a "
                "black one", "maximise the white queens (the armies are equal)"]
    what = "a queen" if goal is not Goal.PLACE else "the piece of row r"
    objective = {Goal.PLACE: "no objective: any placement",
                 Goal.DOMINATE: "minimise the queens",
                 Goal.DOMINATE_INDEPENDENT: "minimise the queens"}[goal]
    return [f"variable r*{n} + c + 1: {what} on square (r, c), 0-based", objective]


def _header(model: FamilyModel, mark: str, fmt: str) -> list[str]:
    published = SEQUENCES[model.problem.sequences[0]].get(model.n)
    known = f"; {model.problem.sequences[0]}: {published}" if published is not None else ""
    return [f"{mark} {model.problem.value} on the {model.n} x {model.n} board, written by nqueens-cp "
            f"(`nqueens-cp export {model.n} --problem {model.problem.value} --format {fmt}`){known}",
            f"{mark} the 0-1 model of nqueens_cp.models.family: {model.variables} variables, {len(model.rows)} rows",
            *(f"{mark} {line}" for line in _meaning(model)),
            f"{mark} read an answer back: nqueens-cp decode {model.n} ANSWER_FILE --problem {model.problem.value}"]


def _sum(terms: tuple[tuple[int, int], ...], name: Callable[[int], str]) -> list[str]:
    """``+ x1 - x2 ...`` cut into lines of :data:`LP_TERMS_PER_LINE` terms."""
    words = [f"{'+' if c > 0 else '-'} {'' if abs(c) == 1 else f'{abs(c)} '}{name(v)}" for c, v in terms]
    return [" ".join(words[i:i + LP_TERMS_PER_LINE]) for i in range(0, len(words), LP_TERMS_PER_LINE)] or ["0 x1"]


def _sides(row: LinearRow) -> list[tuple[str, str, int]]:
    """``(name, sense, right-hand side)`` of each one-sided constraint ``row`` stands for."""
    if row.lower is not None and row.lower == row.upper:
        return [(row.name, "=", row.lower)]
    sides = []
    if row.lower is not None:
        sides.append((f"{row.name}_lo" if row.upper is not None else row.name, ">=", row.lower))
    if row.upper is not None:
        sides.append((row.name, "<=", row.upper))
    return sides


def family_lp_text(model: FamilyModel) -> str:
    """``model`` in CPLEX LP format (read by HiGHS, CPLEX, Gurobi, SCIP, CBC, GLPK)."""
    def name(v: int) -> str:
        return f"x{v}"

    out = [*_header(model, "\\", "lp")]
    objective = model.objective
    out.append("Maximize" if objective is not None and objective.direction is Direction.MAXIMISE else "Minimize")
    body = _sum(objective.terms, name) if objective is not None else ["0 x1"]
    out += [f" obj: {body[0]}", *(f"   {line}" for line in body[1:]), "Subject To"]
    for row in model.rows:
        lines = _sum(row.terms, name)
        for label, sense, rhs in _sides(row):
            out += [f" {label}: {lines[0]}", *(f"   {line}" for line in lines[1:])]
            out[-1] += f" {sense} {rhs}"
    out += ["Binary", *(f" x{v}" for v in range(1, model.variables + 1)), "End", ""]
    return "\n".join(out)


def family_mps_text(model: FamilyModel) -> str:
    """``model`` in free MPS format (one matrix entry per line, binaries by ``BV`` bounds)."""
    out = [*_header(model, "*", "mps"), f"NAME nqueens_{model.problem.value.replace('-', '_')}_{model.n}"]
    objective = model.objective
    if objective is not None and objective.direction is Direction.MAXIMISE:
        out += ["OBJSENSE", "    MAX"]
    out += ["ROWS", " N obj"]
    constraints: list[tuple[str, str, int, LinearRow]] = []
    for row in model.rows:
        for label, sense, rhs in _sides(row):
            constraints.append((label, {"=": "E", "<=": "L", ">=": "G"}[sense], rhs, row))
            out.append(f" {constraints[-1][1]} {label}")
    entries: dict[int, list[tuple[str, int]]] = {v: [] for v in range(1, model.variables + 1)}
    for c, v in objective.terms if objective is not None else ():
        entries[v].append(("obj", c))
    for label, _, _, row in constraints:
        for c, v in row.terms:
            entries[v].append((label, c))
    out.append("COLUMNS")
    for v in range(1, model.variables + 1):
        out += [f" x{v} {label} {c}" for label, c in entries[v]] or [f" x{v} obj 0"]
    out.append("RHS")
    out += [f" RHS {label} {rhs}" for label, _, rhs, _ in constraints if rhs != 0]
    out += ["BOUNDS", *(f" BV BND x{v}" for v in range(1, model.variables + 1)), "ENDATA", ""]
    return "\n".join(out)


def _opb_terms(terms: tuple[tuple[int, int], ...], sign: int = 1) -> str:
    return " ".join(f"{'+' if sign * c > 0 else '-'}{abs(c)} x{v}" for c, v in terms)


def family_opb_text(model: FamilyModel) -> str:
    """``model`` in OPB (the pseudo-Boolean competition's format: ``>=`` and ``=`` rows, ``min:``)."""
    constraints = sum(len(_sides(row)) for row in model.rows)
    out = [f"* #variable= {model.variables} #constraint= {constraints}", *_header(model, "*", "opb")]
    objective = model.objective
    if objective is not None:
        maximise = objective.direction is Direction.MAXIMISE
        if maximise:
            out.append("* maximised: written as the minimum of its negation (the optimum is minus the minimum)")
        out.append(f"min: {_opb_terms(objective.terms, -1 if maximise else 1)} ;")
    for row in model.rows:
        for _, sense, rhs in _sides(row):
            if sense == "<=":
                out.append(f"{_opb_terms(row.terms, -1)} >= {-rhs} ;")
            else:
                out.append(f"{_opb_terms(row.terms)} {sense} {rhs} ;")
    return "\n".join(out) + "\n"


def _auxiliaries(cnf: FamilyCnf) -> list[str]:
    if cnf.variables == cnf.model.variables:
        return ["c no auxiliary variables"]
    return [f"c variables {cnf.model.variables + 1}..{cnf.variables} are auxiliary (PySAT's cardinality encodings)"]


def _clause(literals: tuple[int, ...]) -> str:
    return " ".join(map(str, (*literals, 0)))


def family_dimacs_text(model: FamilyModel) -> str:
    """A placement problem's model as DIMACS CNF (every model of it is a placement)."""
    if model.objective is not None:
        raise BackendOptionError(f"{model.problem.value} is an optimisation problem: export it as wcnf "
                                 "(MaxSAT), opb, lp or mps")
    cnf = family_cnf(model)
    out = [*_header(model, "c", "dimacs"),
           *_auxiliaries(cnf),
           f"p cnf {cnf.variables} {len(cnf.clauses)}", *map(_clause, cnf.clauses)]
    return "\n".join(out) + "\n"


def family_wcnf_text(model: FamilyModel) -> str:
    """An optimisation problem's model as weighted MaxSAT (``p wcnf``: hard clauses weighted
    ``top``, a soft unit clause per objective term); the optimum's cost is the number of soft
    clauses falsified: the optimum itself for a minimisation, the terms minus it for a maximisation."""
    objective = model.objective
    if objective is None:
        raise BackendOptionError(f"{model.problem.value} is a placement problem: export it as dimacs (no "
                                 "objective to weigh)")
    cnf = family_cnf(model)
    maximise = objective.direction is Direction.MAXIMISE
    soft = [(1, literal) for literal in soft_literals(objective)]
    top = sum(weight for weight, _ in soft) + 1
    cost = (f"the cost of an answer is {len(soft)} minus the value" if maximise
            else "the cost of an answer is its value")
    out = [*_header(model, "c", "wcnf"),
           *_auxiliaries(cnf),
           f"c hard clauses weigh {top}; one soft unit clause of weight 1 per objective term: {cost}",
           f"p wcnf {cnf.variables} {len(cnf.clauses) + len(soft)} {top}",
           *(f"{top} {_clause(clause)}" for clause in cnf.clauses),
           *(f"{weight} {literal} 0" for weight, literal in soft)]
    return "\n".join(out) + "\n"


def family_smt2_text(model: FamilyModel) -> str:
    """``model`` in SMT-LIB 2 (:func:`~nqueens_cp.models.family_smt.family_smt_model`), asking z3 for
    the optimum (or a placement) and its model."""
    built = family_smt_model(model.problem, model.n)
    return "\n".join([*_header(model, ";", "smt2"), built.body + "(check-sat)", "(get-model)", ""])


_WRITERS: dict[str, Callable[[FamilyModel], str]] = {
    "lp": family_lp_text, "mps": family_mps_text, "opb": family_opb_text, "wcnf": family_wcnf_text,
    "dimacs": family_dimacs_text, "smt2": family_smt2_text,
}
#: The formats that are a paradigm's own model rather than the 0-1 program.
_OWN_MODELS: dict[str, Callable[[Problem, int], str]] = {
    "asp": lambda problem, n: family_asp_program(problem, n).text,
    "minizinc": lambda problem, n: family_minizinc_model(problem, n).text,
}


def export_family_model(problem: Problem, n: int, fmt: str) -> str:
    """The model of ``problem`` on the n x n board in format ``fmt`` (one of :data:`FAMILY_FORMATS`)."""
    if fmt not in FAMILY_FORMAT_SUFFIXES:
        raise BackendOptionError(f"--problem {problem.value} is written as {', '.join(FAMILY_FORMATS)}, not {fmt}")
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise BackendOptionError(f"n must be an integer >= 1, got {n!r}")
    if fmt in _OWN_MODELS:
        return _OWN_MODELS[fmt](problem, n)
    return _WRITERS[fmt](build_family_model(problem, n))


# -- reading an answer back -------------------------------------------------------------------------

_COLUMN = re.compile(r"^x(\d+)\s+(-?[0-9.eE+-]+)$")
#: The MaxSAT Evaluation's and the MIP solution files' status words, as :class:`FamilyDecoded` keeps them.
_OPTIMUM_WORDS = ("s OPTIMUM FOUND", "Optimal")


@dataclass(frozen=True)
class FamilyDecoded:
    """A solver's answer to an exported family model, read back: the ``witness`` its variables
    describe (None when there is none), what it achieves, every reason the independent checker
    gives against it, and whether the solver said it is optimal (``s OPTIMUM FOUND``, HiGHS's
    ``Optimal``) or that there is no answer (``UNSATISFIABLE``)."""

    problem: Problem
    n: int
    witness: Witness | None
    value: int | None
    problems: tuple[str, ...]
    claims_optimum: bool
    unsatisfiable: bool = False


def _true_variables(text: str, source: str) -> tuple[set[int], bool, bool]:
    """The variables set true by ``text``, whether it says optimal, and whether it says unsatisfiable."""
    lines = [line.strip() for line in text.splitlines()]
    optimal = any(line.startswith(word) for line in lines for word in _OPTIMUM_WORDS)
    columns = [match for line in lines if (match := _COLUMN.match(line))]
    if columns:  # a MIP solver's solution file: "x12 1" per column
        return {int(m.group(1)) for m in columns if float(m.group(2)) > 0.5}, optimal, False
    kept = [_literal_line(line) for line in lines if not line.startswith(("s OPTIMUM FOUND", "o "))]
    answer = parse_solver_output("\n".join(kept) + ("\ns SATISFIABLE" if optimal else ""), source)
    unsatisfiable = answer.status == "UNSATISFIABLE"
    if not answer.literals and not unsatisfiable:
        said = "OPTIMUM FOUND" if optimal else answer.status or "nothing"
        raise ModelFileError(f"{source}: the solver says {said} but gives no model (rc2.py prints it with -vv)")
    return {lit for lit in answer.literals if lit > 0}, optimal, unsatisfiable


def _literal_line(line: str) -> str:
    """A MaxSAT Evaluation ``v 0110...`` line (the value of variable i at place i) as literals."""
    words = line.split()
    if len(words) == 2 and words[0] == "v" and len(words[1]) > 1 and set(words[1]) <= {"0", "1"}:
        return "v " + " ".join(str(i if bit == "1" else -i) for i, bit in enumerate(words[1], start=1))
    return line


_SMT_TRUE = re.compile(r"\(define-fun\s+x(\d+)\s+\(\)\s+Bool\s+true\s*\)")
#: clingo's line before each answer set, and MiniZinc's after each solution.
_CLINGO_ANSWER = re.compile(r"^Answer: \d+.*$", re.MULTILINE)
_MINIZINC_END = re.compile(r"^----------$", re.MULTILINE)


def _smt_answer(text: str) -> tuple[set[int], bool, bool]:
    """z3's answer: the variables ``x<v>`` its model sets true, whether it says ``sat`` (with an
    objective: z3's optimiser ended, the optimum), and whether it says ``unsat``."""
    words = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith(";")]
    status = words[0] if words else ""
    return {int(v) for v in _SMT_TRUE.findall(text)}, status == "sat", status == "unsat"


def _atoms_answer(text: str) -> tuple[list[tuple[str, tuple[int, ...]]], bool, bool]:
    """clingo's or MiniZinc's printed answer: the atoms of the last answer, whether the solver says
    it is optimal (clingo's ``OPTIMUM FOUND``, MiniZinc's ``==========``: the search ended) and
    whether it says there is none."""
    lines = {line.strip() for line in text.splitlines()}
    solutions = _MINIZINC_END.split(text)
    last = solutions[-2] if len(solutions) > 1 else _CLINGO_ANSWER.split(text)[-1]
    optimal = "OPTIMUM FOUND" in lines or "==========" in lines
    unsatisfiable = "UNSATISFIABLE" in lines or "=====UNSATISFIABLE=====" in lines
    return parse_atoms(last), optimal, unsatisfiable


def decode_family(problem: Problem, n: int, text: str, source: str = "solver output") -> FamilyDecoded:
    """The witness a solver's answer ``text`` (see :class:`FamilyDecoded`) gives for the model of
    ``problem`` on the n x n board, checked by the independent checker; ``ModelFileError`` when
    ``text`` is no answer at all."""
    model = build_family_model(problem, n)
    if "define-fun" in text or text.lstrip().startswith(("sat", "unsat", "unknown")):
        true, optimal, unsatisfiable = _smt_answer(text)
        atoms = None
    elif _CLINGO_ANSWER.search(text) or _MINIZINC_END.search(text) or "=====UNSATISFIABLE=====" in text:
        atoms, optimal, unsatisfiable = _atoms_answer(text)
    else:
        true, optimal, unsatisfiable = _true_variables(text, source)  # the CNFs' auxiliaries are ignored
        atoms = None
    if unsatisfiable:
        return FamilyDecoded(problem, n, None, None, (), False, True)
    try:
        witness = atoms_witness(problem, n, atoms) if atoms is not None else model.decode(lambda v: v in true)
    except StopIteration:  # a colouring's square without a colour
        return FamilyDecoded(problem, n, None, None, ("a square has no colour",), optimal)
    problems = tuple(witness_problems(problem, n, witness))
    return FamilyDecoded(problem, n, witness, None if problems else witness_value(problem, witness), problems, optimal)
