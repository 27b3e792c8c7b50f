"""How far each backend goes: a board beyond its bounds is refused in one line that names only what
answers there, in the API's words (``backend "NAME"``) or the command line's (``--backend NAME``);
a time limit lifts the time bound and the run stops there, saying so."""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.backends.framework.largest import largest_accepted_n
from nqueens_cp.backends.framework.limits import FIRST_SOLUTION_MAX_N
from nqueens_cp.backends.framework.registry import backend_class, backend_names, create_backend
from nqueens_cp.core.errors import ModelTooLargeError, SearchStoppedError
from nqueens_cp.core.instance import Instance

from .conftest import REPO


def solve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "nqueens_cp", "solve", *args], capture_output=True, text=True,
                          timeout=120, cwd=REPO)


@pytest.mark.parametrize("name", [name for name in backend_names() if backend_class(name).unavailable_reason() is None])
def test_one_above_the_largest_board_is_refused_naming_only_what_answers_it(name: str) -> None:
    """The API's refusal speaks the API (no command-line flags), and every backend it recommends
    takes that board (a backend recommended where it gives no answer was the bug: backtrack at n = 100,000)."""
    n = largest_accepted_n(name) + 1
    backend = create_backend(name)
    with pytest.raises(ModelTooLargeError) as refused:
        if "first" in backend.answers:
            backend.first_solution(Instance(n))
        else:
            backend.count(Instance(n))
    message = str(refused.value)
    assert "--" not in message and "-O " not in message, message
    for named in re.findall(r'"(\w+)"', message.partition("use ")[2]):
        assert n <= largest_accepted_n(named), f"{named} is recommended at n = {n:,}: {message}"


def test_huge_boards_are_refused_with_what_answers_them() -> None:
    """``solve 100000 --backend cpsat`` recommended backtrack, which gives no answer there in 30 s."""
    assert FIRST_SOLUTION_MAX_N["backtrack"] < 100_000
    for backend in ("cpsat", "sat", "minizinc"):
        run = solve("100000", "--backend", backend)
        assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
        assert "; use --backend localsearch or construction" in run.stderr and "backtrack" not in run.stderr


def test_sat_at_n_300_recommends_what_answers_there() -> None:
    run = solve("300", "--backend", "sat")
    assert run.returncode == 2 and run.stderr == (
        f"nqueens-cp: error: sat finds no first solution of n > {FIRST_SOLUTION_MAX_N['sat']} within a minute "
        "(n = 300); use --backend backtrack, localsearch or construction, or give it --time-limit SECONDS, at "
        "which it stops\n")


def test_sat_given_a_time_limit_stops_at_it() -> None:
    started = time.perf_counter()
    run = solve("300", "--backend", "sat", "--encoding", "seqcounter", "--time-limit", "2")
    assert run.returncode == 3 and "sat reached its time limit of 2 s" in run.stderr, run.stderr
    assert time.perf_counter() - started < 15


def test_cpsat_beyond_its_bound_is_refused_at_once_and_a_time_limit_stops_it_there() -> None:
    """``solve 1000 --backend cpsat`` gave no answer in 10 minutes; with --time-limit it runs and stops."""
    assert FIRST_SOLUTION_MAX_N["cpsat"] < 1000
    refused = solve("1000", "--backend", "cpsat")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "--time-limit SECONDS" in refused.stderr and 'option' not in refused.stderr
    stopped = solve("500", "--backend", "cpsat", "--time-limit", "2")  # none in 18 s of CPU without one
    assert (stopped.returncode, stopped.stdout) == (3, "")
    assert stopped.stderr.startswith("nqueens-cp: stopped: cpsat reached its time limit of 2 s before it found")


def test_a_counting_backend_beyond_its_bound_points_to_bitboard() -> None:
    run = solve("16", "--count", "--backend", "ganak")
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.rstrip().endswith("use --backend bitboard (it counts n = 17 in about 10 s)")


def test_mip_at_its_time_limit_stops_saying_so() -> None:
    """HiGHS's time limit was reported as a solver failure (exit status 2); it is a stop (3)."""
    with pytest.raises(SearchStoppedError, match="mip reached its time limit of 0 s"):
        create_backend("mip", time_limit=0.0).first_solution(Instance(20))


def test_the_backends_listing_gives_each_largest_board() -> None:
    listing = subprocess.run([sys.executable, "-m", "nqueens_cp", "backends"], capture_output=True, text=True,
                             timeout=120, cwd=REPO).stdout
    cpsat = listing.split("\ncpsat:")[1]
    assert (f"largest board: n = {largest_accepted_n('cpsat'):,} for a first solution (memory and time bounds); "
            "more with --time-limit, which stops it there") in cpsat.split("\n")[2]
    assert f"largest board: n = {largest_accepted_n('ganak')} for a count" in listing.split("\nganak:")[1]


def test_the_default_first_solution_goes_to_what_answers_the_board() -> None:
    """Beyond local search's bound an empty board goes to the construction (``solve N`` must not be
    refused by its own default); a board with a queen placed stays with local search."""
    from nqueens_cp.backends.framework.defaults import default_backend

    beyond = FIRST_SOLUTION_MAX_N["localsearch"] + 1
    assert default_backend(Answer.FIRST, Instance(beyond)) == "construction"
    assert default_backend(Answer.FIRST, Instance(beyond, {0: 0})) == "localsearch"
    assert default_backend(Answer.FIRST, Instance(beyond - 1)) == "localsearch"
