"""The size formulas of nqueens_cp.models.sizes against what the code generates, and against models/README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from nqueens_cp.core.instance import Instance
from nqueens_cp.export.writers import opb_text
from nqueens_cp.models.amo import AMO_ENCODERS, atmost_one
from nqueens_cp.models.cnf import build_cnf
from nqueens_cp.models.cpsat import build_cpsat_model
from nqueens_cp.models.encodings import ENCODINGS, PYSAT_ENCODINGS
from nqueens_cp.models.sizes import (
    CLOSED_FORMS,
    Cost,
    Poly,
    atmost_one_cost,
    closed_form,
    cnf_size,
    cpsat_size,
    opb_size,
)

README = Path(__file__).resolve().parents[1] / "models" / "README.md"


@pytest.mark.parametrize("encoding", PYSAT_ENCODINGS)
def test_atmost_one_cost_matches_pysat(encoding: str) -> None:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool

    for m in range(1, 41):
        pool = IDPool(start_from=m + 1)
        built = CardEnc.atmost(lits=list(range(1, m + 1)), bound=1, vpool=pool, encoding=getattr(EncType, encoding))
        assert Cost(pool.top - m, len(built.clauses)) == atmost_one_cost(encoding, m), (encoding, m)


@pytest.mark.parametrize("encoding", sorted(AMO_ENCODERS))
def test_atmost_one_cost_matches_the_project_encoders(encoding: str) -> None:
    from pysat.formula import IDPool

    for m in range(1, 41):
        pool = IDPool(start_from=m + 1)
        clauses = atmost_one(encoding, list(range(1, m + 1)), pool)
        assert Cost(pool.top - m, len(clauses)) == atmost_one_cost(encoding, m), (encoding, m)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_sum_formula_matches_generated_cnf(encoding: str) -> None:
    for n in range(13):
        built = build_cnf(Instance(n), encoding).size()
        assert (built.variables, built.constraints) == (
            cnf_size(encoding, n).variables, cnf_size(encoding, n).constraints), (encoding, n)


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_preplaced_queens_add_one_unit_clause_each(encoding: str) -> None:
    instance = Instance(9, [(0, 0), (3, 5), (8, 2)])
    built = build_cnf(instance, encoding)
    expected = cnf_size(encoding, 9, preplaced=3)
    assert (built.size().variables, built.size().constraints) == (expected.variables, expected.constraints)
    assert built.cnf.clauses[-3:] == [[built.queen(r, c)] for r, c in instance.fixed]


@pytest.mark.parametrize("key", sorted(CLOSED_FORMS))
def test_closed_forms_equal_the_sums(key: str) -> None:
    encoding, _, parity = key.partition("/")
    sizes = [n for n in range(4, 61) if not parity or (n % 2 == 0) == (parity == "even")]
    variables, clauses = CLOSED_FORMS[key]
    for n in sizes:
        size = cnf_size(encoding, n)
        assert (variables(n), clauses(n)) == (size.variables, size.constraints), (key, n)


WITH_CLOSED_FORMS = [encoding for encoding in ENCODINGS if closed_form(encoding, 4) is not None]


def test_readme_names_the_encodings_without_closed_forms() -> None:
    """models/README.md lists, in parentheses, the encodings given by the sums only: exactly those without one."""
    text = README.read_text(encoding="utf-8")
    sentence = re.search(r"The other\s+encodings \(([^)]*)\) have no simple closed form", text)
    assert sentence is not None, "models/README.md no longer says which encodings have no closed form"
    named = set(re.findall(r"`(\w+)`", sentence.group(1)))
    assert named == set(ENCODINGS) - set(WITH_CLOSED_FORMS)


@pytest.mark.parametrize("encoding", WITH_CLOSED_FORMS)
def test_closed_forms_equal_generated_cnf(encoding: str) -> None:
    for n in range(4, 13):
        forms = closed_form(encoding, n)
        assert forms is not None
        built = build_cnf(Instance(n), encoding).size()
        assert (forms[0](n), forms[1](n)) == (built.variables, built.constraints), (encoding, n)


def test_poly_rendering_and_exactness() -> None:
    assert str(Poly((0, 4, -6, 5), 3)) == "(5n³ - 6n² + 4n)/3"
    assert str(Poly((-2, -6, 5))) == "5n² - 6n - 2"
    assert str(Poly((0, 0, 1))) == "n²"
    with pytest.raises(ValueError):
        Poly((1,), 2)(3)


def test_opb_and_cpsat_sizes_match_generated_models() -> None:
    for n in range(1, 11):
        for fixed in ((), ((0, n - 1),)):
            instance = Instance(n, fixed)
            text = opb_text(instance)
            constraints = [line for line in text.splitlines() if line.endswith(";")]
            size = opb_size(n, len(fixed))
            assert len(constraints) == size.constraints
            assert text.splitlines()[0] == f"* #variable= {size.variables} #constraint= {size.constraints}"
            built = build_cpsat_model(instance).size()
            assert (built.variables, built.constraints) == (cpsat_size(n, len(fixed)).variables,
                                                            cpsat_size(n, len(fixed)).constraints)


def _readme_table(title: str, readme: Path = README) -> list[list[str]]:
    text = readme.read_text(encoding="utf-8")
    start = text.index(title)
    rows: list[list[str]] = []
    for line in text[start:].splitlines()[1:]:
        if line.startswith("|"):
            cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


def test_readme_states_the_closed_forms() -> None:
    rows = {row[0]: row for row in _readme_table("<!-- closed-forms -->")}
    assert set(rows) == set(CLOSED_FORMS)
    for key, (variables, clauses) in CLOSED_FORMS.items():
        assert rows[key][1:3] == [str(variables), str(clauses)], key


def test_readme_n8_counts_match_generation() -> None:
    rows = {row[0]: row for row in _readme_table("<!-- counts-n8 -->")}
    assert set(rows) == set(ENCODINGS)
    for encoding in ENCODINGS:
        size = build_cnf(Instance(8), encoding).size()
        assert [int(rows[encoding][1]), int(rows[encoding][2]), int(rows[encoding][3])] == [
            size.variables, size.variables - 64, size.constraints], encoding


def test_readme_per_line_costs_match_formulas() -> None:
    rows = {row[0]: row for row in _readme_table("<!-- line-costs -->")}
    assert set(rows) == set(ENCODINGS)
    for encoding in ENCODINGS:
        # columns: encoding, a(ℓ) for ℓ = 3..8, c(ℓ) for ℓ = 3..8, as "a/c" pairs
        pairs = [cell.split("/") for cell in rows[encoding][1:]]
        assert [Cost(int(a), int(c)) for a, c in pairs] == [atmost_one_cost(encoding, m) for m in range(3, 9)]


def test_readme_mentions_every_encoding_in_a_heading() -> None:
    headings = re.findall(r"^#+ .*$", README.read_text(encoding="utf-8"), flags=re.MULTILINE)
    for encoding in ENCODINGS:
        assert any(f"`{encoding}`" in heading for heading in headings), encoding


def test_exporting_page_n8_table_matches_generation() -> None:
    rows = {row[0]: row for row in _readme_table("<!-- export-counts-n8 -->", README.parents[1] / "docs" / "exporting.md")}
    assert set(rows) == set(ENCODINGS)
    for encoding in ENCODINGS:
        size = build_cnf(Instance(8), encoding).size()
        assert [int(rows[encoding][1]), int(rows[encoding][2])] == [size.variables, size.constraints]


def test_line_model_size_matches_the_built_models() -> None:
    from nqueens_cp.models.asp import asp_program
    from nqueens_cp.models.lines import build_line_model
    from nqueens_cp.models.sizes import line_size

    for n in range(0, 12):
        for fixed in ((), ((0, n - 1),)) if n else ((),):
            instance = Instance(n, fixed)
            assert build_line_model(instance).size() == line_size(n, len(fixed)), (n, fixed)
            if n >= 2:
                assert line_size(n, len(fixed)).constraints == 6 * n - 6 + len(fixed)
                facts = [row for row in asp_program(instance).text.splitlines() if row.startswith(("exactly(", "atmost("))]
                assert sum(row.count(" on(") for row in facts) == 4 * n * n - 4


def test_row_model_size_matches_the_built_models() -> None:
    from nqueens_cp.models.choco import choco_size
    from nqueens_cp.models.rows import row_model
    from nqueens_cp.models.sizes import row_model_size
    from nqueens_cp.models.xcsp3 import xcsp3_text

    for n in range(2, 30):
        for fixed in ({}, {0: 1}, {1: 3, 2: 0}):
            instance = Instance(n, {r: c for r, c in fixed.items() if r < n and c < n})
            p = len(instance.fixed)
            assert row_model(instance).size() == row_model_size(n, p)
            assert choco_size(row_model(instance), "auxiliary") == row_model_size(n, p, auxiliary=True)
            text = xcsp3_text(instance)
            assert text.count("<allDifferent>") == 3 and text.count("<intension>") == p


def test_bdd_size_formula_of_the_readme() -> None:
    from nqueens_cp.models.bdd import bdd_size

    text = README.read_text(encoding="utf-8")
    assert "**`n²` variables, `6n − 6` line constraints** for n ≥ 2" in text
    for n in range(2, 20):
        assert bdd_size(Instance(n)).variables == n * n
        assert bdd_size(Instance(n)).constraints == 6 * n - 6


def test_readme_states_the_row_model_sizes() -> None:
    text = README.read_text(encoding="utf-8")
    assert "**`n` variables, `3 + p` constraints**" in text
    assert "**`3n` variables, `3 + p + 2n` constraints**" in text
