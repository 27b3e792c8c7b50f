"""The site's pictures, drawn from the package when the site is built: no image file is committed.

An MkDocs hook (``hooks:`` in ``mkdocs.yml``). A page (or a file it includes) holding the line

- ``<!-- picture: NAME -->`` gets the boards of :data:`PICTURES` ``[NAME]``, drawn by
  :func:`nqueens_cp.core.board.board_svg` and solved by the package's own backends, every board checked
  by the independent checker before it is drawn (the family's ``family-PROBLEM`` boards by
  :mod:`nqueens_cp.core.family_checker`, an optimum also against its published term);
- ``<!-- plot: PATH -->`` gets the runtime plot of the saved comparison ``PATH`` (a
  ``results.json`` under the repository, e.g. ``reports/results.json``), drawn by
  :func:`nqueens_cp.reports.plot.runtime_plot_svg` as the HTML report draws it;
- ``<!-- cactus: PATH -->`` and ``<!-- scatter: PATH -->`` get its cactus plot and the scatter plot
  of the pair the report picks (:func:`nqueens_cp.reports.plot.default_scatter_pair`).

The markers are HTML comments, invisible where the Markdown is read as it is (GitHub), and are
replaced in the page's HTML (``on_page_content``), so Markdown never reads the SVG. An unknown name
or a missing file stops the build.
"""

from __future__ import annotations

import base64
import html
import random
import re
from functools import cache
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[2]

_MARKER = re.compile(r"<!--\s*(picture|plot|cactus|scatter):\s*(\S+)\s*-->")

#: Width of a board in a row of boards, CSS pixels.
SMALL = 150


def _checked(instance: Any, solution: Any) -> Any:
    from nqueens_cp import is_valid_solution

    if solution is None or not is_valid_solution(instance, solution):
        raise ValueError(f"docs picture: no valid solution of {instance} to draw")
    return solution


def _first(instance: Any, backend: str = "backtrack") -> Any:
    from nqueens_cp import create_backend

    return _checked(instance, create_backend(backend).first_solution(instance))


def figure(boards: list[tuple[str, str]], caption: str) -> str:
    """A row of ``(svg, label)`` boards with a caption, as one HTML block."""
    cells = "".join(
        f'<figure style="margin:0;text-align:center">{svg}'
        f'<figcaption style="font-size:.75rem;max-width:{SMALL + 20}px;margin:.2em auto 0">{html.escape(label)}'
        "</figcaption></figure>"
        for svg, label in boards
    )
    return (f'<figure class="nq-picture" style="margin:1em 0">'
            f'<div style="display:flex;flex-wrap:wrap;gap:1.2em;align-items:flex-start">{cells}</div>'
            f'<figcaption style="font-size:.8rem">{html.escape(caption)}</figcaption></figure>')


def _home() -> str:
    from nqueens_cp import Instance
    from nqueens_cp.core.display import instance_svg
    from nqueens_cp.instances.completion import random_partial_placement

    eight = Instance(8)
    completion = next(
        inst for seed in range(100)
        if _has_solution(inst := random_partial_placement(10, 3, random.Random(seed)))
    )
    diagonals = _solvable_diagonals(10, 3).instance()
    return figure([
        (instance_svg(eight, _first(eight), pixels=SMALL), "a solution of n = 8"),
        (instance_svg(completion, _first(completion), pixels=SMALL),
         "a completion: 3 queens given (red), 7 found"),
        (instance_svg(diagonals, _first(diagonals), pixels=SMALL),
         f"Excluded Diagonals: {len(diagonals.blocked)} squares blocked (crossed out)"),
    ], "Three kinds of instance, each solved by the backtrack backend when this page was built.")


def _has_solution(instance: Any) -> bool:
    from nqueens_cp import create_backend

    return create_backend("backtrack").first_solution(instance) is not None


@cache
def _solvable_diagonals(n: int, min_free: int, seed: int = 1) -> Any:
    """The longest prefix (CSPLib 079's samples) of the generator's instance that has a solution."""
    from nqueens_cp.instances.excluded_diagonals import generate

    problem = generate(n, min_free, seed)
    return next(prefix for count in range(len(problem.diagonals), -1, -1)
                if _has_solution((prefix := problem.first(count)).instance()))


def _integer_model() -> str:
    from nqueens_cp import Instance
    from nqueens_cp.core.board import board_svg

    solution = _first(Instance(8))
    row, col = 2, solution[2]
    return figure([
        (board_svg(solution, lines=[("col", col)], pixels=SMALL), f"AllDifferent(q): column {col} holds one queen"),
        (board_svg(solution, lines=[("sum", row + col)], pixels=SMALL),
         f"AllDifferent(q[i] + i): the diagonal row + col = {row + col}"),
        (board_svg(solution, lines=[("difference", row - col)], pixels=SMALL),
         f"AllDifferent(q[i] − i): the diagonal row − col = {row - col}"),
    ], "The integer model on a solution of n = 8: one variable per row, so each row holds one queen by "
       "construction; each AllDifferent keeps the queens apart on one kind of line (shaded: the line of "
       f"the queen of row {row}).")


