"""``bdd``: the solutions as a reduced ordered binary decision diagram (``dd``), counted by its paths.

The model is :mod:`nqueens_cp.models.bdd` (two formulations, ``-O build=``). ``dd`` uses CUDD
(``dd.cudd``) when it was built with it, else its pure-Python BDD (``dd.autoref``);
``-O library=`` picks one, and ``nqueens-cp backends`` shows which is installed. CUDD's dynamic
variable reordering is off by default: on N-Queens the row-by-row order is already good, and
reordering (sifting) made the n = 10 count 12.6 times slower here (`nqueens-cp solve 10 --count
--backend bdd [-O reorder=true]`, whole process, medians of 3: 13.8 s against 1.09 s, load 5.5).
With ``unique`` the backend refuses: the diagram has no symmetry breaking.
"""

from __future__ import annotations

from typing import ClassVar

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.counting import CountingBackend
from nqueens_cp.core.errors import ModelTooLargeError, NQueensError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.bdd import BUILDS, bdd_library, bdd_size, build_queens_bdd, new_manager
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.system.interrupts import in_child

#: The largest board the backend builds the diagram of: the 13-queens BDD outgrows memory here
#: (the 12-queens diagram has millions of nodes; ``benchmarks/bench_paradigms.py --counters``).
BDD_MAX_N = 13


class BddBackend(CountingBackend):
    """The BDD of the board's constraints, its satisfying paths counted (CUDD or pure Python)."""

    name: ClassVar[str] = "bdd"
    summary: ClassVar[str] = "binary decision diagram of the board (dd, with CUDD where installed), paths counted; counts only"
    requires: ClassVar[tuple[str, ...]] = ("dd",)
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("build", str, "squares", "squares (each queen excludes what it attacks below) or lines "
                   "(one exactly/at-most-one BDD per line)", choices=BUILDS),
        OptionSpec("library", str, "auto", "cudd, autoref (pure Python) or auto (cudd when installed)",
                   choices=("auto", "cudd", "autoref")),
        OptionSpec("reorder", bool, False, "CUDD's dynamic variable reordering (sifting)"),
    )

    def _library(self) -> str:
        wanted = str(self.options["library"])
        found = bdd_library()
        if wanted == "auto":
            return found
        if wanted == "cudd" and found != "cudd":
            raise NQueensError("backend bdd: library cudd is not installed (dd was built without CUDD); "
                               "use option library=autoref")
        return wanted

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return bdd_size(instance)

    def reach(self, first: bool) -> int | None:
        return BDD_MAX_N

    def _count_all(self, instance: Instance, unique: bool) -> int:
        if unique:
            raise NQueensError('backend bdd does not break symmetry: it cannot count unique solutions (use backend "ganak")')
        open_rows = instance.n - len(instance.fixed)
        if open_rows > BDD_MAX_N:
            raise ModelTooLargeError(
                f"bdd: the decision diagram of {open_rows} free rows would outgrow memory (at most {BDD_MAX_N}); "
                'use backend "bitboard" for counts')
        library = self._library()

        def count() -> int:
            manager = new_manager(library)
            if library == "cudd":
                manager.configure(reordering=bool(self.options["reorder"]))
            root, variables = build_queens_bdd(manager, instance, self.options["build"])
            return round(float(manager.count(root, nvars=variables)))  # CUDD counts in a double: exact below 2^53

        # CUDD keeps the GIL through an operation (4 s after the signal at n = 13): built in a child
        return in_child(count)
