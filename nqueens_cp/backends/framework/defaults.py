"""Which backend answers a question when none is named: the one that answers it fastest.

Whoever asks for a count or for every solution wants the answer, so those questions go to the
compiled bitboard backend (start constellations for a count of the empty board, the compiled
row kernel streaming solutions otherwise: ``benchmarks/bench_defaults.py`` measures the default
``solve N --count`` against the fastest backend). The first solution goes to first-fail search
(``backtrack``, ``search=auto``) below ``LOCAL_SEARCH_FROM_N`` rows, and to local search
(``localsearch``) from there on: it answers sooner there (n = 300: 37 ms against 395 ms, ``nqueens-cp
compare --task first --n 300``), but it cannot prove that a completion does not exist (it says "no
completion found within the bound"), which first-fail can; an empty board beyond what local search
answers in a minute goes to the construction. The readable pure-Python row search is ``--backend backtrack``.
"""

from __future__ import annotations

from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.problems import Problem

#: The backend each question goes to when none is named (``first``: below ``LOCAL_SEARCH_FROM_N``).
#: ``count`` also stands for a count of symmetry classes, or one representative of a class (``--unique``).
DEFAULT_BACKENDS: dict[Answer, str] = {Answer.FIRST: "backtrack", Answer.COUNT: "bitboard", Answer.ALL: "bitboard"}

#: From this board size on, a first solution is asked of ``localsearch``; below it first-fail answers
#: before numba has even loaded.
LOCAL_SEARCH_FROM_N = 200


def default_backend(question: Answer, instance: Instance) -> str:
    """The name of the backend that answers ``question`` about ``instance`` when none is named."""
    if question is Answer.FIRST and instance.n >= LOCAL_SEARCH_FROM_N:
        from nqueens_cp.backends.framework.limits import FIRST_SOLUTION_MAX_N

        beyond = instance.n > FIRST_SOLUTION_MAX_N["localsearch"] and not (instance.fixed or instance.blocked)
        return "construction" if beyond else "localsearch"
    return DEFAULT_BACKENDS[question]


#: The backend each family problem goes to when none is named (``solve N --problem P``): HiGHS for
#: the domination programs, CP-SAT for the colouring (n colours refuted first: chi proved to n = 11,
#: where HiGHS stops at 7), the armies and a superqueens placement (n = 40:
#: 17 s, where the row-order search takes over a minute from n = 32), the construction of the
#: bitboard backend for a toroidal one: ``benchmarks/bench_family.py`` measures the optimisers.
DEFAULT_FAMILY_BACKENDS: dict[Problem, str] = {
    Problem.DOMINATION: "mip", Problem.INDEPENDENT_DOMINATION: "mip", Problem.COLOURING: "cpsat",
    Problem.PEACEABLE: "cpsat", Problem.TOROIDAL: "bitboard", Problem.SUPERQUEENS: "cpsat",
}
#: The backend that counts each placement problem when none is named (``--problem P --count``): the
#: compiled counters (``benchmarks/bench_family_counts.py``).
DEFAULT_FAMILY_COUNTERS: dict[Problem, str] = {Problem.TOROIDAL: "bitboard", Problem.SUPERQUEENS: "bitboard"}


def default_family_backend(problem: Problem, n: int, *, count: bool = False) -> str:
    """The name of the backend that answers the family ``problem`` on the n x n board (its placements'
    count with ``count``): a superqueens placement comes from bitboard's construction where it has one."""
    from nqueens_cp.searches.family import superqueens_constructible

    if problem is Problem.SUPERQUEENS and not count and superqueens_constructible(n):
        return "bitboard"
    return (DEFAULT_FAMILY_COUNTERS if count else DEFAULT_FAMILY_BACKENDS)[problem]