def _boolean_model() -> str:
    from nqueens_cp import Instance
    from nqueens_cp.core.board import board_svg

    solution = _first(Instance(8))
    empty = next(d for d in range(-6, 7) if all(r - c != d for r, c in enumerate(solution)))
    return figure([
        (board_svg(solution, lines=[("row", 3)], pixels=SMALL), "row 3: exactly one"),
        (board_svg(solution, lines=[("col", solution[5])], pixels=SMALL), f"column {solution[5]}: exactly one"),
        (board_svg(solution, lines=[("sum", 7)], pixels=SMALL), "the diagonal row + col = 7: at most one"),
        (board_svg(solution, lines=[("difference", empty)], pixels=SMALL),
         f"the diagonal row − col = {empty}: at most one, here none"),
    ], "The Boolean model: one variable per square; each row and column holds exactly one queen, each "
       "diagonal at most one. The at-most-one encodings below differ only in how they state the last.")


def _reduction() -> str:
    from nqueens_cp import Instance
    from nqueens_cp.core.display import instance_svg
    from nqueens_cp.models.reduction import reduce_instance

    instance = Instance(8, {1: 3, 6: 6}, blocked=[(0, 0), (3, 5), (4, 2), (7, 1)])
    reduction = reduce_instance(instance)
    return figure([
        (instance_svg(instance, pixels=SMALL), f"{len(instance.fixed)} queens given, "
         f"{len(instance.blocked)} squares blocked"),
        (instance_svg(instance, pixels=SMALL, shaded=reduction.squares),
         f"the {len(reduction.squares)} open squares the models keep (of {instance.n ** 2})"),
        (instance_svg(instance, _first(instance), pixels=SMALL), "a completion"),
    ], "A model that shrinks: the free rows and columns, and on them the squares no given queen attacks "
       "and no block covers.")


def _symmetries() -> str:
    from nqueens_cp import Instance
    from nqueens_cp.core.board import board_svg
    from nqueens_cp.core.symmetry import SYMMETRIES, canonical

    solution = _first(Instance(8))
    images = [(symmetry.name, symmetry.apply(solution)) for symmetry in SYMMETRIES]
    smallest = canonical(solution)
    return figure([
        (board_svg(image, pixels=110), name + (" (the smallest: kept by --unique)" if image == smallest else ""))
        for name, image in images
    ], "One solution of n = 8 and its images under the 8 symmetries of the square: one class. "
       "--unique keeps the lexicographically smallest image.")


def _excluded_diagonals() -> str:
    from nqueens_cp.core.board import Line, board_svg
    from nqueens_cp.core.display import instance_svg

    problem = _solvable_diagonals(10, 3)
    instance = problem.instance()
    lines: list[Line] = [(d.kind, d.value) for d in problem.diagonals]
    return figure([
        (board_svg(n=10, lines=lines, pixels=SMALL),
         f"{len(problem.diagonals)} diagonals excluded"),
        (instance_svg(instance, _first(instance), pixels=SMALL), "their squares blocked, and a solution"),
    ], "An Excluded Diagonals instance of n = 10 (CSPLib 079's generator, min_free 3, seed 1: the "
       "longest prefix of its diagonals that leaves a solution), solved by the backtrack backend.")


def _family_answer(problem_name: str, n: int, time_limit: float | None = None) -> Any:
    """The answer of CP-SAT to the family problem on the n x n board, its witness checked by the
    independent checker, and for an optimum its value the published term (so the board drawn is
    an optimum even when the time limit came before the proof)."""
    from nqueens_cp import create_backend
    from nqueens_cp.core.family_checker import witness_problems
    from nqueens_cp.core.family_oeis import SEQUENCES
    from nqueens_cp.core.problems import Problem

    problem = Problem.named(problem_name)
    backend = create_backend("cpsat") if time_limit is None else create_backend("cpsat", time_limit=str(time_limit))
    answer = backend.solve_family(problem, n)
    if answer.witness is None or witness_problems(problem, n, answer.witness):
        raise ValueError(f"docs picture: no valid witness of {problem_name} for n = {n}")
    published = SEQUENCES[problem.sequences[0]][n]
    if not problem.counts_placements and answer.value != published:
        raise ValueError(f"docs picture: {problem_name} for n = {n} found {answer.value}, the optimum is {published}")
    return answer


