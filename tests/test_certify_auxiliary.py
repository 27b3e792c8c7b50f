"""Certified counts with every encoding: the clauses over auxiliary variables are checked, not trusted.

A hostile CNF writer is played here: it takes a good CNF, adds one clause over an auxiliary variable
that forbids the boards with a queen on one square, solves the result with a proof and hands over
the boards it found. Its proof and its boards are right for its CNF; only the check that every board
extends to the clauses over auxiliary variables (``nqueens_cp/proofs/auxiliary.py``) can refuse it.
"""

from __future__ import annotations

import random

import pytest

from nqueens_cp import Instance
from nqueens_cp.backends.sat import SatBackend
from nqueens_cp.core.errors import CertificationError
from nqueens_cp.core.instance import Solution
from nqueens_cp.models.cnf import QueensCnf, build_cnf
from nqueens_cp.models.encodings import ENCODINGS
from nqueens_cp.proofs.auxiliary import check_auxiliary_clauses, satisfying_values
from nqueens_cp.proofs.certificate import Certificate, CnfOfBoard, certify
from nqueens_cp.proofs.rules import possible_squares

AUXILIARY_ENCODINGS = [encoding for encoding in ENCODINGS if encoding != "pairwise"]


def solve_with_proof(built: QueensCnf, clauses: list[list[int]]) -> tuple[list[Solution], str]:
    """Every board of ``clauses`` (blocked on the square variables, as the sat backend does), and the proof."""
    from pysat.solvers import Solver

    found: list[Solution] = []
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        while solver.solve():
            queens = [lit for lit in solver.get_model()[: len(built.squares)] if lit > 0]
            found.append(built.decode(queens))
            solver.add_clause([-lit for lit in queens])
        proof = "".join(line + "\n" for line in solver.get_proof())
    return found, proof


def forbidding_clause(built: QueensCnf, square: tuple[int, int]) -> list[int]:
    """``¬q ∨ l`` for the queen variable ``q`` of ``square`` and an auxiliary literal ``l`` sharing a
    clause with ``q`` that every model with ``q`` true makes false: the boards with a queen on
    ``square`` lose their models, the others keep theirs."""
    from pysat.solvers import Solver

    queen = built.queen(*square)
    top = len(built.squares)
    near = sorted({abs(lit) for clause in built.cnf.clauses if queen in map(abs, clause)
                   for lit in clause if abs(lit) > top})
    with Solver(name="cadical195", bootstrap_with=built.cnf.clauses) as solver:
        for variable in near:
            for lit in (variable, -variable):
                if not solver.solve(assumptions=[queen, lit]):
                    return [-queen, lit]
    raise AssertionError(f"no auxiliary literal forced by a queen on {square} with {built.encoding}")


def cnf_of(built: QueensCnf, instance: Instance, clauses: list[list[int]]) -> CnfOfBoard:
    return CnfOfBoard(instance, built.cnf.nv, tuple(map(tuple, clauses)), built.squares)


# -- every encoding certifies the right count, with nothing on trust ------------------------------


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_every_encoding_certifies_the_right_counts(encoding: str) -> None:
    for instance, count, checked in [
        (Instance(6), 4, True), (Instance(8), 92, True),
        (Instance(8, {0: 0}), 4, True),  # a completion: full CNF, a unit clause for the queen
        (Instance(6, {0: 1}, [(2, 2), (3, 5)]), 1, True),  # blocked squares: the reduced CNF
        (Instance(6, {0: 0}), 0, True),
        (Instance(5, {0: 0, 1: 1}, [(4, 4)]), 0, False),  # two queens attacking: no board to extend
    ]:
        certificate = SatBackend(encoding=encoding).certified(instance, every=True, on_solution=lambda s: None)
        assert isinstance(certificate, Certificate)
        assert certificate.solutions == count, (encoding, instance)
        auxiliary = certificate.auxiliary
        assert (auxiliary.clauses > 0) == (checked and encoding != "pairwise") and "trust" not in certificate.summary()
        if auxiliary.clauses:
            assert (f"every board extends to the {auxiliary.clauses} clauses over {auxiliary.variables} auxiliary "
                    "variables") in certificate.summary()


