"""Every task of the harness by name: the classic tasks (:mod:`nqueens_cp.harness.tasks`) and the
family's (:mod:`nqueens_cp.harness.family_tasks`), and :func:`make_task` to build one."""

from __future__ import annotations

from typing import Any, Mapping

from nqueens_cp.core.errors import NQueensError
from nqueens_cp.harness.family_tasks import FamilyTask
from nqueens_cp.harness.tasks import (
    AllSolutions,
    Completion,
    CountSolutions,
    FirstSolution,
    InstanceFiles,
    Task,
)

#: Every task by name. Register a new kind of run here.
TASKS: Mapping[str, type[Task]] = {
    cls.name: cls for cls in (AllSolutions, FirstSolution, Completion, InstanceFiles, CountSolutions, FamilyTask)
}


def make_task(name: str, **parameters: Any) -> Task:
    """The task called ``name`` with ``parameters`` (``make_task("all", unique=True)``)."""
    try:
        cls = TASKS[name]
    except KeyError:
        raise NQueensError(f"unknown task {name!r} (choose from {', '.join(TASKS)})") from None
    try:
        return cls(**parameters)
    except TypeError as error:
        raise NQueensError(f"task {name}: {error}") from None
