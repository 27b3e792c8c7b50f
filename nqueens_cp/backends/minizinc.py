"""``minizinc``: classic constraint programming through MiniZinc (Gecode by default).

The model is the toolkit's MiniZinc text (``nqueens-cp export N --format minizinc``): one
variable ``q[i]`` per row and three ``alldifferent`` constraints, on the columns, ``q[i] + i``
and ``q[i] - i``, plus one equality per pre-placed queen. MiniZinc flattens it for the chosen
solver and the solver propagates the ``alldifferent`` globals itself (Gecode: bounds or domain
consistency) and enumerates by depth-first search, with no clause learning: for full
enumeration that is the right tool (see docs/choosing.md, "Classic CP, CP-SAT or SAT").

Solutions are streamed: the ``minizinc`` Python package runs the ``minizinc`` program and reads
its JSON output as the solver prints each solution; closing the iterator early stops the
solver process. The backend needs the ``minizinc`` package (a dependency of nqueens-cp) and the
``minizinc`` program with at least one solver (Debian: ``apt-get install minizinc flatzinc``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import subprocess
import warnings
from functools import cache
from typing import Any, ClassVar, Iterator

from nqueens_cp.backends.framework.base import Backend, ModelSize, OptionSpec
from nqueens_cp.core.errors import BackendOptionError, SolverError, did_you_mean
from nqueens_cp.core.instance import Instance, Solution
from nqueens_cp.models.reduction import reduce_instance, uses_reduction
from nqueens_cp.models.text import minizinc_text

#: How to install the ``minizinc`` program, for the messages of an unusable backend.
INSTALL_HINT = ("install the minizinc program with a solver (Debian/Ubuntu: apt-get install minizinc flatzinc; "
                "elsewhere the MiniZinc bundle)")


@cache
def installed_solvers() -> tuple[str, ...]:
    """Short names of the solvers ``minizinc --solvers-json`` finds usable (a version, not a GUI), in its order.

    Empty when the program is missing. A short name is the last part of the solver id
    (``org.gecode.gecode`` -> ``gecode``); MIP back ends whose library is missing report an
    unknown version and are left out.
    """
    program = shutil.which("minizinc")
    if program is None:
        return ()
    try:
        done = subprocess.run([program, "--solvers-json"], capture_output=True, text=True, timeout=60, check=True)
        configs = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, json.JSONDecodeError):
        return ()
    names = []
    for config in configs:
        if not isinstance(config, dict) or config.get("isGUIApplication"):
            continue
        if str(config.get("version", "")).startswith("<unknown"):
            continue
        names.append(str(config.get("id", "")).rsplit(".", 1)[-1])
    return tuple(name for name in names if name)


def _close(loop: asyncio.AbstractEventLoop, stream: Any) -> None:
    """Stop the solution stream and its solver process, then close the loop, leaving no task or process behind.

    Closing the stream early (``aclose``) would not stop the solver: the package terminates its
    process only on an exception from inside (``GeneratorExit`` passes by its handler), so the
    stream is cancelled instead, which terminates the process and waits for it.
    """
    try:
        # CancelledError: cancelled as asked; StopAsyncIteration or RuntimeError: it had finished already.
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration, RuntimeError):
            loop.run_until_complete(stream.athrow(asyncio.CancelledError()))
        pending = asyncio.all_tasks(loop)
        for task in pending:
            task.cancel()
        if pending:
            loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
        loop.run_until_complete(loop.shutdown_asyncgens())
    finally:
        loop.close()


class MiniZincBackend(Backend):
    """Three ``alldifferent`` in MiniZinc, solved by a CP solver (Gecode by default), solutions streamed."""

    name: ClassVar[str] = "minizinc"
    supports_blocked = True
    summary: ClassVar[str] = "MiniZinc model (three alldifferent), solved by a classic CP solver such as Gecode"
    requires: ClassVar[tuple[str, ...]] = ("minizinc",)
    option_specs: ClassVar[tuple[OptionSpec, ...]] = (
        OptionSpec("solver", str, "gecode", "MiniZinc solver (any that `minizinc --solvers` lists)"),
    )

    def __init__(self, *, memory_budget_mb: float | None = None, **options: object) -> None:
        super().__init__(memory_budget_mb=memory_budget_mb, **options)
        solvers = installed_solvers()
        if solvers and self.options["solver"] not in solvers:
            raise BackendOptionError(
                f"option solver: unknown value {self.options['solver']!r}"
                f"{did_you_mean(self.options['solver'], solvers)} (choose from {', '.join(solvers)})"
            )

    @classmethod
    def unavailable_reason(cls) -> str | None:
        missing = cls.missing_packages()
        if missing:
            return "backend minizinc needs the Python package minizinc: pip install nqueens-cp (it declares it)"
        if shutil.which("minizinc") is None:
            return f"backend minizinc needs the minizinc program, not found on the PATH: {INSTALL_HINT}"
        if not installed_solvers():
            return f"backend minizinc: `minizinc --solvers` finds no usable solver: {INSTALL_HINT}"
        return None

    @classmethod
    def option_choices(cls, spec: OptionSpec) -> tuple[Any, ...] | None:
        return installed_solvers() or None if spec.name == "solver" else spec.choices

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        """The MiniZinc model: n variables, three ``alldifferent`` plus one equality per pre-placed
        queen; over the free rows only (one domain constraint each) when the model shrinks."""
        if uses_reduction(instance):
            rows = reduce_instance(instance).rows
            return ModelSize(len(rows), 3 + len(rows), "constraints")
        return ModelSize(instance.n, 3 + len(instance.fixed), "constraints")

    def _solutions(self, instance: Instance, limit: int | None) -> Iterator[Solution]:
        import minizinc

        self.ensure_available()
        # The model over the free rows when it shrinks (models/reduction.py): q then holds their columns.
        reduction = reduce_instance(instance) if uses_reduction(instance) else None
        model = minizinc.Model()
        model.add_string(minizinc_text(instance))
        solver = minizinc.Solver.lookup(self.options["solver"])
        problem = minizinc.Instance(solver, model)
        loop = asyncio.new_event_loop()
        with warnings.catch_warnings():
            # Debian's Gecode package overrides global constraint files the old way: MiniZinc warns each run.
            warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
            arguments: dict[str, Any] = {"nr_solutions": limit} if limit is not None else {"all_solutions": True}
            stream = problem.solutions(**arguments)
            try:
                while True:
                    try:
                        result = loop.run_until_complete(stream.__anext__())
                    except StopAsyncIteration:
                        return
                    except minizinc.error.MiniZincError as error:
                        raise SolverError(f"minizinc ({self.options['solver']}): {error}") from None
                    if result.solution is not None:
                        columns = [int(column) for column in result.solution.q]
                        if reduction is None:
                            yield tuple(columns)
                        else:
                            yield reduction.board(dict(zip(reduction.rows, columns, strict=True)))
            finally:
                _close(loop, stream)