# -- one wrong clause over an auxiliary variable, refused with one line naming it ----------------


@pytest.mark.parametrize("encoding", AUXILIARY_ENCODINGS)
def test_a_clause_over_auxiliary_variables_that_forbids_a_board_is_refused(encoding: str) -> None:
    instance = Instance(6)
    built = build_cnf(instance, encoding)
    wrong = forbidding_clause(built, (0, 1))
    clauses = [*built.cnf.clauses, wrong]
    found, proof = solve_with_proof(built, clauses)
    assert len(found) == 3 and (1, 3, 5, 0, 2, 4) not in found  # the board with a queen on (0, 1) is lost
    text = " ".join(map(str, (*wrong, 0)))
    with pytest.raises(CertificationError) as refused:
        certify(cnf_of(built, instance, clauses), found, proof)
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"CNF clause {len(clauses)} ({text}) over auxiliary variables forbids boards: "
                              "with a queen on (0, 1) and none on the other"), message


def test_a_clause_over_auxiliary_variables_alone_is_refused_too() -> None:
    instance = Instance(6)
    built = build_cnf(instance, "seqcounter")
    _, forced = forbidding_clause(built, (0, 1))
    clauses = [*built.cnf.clauses, [forced]]  # a unit clause: false when a queen stands on (0, 1)
    found, proof = solve_with_proof(built, clauses)
    assert len(found) < 4
    with pytest.raises(CertificationError, match=rf"^CNF clause {len(clauses)} \({forced} 0\) over auxiliary "
                                                  r"variables forbids boards: with a queen on \(0, \d\)"):
        certify(cnf_of(built, instance, clauses), found, proof)


def test_a_wrong_clause_inside_the_cnf_is_refused_with_a_clause_of_its_line() -> None:
    instance = Instance(6)
    built = build_cnf(instance, "totalizer")
    wrong = forbidding_clause(built, (0, 1))
    clauses = list(built.cnf.clauses)
    clauses.insert(40, wrong)
    found, proof = solve_with_proof(built, clauses)
    with pytest.raises(CertificationError, match=r"^CNF clause \d+ \(.*\) over auxiliary variables forbids boards"):
        certify(cnf_of(built, instance, clauses), found, proof)