def _family(problem: str, n: int, caption: str, time_limit: float | None = None) -> str:
    """One board of the family problem ``problem``: its witness drawn as the problem shows it."""
    from nqueens_cp.core.board import board_svg

    answer = _family_answer(problem, n, time_limit)
    witness = answer.witness
    if problem in ("toroidal", "superqueens"):
        svg, label = board_svg(witness, pixels=SMALL + 30), "q = " + " ".join(map(str, witness))
    elif problem == "colouring":
        svg, label = board_svg(n=n, colours=witness, pixels=SMALL + 30), f"{answer.value} colours"
    elif problem == "peaceable":
        svg = board_svg(sorted(witness[1]), n=n, white=witness[0], pixels=SMALL + 30)
        label = f"{answer.value} white and {answer.value} black queens"
    else:
        attacked = [(r, c) for r in range(n) for c in range(n) if (r, c) not in witness]
        svg = board_svg(sorted(witness), n=n, shaded=attacked, pixels=SMALL + 30)
        label = f"{answer.value} queens; shaded: the squares they attack"
    return figure([(svg, label)], caption + " Solved by CP-SAT and checked by the independent checker when this "
                  "page was built.")


#: Each picture a page may ask for, by name.
PICTURES: dict[str, Callable[[], str]] = {
    "family-toroidal": lambda: _family("toroidal", 7, "Seven queens on the 7 x 7 torus: no two share a row, a "
                                       "column or a diagonal wrapping around the edges."),
    "family-superqueens": lambda: _family("superqueens", 10, "Ten superqueens on the 10 x 10 board, the smallest "
                                          "board that has any: no two a queen's move or a knight's jump apart."),
    "family-domination": lambda: _family("domination", 8, "A minimum dominating set of the chessboard: 5 queens "
                                         "occupy or attack every square (A075458(8) = 5).", time_limit=3),
    "family-independent-domination": lambda: _family(
        "independent-domination", 8, "A minimum independent dominating set of the chessboard: 5 queens, no two "
        "attacking each other (A075324(8) = 5)."),
    "family-colouring": lambda: _family("colouring", 7, "A colouring of the 7 x 7 queens graph with 7 colours, the "
                                        "fewest (A088202(7) = 7): each row, column and diagonal holds each colour "
                                        "at most once."),
    "family-peaceable": lambda: _family("peaceable", 6, "Two peaceable armies on the 6 x 6 board, 5 queens each, "
                                        "the most (A250000(6) = 5): no white queen attacks a black one."),
    "home": _home,
    "integer-model": _integer_model,
    "boolean-model": _boolean_model,
    "reduction": _reduction,
    "symmetries": _symmetries,
    "excluded-diagonals": _excluded_diagonals,
}


@cache
def picture(name: str) -> str:
    """The HTML of the picture ``name`` (an error for a name not in :data:`PICTURES`)."""
    if name not in PICTURES:
        raise ValueError(f"docs: unknown picture {name!r} (known: {', '.join(sorted(PICTURES))})")
    return PICTURES[name]()


def _results(path: str) -> Any:
    from nqueens_cp.harness.results import ComparisonResults

    file = ROOT / path
    if not file.is_file():
        raise ValueError(f"docs: no saved comparison at {path}")
    return ComparisonResults.from_json(file.read_text(encoding="utf-8"))


def _figure(svg: str | None, path: str, alt: str, note: str) -> str:
    """``svg`` as an ``<img>`` with its caption (an error when there is nothing to plot)."""
    if svg is None:
        raise ValueError(f"docs: the comparison at {path} has nothing to plot")
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<figure class="nq-plot" style="margin:1em 0"><img src="data:image/svg+xml;base64,{data}" '
            f'alt="{html.escape(alt)}" style="width:100%;max-width:880px">'
            f'<figcaption style="font-size:.8rem">{html.escape(alt)}; drawn from <code>{html.escape(path)}'
            f"</code> when this page was built{note}.</figcaption></figure>")


@cache
def plot(kind: str, path: str) -> str:
    """The ``kind`` plot (``plot``: runtime; ``cactus``; ``scatter``) of the saved comparison at ``path``
    (relative to the repository) as an ``<img>``."""
    from nqueens_cp.reports import plot as plots

    results = _results(path)
    if kind == "cactus":
        return _figure(plots.figure_svg(plots.cactus_figure(results)), path,
                       f"instances solved against time, per configuration and the virtual best: {results.task.title}",
                       "")
    if kind == "scatter":
        pair = plots.default_scatter_pair(results)
        if pair is None:
            raise ValueError(f"docs: the comparison at {path} has no two configurations to scatter")
        return _figure(plots.figure_svg(plots.scatter_figure(results, *pair)), path,
                       f"{pair[1]} against {pair[0]}, one point per instance, log-log", " (border: unsolved)")
    return _figure(plots.runtime_plot_svg(results), path,
                   f"median wall time against n per configuration, log scale: {results.task.title}", " (x: a timeout)")


def render(text: str) -> str:
    """``text`` with every picture and plot marker replaced by its HTML."""
    return _MARKER.sub(lambda m: picture(m.group(2)) if m.group(1) == "picture" else plot(m.group(1), m.group(2)), text)


def on_page_content(html_text: str, page: Any, config: Any, files: Any) -> str:
    """MkDocs hook: draw the pictures and plots a page asks for."""
    return render(html_text)
