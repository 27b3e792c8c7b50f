"""Solver backends behind one interface (see ``base.Backend``) and one registry."""

from .base import Backend, ModelSize, OptionSpec
from .configuration import Configuration
from .registry import backend_class, backend_names, create_backend, register_backend

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
