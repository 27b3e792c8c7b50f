"""Proof-checked answers: the DRUP checker, the rules check, certificates, ``solve --certify``.

Each refusal test changes one thing in a good certificate (a lemma, a clause, a solution) and
expects one line naming it. Where the right verdict on a changed proof is not obvious (a lemma
removed may not have been needed), the outside checker ``drup`` (from PyPI, extracted from a proof
verified in Why3) decides, and ours must agree.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from nqueens_cp import Instance
from nqueens_cp.backends.sat import PROOF_SOLVERS, SatBackend
from nqueens_cp.core.errors import CertificationError
from nqueens_cp.instances.files import read_instance
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.proofs.certificate import Certificate, CnfOfBoard, certify
from nqueens_cp.proofs.drup import check_drup, dimacs_text
from nqueens_cp.proofs.rules import unimplied_clauses

from .conftest import run_cli

CSPLIB = Path(__file__).parent / "data" / "csplib079"


def certified(instance: Instance, **options: str) -> tuple[Certificate, list[tuple[int, ...]], CnfOfBoard]:
    found: list[tuple[int, ...]] = []
    certificate = SatBackend(**options).certified(instance, every=True, on_solution=found.append)
    assert certificate is not None
    built = build_cnf(instance, options.get("encoding", "pairwise"))
    cnf = CnfOfBoard(instance, built.cnf.nv, tuple(map(tuple, built.cnf.clauses)), built.squares)
    return certificate, found, cnf


def lemma_lines(proof: str) -> list[str]:
    return proof.splitlines()


def drup_verdict(cnf_text: str, proof_lines: list[str]) -> bool:
    """The outside checker's verdict (its clause lists, not its text reader: see docs/certified.md)."""
    drup = pytest.importorskip("drup")
    formula = [list(map(int, line.split()[:-1])) for line in cnf_text.splitlines()[1:]]
    steps = [list(map(int, line.split()[:-1])) for line in proof_lines if not line.startswith("d")]
    if [] in steps:
        steps = steps[: steps.index([]) + 1]
    result = drup.check_proof(formula, steps)
    return bool(result.outcome == drup.Outcome.VALID)


def is_rup(clauses: list[list[int]], lemma: list[int]) -> bool:
    """Naive reverse unit propagation: the negation of ``lemma`` propagates to a conflict."""
    value = dict.fromkeys((-lit for lit in lemma), True) | dict.fromkeys(lemma, False)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(value.get(lit) is True for lit in clause):
                continue
            free = [lit for lit in clause if lit not in value]
            if not free:
                return True
            if len(free) == 1:
                value[free[0]], value[-free[0]] = True, False
                changed = True
    return False


# -- the checker on good proofs ----------------------------------------------------------------


@pytest.mark.parametrize("n, count", [(1, 1), (2, 0), (3, 0), (4, 2), (6, 4), (8, 92)])
def test_certified_counts(n: int, count: int) -> None:
    certificate, found, _ = certified(Instance(n))
    assert certificate.solutions == len(found) == count
    assert certificate.auxiliary.clauses == 0
    assert certificate.proof.lemmas >= (n > 1)


@pytest.mark.parametrize("solver", PROOF_SOLVERS)
def test_every_proof_solver_certifies_a_count_and_a_refutation(solver: str) -> None:
    assert certified(Instance(5), solver=solver)[0].solutions == 10
    assert certified(Instance(3), solver=solver)[0].solutions == 0


def test_a_solver_that_writes_no_proof_is_refused_by_name() -> None:
    with pytest.raises(Exception, match="minisat22 writes no checkable proof"):
        SatBackend(solver="minisat22").certified(Instance(4), every=True, on_solution=lambda s: None)


def test_excluded_diagonals_instances_without_solution_are_certified() -> None:
    for name, diagonals in [("diag-10-4-102.param", 6), ("diag-10-4-102.param", 7)]:
        instance = read_instance(CSPLIB / name, diagonals)
        certificate, found, _ = certified(instance)
        assert certificate.solutions == 0 and not found and certificate.auxiliary.clauses == 0


def test_completions_and_pre_placed_queens() -> None:
    assert certified(Instance(8, {0: 0}))[0].solutions == 4
    assert certified(Instance(6, {0: 0}))[0].solutions == 0
    assert certified(Instance(5, {0: 0, 1: 1}))[0].solutions == 0  # two queens attacking: no board


def test_auxiliary_encodings_have_their_auxiliary_clauses_checked() -> None:
    certificate, _, _ = certified(Instance(6), encoding="seqcounter")
    assert certificate.solutions == 4 and certificate.auxiliary.clauses == 292
    assert "every board extends to the 292 clauses over 106 auxiliary variables" in certificate.summary()


