"""models/ holds exactly what `python -m nqueens_cp.export.regenerate models` writes."""

from __future__ import annotations

from pathlib import Path

from nqueens_cp.export.regenerate import EXAMPLE_FORMATS, example_models, main, regenerate
from nqueens_cp.models.encodings import ENCODINGS

MODELS = Path(__file__).resolve().parents[1] / "models"
HINT = "models/ is stale: run `python -m nqueens_cp.export.regenerate models` and commit the result"


def test_models_dir_matches_the_code() -> None:
    expected = example_models()
    for relative, text in expected.items():
        path = MODELS / relative
        assert path.is_file(), f"{relative} is missing; {HINT}"
        assert path.read_text(encoding="utf-8") == text, f"{relative} differs; {HINT}"
    generated_names = {p for p in MODELS.rglob("queens*") if p.is_file()}
    assert {p.relative_to(MODELS).as_posix() for p in generated_names} == set(expected), HINT


def test_one_cnf_per_encoding_and_the_other_formats() -> None:
    names = set(example_models())
    assert {f"cnf/queens8-{encoding}.cnf" for encoding in ENCODINGS} <= names
    assert {"queens8.cpsat.pbtxt", "queens8.mzn", "queens8.opb", "queens8.asp.lp"} <= names
    assert len(names) == len(ENCODINGS) + len(EXAMPLE_FORMATS)


def test_regenerate_writes_into_a_fresh_directory(tmp_path: Path) -> None:
    written = regenerate(tmp_path / "out", n=5)
    assert len(written) == len(ENCODINGS) + len(EXAMPLE_FORMATS)
    assert all(path.is_file() for path in written)
    assert (tmp_path / "out" / "cnf" / "queens5-pairwise.cnf").read_text().startswith("c N-Queens as CNF")
    assert main([str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / "queens8.mzn").read_text() == example_models()["queens8.mzn"]
