"""The CP-SAT solution callbacks of the ``cpsat`` backend: small classes that only record.

This module imports ortools at import time; ``cpsat.py`` imports it only when it solves.
"""

from __future__ import annotations

from typing import Any, Callable

from ortools.sat.python import cp_model


class SolutionCounter(cp_model.CpSolverSolutionCallback):
    """Counts solutions, nothing else."""

    def __init__(self) -> None:
        super().__init__()
        self.found = 0

    def on_solution_callback(self) -> None:
        self.found += 1


class ImprovementClock(cp_model.CpSolverSolutionCallback):
    """Notes the solver's wall time at each solution (each improvement, when optimising): the last
    is when the witness it returns was found."""

    def __init__(self) -> None:
        super().__init__()
        self.last: float | None = None

    def on_solution_callback(self) -> None:
        self.last = float(self.wall_time)


class SolutionRecorder(cp_model.CpSolverSolutionCallback):
    """Hands each board to ``hand_over``; asks the solver to stop once nobody takes them."""

    def __init__(self, queens: tuple[Any, ...], hand_over: Callable[[object], bool]) -> None:
        super().__init__()
        self.queens = queens
        self.hand_over = hand_over

    def on_solution_callback(self) -> None:
        if not self.hand_over(tuple(int(self.value(q)) for q in self.queens)):
            self.stop_search()
