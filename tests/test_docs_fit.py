"""The built site in a real headless Chromium at 1280 px: no code block or table scrolls sideways.

Slow (it builds the site with ``mkdocs build --strict``, about a minute, unless ``.ci/run`` has
built it already and names it in ``NQUEENS_CP_BUILT_SITE``). Each page is opened with
its folded blocks (``??? info``) open; a code block whose content is wider than its box, or a table
wider than the text column, fails the test, which names the page and the block's longest line (a
table's first row). Without chromium or mkdocs the test skips, except under CI where a skip fails
(``.ci/`` installs both).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from .conftest import browse, chromium

ROOT = Path(__file__).resolve().parents[1]

#: Opens every folded block, then replaces the page by the measure of its code blocks and tables.
PROBE = """<script>
window.addEventListener('load', () => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const wide = [], blocks = document.querySelectorAll('.md-content pre > code');
  blocks.forEach(code => {
    const box = code.scrollWidth > code.clientWidth ? code : code.parentElement;
    if (box.scrollWidth > box.clientWidth + 1) {
      const longest = code.textContent.split('\\n').reduce((a, b) => a.length >= b.length ? a : b);
      wide.push([box.scrollWidth, box.clientWidth, longest.slice(0, 100)]);
    }
  });
  document.querySelectorAll('.md-content table').forEach(table => {
    const box = table.closest('.md-typeset__scrollwrap') || table.parentElement;
    if (table.scrollWidth > box.clientWidth + 1) {
      wide.push([table.scrollWidth, box.clientWidth, 'a table: ' + table.rows[0].textContent.trim().slice(0, 90)]);
    }
  });
  // inline code on more than one line with no space in it: broken inside a word, unless at a <wbr>
  const broken = [];
  document.querySelectorAll('.md-content code').forEach(code => {
    if (code.closest('pre') || /\\s/.test(code.textContent.trim()) || code.querySelector('wbr')) return;
    if (code.getClientRects().length > 1) broken.push(code.textContent.slice(0, 80));
  });
  const text = JSON.stringify({width: window.innerWidth, blocks: blocks.length, wide: wide, broken: broken});
  document.body.innerHTML = '<pre id="nqfit"></pre>';
  document.getElementById('nqfit').textContent = text;
});
</script>"""


def measure(page: Path, profile: Path) -> dict[str, object]:
    """``page`` (a built HTML page) in headless Chromium at 1280 x 900: its code blocks, the wide ones and
    the wide tables."""
    probe = page.with_name("nqfit-probe.html")
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    try:
        done = browse(probe, profile, "--window-size=1280,900", "--virtual-time-budget=5000", "--dump-dom")
    finally:
        probe.unlink()
    found = re.search(r'<pre id="nqfit">(.*?)</pre>', done.stdout, re.S)
    assert found, f"no measure of {page}: {done.stderr[-500:]}"
    result: dict[str, object] = json.loads(html.unescape(found.group(1)))
    return result


def test_the_measure_finds_a_wide_block_and_table_and_passes_wrapped_ones(tmp_path: Path) -> None:
    line = "word " * 300
    page = tmp_path / "index.html"
    page.write_text(
        '<html><body><div class="md-content"><pre><code style="display:block;overflow:auto">' + line
        + '</code></pre><pre><code style="display:block;overflow:auto;white-space:pre-wrap">' + line
        + '</code></pre><table><tr><td style="white-space:nowrap">' + line + "</td></tr></table>"
        + "<table><tr><td>" + line + "</td></tr></table></div></body></html>", encoding="utf-8")
    result = measure(page, tmp_path / "profile")
    assert result["width"] == 1280 and result["blocks"] == 2 and result["broken"] == []
    found = [wide[2] for wide in result["wide"]]  # type: ignore[attr-defined]
    assert found == [line[:100], "a table: " + line.strip()[:90]]


class _WordsInSight(HTMLParser):
    """The words of a page's article a reader sees without a click: outside every closed
    ``<details>`` (a folded block), scripts, styles and drawings; with ``code=False``, outside code
    blocks (``<pre>``) too; with ``folded=True``, inside the folded blocks too (every word)."""

    _VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"})

    def __init__(self, code: bool = True, folded: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.code = code
        self.folded = folded
        self.open: list[tuple[str, bool]] = []  # tag, whether it hides its content
        self.article = 0
        self.hidden = 0
        self.words = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._VOID:
            return
        hides = ((tag == "details" and "open" not in dict(attrs) and not self.folded) or tag in ("script", "style", "svg")
                 or (tag == "pre" and not self.code))
        self.open.append((tag, hides))
        self.hidden += hides
        self.article += tag == "article"

    def handle_endtag(self, tag: str) -> None:
        while self.open:
            name, hides = self.open.pop()
            self.hidden -= hides
            self.article -= name == "article"
            if name == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.article and not self.hidden:
            self.words += len(data.split())


def words_in_sight(page: Path, code: bool = True, folded: bool = False) -> int:
    """How many words of the built ``page`` are in sight before any folded block is opened (with
    ``folded``: once every one is)."""
    parser = _WordsInSight(code, folded)
    parser.feed(page.read_text(encoding="utf-8"))
    return parser.words


#: The most words a page shows before a click: a summary read at a glance, the details folded
#: (docs/hooks/fold.py, ``extra: fold:`` in mkdocs.yml) or on a page of their own.
WORDS_IN_SIGHT = 1500
#: Pages whose code is the text, read step by step: their words outside code blocks are held to
#: the limit, their code (executed on the page) stays in sight.
CODE_IS_THE_TEXT = {"tutorial"}


def test_the_word_count_sees_only_what_is_not_folded(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text("<html><body><nav>menu words</nav><article><h1>Title here</h1><p>one two</p>"
                    "<details><summary>Details</summary><p>hidden words here</p></details>"
                    "<details open><p>shown</p></details><pre><code>x = 1</code></pre><script>var a</script>"
                    "<svg><text>drawn</text></svg></article></body></html>", encoding="utf-8")
    assert words_in_sight(page) == 2 + 2 + 1 + 3 and words_in_sight(page, code=False) == 5
    assert words_in_sight(page, folded=True) == 8 + 1 + 3


@pytest.mark.slow
def test_every_page_is_a_summary_with_the_details_folded(built_site: Path) -> None:
    pages = sorted(p for p in built_site.glob("*/index.html") if p.parent.name not in ("assets", "search"))
    assert len(pages) >= 15
    counts = {page.parent.name: words_in_sight(page, code=page.parent.name not in CODE_IS_THE_TEXT)
              for page in pages}
    too_long = {name: words for name, words in counts.items() if words > WORDS_IN_SIGHT}
    assert not too_long, f"more than {WORDS_IN_SIGHT} words in sight: {too_long}"
    everything = {page.parent.name: words_in_sight(page, folded=True) for page in pages}
    folded = [name for name in ("models", "results", "paradigms") if everything[name] > 3 * counts[name]]
    assert folded == ["models", "results", "paradigms"], counts  # the walls are summaries now


#: A site already built from this checkout by ``mkdocs build --strict`` (``.ci/run`` builds it just
#: before the tests and says where): measured as it is, not built a second time.
BUILT_SITE = "NQUEENS_CP_BUILT_SITE"


@pytest.fixture(scope="module")
def site(built_site: Path) -> Path:
    """The built site, for the measures in a browser."""
    chromium()
    return built_site


@pytest.fixture(scope="module")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = os.environ.get(BUILT_SITE)
    if built and (Path(built) / "index.html").is_file():
        return Path(built)
    pytest.importorskip("mkdocs")
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)], cwd=ROOT, capture_output=True, text=True,
        timeout=900, check=False, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out


@pytest.mark.slow
def test_every_code_block_and_table_fits_the_page_at_1280_px(site: Path, tmp_path: Path) -> None:
    pages = sorted(p for p in site.glob("*/index.html") if p.parent.name not in ("assets", "search"))
    assert len(pages) >= 15
    too_wide: list[str] = []
    broken: list[str] = []
    blocks = 0
    for page in pages:
        result = measure(page, tmp_path / "profile")
        assert result["width"] == 1280
        blocks += int(str(result["blocks"]))
        too_wide += [f"{page.parent.name}: {wide} px in {box} px: {line}"
                     for wide, box, line in result["wide"]]  # type: ignore[attr-defined]
        broken += [f"{page.parent.name}: {code}" for code in result["broken"]]  # type: ignore[attr-defined]
    assert blocks > 100  # the measure saw the code blocks (folded ones too)
    assert not too_wide, "\n".join(too_wide)
    assert not broken, "identifiers broken inside a word:\n" + "\n".join(broken)


def test_the_measure_finds_an_identifier_broken_inside_a_word(tmp_path: Path) -> None:
    page = tmp_path / "index.html"
    page.write_text(
        '<html><body><div class="md-content" style="width:120px"><p>see <code style="word-break:break-all">'
        'nqueens_cp/models/geometry.py</code> and <code>a b c d e f g h i j k l m n o p q r s t</code></p>'
        "</div></body></html>", encoding="utf-8")
    result = measure(page, tmp_path / "profile")
    assert result["broken"] == ["nqueens_cp/models/geometry.py"]


@pytest.mark.slow
def test_file_paths_in_the_built_pages_link_to_their_source(site: Path) -> None:
    import tomllib

    source = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]["Source"]
    links = {page.parent.name: re.findall(re.escape(source) + r"/(?:blob|tree)/main/([^\"#]+)\"", page.read_text(encoding="utf-8"))
             for page in site.glob("*/index.html")}
    assert sum(1 for found in links.values() if found) >= 10, links
    missing = sorted({path for found in links.values() for path in found if not (ROOT / path).exists()})
    assert not missing, missing
    assert len(links["layout"]) >= 3 and len(links["models"]) >= 10