def test_outside_checker_agrees_on_a_good_proof() -> None:
    certificate, _, _ = certified(Instance(6))
    assert drup_verdict(certificate.cnf_text, lemma_lines(certificate.proof_text))


def test_reader_of_lines_after_the_empty_clause() -> None:
    # Glucose writes deletions after "0"; drup's reader glues "0" to the next line there.
    assert check_drup("p cnf 2 4\n1 2 0\n-1 2 0\n1 -2 0\n-1 -2 0\n", "2 0\n0\nd -1 -2 0\n").deletions == 1
    with pytest.raises(CertificationError, match=r"^proof line 2: cannot read 'x'$"):
        check_drup("p cnf 1 2\n1 0\n-1 0\n", "1 0\nx 0\n")
    with pytest.raises(CertificationError, match="no closing 0"):
        check_drup("p cnf 1 2\n1 0\n-1 0\n", "1")


# -- it bites: one change, one line naming it --------------------------------------------------


def test_a_lemma_removed_or_altered_or_reordered_is_judged_as_the_outside_checker_judges() -> None:
    certificate, _, _ = certified(Instance(6))
    lines = lemma_lines(certificate.proof_text)
    formula = certificate.cnf_text.splitlines()[1:]
    lemmas = [k for k, line in enumerate(lines[:-1]) if not line.startswith("d")]
    rng = random.Random(7)
    refused = {"removed": 0, "altered": 0, "reordered": 0}
    for kind in refused:
        for _ in range(12):
            changed = list(lines)
            k = rng.choice(lemmas)
            if kind == "removed":
                del changed[k]
            elif kind == "altered":
                lits = changed[k].split()[:-1]
                i = rng.randrange(len(lits))
                lits[i] = str(-int(lits[i]))
                changed[k] = " ".join([*lits, "0"])
            else:
                j = rng.choice(lemmas)
                changed[k], changed[j] = changed[j], changed[k]
            outside = drup_verdict(certificate.cnf_text, changed)
            try:
                check_drup(certificate.cnf_text, "\n".join(changed) + "\n")
            except CertificationError as error:
                assert str(error).count("\n") == 0
                refused[kind] += 1
                if outside:  # drup accepts RAT lemmas too (DRAT): the named lemma must not be RUP
                    line = int(str(error).split()[2].rstrip(":"))
                    earlier = [c for c in changed[: line - 1] if not c.startswith("d")]  # keeps more
                    before = [list(map(int, c.split()[:-1])) for c in [*formula, *earlier]]
                    assert not is_rup(before, list(map(int, changed[line - 1].split()[:-1]))), (kind, k)
            else:
                assert outside, (kind, k)  # never accept what the outside checker refuses
    assert all(refused.values()), refused


def test_a_proof_of_the_empty_clause_alone_is_refused() -> None:
    certificate, _, _ = certified(Instance(6))
    formula = [list(map(int, c.split()[:-1])) for c in certificate.cnf_text.splitlines()[1:]]
    assert not is_rup(formula, [])
    with pytest.raises(CertificationError, match=r"^proof line 1: lemma '0' does not follow"):
        check_drup(certificate.cnf_text, "0\n")


def test_a_cnf_with_one_clause_dropped_is_refused() -> None:
    certificate, _, _ = certified(Instance(3))
    header, *clauses = certificate.cnf_text.splitlines()
    at_least_one_of_row_0 = "1 2 3 0"
    assert at_least_one_of_row_0 in clauses
    kept = [c for c in clauses if c != at_least_one_of_row_0]
    kept_lits = [list(map(int, c.split()[:-1])) for c in kept]
    assert any(  # satisfiable without it (queens at (1, 0) and (2, 2)): no proof can hold
        all(any((bits >> (abs(lit) - 1) & 1) == (lit > 0) for lit in clause) for clause in kept_lits)
        for bits in range(2**9)
    )
    with pytest.raises(CertificationError, match="header declares 31 clauses, the file has 30"):
        check_drup("\n".join([header, *kept]) + "\n", certificate.proof_text)
    fixed = dimacs_text(9, kept_lits)
    with pytest.raises(CertificationError, match=r"^(proof line \d+: lemma .* does not follow|the proof ends)"):
        check_drup(fixed, certificate.proof_text)


def test_a_missing_blocking_clause_count_one_too_low_is_refused() -> None:
    certificate, found, cnf = certified(Instance(6))
    with pytest.raises(CertificationError, match=r"^(proof line \d+: lemma .* does not follow|the proof ends)"):
        certify(cnf, found[:-1], certificate.proof_text)


def test_a_forged_or_repeated_solution_is_refused() -> None:
    certificate, found, cnf = certified(Instance(6))
    with pytest.raises(CertificationError, match=r"^solution 5 \(0, 2, 4, 1, 3, 5\) is not a solution: rows"):
        certify(cnf, [*found, (0, 2, 4, 1, 3, 5)], certificate.proof_text)
    with pytest.raises(CertificationError, match=r"^solution 5 .* repeats solution 1$"):
        certify(cnf, [*found, found[0]], certificate.proof_text)


