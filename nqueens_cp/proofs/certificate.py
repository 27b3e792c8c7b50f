"""Certificates: a negative answer or a count, checked from the CNF, the solutions and a DRUP proof.

A count is certified when

1. every solution found passes the independent checker (:mod:`nqueens_cp.checker`) and no two are
   the same board;
2. the CNF plus one *blocking clause* per solution (the negations of its queens' square variables,
   written here from the checked boards, not taken from the solver) is refuted by the DRUP proof
   (:func:`~.drup.check_drup`);
3. every clause of the CNF is implied by the rules (:mod:`.rules`), so every solution of the
   board is a model of the CNF.

Then no solution exists besides those found: it would be a model of the CNF (3) outside every
blocking clause, which (2) rules out. "No solution" is the count 0. When an encoding's clauses use
auxiliary variables (every encoding but ``pairwise``), (3) cannot be checked for those clauses: the
blocking clauses then block the square variables only, so (2) still proves that no model projects
to a board outside those found, and the certificate says how many clauses were taken on trust.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from ..checker import solution_problems
from ..errors import CertificationError
from ..instance import Instance, Solution
from .drup import ProofCheck, check_drup, dimacs_text
from .rules import unimplied_clauses


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
    #: The CNF's clauses the rules do not imply (over auxiliary variables): 0 for ``pairwise``.
    trusted_clauses: int
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
        rules = ("every CNF clause implied by the rules" if not self.trusted_clauses else
                 f"{self.trusted_clauses} CNF clauses over auxiliary variables taken on trust")
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
    unimplied = unimplied_clauses(
        cnf.instance.n, cnf.instance.fixed, cnf.instance.blocked, cnf.squares, cnf.clauses
    )
    top = len(cnf.squares)
    for position in unimplied:
        clause = cnf.clauses[position]
        if all(abs(lit) <= top for lit in clause):
            text = " ".join(map(str, (*clause, 0)))
            raise CertificationError(f"CNF clause {position + 1} ({text}) is not implied by the rules of the board")
    trusted = len(unimplied)
    proof_text = without_deletions_of(proof_text, [*cnf.clauses, *blocks])
    proof = check_drup(cnf_text, proof_text)
    return Certificate(len(solutions), proof, trusted, cnf_text, proof_text, time.perf_counter() - started)


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
