"""The family through the ``sat`` backend: optima by RC2 and by iterated SAT equal OEIS and CP-SAT,
placements counted as published, a certified optimum whose every clause is checked (a planted
wrong one refused in one line), and a long search that stops at its time limit or on a signal."""

from __future__ import annotations

import signal
import sys
from dataclasses import replace

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.core.errors import CertificationError, SearchStoppedError
from nqueens_cp.core.family_checker import witness_problems
from nqueens_cp.core.family_oeis import SEQUENCES
from nqueens_cp.core.problems import Problem
from nqueens_cp.models.family_cnf import FamilyCnf
from nqueens_cp.proofs.family import certify_optimum
from nqueens_cp.system.interrupts import exit_status

from .conftest import REPO, load_file, require_backend, run_cli

OPTIMISATION = [Problem.DOMINATION, Problem.INDEPENDENT_DOMINATION, Problem.COLOURING, Problem.PEACEABLE]


def _published(problem: Problem, n: int) -> int:
    return SEQUENCES[problem.sequences[0]][n]


@pytest.mark.parametrize("optimiser", ["rc2", "iterated"])
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_each_optimum_is_the_published_term_and_cpsats(problem: Problem, optimiser: str) -> None:
    require_backend("sat")
    require_backend("cpsat")
    sat, cpsat = create_backend("sat", optimiser=optimiser), create_backend("cpsat")
    largest = 5 if (problem, optimiser) == (Problem.PEACEABLE, "rc2") else 6  # RC2 takes 6 s on the armies of 6
    for n in range(1, largest + 1):
        answer = sat.solve_family(problem, n)
        assert answer.proved and answer.value == _published(problem, n), (n, answer)
        assert witness_problems(problem, n, answer.witness) == []
        assert answer.value == cpsat.solve_family(problem, n).value


@pytest.mark.parametrize("encoding", ["seqcounter", "sortnetwrk", "cardnetwrk", "mtotalizer", "kmtotalizer"])
def test_every_bound_encoding_finds_the_optimum(encoding: str) -> None:
    require_backend("sat")
    sat = create_backend("sat", optimiser="iterated", encoding=encoding)
    for problem in (Problem.DOMINATION, Problem.PEACEABLE):
        answer = sat.solve_family(problem, 5)
        assert answer.proved and answer.value == _published(problem, 5), (problem, answer)


@pytest.mark.parametrize(("problem", "sizes"), [(Problem.TOROIDAL, range(1, 12)), (Problem.SUPERQUEENS, range(1, 12))],
                         ids=["toroidal", "superqueens"])
def test_the_placements_are_counted_as_published(problem: Problem, sizes: range) -> None:
    require_backend("sat")
    sat = create_backend("sat")
    assert [sat.count_family(problem, n) for n in sizes] == [_published(problem, n) for n in sizes]
    for n in (5, 10, 11):
        answer = sat.solve_family(problem, n)
        assert (answer.witness is not None) == (_published(problem, n) > 0) and answer.proved, (n, answer)


# -- certified optima -----------------------------------------------------------------------------

@pytest.mark.parametrize("encoding", ["totalizer", "seqcounter"])
@pytest.mark.parametrize("problem", OPTIMISATION, ids=lambda p: p.value)
def test_a_certified_optimum_is_the_published_term(problem: Problem, encoding: str) -> None:
    require_backend("sat")
    sat = create_backend("sat", encoding=encoding)
    for n in range(2, 6):
        answer, certificate = sat.certified_family(problem, n)
        assert answer.proved and certificate.value == answer.value == _published(problem, n), (n, answer)
        assert certificate.proof.lemmas >= 0 and certificate.clauses > 0


def _refutation(problem: Problem, n: int) -> tuple[object, object]:
    """The witness and the refutation the iterated search hands the certificate."""
    from nqueens_cp.backends.sat_family import Stopper, iterated_optimum
    from nqueens_cp.models.family import build_family_model

    model = build_family_model(problem, n)
    found, refutation = iterated_optimum(model, "cadical195", "totalizer", Stopper(None), proof=True)
    assert refutation is not None
    return found.witness, refutation


