"""DRUP proofs of unsatisfiability, checked against DIMACS CNF text.

A DRUP proof (Heule, Hunt and Wetzler, FMCAD 2013: "Trimming while checking clausal proofs")
lists clauses, one per line ended by ``0``; a line ``d ...`` deletes a clause. Each added clause
(*lemma*) must follow from the formula and the lemmas before it by reverse unit propagation; the
proof is complete when unit propagation reaches a conflict (the empty clause ``0``). This is the
format the SAT competitions ask for and that PySAT's solvers write (``with_proof=True``); drat-trim
and other checkers read the same two files.

:func:`check_drup` checks forward, every lemma (no trimming), with the compiled kernel of
:mod:`.rup_kernel`; a proof that fails raises :class:`~nqueens_cp.core.errors.CertificationError`
with one line naming the failing step. :func:`dimacs_text` writes the CNF a proof is checked
against, so that what is checked is what a reader gets.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Iterable, Sequence

from nqueens_cp.core.errors import CertificationError
from nqueens_cp.system.interrupts import native_call

#: A CNF or a proof, as text or as the bytes of a file.
Text = str | bytes


@dataclass(frozen=True)
class ProofCheck:
    """A proof that passed :func:`check_drup`: what it held and how long the check took."""

    variables: int
    clauses: int
    lemmas: int
    deletions: int
    #: Deletions not carried out: of a clause no longer present, or of a unit's reason (kept).
    deletions_ignored: int
    seconds: float


def dimacs_text(variables: int, clauses: Iterable[Sequence[int]]) -> str:
    """The DIMACS CNF text of ``clauses`` over ``variables`` variables (header, one clause a line)."""
    lines = [" ".join(map(str, clause)) + " 0" for clause in clauses]
    return "".join((f"p cnf {variables} {len(lines)}\n", *(line + "\n" for line in lines)))


def _as_bytes(text: Text, what: str) -> bytes:
    if isinstance(text, bytes):
        return text
    try:
        return text.encode("ascii")
    except UnicodeEncodeError as error:
        raise CertificationError(f"{what}: not ASCII text (character {error.start})") from None


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _header(data: bytes) -> tuple[int, int]:
    """``(variables, clauses)`` of the ``p cnf`` line."""
    for line in data.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(b"c"):
            continue
        fields = stripped.split()
        if len(fields) == 4 and fields[:2] == [b"p", b"cnf"] and all(f.isdigit() for f in fields[2:]):
            return int(fields[2]), int(fields[3])
        break
    raise CertificationError("CNF: no 'p cnf VARIABLES CLAUSES' header before the first clause")


def _parse(data: bytes, what: str, *, proof: bool) -> tuple[object, object, object]:
    import numpy as np

    from nqueens_cp.proofs import rup_kernel

    with native_call():  # compiled: a signal ends the process (a proof of gigabytes takes a while)
        status, where, literals, starts, deletion = rup_kernel.parse_clauses(np.frombuffer(data, dtype=np.uint8), proof)
    if status == rup_kernel.BAD_TOKEN:
        token = data[where:where + 20].split()[0].decode("ascii", "replace") if data[where:].split() else ""
        raise CertificationError(f"{what} line {_line_of(data, where)}: cannot read {token!r}")
    if status == rup_kernel.UNTERMINATED:
        raise CertificationError(f"{what} line {_line_of(data, where)}: the last clause has no closing 0")
    return literals, starts, deletion


def _step_line(data: bytes, step: int) -> tuple[int, str]:
    """The line number and text of proof step ``step`` (one step per line, as solvers write them)."""
    seen = -1
    for number, line in enumerate(data.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(b"c"):
            continue
        seen += stripped.split().count(b"0") or 0
        if seen >= step:
            return number, stripped.decode("ascii", "replace")
    return 0, ""


def check_drup(cnf: Text, proof: Text) -> ProofCheck:
    """Check that ``proof`` (DRUP text) refutes ``cnf`` (DIMACS text); raise ``CertificationError``
    with one line naming what failed: a malformed line, a header that does not match the clauses, a
    lemma that does not follow by unit propagation, or a proof that ends without a conflict."""
    import numpy as np

    from nqueens_cp.proofs import rup_kernel

    started = time.perf_counter()
    cnf_data = _as_bytes(cnf, "CNF")
    proof_data = _as_bytes(proof, "proof")
    declared_vars, declared_clauses = _header(cnf_data)
    cnf_lits, cnf_starts, _ = _parse(cnf_data, "CNF", proof=False)
    proof_lits, proof_starts, kinds = _parse(proof_data, "proof", proof=True)
    assert isinstance(cnf_lits, np.ndarray) and isinstance(cnf_starts, np.ndarray)
    assert isinstance(proof_lits, np.ndarray) and isinstance(proof_starts, np.ndarray)
    assert isinstance(kinds, np.ndarray)
    n_clauses = len(cnf_starts) - 1
    if n_clauses != declared_clauses:
        raise CertificationError(f"CNF: the header declares {declared_clauses} clauses, the file has {n_clauses}")
    cnf_top = int(np.abs(cnf_lits).max()) if len(cnf_lits) else 0
    if cnf_top > declared_vars:
        raise CertificationError(f"CNF: variable {cnf_top} exceeds the header's {declared_vars} variables")
    proof_top = int(np.abs(proof_lits).max()) if len(proof_lits) else 0
    literals = np.concatenate((cnf_lits, proof_lits))
    starts = np.concatenate((cnf_starts, proof_starts[1:] + cnf_starts[-1]))
    with native_call():  # compiled, as the parsing
        outcome, step, lemmas, ignored, _ = rup_kernel.check_rup(
            literals, starts, n_clauses, kinds, max(declared_vars, proof_top)
        )
    if outcome == rup_kernel.LEMMA_NOT_RUP:
        line, text = _step_line(proof_data, int(step))
        raise CertificationError(
            f"proof line {line}: lemma {text!r} does not follow from the clauses before it by unit propagation"
        )
    if outcome == rup_kernel.NO_CONFLICT:
        raise CertificationError(
            f"the proof ends without a refutation: its {int(lemmas)} lemmas and the CNF's {n_clauses} "
            "clauses do not propagate to a conflict"
        )
    deletions = int(kinds.sum())
    return ProofCheck(declared_vars, n_clauses, int(lemmas), deletions, int(ignored),
                      time.perf_counter() - started)
