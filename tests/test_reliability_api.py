"""The Python API given wrong types or values: always an ``NQueensError`` naming the argument,
never a ``TypeError`` (or anything else) from deep inside a solver library."""

from __future__ import annotations

import math
from typing import Any, Callable

import pytest

from nqueens_cp import (
    Instance,
    NQueensError,
    backend_names,
    create_backend,
    is_valid_solution,
    known_count,
    solution_problems,
)
from nqueens_cp.backends.framework.configuration import Configuration
from nqueens_cp.backends.framework.registry import backend_class
from nqueens_cp.core.errors import InvalidArgumentError
from nqueens_cp.parallel import ParallelConfig, SplitRun

#: Values of every wrong kind.
WRONG = [None, "8", b"8", 8.0, math.nan, True, [], {}, (1, 2), object(), -1, 10**30, -(10**30)]


def _refused(call: Callable[[], Any], name: str) -> None:
    with pytest.raises(NQueensError) as caught:
        result = call()
        if hasattr(result, "__next__"):  # a lazy iterator must fail when made, not later
            next(result, None)
    assert name in str(caught.value), f"{caught.value!r} does not name {name!r}"


@pytest.mark.parametrize("name", backend_names())
def test_backend_methods_check_their_arguments(name: str) -> None:
    backend = create_backend(name)
    good = Instance(5)
    for method in ("solutions", "count", "first_solution", "model_size"):
        call = getattr(backend, method)
        for value in WRONG:
            _refused(lambda value=value, call=call: call(value), "instance")
    for method in ("solutions", "count"):
        call = getattr(backend, method)
        for value in ("3", 2.5, -1, [], True):
            _refused(lambda value=value, call=call: call(good, limit=value), "limit")
        for value in (1, "yes", None, []):
            _refused(lambda value=value, call=call: call(good, unique=value), "unique")


@pytest.mark.parametrize("name", backend_names())
def test_every_backend_option_checks_its_value(name: str) -> None:
    for spec in backend_class(name).option_specs:
        for value in [object(), [], {}, math.nan, 10**30, -(10**30), "not-a-value"]:
            try:
                create_backend(name, **{spec.name: value})
            except NQueensError as error:
                assert spec.name in str(error), f"{error!r} does not name {spec.name}"
            else:
                # a huge time limit is fine; so is any string for a free-string option (minizinc's
                # solver: the name of a solver MiniZinc knows), but never a value of another type
                free_string = spec.type is str and spec.choices is None and isinstance(value, str)
                assert free_string or (spec.type is float and value == 10**30), (name, spec.name, value)


def test_free_string_options_exist_and_are_checked() -> None:
    free = [(name, spec.name) for name in backend_names() for spec in backend_class(name).option_specs
            if spec.type is str and spec.choices is None]
    assert ("minizinc", "solver") in free  # so the loop above checks them, not skips them


def test_module_functions_check_their_arguments() -> None:
    for value in WRONG:
        if not isinstance(value, Instance):
            _refused(lambda value=value: solution_problems(value, (0,)), "instance")
            _refused(lambda value=value: is_valid_solution(value, (0,)), "instance")
        if not isinstance(value, str):
            _refused(lambda value=value: create_backend(value), "backend")
            _refused(lambda value=value: Configuration.split(value), "configuration")
    for value in (5, None, 2.0, "0123"):
        _refused(lambda value=value: solution_problems(Instance(4), value), "solution")
    for value in ("8", 8.0, None, -1, True):
        _refused(lambda value=value: known_count(value), "n")
    _refused(lambda: known_count(8, unique="yes"), "unique")
    for n in ("8", 8.0, None, -1, 2**31, True, []):
        _refused(lambda n=n: Instance(n), "n")
    for fixed in (5, "0:0", [(0,)], [("a", 1)], [(0, 9)], {0: 1.5}, [(0, 1), (0, 2)]):
        with pytest.raises(NQueensError):
            Instance(8, fixed)


def test_split_runs_check_their_arguments() -> None:
    fields: dict[str, list[Any]] = {
        "workers": [0, "2", 2.0, None, True],
        "executor": [3, ""],
        "scheduler": [3, ""],
        "split_depth": [-1, "2", 1.5],
        "checkpoint": [3, ["x"]],
        "max_attempts": [0, "3", None],
        "symmetry": ["yes", 1, None],
        "verify": ["yes", 1],
        "verify_with": [3, ""],
    }
    for field, values in fields.items():
        for value in values:
            _refused(lambda field=field, value=value: ParallelConfig(**{field: value}), field)
    for value in WRONG:
        _refused(lambda value=value: SplitRun(value, "bitboard"), "instance")
        if not isinstance(value, str):
            _refused(lambda value=value: SplitRun(Instance(6), value), "backend")
        if value is not None and not isinstance(value, dict):
            _refused(lambda value=value: SplitRun(Instance(6), "bitboard", value), "options")
            _refused(lambda value=value: SplitRun(Instance(6), "bitboard", config=value), "config")
        if not isinstance(value, bool):
            _refused(lambda value=value: SplitRun(Instance(6), "bitboard", enumerate=value), "enumerate")
            _refused(lambda value=value: SplitRun(Instance(6), "bitboard", unique=value), "unique")
    _refused(lambda: SplitRun(Instance(6), "bitboard", {"kernel": 3}), "kernel")
    _refused(lambda: SplitRun(Instance(6), "bitboard", {1: 2}), "options")


def test_the_error_is_also_a_type_and_value_error() -> None:
    assert issubclass(InvalidArgumentError, TypeError) and issubclass(InvalidArgumentError, ValueError)


def test_model_builders_and_writers_check_their_arguments() -> None:
    from nqueens_cp.export import export_model
    from nqueens_cp.export.writers import cpsat_text, dimacs_text
    from nqueens_cp.models.cnf import build_cnf
    from nqueens_cp.models.cpsat import build_cpsat_boolean_model, build_cpsat_model
    from nqueens_cp.models.text import minizinc_text, opb_text

    takes_instance: list[Callable[[Any], Any]] = [
        build_cnf, build_cpsat_model, build_cpsat_boolean_model, minizinc_text, opb_text, dimacs_text,
        cpsat_text, lambda value: export_model(value, "dimacs"),
    ]
    for build in takes_instance:
        for value in WRONG:
            _refused(lambda value=value, build=build: build(value), "instance")
    for build in (build_cnf, build_cpsat_model, build_cpsat_boolean_model):
        _refused(lambda build=build: build(Instance(4), unique="yes"), "unique")
    _refused(lambda: build_cnf(Instance(4), 5), "encoding")
    _refused(lambda: export_model(Instance(4), 3), "format")