def _certify(problem: Problem, n: int, witness: object, refutation: object, **changes: object) -> object:
    refutation = replace(refutation, **changes)  # type: ignore[type-var]
    return certify_optimum(problem, n, witness, refutation.variables, refutation.clauses,  # type: ignore[arg-type, attr-defined]
                           refutation.parts, refutation.proof, refutation.colours)  # type: ignore[attr-defined]


def _with_clause(refutation: object, part_name: str, clause: tuple[int, ...]) -> dict[str, object]:
    """The refutation's clauses and parts with ``clause`` added at the end of the part called ``part_name``."""
    clauses, parts = list(refutation.clauses), list(refutation.parts)  # type: ignore[attr-defined]
    index = next(i for i, part in enumerate(parts) if part.name == part_name)
    clauses.insert(parts[index].last, clause)
    parts = [part if i < index else replace(part, last=part.last + 1) if i == index else
             replace(part, first=part.first + 1, last=part.last + 1) for i, part in enumerate(parts)]
    return {"clauses": tuple(clauses), "parts": tuple(parts)}


def test_the_unchanged_refutation_is_certified() -> None:
    witness, refutation = _refutation(Problem.INDEPENDENT_DOMINATION, 5)
    assert _certify(Problem.INDEPENDENT_DOMINATION, 5, witness, refutation).value == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(("part", "clause", "message"), [
    ("cover_2_2", (-1,), "CNF clause"),  # no queen on (0, 0): a clause over squares no rule implies
    ("row_0", (-1,), "CNF clause"),
])
def test_a_planted_clause_over_squares_is_refused(part: str, clause: tuple[int, ...], message: str) -> None:
    witness, refutation = _refutation(Problem.INDEPENDENT_DOMINATION, 5)
    with pytest.raises(CertificationError, match=message) as refused:
        _certify(Problem.INDEPENDENT_DOMINATION, 5, witness, refutation, **_with_clause(refutation, part, clause))
    assert "\n" not in str(refused.value) and f"of constraint {part}" in str(refused.value)


def test_a_planted_clause_over_auxiliary_variables_is_refused() -> None:
    witness, refutation = _refutation(Problem.DOMINATION, 5)
    bound = next(part for part in refutation.parts if part.name.startswith("objective"))  # type: ignore[attr-defined]
    top = max(abs(lit) for clause in refutation.clauses[bound.first:bound.last] for lit in clause)  # type: ignore[attr-defined]
    # a totalizer output "at least one queen on these squares": forbidding it forbids queens there
    output = next(lit for clause in refutation.clauses[bound.first:bound.last] for lit in clause  # type: ignore[attr-defined]
                if lit > 25 and len(clause) == 2 and -clause[0] in range(1, 26))
    assert top > 25
    with pytest.raises(CertificationError, match="does not follow") as refused:
        _certify(Problem.DOMINATION, 5, witness, refutation, **_with_clause(refutation, bound.name, (-output,)))
    assert "\n" not in str(refused.value)


def test_a_constraint_that_is_no_rule_is_refused() -> None:
    witness, refutation = _refutation(Problem.DOMINATION, 5)
    parts = list(refutation.parts)  # type: ignore[attr-defined]
    cover = next(i for i, part in enumerate(parts) if part.name == "cover_0_0")
    parts[cover] = replace(parts[cover], literals=parts[cover].literals[1:])  # the square itself left out
    with pytest.raises(CertificationError, match=r"constraint cover_0_0 .*no square has its queen and every attacker"):
        _certify(Problem.DOMINATION, 5, witness, refutation, parts=tuple(parts))


