"""The self-contained HTML report, opened in a real headless Chromium (Debian's ``chromium``).

The page is rendered to a screenshot (pixels inspected with Pillow) and to its DOM. Without
chromium the browser tests skip, except under CI where a skip fails (``.ci/`` installs it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pytest

from nqueens_cp.harness.comparison import ComparisonRequest, run_comparison
from nqueens_cp.harness.configs import parse_configurations
from nqueens_cp.harness.gallery import LARGEST_DRAWN, Gallery, solve_gallery
from nqueens_cp.harness.results import ComparisonResults
from nqueens_cp.harness.tasks import AllSolutions
from nqueens_cp.reports.document import Paragraph
from nqueens_cp.reports.html_page import board_svg, build_html_report, gallery
from nqueens_cp.reports.summary import sizes

from .conftest import browse, run_cli

#: matplotlib's first two line colours (tab:blue, tab:orange): the plot's data lines.
PLOT_COLOURS = ((31, 119, 180), (255, 127, 14))
#: The colour of a drawn queen.
QUEEN = (26, 26, 26)


@pytest.fixture(scope="module")
def results() -> Iterator[ComparisonResults]:
    configurations = parse_configurations(["bitboard", "backtrack"])
    request = ComparisonRequest(AllSolutions(), configurations, (4, 6, 8, 10), 1, 30.0, 100_000, "bitboard", "cmd")
    yield run_comparison(request)


def test_the_page_is_self_contained(results: ComparisonResults) -> None:
    page = build_html_report(results, solve_gallery(sizes(results)))
    assert page.startswith("<!DOCTYPE html>")
    assert "RESULT: PASS" in page[: page.index("<h2>")]  # the verdict before the first section
    assert not re.search(r"""(src|href)=["'](?!#)""", page), "the page refers to another file"
    assert "<script" not in page
    # the runtime, cactus and scatter plots inline, the 12 fundamental solutions of n = 8 and one board of n = 10
    assert page.count('class="queens"') == 13
    assert page.count("<svg") == 16
    assert "0 4 7 5 2 6 1 3" in page  # the first fundamental solution of n = 8


def test_a_board_has_one_queen_per_row() -> None:
    svg = board_svg((1, 3, 0, 2))
    assert svg.count("<circle") == 4 and 'viewBox="0 0 4 4"' in svg
    assert 'cx="1.5" cy="0.5"' in svg and 'cx="2.5" cy="3.5"' in svg


def colour_pixels(image: object, colour: tuple[int, int, int], tolerance: int = 12) -> list[tuple[int, int]]:
    from PIL import Image

    assert isinstance(image, Image.Image)
    rgb = image.convert("RGB")
    width, height = rgb.size
    pixels = rgb.load()
    assert pixels is not None
    return [
        (x, y) for y in range(0, height, 2) for x in range(0, width, 2)
        if all(abs(a - b) <= tolerance for a, b in zip(pixels[x, y], colour, strict=True))  # type: ignore[arg-type]
    ]


@pytest.mark.slow  # a browser start: 6-8 s
def test_chromium_renders_the_plot_the_boards_and_the_verdict(results: ComparisonResults, tmp_path: Path) -> None:
    from PIL import Image

    page = tmp_path / "report.html"
    page.write_text(build_html_report(results, solve_gallery(sizes(results))), encoding="utf-8")
    shot = tmp_path / "shot.png"
    done = browse(page, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1280,4000")
    assert shot.exists(), done.stderr[-2000:]
    image = Image.open(shot)
    assert image.size == (1280, 4000)
    # The plot is drawn: both data lines are visible, spread over a region of the page.
    for colour in PLOT_COLOURS:
        found = colour_pixels(image, colour)
        assert len(found) > 50, f"plot line {colour} not visible"
        xs = [x for x, _ in found]
        assert max(xs) - min(xs) > 200, "the plot line does not span the plot"
    # The boards are drawn: queens (dark discs) below the plot.
    queens = colour_pixels(image, QUEEN, tolerance=6)
    assert len(queens) > 100
    # The top of the page is not blank (title and verdict).
    top = image.convert("L").crop((0, 0, 1280, 120))
    assert top.getextrema()[0] < 100

    dom = browse(page, tmp_path / "profile", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    verdict = re.search(r'<p class="verdict">(.*?)</p>', dom.stdout)
    assert verdict and verdict.group(1).startswith("RESULT: PASS")
    assert dom.stdout.index('class="verdict"') < dom.stdout.index("<svg")
    assert len(re.findall(r"<svg", dom.stdout)) == 16


def test_compare_and_report_write_the_html_page(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_cli("compare", "--n", "4-6", "--backends", "bitboard,backtrack", "--repeat", "1",
                   "--format", "html", "--out", str(out))
    assert done.returncode == 0, done.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    assert page == done.stdout
    assert "RESULT: PASS" in page and page.count('class="queens"') == 1  # n = 6 has 1 fundamental solution
    assert "<img" not in page and page.count("<svg") == 4  # the three plots inline, not their PNGs
    again = run_cli("report", str(out / "results.json"), "--format", "html")
    assert again.returncode == 0 and again.stdout.count("<svg") == 4 and "<img" not in again.stdout


def test_the_gallery_is_solved_outside_reports_and_checked() -> None:
    """The boards come from harness.gallery (reports solve nothing): the 12 fundamental solutions
    of n = 8, a checked first solution of the largest n; a board too large is named, not drawn."""
    boards = solve_gallery([4, 8, 40])
    assert (boards.small, len(boards.fundamental), boards.largest) == (8, 12, 40)
    assert boards.first is not None and len(boards.first) == 40
    too_big = gallery(Gallery(8, boards.fundamental, LARGEST_DRAWN + 1))
    assert isinstance(too_big[-1], Paragraph) and f"n = {LARGEST_DRAWN + 1} is not drawn" in too_big[-1].text
    none = gallery(Gallery(8, boards.fundamental, 3))
    assert isinstance(none[-1], Paragraph) and none[-1].text == "n = 3 has no solution to draw."
