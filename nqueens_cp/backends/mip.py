"""``mip``: integer programming with HiGHS (``highspy``), on the 0-1 program of :mod:`nqueens_cp.models.mip`.

A first solution (and a completion) is one MIP solve (HiGHS's defaults: presolve, cuts, its threads). Enumeration is by no-good cuts: after each
board ``S`` the row ``Σ_{i in S} x_i <= |S| − 1`` is added and HiGHS solves again, from scratch
(one branch-and-bound per solution, each a little harder than the last). That does not scale, so
the backend says how far it goes and refuses beyond (:data:`MAX_NOGOOD_SOLVES`): it enumerates or
counts only when at most that many solutions can come back — a ``limit`` within it, an empty board
whose count (OEIS) is within it, or at most :data:`MAX_ENUMERATION_ROWS` rows to decide (at most
92 completions). Anything else is refused in one line, pointing to a backend that enumerates.
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Iterator

from nqueens_cp.backends.framework.base import OptionSpec
from nqueens_cp.backends.framework.limits import family_estimate
from nqueens_cp.backends.framework.modelled import ModelledBackend
from nqueens_cp.core.errors import ModelTooLargeError, SearchStoppedError, SolverError
from nqueens_cp.core.family_checker import witness_value
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.core.oeis import A000170, A002562
from nqueens_cp.core.problems import Direction, FamilyAnswer, Problem
from nqueens_cp.models.family import FamilyModel, build_family_model
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.linear import LinearModel
from nqueens_cp.models.mip import FORMULATIONS, build_mip_model, mip_memory
from nqueens_cp.models.reduction import model_rows
from nqueens_cp.system.interrupts import native_call
from nqueens_cp.system.processes import prepare_highspy

if TYPE_CHECKING:
    import highspy

#: The most MIP solves an enumeration may take (one per solution, plus the last, infeasible one).
MAX_NOGOOD_SOLVES = 100
#: Boards with at most this many rows to decide have at most A000170[8] = 92 solutions.
MAX_ENUMERATION_ROWS = 8


class MipBackend(ModelledBackend[LinearModel]):
    supports_blocked = True
    name = "mip"
    summary = ("integer programming (HiGHS): binary x[r][c], rows and columns = 1, diagonals <= 1; "
               f"enumerates by no-good cuts, at most {MAX_NOGOOD_SOLVES} solutions")
    requires = ("highspy",)
    option_specs = (
        OptionSpec("formulation", str, "lines",
                   "lines: one row per diagonal (a clique); pairwise: x_a + x_b <= 1 per pair on a diagonal",
                   choices=FORMULATIONS),
        OptionSpec("time_limit", float, None, "HiGHS time limit per solve in seconds (None: no limit)", minimum=0),
        OptionSpec("cuts", bool, False, "the family model's cuts (models.family.build_family_model): off, "
                   "as HiGHS finds the square's symmetry itself and proves the dominations slower with them"),
    )
    #: Every problem of the family: its 0-1 program (:mod:`nqueens_cp.models.family`), optimised by HiGHS.
    family = frozenset(Problem) - {Problem.QUEENS}
    build = staticmethod(build_mip_model)
    estimate = staticmethod(mip_memory)
    larger = ("pairwise", "use option formulation=lines (one row per diagonal)")


    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return self._model(instance, unique).size("rows")

    def _highs(self, model: LinearModel | FamilyModel) -> highspy.Highs:
        import highspy
        import numpy as np

        prepare_highspy()  # the banner spent off stdout, and forked children's HiGHS made safe
        highs = highspy.Highs()  # type: ignore[no-untyped-call]
        highs.setOptionValue("output_flag", False)
        if self.options["time_limit"] is not None:
            highs.setOptionValue("time_limit", float(self.options["time_limit"]))
        count = model.variables
        if count:
            highs.addVars(count, np.zeros(count), np.ones(count))
            highs.changeColsIntegrality(count, np.arange(count, dtype=np.int32),
                                        np.full(count, highspy.HighsVarType.kInteger))
        rows = model.rows
        if rows:
            inf = highspy.kHighsInf
            lower = np.array([-inf if r.lower is None else r.lower for r in rows], dtype=float)
            upper = np.array([inf if r.upper is None else r.upper for r in rows], dtype=float)
            starts = np.cumsum([0] + [len(r.terms) for r in rows[:-1]]).astype(np.int32)
            index = np.array([v - 1 for r in rows for _, v in r.terms], dtype=np.int32)  # HiGHS's columns from 0
            values = np.array([c for r in rows for c, _ in r.terms], dtype=float)
            highs.addRows(len(rows), lower, upper, len(index), starts, index, values)
        return highs

    def _solve(self, highs: highspy.Highs, model: LinearModel) -> list[int] | None:
        """The squares of the next solution, or None when there is none."""
        import highspy

        if model.variables == 0:  # nothing to decide: feasible iff every row holds with no terms
            return [] if all(r.allows(0) for r in model.rows) else None
        with native_call():  # HiGHS's cancelSolve did not stop a running solve (n = 250: 47 s)
            ran = highs.run()
        if ran == highspy.HighsStatus.kError:
            raise SolverError("HiGHS failed to run (an option or the model was refused)")
        status = highs.getModelStatus()
        # a 0-1 program with no objective cannot be unbounded: "unbounded or infeasible" is infeasible
        if status in (highspy.HighsModelStatus.kInfeasible, highspy.HighsModelStatus.kUnboundedOrInfeasible):
            return None
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise SearchStoppedError(f"mip reached its time limit of {self.options['time_limit']:g} s before it "
                                     "found a solution or proved there is none")
        if status != highspy.HighsModelStatus.kOptimal:
            raise SolverError(f"HiGHS stopped without an answer ({highs.modelStatusToString(status)})")
        values = highs.getSolution().col_value
        return [j for j in range(len(model.square_variables)) if values[j] > 0.5]  # column j is square j

    def _first_solution(self, instance: Instance) -> Solution | None:
        model = self._model(instance, False)
        found = self._solve(self._highs(model), model)
        return None if found is None else model.lines.decode(found)

    def _check_enumeration(self, instance: Instance, limit: int | None, unique: bool) -> None:
        """Refuse an enumeration that could take more than MAX_NOGOOD_SOLVES solves (see the module docstring)."""
        if limit is not None and limit < MAX_NOGOOD_SOLVES:
            return
        if model_rows(instance) <= MAX_ENUMERATION_ROWS:
            return
        counts = A002562 if unique else A000170
        if not instance.fixed and not instance.blocked and counts.get(instance.n, MAX_NOGOOD_SOLVES) < MAX_NOGOOD_SOLVES:
            return
        raise ModelTooLargeError(
            f"mip enumerates by no-good cuts, one MIP solve per solution, and stops at {MAX_NOGOOD_SOLVES} "
            f"(n = {instance.n} may have more); give a limit below {MAX_NOGOOD_SOLVES} or use backend \"asp\", \"sat\" or \"cpsat\""
        )

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, limit, unique=False)

    def _unique_solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        return self._enumerate(instance, limit, unique=True)

    def _enumerate(self, instance: Instance, limit: int | None, *, unique: bool) -> Iterator[Solution]:
        self._check_enumeration(instance, limit, unique)
        model = self._model(instance, unique)
        highs = self._highs(model)
        import numpy as np

        while (found := self._solve(highs, model)) is not None:
            yield model.lines.decode(found)
            if not found:  # the board had nothing to decide: it is the only solution
                return
            size = len(found)
            highs.addRow(-np.inf, size - 1, size, np.array(found, dtype=np.int32), np.ones(size))

    def _count(self, instance: Instance, limit: int | None, unique: bool) -> int:
        return sum(1 for _ in islice(self._enumerate(instance, limit, unique=unique), limit))

    # -- the N-Queens family -----------------------------------------------------------------

    def _solve_family(self, problem: Problem, n: int) -> FamilyAnswer:
        """The family model as a 0-1 program: its rows, its objective, branch and bound by HiGHS."""
        import highspy
        import numpy as np

        self.check_fits(family_estimate(problem, n))
        model = build_family_model(problem, n, self.options["cuts"])
        highs = self._highs(model)
        if model.objective is not None:
            columns = np.array([v - 1 for _, v in model.objective.terms], dtype=np.int32)
            highs.changeColsCost(len(columns), columns, np.array([c for c, _ in model.objective.terms], dtype=float))
            highs.changeObjectiveSense(highspy.ObjSense.kMaximize if model.objective.direction is Direction.MAXIMISE
                                       else highspy.ObjSense.kMinimize)
        with native_call():
            ran = highs.run()
        if ran == highspy.HighsStatus.kError:
            raise SolverError("HiGHS failed to run (an option or the model was refused)")
        status = highs.getModelStatus()
        if status in (highspy.HighsModelStatus.kInfeasible, highspy.HighsModelStatus.kUnboundedOrInfeasible):
            return FamilyAnswer(problem, n, None, None, True)
        values = highs.getSolution().col_value
        found = highs.getInfo().primal_solution_status == 2  # a feasible solution is at hand
        if status == highspy.HighsModelStatus.kOptimal or (status == highspy.HighsModelStatus.kTimeLimit and found):
            witness = model.decode(lambda v: values[v - 1] > 0.5)
            proved = status == highspy.HighsModelStatus.kOptimal
            bound = None if proved or model.objective is None else round(highs.getInfo().mip_dual_bound)
            return FamilyAnswer(problem, n, witness, witness_value(problem, witness), proved, bound)
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise SearchStoppedError(f"mip reached its time limit of {self.options['time_limit']:g} s before it "
                                     f"found a witness of {problem.value}")
        raise SolverError(f"HiGHS stopped without an answer ({highs.modelStatusToString(status)})")
