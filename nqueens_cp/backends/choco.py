"""``choco``: the row model (three AllDifferent) in the Choco solver, in-process through ``pychoco``.

A second classic CP solver beside Gecode (the ``minizinc`` backend): Choco propagates the
AllDifferent globals at the filtering level chosen (``-O alldiff=``, :mod:`nqueens_cp.models.choco`
names and cites them) and searches depth first with no clause learning. ``pychoco`` bundles Choco
compiled to a native library (GraalVM native image): no Java is needed, and the solver runs in
this process. Enumeration calls ``solve()`` again after each solution, which streams solutions one
at a time.

Searches (``-O search=``): ``default`` is Choco's own (dom/wdeg with last conflict, Boussemart,
Hemery, Lecoutre and Sais, ECAI 2004; Lecoutre, Saïs, Tabary and Vidal, AIJ 2009), which finds
first solutions of large boards; ``firstfail`` takes the row with the smallest domain and its
smallest column (Haralick and Elliott 1980); ``inorder`` takes rows in order, smallest column first
(the enumeration order of a plain backtracking search).
"""

from __future__ import annotations

from typing import ClassVar, Iterator

from nqueens_cp.backends.framework.base import Backend, OptionSpec
from nqueens_cp.backends.framework.limits import with_advice
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.choco import ALLDIFF_LEVELS, DIAGONALS, ChocoModel, build_choco_model, choco_size
from nqueens_cp.models.geometry import ModelEstimate, ModelSize
from nqueens_cp.models.rows import row_model, row_model_memory
from nqueens_cp.system.interrupts import native_call

#: The searches of ``-O search=``.
SEARCHES: tuple[str, ...] = ("default", "firstfail", "inorder")


class ChocoBackend(Backend):
    """Three AllDifferent in Choco (``pychoco``), filtering level and search chosen by options."""

    name: ClassVar[str] = "choco"
    summary: ClassVar[str] = "row model (three AllDifferent) in the Choco CP solver, in-process via pychoco"
    requires: ClassVar[tuple[str, ...]] = ("pychoco",)
    extra: ClassVar[str] = "paradigms"
    supports_blocked = True
    #: Bytes of address space pychoco's native image reserves for its heap at start-up (32 GiB, mostly
    #: never touched): a worker's address-space limit (compare --memory-limit) is raised by as much.
    reserved_address_space: ClassVar[int] = 33 * 2**30
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("alldiff", str, "BC", "AllDifferent filtering: BC bounds, AC_REGIN / AC / AC_ZHANG arc "
                   "consistency, DEFAULT bounds plus probabilistic AC", choices=ALLDIFF_LEVELS,
                   normalize=str.upper),
        OptionSpec("diagonals", str, "views", "q[i]+i, q[i]-i as offset views or as auxiliary variables",
                   choices=DIAGONALS),
        OptionSpec("search", str, "default", "default (dom/wdeg), firstfail or inorder", choices=SEARCHES),
    )

    def _build(self, instance: Instance) -> ChocoModel:
        self.check_fits(self.memory_estimate(instance))
        return build_choco_model(row_model(instance), self.options["alldiff"], self.options["diagonals"])

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return with_advice(row_model_memory(instance, "Choco"), instance, None)

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return choco_size(row_model(instance), self.options["diagonals"])

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        built = self._build(instance)
        if not built.rows.feasible:
            return
        solver = built.model.get_solver()
        search = self.options["search"]
        if built.queens and search == "firstfail":
            solver.set_min_dom_lb_search(*built.queens)
        elif built.queens and search == "inorder":
            solver.set_input_order_lb_search(*built.queens)
        # Choco's native image keeps the GIL while it searches: during the first search (the long
        # one on a large board) a signal ends the process by itself; the later ones, a solution
        # each, are short, and Python's handler runs between them.
        first = True
        while True:
            with native_call(holds_gil=first):
                if not solver.solve():
                    return
            first = False
            yield built.rows.board([q.get_value() for q in built.queens])
