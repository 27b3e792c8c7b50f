"""results.json against its JSON Schema (nqueens_cp/harness/results.schema.json, docs/results.md),
and the schema version checked on load."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from nqueens_cp.cli import main
from nqueens_cp.harness.merge import merge_results
from nqueens_cp.harness.results import READABLE_VERSIONS, SCHEMA_VERSION, ComparisonResults, results_schema

from .harness_backends import registered

jsonschema = pytest.importorskip("jsonschema")


def problems(data: Any) -> list[str]:
    """Where ``data`` breaks the schema (empty: it fits)."""
    validator = jsonschema.Draft202012Validator(results_schema())
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(data)]


def compared(tmp_path: Path, name: str, *argv: str) -> dict[str, Any]:
    out = tmp_path / name
    main(["compare", *argv, "--repeat", "1", "--out", str(out)])
    return json.loads((out / "results.json").read_text(encoding="utf-8"))


def test_the_schema_is_a_valid_json_schema_of_this_version() -> None:
    schema = results_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema_version"] == {**schema["properties"]["schema_version"], "const": SCHEMA_VERSION}
    assert SCHEMA_VERSION in READABLE_VERSIONS


def test_a_fresh_results_file_fits_the_schema(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with registered():  # a timeout and the skipped runs after it, besides answered runs
        sweep = compared(tmp_path, "sweep", "--n", "5-7", "--backends", "backtrack,test-hangs-at-6", "--timeout", "2")
    assert {run["status"] for run in sweep["runs"]} == {"ok", "timeout", "skipped"}
    assert problems(sweep) == []
    files = compared(tmp_path, "files", "--files", "benchmarks/csplib079/instances/diag-10-4-468.param",
                     "--diagonals", "4", "--backends", "bitboard")
    assert problems(files) == [] and files["runs"][0]["source"]
    family = compared(tmp_path, "family", "--problem", "domination", "--n", "4-5", "--backends", "cpsat")
    assert problems(family) == [] and family["runs"][0]["proved"] is True
    merged = merge_results([("a.json", ComparisonResults.from_dict(sweep)),
                            ("b.json", ComparisonResults.from_dict(sweep))]).to_dict()
    assert problems(merged) == [] and len(merged["merged"]) == 2
    capsys.readouterr()


def test_the_schema_catches_what_does_not_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = compared(tmp_path, "one", "--n", "4", "--backends", "backtrack")
    capsys.readouterr()
    run = data["runs"][0]
    assert problems({**data, "runs": [{**run, "status": "done"}]})  # an unknown status
    assert problems({**data, "runs": [{**run, "cpu_seconds": 1.0}]})  # a field the schema does not document
    assert problems({key: value for key, value in data.items() if key != "settings"})
    assert problems({**data, "schema_version": SCHEMA_VERSION + 1})


def test_a_future_version_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = compared(tmp_path, "one", "--n", "4", "--backends", "backtrack")
    capsys.readouterr()
    future = tmp_path / "future.json"
    future.write_text(json.dumps({**data, "schema_version": SCHEMA_VERSION + 1}), encoding="utf-8")
    assert main(["report", str(future)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"unsupported schema_version {SCHEMA_VERSION + 1}" in err and f"reads {', '.join(map(str, READABLE_VERSIONS))}" in err


def test_the_docs_page_shows_every_field_of_the_schema() -> None:
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("results_schema_hook", root / "docs" / "hooks" / "results_schema.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    page = (root / "docs" / "results-file.md").read_text(encoding="utf-8")
    assert hook.MARKER in page and "docs/hooks/results_schema.py" in (root / "mkdocs.yml").read_text(encoding="utf-8")
    rendered = hook.on_page_markdown(page, None, None, None)
    schema = results_schema()
    objects = [schema, *(schema["properties"][name]["items"] for name in ("configurations", "runs", "checks", "merged")),
               schema["properties"]["task"], *(schema["$defs"][name] for name in ("settings", "environment", "model_size"))]
    for described in objects:
        for name, field in described["properties"].items():
            meaning = field.get("description") or schema["$defs"][field["$ref"].rsplit("/", 1)[-1]]["description"]
            assert f"| `{name}` |" in rendered and meaning.replace("|", "\\|") in rendered, name
