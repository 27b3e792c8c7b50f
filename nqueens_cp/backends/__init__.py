"""Solver backends behind one interface (see ``base.Backend``) and one registry."""

from .base import Backend, ModelSize, OptionSpec
from .registry import backend_class, backend_names, create_backend, parse_config, register_backend

__all__ = [
    "Backend",
    "ModelSize",
    "OptionSpec",
    "backend_class",
    "backend_names",
    "create_backend",
    "parse_config",
    "register_backend",
]
