"""The row model (:mod:`nqueens_cp.models.rows`) written as XCSP3, the format of the XCSP competitions.

XCSP3 (Boussemart, Lecoutre, Audemard and Piette, "XCSP3-core: a format for representing
constraint satisfaction/optimization problems", arXiv:2009.00514) is an XML format read by
competition solvers such as ACE and Choco (both shipped as jars by ``pycsp3``). The text is the one
``pycsp3`` compiles for the same model (``AllDifferent(q)``, ``AllDifferent(q[i] + i)``,
``AllDifferent(q[i] - i)``), element for element: ``tests/test_xcsp3.py`` compiles the pycsp3 model
and compares. XML forbids ``--`` inside comments, so the header comments avoid it. It is written here rather than by running pycsp3, which is a compiler for scripts
(it reads ``sys.argv`` when imported and compiles again at interpreter exit).

A pre-placed queen of the full model is ``<intension> eq(q[r],c) </intension>``. The reduced model
(blocked squares, many pre-placed queens) declares one variable per free row with its open columns
as domain; its header comment lists the rows. An instance without a completion gets a constraint
no assignment satisfies.
"""

from __future__ import annotations

from nqueens_cp.core.arguments import require_instance
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.rows import RowModel, row_model
from nqueens_cp.models.text import blocked_text, placed_text


def _term(index: int, offset: int) -> str:
    if offset == 0:
        return f"q[{index}]"
    return f"add(q[{index}],{offset})" if offset > 0 else f"sub(q[{index}],{-offset})"


def _domain(values: tuple[int, ...]) -> str:
    if values and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}" if len(values) > 1 else str(values[0])
    return " ".join(map(str, values))


def xcsp3_constraints(model: RowModel) -> list[str]:
    """The ``<constraints>`` lines of the row model."""
    lines: list[str] = []
    if len(model.rows) > 1:  # ACE refuses an AllDifferent of one variable
        lines.append("    <allDifferent> q[] </allDifferent>")
        for offsets in model.diagonals():
            terms = " ".join(_term(i, offset) for i, offset in enumerate(offsets))
            lines.append(f"    <allDifferent> {terms} </allDifferent>")
    lines.extend(f"    <intension> eq(q[{index}],{column}) </intension>" for index, column in model.equalities)
    if not model.feasible and model.rows:
        lines.append("    <intension> ne(q[0],q[0]) </intension>")
    return lines


def xcsp3_text(instance: Instance) -> str:
    """The XCSP3 instance of ``instance``: variable ``q[i]`` is the column of row ``rows[i]``."""
    require_instance(instance)
    model = row_model(instance)
    size = len(model.rows)
    if model.full:
        variables = [f'    <array id="q" size="[{size}]"> 0..{model.n - 1} </array>'] if size else []
        rows_note = "q[i] is the column of row i"
    else:
        domains = [(i, d) for i, d in enumerate(model.domains)]
        variables = [f'    <array id="q" size="[{size}]">',
                     *(f'      <domain for="q[{i}]"> {_domain(d or (0,))} </domain>' for i, d in domains),
                     "    </array>"] if size else []
        rows_note = f"q[i] is the column of the i-th free row: rows {' '.join(map(str, model.rows))}"
    if not size:
        # Every row pre-placed: one dummy variable carries the verdict (the board is the pre-placed queens).
        variables = ['    <var id="z"> 0 </var>']
    constraints = xcsp3_constraints(model)
    if not size and not model.feasible:
        constraints.append("    <intension> ne(z,z) </intension>")
    return "\n".join([
        "<!-- N-Queens as an XCSP3 instance, written by nqueens-cp (its export command, format xcsp3). -->",
        f"<!-- n = {model.n}; rows and columns are 0-based; {rows_note}. -->",
        f"<!-- pre-placed queens (row:col) = {placed_text(instance)}; blocked squares (row:col) = "
        f"{blocked_text(instance)} -->",
        "<!-- Run: java -jar ACE.jar FILE.xml -s=all (ACE and Choco ship with pycsp3) -->",
        '<instance format="XCSP3" type="CSP">',
        "  <variables>",
        *variables,
        "  </variables>",
        "  <constraints>",
        *constraints,
        "  </constraints>",
        "</instance>",
        "",
    ])
