"""The hooks that make the docs a place to learn from: long pages folded, code run at build time,
pictures drawn from the package, code in tables wrapped between words; and the home page lists
every page. Each hook is called here without MkDocs (``mkdocs build --strict`` in CI runs them all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import docs_hook

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


fold = docs_hook("fold")
run_code = docs_hook("run_code")
pictures = docs_hook("pictures")
layout = docs_hook("layout")

LONG = " ".join(["word"] * 200)


def test_a_long_section_keeps_its_first_paragraph_and_folds_the_rest() -> None:
    page = "\n".join([
        "# Title", "", "Intro.", "",
        "## Long", "", "The summary.", "", "<!-- picture: home -->", "", LONG, "",
        "```sh", "# not a heading", "```", "", "### Inside", "", "more", "",
        "## Short", "", "One.", "", "Two.", "",
    ])
    folded = fold.fold(page, 2)
    lines = folded.split("\n")
    start = lines.index('??? info "Details: 209 words"')
    assert lines[:start] == ["# Title", "", "Intro.", "", "## Long", "", "The summary.", "",
                             "<!-- picture: home -->", ""]
    assert "    " + LONG in lines and "    # not a heading" in lines and "    ### Inside" in lines
    assert folded.endswith("## Short\n\nOne.\n\nTwo.\n")  # too short to fold


def test_a_long_first_block_is_folded_too_unless_kept() -> None:
    table = "\n".join(["| a | b |", "|---|---|", *[f"| {LONG[:60]} | x |"] * 10])
    page = "\n".join(["# Title", "", "## Figures", "", table, "", LONG, "", "## Wins", "", fold.KEEP, "", table, "",
                      LONG, ""])
    lines = fold.fold(page, 2, first=80).split("\n")
    figures, wins = lines.index("## Figures"), lines.index("## Wins")
    assert lines[figures + 2].startswith('??? info "Details: ') and "1 table" in lines[figures + 2]  # the table folded
    assert lines[wins + 2: wins + 4] == [fold.KEEP, ""] and lines[wins + 4] == "| a | b |"  # kept in sight
    assert lines[wins + 4 + 13].startswith('??? info "Details: 200 words"')
    assert fold.fold(page, 2).split("\n")[figures + 2] == "| a | b |"  # without first: every first block stays


def test_an_included_file_is_read_in_before_folding(tmp_path: Path) -> None:
    (tmp_path / "part.md").write_text("## Part\n\nFirst.\n\n" + LONG + "\n", encoding="utf-8")
    page = fold.include_snippets('<!-- note -->\n--8<-- "part.md"\n', tmp_path)
    assert page.startswith("<!-- note -->\n## Part\n\nFirst.")
    assert '??? info "Details: 200 words"' in fold.fold(page, 2)


def test_code_blocks_run_in_order_and_show_their_output_and_drawings() -> None:
    page = "\n".join([
        "```python exec", "x = 6", "print('x is', x)", "```", "",
        "```python exec", "from nqueens_cp import Instance", "Instance(x, {0: 1})", "```", "",
        "```python exec", "x * 7", "```", "",
        "```python", "not run", "```", "",
    ])
    shown = run_code.run_blocks(page)
    assert '```text title="output"\nx is 6\n```' in shown
    assert "```text title=\"output\"\n42\n```" in shown
    marker = re.search(r"<!-- run-code-svg: (\d+) -->", shown)
    assert marker is not None
    html = run_code.on_page_content(marker.group(0), None, None, None)
    assert '<g fill="#c0392b"' in html and "<svg" in html  # the pre-placed queen, drawn
    assert "```python\nnot run\n```" in shown


def test_a_code_block_that_raises_stops_the_build() -> None:
    page = "Text.\n\n```python exec\nprint(1)\n```\n\n```python exec\n1 / 0\n```\n"
    with pytest.raises(run_code.CodeBlockError, match=r"tutorial.md: code block 2 \(line 7\) raised ZeroDivisionError"):
        run_code.run_blocks(page, "tutorial.md")


def test_every_picture_is_drawn_and_an_unknown_one_stops_the_build() -> None:
    for name in pictures.PICTURES:
        html = pictures.picture(name)
        if name.startswith("family-"):  # one board of a family problem: its queens, or its colouring
            assert html.count("<svg") == 1 and ('class="queens"' in html or 'class="colour-numbers"' in html), name
        else:
            assert html.count("<svg") >= 2 and 'class="queens"' in html, name
    assert 'class="white-queens"' in pictures.picture("family-peaceable")
    with pytest.raises(ValueError, match="unknown picture 'nothing'"):
        pictures.render("<p>x</p>\n<!-- picture: nothing -->")
    with pytest.raises(ValueError, match="no saved comparison"):
        pictures.render("<!-- plot: reports/missing/results.json -->")


def test_a_plot_is_drawn_from_a_saved_comparison() -> None:
    html = pictures.render("<!-- plot: reports/unique/results.json -->")
    assert html.startswith('<figure class="nq-plot"') and 'src="data:image/svg+xml;base64,' in html


def test_the_cactus_and_scatter_plots_of_an_instance_set_are_drawn_when_the_site_is_built() -> None:
    for kind, words in (("cactus", "instances solved against time"), ("scatter", "one point per instance")):
        html = pictures.render(f"<!-- {kind}: reports/csplib079/results.json -->")
        assert html.startswith('<figure class="nq-plot"') and words in html, kind
        assert 'src="data:image/svg+xml;base64,' in html
    assert not list((pictures.ROOT / "docs").rglob("*.png")), "the site's pictures are drawn, not committed"


def test_code_in_table_cells_breaks_between_words() -> None:
    html = "<table><tr><td><code>nqueens_cp/models/cpsat.py</code></td></tr></table><p><code>a_b</code></p>"
    assert layout.break_points(html) == (
        "<table><tr><td><code>nqueens_<wbr>cp/<wbr>models/<wbr>cpsat.py</code></td></tr></table>"
        "<p><code>a_b</code></p>"
    )


def test_one_word_code_in_running_text_stays_whole() -> None:
    html = ("<p><code>--unique</code> and <code>solve 8 --all</code></p>"
            "<pre><code>--x</code></pre><td><code>a_<wbr>b</code></td>")
    assert layout.whole_words(html) == (
        '<p><code class="nq-word">--unique</code> and <code>solve 8 --all</code></p>'
        "<pre><code>--x</code></pre><td><code>a_<wbr>b</code></td>"
    )


def test_file_paths_link_to_the_source_when_the_repository_is_known() -> None:
    html = ("<p><code>nqueens_cp/core/board.py</code>, <code>benchmarks/</code>, <code>no/such/file.py</code>, "
            '<a href="x"><code>README.md</code></a></p><pre><code>nqueens_cp/core/board.py</code></pre>')
    linked = layout.link_sources(html, "https://example.org/nq/")
    assert '<a href="https://example.org/nq/blob/main/nqueens_cp/core/board.py"><code>nqueens_cp/core/board.py</code></a>' in linked
    assert '<a href="https://example.org/nq/tree/main/benchmarks"><code>benchmarks/</code></a>' in linked
    assert "<code>no/such/file.py</code>," in linked and linked.count("<a ") == 3
    assert linked.endswith("<pre><code>nqueens_cp/core/board.py</code></pre>")


def test_the_site_names_the_repository_of_the_package_without_an_environment_variable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tomllib

    config_mod = pytest.importorskip("mkdocs.config")
    monkeypatch.delenv("NQUEENS_CP_REPO_URL", raising=False)
    config = config_mod.load_config(str(ROOT / "mkdocs.yml"))
    source = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Source"]
    assert config["repo_url"] == source and source.startswith("https://")
    assert config["edit_uri"] == f"blob/{layout.BRANCH}/docs/"  # each page's "view source" button: its Markdown


def test_the_home_page_lists_every_page() -> None:
    home = (DOCS / "index.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(([a-z0-9-]+\.md)\)", home))
    pages = {path.name for path in DOCS.glob("*.md")} - {"index.md"}
    assert pages - linked == set()