def test_a_cnf_clause_the_rules_do_not_imply_is_refused() -> None:
    instance = Instance(4)
    built = build_cnf(instance)
    clauses = (*map(tuple, built.cnf.clauses), (-2,))  # forbids a square no rule forbids
    assert unimplied_clauses(4, (), (), built.squares, clauses) == [len(clauses) - 1]
    cnf = CnfOfBoard(instance, 16, clauses, built.squares)
    with pytest.raises(CertificationError, match=r"^CNF clause \d+ \(-2 0\) is not implied by the rules"):
        certify(cnf, [(2, 0, 3, 1)], "0\n")


def test_the_rules_check_accepts_the_reduced_cnf_of_blocked_squares() -> None:
    instance = Instance(6, {0: 1}, [(2, 2), (3, 5)])
    built = build_cnf(instance)
    assert len(built.squares) < 36
    assert unimplied_clauses(6, instance.fixed, instance.blocked, built.squares, built.cnf.clauses) == []


# -- the command line ----------------------------------------------------------------------------


def test_cli_certifies_no_solution_and_keeps_the_files(tmp_path: Path) -> None:
    proof = tmp_path / "three.drup"
    result = run_cli("solve", "3", "--backend", "sat", "--certify", "--proof", str(proof))
    assert result.returncode == 1, result.stderr
    assert "certified: no solution" in result.stderr and "no solution for n=3" in result.stderr
    assert check_drup(proof.with_suffix(".cnf").read_bytes(), proof.read_bytes()).lemmas >= 1


def test_cli_certified_count_and_all() -> None:
    result = run_cli("solve", "8", "--count", "--backend", "sat", "--certify")
    assert (result.returncode, result.stdout) == (0, "92\n"), result.stderr
    assert "certified: 92 solutions, each checked, and no other" in result.stderr
    listed = run_cli("solve", "6", "--all", "--backend", "sat", "--certify")
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 4
    assert "certified: 4 solutions" in listed.stderr


def test_cli_refuses_what_it_cannot_certify() -> None:
    for args, message in [
        (("--backend", "backtrack"), "--certify needs --backend sat"),
        (("--backend", "sat", "--unique", "--count"), "does not cover --unique"),
        (("--backend", "sat", "--count", "--limit", "3"), "no --limit"),
        (("--backend", "sat", "--count", "--workers", "2"), "no --workers"),
        (("--backend", "sat", "--solver", "minisat22"), "writes no checkable proof"),
    ]:
        result = run_cli("solve", "6", "--certify", *args)
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr
    for args, message in [(("14", "--count"), "refused above 100,000 solutions")]:
        result = run_cli("solve", *args, "--certify")
        assert result.returncode == 2 and result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_cli_a_failed_check_is_exit_1(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from nqueens_cp.cli import main
    from nqueens_cp.proofs import certificate

    def failing(*args: object) -> Certificate:
        raise CertificationError("proof line 3: lemma '1 0' does not follow from the clauses before it")

    monkeypatch.setattr(certificate, "certify", failing)
    assert main(["solve", "3", "--backend", "sat", "--certify"]) == 1
    err = capsys.readouterr().err
    assert err == "nqueens-cp: error: certification failed: proof line 3: lemma '1 0' does not follow from the clauses before it\n"


def test_formula_clauses_a_solver_deleted_and_brought_back_are_kept() -> None:
    # CaDiCaL, given blocking clauses between solve calls, restores clauses it had deleted without a
    # proof line: honouring those deletions refuses a lemma of the n = 10 proof (line 16579 here).
    from pysat.solvers import Solver

    built = build_cnf(Instance(10))
    found = []
    with Solver(name="cadical195", bootstrap_with=built.cnf.clauses, with_proof=True) as solver:
        while solver.solve():
            queens = [lit for lit in solver.get_model()[:100] if lit > 0]
            found.append(built.decode(queens))
            solver.add_clause([-lit for lit in queens])
        raw = "".join(line + "\n" for line in solver.get_proof())
    cnf = CnfOfBoard(Instance(10), 100, tuple(map(tuple, built.cnf.clauses)), built.squares)
    with pytest.raises(CertificationError, match=r"^proof line \d+: lemma"):
        blocks = [[-(row * 10 + col + 1) for row, col in enumerate(solution)] for solution in found]
        check_drup(dimacs_text(100, [*cnf.clauses, *blocks]), raw)
    assert certify(cnf, found, raw).solutions == 724


def test_cli_certify_alone_uses_the_sat_backend() -> None:
    result = run_cli("solve", "3", "--certify")
    assert result.returncode == 1 and "certified: no solution" in result.stderr, result.stderr
