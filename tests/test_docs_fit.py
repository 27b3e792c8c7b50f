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
  const text = JSON.stringify({width: window.innerWidth, blocks: blocks.length, wide: wide});
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
    assert result["width"] == 1280 and result["blocks"] == 2
    found = [wide[2] for wide in result["wide"]]  # type: ignore[attr-defined]
    assert found == [line[:100], "a table: " + line.strip()[:90]]


#: A site already built from this checkout by ``mkdocs build --strict`` (``.ci/run`` builds it just
#: before the tests and says where): measured as it is, not built a second time.
BUILT_SITE = "NQUEENS_CP_BUILT_SITE"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    chromium()
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
    blocks = 0
    for page in pages:
        result = measure(page, tmp_path / "profile")
        assert result["width"] == 1280
        blocks += int(str(result["blocks"]))
        too_wide += [f"{page.parent.name}: {wide} px in {box} px: {line}"
                     for wide, box, line in result["wide"]]  # type: ignore[attr-defined]
    assert blocks > 100  # the measure saw the code blocks (folded ones too)
    assert not too_wide, "\n".join(too_wide)


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
