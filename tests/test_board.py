"""Boards drawn as SVG (nqueens_cp.core.board): queens, pre-placed queens, blocked squares, shaded lines,
and the objects that show themselves in a notebook (``_repr_svg_``)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from nqueens_cp import BoardView, Instance, board_svg, show
from nqueens_cp.core.board import line_squares
from nqueens_cp.instances.excluded_diagonals import Diagonal, ExcludedDiagonals

SVG = "{http://www.w3.org/2000/svg}"


def _group(svg: str, name: str) -> list[ET.Element]:
    """The shapes of the ``<g class=name>`` group of ``svg`` (parsed, so the SVG must be well formed)."""
    root = ET.fromstring(svg)
    for group in root.iter(f"{SVG}g"):
        if group.get("class") == name:
            return [shape for shape in group.iter() if shape.tag in (f"{SVG}circle", f"{SVG}rect")]
    return []


def _centres(shapes: list[ET.Element]) -> set[tuple[int, int]]:
    """(row, col) of each circle or unit square."""
    found = set()
    for shape in shapes:
        if shape.tag == f"{SVG}circle":
            found.add((int(float(shape.get("cy", 0))), int(float(shape.get("cx", 0)))))
        else:
            found.add((int(float(shape.get("y", 0))), int(float(shape.get("x", 0)))))
    return found


def test_a_completion_shows_its_given_queens_apart_from_the_found_ones_and_its_blocked_squares() -> None:
    instance = Instance(6, {0: 1}, blocked=[(2, 2), (5, 5)])
    svg = BoardView(instance, (1, 3, 5, 0, 2, 4)).svg()
    assert _centres(_group(svg, "fixed")) == {(0, 1)}
    assert _centres(_group(svg, "queens")) == {(1, 3), (2, 5), (3, 0), (4, 2), (5, 4)}
    blocked = [shape for shape in _group(svg, "blocked") if shape.tag == f"{SVG}rect"]
    assert _centres(blocked) == {(2, 2), (5, 5)}


def test_instance_and_board_show_themselves_in_a_notebook() -> None:
    instance = Instance(5, {2: 0})
    assert _centres(_group(instance._repr_svg_(), "fixed")) == {(2, 0)}
    assert _group(instance._repr_svg_(), "queens") == []
    shown = show((1, 3, 0, 2))
    assert repr(shown) == "BoardView(n=4, solution=(1, 3, 0, 2))"
    assert _centres(_group(shown._repr_svg_(), "queens")) == {(0, 1), (1, 3), (2, 0), (3, 2)}
    problem = ExcludedDiagonals(5, (Diagonal("sum", 4), Diagonal("difference", 1)))
    blocked = [s for s in _group(problem._repr_svg_(), "blocked") if s.tag == f"{SVG}rect"]
    assert _centres(blocked) == set(problem.instance().blocked)


def test_shaded_lines_cover_exactly_their_squares() -> None:
    assert line_squares(4, ("sum", 1)) == [(0, 1), (1, 0)]
    assert line_squares(4, ("difference", -2)) == [(0, 2), (1, 3)]
    assert line_squares(3, ("row", 1)) == [(1, 0), (1, 1), (1, 2)]
    assert line_squares(3, ("col", 7)) == []
    svg = board_svg(n=4, lines=[("sum", 3), ("col", 0)])
    assert _centres(_group(svg, "lines")) == {(0, 3), (1, 2), (2, 1), (3, 0), (0, 0), (1, 0), (2, 0)}
    with pytest.raises(ValueError, match="a line is"):
        line_squares(4, ("knight", 1))  # type: ignore[arg-type]


def test_queens_as_pairs_need_the_board_size() -> None:
    assert _centres(_group(board_svg([(0, 2), (3, 1)], n=5), "queens")) == {(0, 2), (3, 1)}
    assert 'viewBox="0 0 5 5"' in board_svg([(0, 2)], n=5)
    with pytest.raises(ValueError, match="n is required"):
        board_svg([(0, 2)])


def test_a_large_board_stays_small() -> None:
    solution = tuple((2 * row + 1) % 1001 for row in range(1001))  # not a solution: the drawing does not care
    svg = board_svg(solution)
    assert svg.count("<circle") == 1001 and "<pattern" in svg
    assert len(re.findall("<rect", svg)) < 10  # one checkerboard pattern, no square drawn one by one


def test_a_decoded_answer_shows_its_queens_even_when_they_are_no_solution() -> None:
    from nqueens_cp.export.decode import board_from_literals

    decoded = board_from_literals(Instance(3), [1, 2, -3, 9])  # two queens on row 0, one on row 2
    assert decoded.solution is None
    assert _centres(_group(decoded._repr_svg_(), "queens")) == {(0, 0), (0, 1), (2, 2)}


@pytest.mark.parametrize("backend", ["backtrack", "bitboard", "cpsat", "sat"])
def test_a_backends_solution_is_the_tuple_and_draws_itself(backend: str) -> None:
    import copy
    import pickle

    from nqueens_cp import create_backend

    solver = create_backend(backend)
    first = solver.first_solution(Instance(6))
    every = list(solver.solutions(Instance(6)))
    assert first is not None and first in every and len(every) == 4
    for solution in (first, *every, *solver.solutions(Instance(6), unique=True), solver.first_solution(Instance(0))):
        plain = tuple(solution)
        assert isinstance(solution, tuple) and solution == plain and hash(solution) == hash(plain)
        assert repr(solution) == repr(plain) and str(solution) == str(plain) and solution[:2] == plain[:2]
        for again in (pickle.loads(pickle.dumps(solution)), copy.deepcopy(solution)):
            assert again == plain and type(again) is type(solution)
        assert _centres(_group(solution._repr_svg_(), "queens")) == set(enumerate(plain))  # type: ignore[attr-defined]
    assert {tuple(s) for s in every} == set(every)  # as set members too
