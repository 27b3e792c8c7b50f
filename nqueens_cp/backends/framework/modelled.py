"""What the backends that build one model per instance from a formulation option share (``asp``,
``mip``, ``pb``, ``smt``): the model is built only after its memory estimate fits the budget, and a
model that does not fit is refused naming the leaner formulation, if any, else a backend that
answers one solution. An adapter declares its builder, its estimate and its option, and solves.

The backends that hand the row model to a solver (``choco``, ``cpmpy``, ``xcsp3``) share its
estimate and size likewise (:class:`RowModelBackend`).
"""

from __future__ import annotations

from typing import Callable, ClassVar, Generic, Protocol, TypeVar

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.limits import with_advice
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.geometry import ModelEstimate, ModelSize
from nqueens_cp.models.rows import row_model, row_model_memory


class BuiltModel(Protocol):
    """A built model: it knows its size."""

    def size(self) -> ModelSize: ...


M = TypeVar("M", bound=BuiltModel)


class ModelledBackend(Backend, Generic[M]):
    """A backend solving the model ``build(instance, formulation, unique=...)`` (see the module docstring)."""

    #: The option that chooses the formulation.
    formulation_option: ClassVar[str] = "formulation"
    #: The formulation whose model is the larger one, and what to use when it does not fit (None: none is).
    larger: ClassVar[tuple[str, str] | None] = None
    #: The model's builder and its memory estimate, both taking the instance and the formulation.
    build: ClassVar[Callable[..., BuiltModel]]
    estimate: ClassVar[Callable[..., ModelEstimate]]

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        formulation = self.options[self.formulation_option]
        larger = self.larger is not None and formulation == self.larger[0]
        return with_advice(type(self).estimate(instance, formulation), instance,
                           self.larger[1] if larger and self.larger is not None else None)

    def _model(self, instance: Instance, unique: bool) -> M:
        self.check_fits(self.memory_estimate(instance))
        built: M = type(self).build(instance, self.options[self.formulation_option], unique=unique)  # type: ignore[assignment]
        return built

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return self._model(instance, unique).size()


class RowModelBackend(Backend):
    """A backend handing the row model (:mod:`nqueens_cp.models.rows`) to the solver it names."""

    #: The solver the row model's memory estimate is for.
    row_model_solver: ClassVar[str]

    def memory_estimate(self, instance: Instance) -> ModelEstimate:
        return with_advice(row_model_memory(instance, self.row_model_solver), instance, None)

    def _model_size(self, instance: Instance, unique: bool) -> ModelSize:
        return row_model(instance).size()
