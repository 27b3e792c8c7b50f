"""Certificates: a negative answer or a count, checked from the CNF, the solutions and a DRUP proof.

A count is certified when

1. every solution found passes the independent checker (:mod:`nqueens_cp.core.checker`) and no two are
   the same board;
2. the CNF plus one *blocking clause* per solution (the negations of its queens' square variables,
   written here from the checked boards, not taken from the solver) is refuted by the DRUP proof
   (:func:`~.drup.check_drup`);
3. every solution of the board extends to a model of the CNF: each clause over square variables
   alone is implied by the rules (:mod:`.rules`), and every board extends to the clauses over
   auxiliary variables (:mod:`.auxiliary`); the square variables cover every possible square but
   the pre-placed queens', so two boards differ on one of them.

Then no solution exists besides those found: it would extend to a model of the CNF (3) outside
every blocking clause, which (2) rules out. "No solution" is the count 0. With an encoding that has
auxiliary variables (every one but ``pairwise``) the blocking clauses block the square variables
only: a board comes back once whatever its auxiliary values.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from nqueens_cp.core.checker import solution_problems
from nqueens_cp.core.errors import CertificationError
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.proofs.auxiliary import AuxiliaryCheck, check_auxiliary_clauses, clause_text
from nqueens_cp.proofs.drup import ProofCheck, check_drup, dimacs_text
from nqueens_cp.proofs.rules import no_board, possible_squares, square_map_problem, unimplied_clauses


@dataclass(frozen=True)
class CnfOfBoard:
    """A CNF over the squares of ``instance``: variable ``i + 1`` is ``squares[i]``."""

    instance: Instance
    variables: int
    clauses: tuple[tuple[int, ...], ...]
    squares: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Certificate:
    """A checked answer: the number of solutions of the board and what made it certain."""

    solutions: int
    proof: ProofCheck
    #: The CNF's clauses over auxiliary variables that the rules alone do not imply, checked to
    #: forbid no board (none for ``pairwise``).
    auxiliary: AuxiliaryCheck
    #: The DIMACS text the proof was checked against (the CNF and the blocking clauses) and the proof.
    cnf_text: str
    proof_text: str
    #: Seconds spent checking: the solutions, the rules, the proof.
    check_seconds: float

    def summary(self) -> str:
        """One line saying what was checked."""
        answer = "no solution" if self.solutions == 0 else (
            f"{self.solutions} solution{'s' if self.solutions != 1 else ''}, each checked, and no other"
        )
        aux = self.auxiliary
        rules = ("every CNF clause implied by the rules" if not aux.clauses else
                 "every CNF clause over squares alone implied by the rules, and every board extends to "
                 f"the {aux.clauses} clauses over {aux.variables} auxiliary variables")
        return (f"certified: {answer} (DRUP proof of {self.proof.lemmas} lemmas refutes the CNF"
                f"{f' and {self.solutions} blocking clauses' if self.solutions else ''}; {rules}; "
                f"checked in {self.check_seconds:.2f} s)")


def blocking_clause(cnf: CnfOfBoard, solution: Solution) -> tuple[int, ...]:
    """The clause no model placing ``solution``'s queens satisfies (over the square variables)."""
    variable = {square: number for number, square in enumerate(cnf.squares, start=1)}
    return tuple(-variable[(row, col)] for row, col in enumerate(solution) if (row, col) in variable)


def certify(cnf: CnfOfBoard, solutions: Sequence[Solution], proof_text: str) -> Certificate:
    """Check that ``solutions`` are all the solutions of ``cnf.instance`` (see the module docstring);
    raise ``CertificationError`` with one line naming what failed."""
    started = time.perf_counter()
    seen: dict[Solution, int] = {}
    for number, solution in enumerate(solutions, start=1):
        problems = solution_problems(cnf.instance, solution)
        if problems:
            raise CertificationError(f"solution {number} {solution} is not a solution: {problems[0]}")
        if solution in seen:
            raise CertificationError(f"solution {number} {solution} repeats solution {seen[solution]}")
        seen[solution] = number
    blocks = [blocking_clause(cnf, solution) for solution in solutions]
    cnf_text = dimacs_text(cnf.variables, [*cnf.clauses, *blocks])
    auxiliary = check_clauses(cnf)
    proof_text = without_deletions_of(proof_text, [*cnf.clauses, *blocks])
    proof = check_drup(cnf_text, proof_text)
    return Certificate(len(solutions), proof, auxiliary, cnf_text, proof_text, time.perf_counter() - started)


def check_clauses(cnf: CnfOfBoard) -> AuxiliaryCheck:
    """Check 3 of the module docstring, that every board extends to a model of ``cnf``: what it checked,
    or ``CertificationError`` with one line naming a clause."""
    n, fixed = cnf.instance.n, cnf.instance.fixed
    possible = possible_squares(n, fixed, cnf.instance.blocked)
    if no_board(n, fixed, possible):
        return AuxiliaryCheck(0, 0, 0, 0)  # no board to extend
    problem = square_map_problem(n, fixed, possible, cnf.squares)
    if problem is not None:
        raise CertificationError(f"the CNF's square variables: {problem}")
    unimplied = unimplied_clauses(n, fixed, cnf.instance.blocked, cnf.squares, cnf.clauses, possible)
    top = len(cnf.squares)
    for position in unimplied:
        clause = cnf.clauses[position]
        if all(abs(lit) <= top for lit in clause):
            raise CertificationError(
                f"CNF clause {position + 1} ({clause_text(clause)}) is not implied by the rules of the board")
    if not unimplied:
        return AuxiliaryCheck(0, 0, 0, 0)
    return check_auxiliary_clauses(n, fixed, possible, cnf.squares, cnf.clauses, unimplied)


def without_deletions_of(proof_text: str, clauses: Sequence[Sequence[int]]) -> str:
    """``proof_text`` without its lines deleting one of ``clauses`` (the formula's own).

    A solver given clauses between solve calls (the blocking clauses) may bring back formula
    clauses it had deleted (CaDiCaL restores the clauses of eliminated variables) without a proof
    line: a checker honouring those deletions would refuse later lemmas that use them. Keeping a
    clause never makes a lemma fail, so the deletions of formula clauses are dropped; the lemmas'
    own deletions stay, and the proof stays a proof for any DRUP checker.
    """
    if "d" not in proof_text:
        return proof_text
    formula = {frozenset(clause) for clause in clauses}
    kept = [line for line in proof_text.splitlines(keepends=True)
            if not line.startswith("d") or frozenset(map(int, line.split()[1:-1])) not in formula]
    return "".join(kept)