def test_a_completion_with_a_wrong_clause_is_refused_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # no published count to compare with: only the check of the auxiliary clauses can tell
    from nqueens_cp.cli import main

    instance = Instance(8, {0: 0})
    good = build_cnf(instance, "commander")
    boards, _ = solve_with_proof(good, good.cnf.clauses)
    square = (1, boards[0][1])  # a queen some completion has
    wrong = forbidding_clause(good, square)
    good.cnf.append(wrong)
    monkeypatch.setattr(SatBackend, "_build", lambda self, instance, unique: good)
    assert main(["solve", "8", "--fix", "0:0", "--count", "--certify", "--encoding", "commander"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    expected = (f"nqueens-cp: error: certification failed: CNF clause {len(good.cnf.clauses)} "
                f"({wrong[0]} {wrong[1]} 0) over auxiliary variables forbids boards: with a queen on {square} ")
    assert captured.err.startswith(expected) and captured.err.count("\n") == 1, captured.err


# -- what the check cannot decide, and the square variables themselves ---------------------------


def test_the_lex_leader_clauses_of_unique_are_refused() -> None:
    # they keep one board per symmetry class: they do forbid boards (solve --unique --certify is refused anyway)
    instance = Instance(6)
    built = build_cnf(instance, "pairwise", unique=True)
    found, proof = solve_with_proof(built, built.cnf.clauses)
    assert len(found) == 1  # where the board has 4 solutions
    with pytest.raises(CertificationError, match=r"^CNF clause \d+ \(.*\) over auxiliary variables forbids boards"):
        certify(cnf_of(built, instance, built.cnf.clauses), found, proof)


def test_a_component_over_too_many_placements_is_refused_as_not_checkable() -> None:
    squares = [(r, c) for r in range(8) for c in range(8)]
    every = [[-variable, 65] for variable in range(1, 65)]  # one auxiliary variable linked to every square
    with pytest.raises(CertificationError, match=r"^cannot check CNF clause 1 \(-1 65 0\) over auxiliary variables: "
                                                  r"its component's 64 clauses mention 64 squares \(\(0, 0\), "):
        check_auxiliary_clauses(8, (), possible_squares(8, (), ()), squares, every, range(64))


def test_square_variables_that_leave_out_a_possible_square_are_refused() -> None:
    instance = Instance(6)
    built = build_cnf(instance)
    found, proof = solve_with_proof(built, built.cnf.clauses)
    short = CnfOfBoard(instance, 36, tuple(map(tuple, built.cnf.clauses)), built.squares[:-1])
    with pytest.raises(CertificationError, match=r"^the CNF's square variables: the possible square \(5, 5\) "
                                                  r"has no variable$"):
        certify(short, found, proof)
    twice = CnfOfBoard(instance, 36, short.clauses, (*built.squares[:-1], (0, 0)))
    with pytest.raises(CertificationError, match=r"square \(0, 0\) has two variables, 1 and 36$"):
        certify(twice, found, proof)


def test_components_spanning_several_lines_are_checked_by_their_placements() -> None:
    # (¬q(0,0) ∨ a) ∧ (¬q(3,4) ∨ a) ∧ (¬a): squares on no common line; four placements, two forbidden
    squares = [(r, c) for r in range(6) for c in range(6)]
    possible = possible_squares(6, (), ())
    a = 37
    linked = [[-1, a], [-(3 * 6 + 4 + 1), a]]
    assert check_auxiliary_clauses(6, (), possible, squares, linked, [0, 1]).searches == 4
    with pytest.raises(CertificationError, match=r"^CNF clause 3 \(-37 0\) .* with a queen on \(0, 0\) and none"):
        check_auxiliary_clauses(6, (), possible, squares, [*linked, [-a]], [0, 1, 2])


def test_the_search_for_auxiliary_values_agrees_with_trying_every_assignment() -> None:
    rng = random.Random(34)
    for _ in range(300):
        variables = rng.randint(1, 7)
        clauses = [tuple(rng.choice((1, -1)) * rng.randint(1, variables) for _ in range(rng.randint(1, 3)))
                   for _ in range(rng.randint(1, 14))]
        satisfiable = any(all(any((bits >> (abs(lit) - 1) & 1) == (lit > 0) for lit in clause) for clause in clauses)
                          for bits in range(2 ** variables))
        model = satisfying_values(clauses, 0)
        assert (model is not None) == satisfiable, clauses
        if model is not None:
            assert all(any(model[abs(lit)] == (lit > 0) for lit in clause) for clause in clauses)


def pigeons(holes: int, first: int) -> list[list[int]]:
    """``holes + 1`` pigeons in ``holes`` holes, over variables from ``first`` on: unsatisfiable."""
    p = [[first + i * holes + h for h in range(holes)] for i in range(holes + 1)]
    return [*p, *([-p[i][h], -p[j][h]] for h in range(holes) for i in range(holes + 1) for j in range(i))]


def test_clauses_over_auxiliary_variables_alone_that_no_values_satisfy_are_refused() -> None:
    squares = [(r, c) for r in range(4) for c in range(4)]
    clauses = pigeons(3, 17)
    with pytest.raises(CertificationError, match=r"^CNF clause \d+ \(.*\) over auxiliary variables forbids boards: "
                                                  "whatever the board, no values"):
        check_auxiliary_clauses(4, (), possible_squares(4, (), ()), squares, clauses, range(len(clauses)))


def test_a_search_too_long_is_refused_as_not_checkable(monkeypatch: pytest.MonkeyPatch) -> None:
    from nqueens_cp.proofs import auxiliary

    monkeypatch.setattr(auxiliary, "MAX_DECISIONS", 10)
    squares = [(r, c) for r in range(4) for c in range(4)]
    clauses = pigeons(5, 17)
    with pytest.raises(CertificationError, match=r"^cannot check CNF clause 1 over auxiliary variables: the search "
                                                  r"for their values took more than 10 decisions$"):
        check_auxiliary_clauses(4, (), possible_squares(4, (), ()), squares, clauses, range(len(clauses)))
