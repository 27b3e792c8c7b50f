"""The solver backends, one adapter module each (``cpsat.py``, ``sat.py``, ...), behind one interface
(:class:`~nqueens_cp.backends.framework.base.Backend`) and one registry: their common ground is
:mod:`nqueens_cp.backends.framework`."""

from nqueens_cp.backends.framework.base import Backend, ModelSize, OptionSpec
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.backends.framework.registry import (
    backend_class,
    backend_names,
    create_backend,
    register_backend,
)

__all__ = [
    "Backend",
    "Configuration",
    "ModelSize",
    "OptionSpec",
    "backend_class",
    "backend_names",
    "create_backend",
    "register_backend",
]
