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

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.modelled import RowModelBackend
from nqueens_cp.core.errors import SearchStoppedError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.problems import FamilyAnswer, Problem, Witness
from nqueens_cp.models.choco import (
    ALLDIFF_LEVELS,
    DIAGONALS,
    ChocoModel,
    build_choco_family_model,
    build_choco_model,
    choco_size,
)
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.rows import row_model
from nqueens_cp.system.interrupts import in_child, native_call

#: The searches of ``-O search=``.
SEARCHES: tuple[str, ...] = ("default", "firstfail", "inorder")


class ChocoBackend(RowModelBackend):
    """Three AllDifferent in Choco (``pychoco``), filtering level and search chosen by options."""

    name: ClassVar[str] = "choco"
    row_model_solver = "Choco"
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
        OptionSpec("time_limit", float, None, "time limit in seconds (None: no limit); a family problem's "
                   "optimum then answers the best found", minimum=0),
    )
    #: Every problem of the family, each a CP model of its own (:mod:`nqueens_cp.models.family_cp`).
    family = frozenset(Problem) - {Problem.QUEENS}

    def _build(self, instance: Instance) -> ChocoModel:
        self.check_fits(self.memory_estimate(instance))
        return build_choco_model(row_model(instance), self.options["alldiff"], self.options["diagonals"])

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
        if self.options["time_limit"] is not None:
            solver.limit_time(f"{self.options['time_limit']:g}s")
        # Choco's native image keeps the GIL while it searches: during the first search (the long
        # one on a large board) a signal ends the process by itself; the later ones, a solution
        # each, are short, and Python's handler runs between them.
        first = True
        while True:
            with native_call(holds_gil=first):
                if not solver.solve():
                    if solver.get_search_state() == "STOPPED":
                        raise SearchStoppedError(f"choco reached its time limit of {self.options['time_limit']:g} s "
                                                 "before it found every solution asked for")
                    return
            first = False
            yield built.rows.board([q.get_value() for q in built.queens])

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The CP model of ``problem`` (:func:`~nqueens_cp.models.choco.build_choco_family_model`):
        one ``solve()`` for a placement; for an optimum the objective is set and ``solve()`` is called
        while it finds a better solution, each call resuming the search (branch and bound), until the
        search is exhausted (the last solution is then proved optimal) or the time limit stops it.
        Choco keeps the GIL while it searches: under the command line the search runs in a forked
        child (:func:`~nqueens_cp.system.interrupts.in_child`), which Ctrl-C ends at once."""
        return in_child(lambda: self._search_family(problem, n))

    def _search_family(self, problem: Problem, n: int) -> FamilyAnswer:
        built = build_choco_family_model(problem, n)
        if built.objective is not None:
            built.model.set_objective(built.objective, maximize=built.maximize)
        solver = built.model.get_solver()
        search = self.options["search"]
        decisions = built.decision_variables()
        if search == "firstfail":
            solver.set_min_dom_lb_search(*decisions)
        elif search == "inorder":
            solver.set_input_order_lb_search(*decisions)
        limit = self.options["time_limit"]
        if limit is not None:
            solver.limit_time(f"{limit:g}s")
        best: Witness | None = None
        while True:
            if not solver.solve():
                break
            best = built.witness()
            if built.objective is None:
                return FamilyAnswer(problem, n, best, witness_value(problem, best), True)
        stopped = solver.get_search_state() == "STOPPED"
        if best is None:
            if stopped:
                raise SearchStoppedError(f"choco reached its time limit of {limit:g} s before it found a witness "
                                         f"of {problem.value} or proved there is none")
            return FamilyAnswer(problem, n, None, None, True)
        return FamilyAnswer(problem, n, best, witness_value(problem, best), not stopped)
