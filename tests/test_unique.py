"""Fundamental solutions (--unique): lex-leader models, their sizes, and agreement across backends."""

from __future__ import annotations

import pytest

from nqueens_cp.backends.framework.registry import create_backend
from nqueens_cp.cli import main
from nqueens_cp.core.errors import NQueensError
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A002562
from nqueens_cp.core.symmetry import SYMMETRIES, canonical, is_canonical
from nqueens_cp.models.lex_leader import cpsat_lex_leader_size

from .conftest import SEARCH_CONFIGS


def _all_solutions(n: int) -> set[tuple[int, ...]]:
    return set(create_backend("bitboard").solutions(Instance(n)))


@pytest.mark.parametrize("n", range(1, 10))
def test_unique_sets_equal_canonical_filter_on_every_backend(n: int) -> None:
    expected = {sol for sol in _all_solutions(n) if is_canonical(sol)}
    assert len(expected) == A002562[n]
    for name, options in SEARCH_CONFIGS:
        found = list(create_backend(name, **options).solutions(Instance(n), unique=True))
        assert len(found) == len(set(found)), (name, options, "duplicates")
        assert set(found) == expected, (name, options)
        assert create_backend(name, **options).count(Instance(n), unique=True) == A002562[n]


def test_every_class_keeps_its_canonical_member() -> None:
    everything = _all_solutions(8)
    classes = {canonical(sol) for sol in everything}
    assert set(create_backend("sat").solutions(Instance(8), unique=True)) == classes
    assert set(create_backend("cpsat").solutions(Instance(8), unique=True)) == classes


#: The square's symmetries written as maps of squares, independently of nqueens_cp.core.symmetry.
GEOMETRY = {
    "identity": lambda n, r, c: (r, c),
    "mirror": lambda n, r, c: (r, n - 1 - c),
    "flip": lambda n, r, c: (n - 1 - r, c),
    "rotate180": lambda n, r, c: (n - 1 - r, n - 1 - c),
    "transpose": lambda n, r, c: (c, r),
    "rotate90": lambda n, r, c: (c, n - 1 - r),
    "rotate270": lambda n, r, c: (n - 1 - c, r),
    "antitranspose": lambda n, r, c: (n - 1 - c, n - 1 - r),
}


def test_symmetry_table_is_the_square_s_geometry() -> None:
    assert [sym.name for sym in SYMMETRIES] == list(GEOMETRY)
    for sol in _all_solutions(8):
        for sym in SYMMETRIES:
            moved = dict(GEOMETRY[sym.name](8, r, c) for r, c in enumerate(sol))
            image = tuple(moved[r] for r in range(8))
            assert sym.apply(sol) == image, sym.name
            assert {sym.map_square(8, r, c) for r, c in enumerate(sol)} == set(enumerate(image)), sym.name
            for i in range(8):
                for c in range(8):
                    row, col = sym.square(8, i, c)
                    assert (image[i] == c) == (sol[row] == col), (sym.name, i, c)


@pytest.mark.parametrize("n", [2, 5, 8])
def test_cpsat_unique_model_has_the_lex_leader_constraints(n: int) -> None:
    from nqueens_cp.models.cpsat import build_cpsat_model

    plain = build_cpsat_model(Instance(n))
    unique = build_cpsat_model(Instance(n), unique=True)
    extra_vars, extra_cons = cpsat_lex_leader_size(n)
    assert unique.size().variables - plain.size().variables == extra_vars
    assert unique.size().constraints - plain.size().constraints == extra_cons
    constraints = unique.model.Proto().constraints
    assert sum(1 for c in constraints if c.has_inverse()) == 1
    assert sum(1 for c in constraints if c.has_all_diff()) == 3
    # per symmetry, n - 1 guarded "x[k] <= y[k]" and 2 (n - 1) reified equalities
    guarded_linear = sum(1 for c in constraints if c.has_linear() and len(c.enforcement_literal) > 0)
    assert guarded_linear == 7 * 3 * (n - 1)


def test_cpsat_lex_leader_size_of_trivial_boards() -> None:
    from nqueens_cp.models.cpsat import build_cpsat_model

    for n in (0, 1):
        assert cpsat_lex_leader_size(n) == (0, 0)
        assert build_cpsat_model(Instance(n), unique=True).size() == build_cpsat_model(Instance(n)).size()


@pytest.mark.parametrize("n", [5, 6, 8])
def test_cnf_unique_clauses_accept_exactly_the_canonical_boards(n: int) -> None:
    from pysat.solvers import Solver

    from nqueens_cp.models.cnf import build_cnf

    plain = build_cnf(Instance(n))
    unique = build_cnf(Instance(n), unique=True)
    # order-encoding variables ge(i, c) for c >= 1, and same(s, i) for i >= 1 per symmetry
    assert unique.size().variables - plain.size().variables == (n + 7) * (n - 1)
    assert unique.size().constraints > plain.size().constraints
    assert plain.cnf.clauses == unique.cnf.clauses[: len(plain.cnf.clauses)]
    with Solver(name="minisat22", bootstrap_with=unique.cnf.clauses) as solver:
        for sol in _all_solutions(n):
            board = [unique.queen(r, c) if sol[r] == c else -unique.queen(r, c) for r in range(n) for c in range(n)]
            assert solver.solve(assumptions=board) == is_canonical(sol), sol


def test_unique_with_pre_placed_queens_is_refused() -> None:
    from nqueens_cp.models.cnf import build_cnf
    from nqueens_cp.models.cpsat import build_cpsat_model

    instance = Instance(8, {0: 0})
    for name, options in SEARCH_CONFIGS:
        with pytest.raises(NQueensError, match="pre-placed"):
            list(create_backend(name, **options).solutions(instance, unique=True))
    with pytest.raises(NQueensError):
        build_cpsat_model(instance, unique=True)
    with pytest.raises(NQueensError):
        build_cnf(instance, unique=True)


@pytest.mark.parametrize("backend", ["backtrack", "cpsat", "sat"])
def test_cli_refuses_unique_with_fix_in_one_line(backend: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "8", "--unique", "--fix", "0:0", "--backend", backend]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("nqueens-cp: error: ") and "pre-placed" in err


def test_cli_unique_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "10", "--count", "--unique", "--backend", "sat"]) == 0
    assert capsys.readouterr().out.strip() == str(A002562[10])