def test_a_proof_that_does_not_refute_is_refused() -> None:
    witness, refutation = _refutation(Problem.PEACEABLE, 4)
    lines = refutation.proof.splitlines(keepends=True)  # type: ignore[attr-defined]
    with pytest.raises(CertificationError):
        _certify(Problem.PEACEABLE, 4, witness, refutation, proof="".join(lines[: len(lines) // 3]))


def test_a_better_witness_than_the_bound_is_refused() -> None:
    _, refutation = _refutation(Problem.DOMINATION, 5)
    with pytest.raises(CertificationError, match="not valid"):
        _certify(Problem.DOMINATION, 5, frozenset({(0, 0), (2, 2)}), refutation)


def test_certify_on_the_command_line(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    require_backend("sat")
    done = run_cli("solve", "5", "--problem", "peaceable", "--backend", "sat", "--certify")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == "4"
    assert done.stderr.splitlines()[-1].startswith("certified: optimum 4 (a witness checked; DRUP proof of ")
    # a planted wrong clause: refused in one line, nothing printed
    from nqueens_cp.backends import sat_family
    from nqueens_cp.cli import main

    real = sat_family.family_cnf

    def planted(model: object) -> FamilyCnf:
        cnf = real(model)  # type: ignore[arg-type]
        last = cnf.parts[-1]
        return replace(cnf, clauses=(*cnf.clauses, (-1,)), parts=(*cnf.parts[:-1], replace(last, last=last.last + 1)))

    monkeypatch.setattr(sat_family, "family_cnf", planted)
    assert main(["solve", "5", "--problem", "domination", "--backend", "sat", "--certify"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("nqueens-cp: error: certification failed: CNF clause ") and "(-1 0)" in err


@pytest.mark.parametrize(("args", "message"), [
    (["5", "--problem", "toroidal", "--certify"], "--certify covers the optima of the family"),
    (["5", "--problem", "domination", "--backend", "mip", "--certify"], "--certify needs --backend sat"),
    (["5", "--problem", "domination", "--backend", "sat", "-O", "encoding=sortnetwrk", "--certify"],
     "the objective's bound takes totalizer or seqcounter"),
    (["5", "--problem", "domination", "--backend", "sat", "-O", "optimiser=iterated", "-O", "encoding=commander"],
     "encoding commander writes at most one only"),
])
def test_refusals_in_one_line(args: list[str], message: str) -> None:
    done = run_cli("solve", *args)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and message in done.stderr, done.stderr


# -- stopping ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("optimiser", ["rc2", "iterated"])
def test_the_time_limit_stops_a_long_search(optimiser: str) -> None:
    require_backend("sat")
    import time

    sat = create_backend("sat", optimiser=optimiser, time_limit=1.5)
    started = time.perf_counter()
    try:
        answer = sat.solve_family(Problem.DOMINATION, 13)
    except SearchStoppedError as stopped:  # RC2 has no witness before its optimum
        assert optimiser == "rc2" and "bound" in str(stopped)
    else:
        assert not answer.proved and answer.value is not None and answer.value >= _published(Problem.DOMINATION, 13)
    assert time.perf_counter() - started < 5


BENCH = load_file(REPO / "benchmarks" / "bench_interrupt.py", "bench_interrupt")


@pytest.mark.parametrize("signum", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)],
                         ids=["SIGINT", "SIGTERM"])
def test_a_long_family_search_ends_on_the_signal(signum: int) -> None:
    require_backend("sat")
    argv = [sys.executable, "-m", "nqueens_cp", "solve", "13", "--problem", "peaceable", "--backend", "sat",
            "-O", "time_limit=600", "-O", "optimiser=iterated"]
    outcome = BENCH.interrupt(argv, signum, 2.0, give_up=30)
    assert outcome.running, "the search ended before it could be stopped"
    assert outcome.status == exit_status(signum), outcome
    assert outcome.latency is not None and outcome.latency < 1, outcome
    assert not outcome.left, f"left behind: {outcome.left}"
