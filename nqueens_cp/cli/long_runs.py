"""What ``solve`` says about a long single run: a count past the published ones and what it will
cost, said up front, and a line on the terminal while a count or a first solution runs.

The cost of a count is estimated from measured growth: the ``bitboard`` counter's time grows as the
number of solutions (n = 17 to 18: time x7.4, count x6.95; n = 19 to 20: x7.9 and x7.86, see
benchmarks/RESULTS.md), so a count takes about :data:`BASIS_SECONDS` x A000170(n) / A000170(18) on
one core. Past n = 27 the count itself is extrapolated: each further queen multiplies it by the
last published ratio, which grows by its last step per queen (10.53 at n = 27, +0.42 a queen).
"""

from __future__ import annotations

import argparse
import sys
from contextlib import nullcontext
from typing import ContextManager

from nqueens_cp.backends.framework.base import Answer
from nqueens_cp.core.instance import Instance
from nqueens_cp.core.oeis import A000170, published_count

#: The serial ``bitboard`` count of n = 18 on the benchmark machine: median of 3 (41.1 s, 33.0 s,
#: 42.1 s), ``python benchmarks/bench_constellations.py --n 18 --repeat 3 --parallel``.
BASIS_N = 18
BASIS_SECONDS = 41.1

#: A run shows its line on a terminal once it has taken this many seconds.
TICK_AFTER = 2.0


def _growth() -> tuple[int, float, float]:
    """The last published n, the ratio of its count to the one before, and that ratio's last step."""
    last = max(A000170)
    ratio = A000170[last] / A000170[last - 1]
    return last, ratio, ratio - A000170[last - 1] / A000170[last - 2]


def estimated_solutions(n: int) -> float:
    """A000170(n), published or extrapolated past the table (see the module docstring)."""
    last, ratio, step = _growth()
    if n <= last:
        return float(A000170[n])
    count = float(A000170[last])
    for _ in range(last + 1, n + 1):
        ratio += step
        count *= ratio
    return count


def count_seconds(n: int) -> float:
    """The estimated seconds of the ``bitboard`` count of the empty n x n board on one core."""
    return BASIS_SECONDS * estimated_solutions(n) / A000170[BASIS_N]


def count_note(instance: Instance, backend: str, unique: bool) -> str | None:
    """The note said before counting an empty board past the published counts: the count cannot be
    checked, and what it will cost; None when there is a published count (or pre-placed queens)."""
    if instance.fixed or instance.blocked or published_count(instance, unique=unique) is not None:
        return None
    from nqueens_cp.system.progress import format_seconds

    last, ratio, step = _growth()
    cost = format_seconds(count_seconds(instance.n))
    at_least = "" if backend == "bitboard" else "at least "
    return (f"no published count beyond n = {last} (OEIS {'A002562' if unique else 'A000170'}): this count "
            f"cannot be checked; n = {instance.n} has about {estimated_solutions(instance.n):.1g} solutions and "
            f"the count will take {at_least}{cost} on one core (the published counts grow x{ratio:.1f} per "
            f"queen at n = {last}, the ratio rising {step:.2f} a queen; bitboard counted n = {BASIS_N} in "
            f"{BASIS_SECONDS:g} s and its time grows as the count)")


def announce_count(args: argparse.Namespace, instance: Instance) -> None:
    """Say :func:`count_note` on stderr for a whole count (no ``--limit``) that has one, unless the
    backend refuses the count outright (it does not count, or only counts smaller boards): its
    refusal is then the one line."""
    if args.limit is None:
        note = count_note(instance, args.backend, args.unique)
        if note is not None and not _refuses_to_count(args, instance):
            sys.stderr.write(f"nqueens-cp: note: {note}\n")


def _refuses_to_count(args: argparse.Namespace, instance: Instance) -> bool:
    """Whether backend ``args.backend`` (default options) refuses to count ``instance`` by its kind
    or its bounds: a backend that does not count, or one that only counts, past its largest board."""
    from nqueens_cp.backends.framework.largest import largest_accepted_n
    from nqueens_cp.backends.framework.registry import backend_class
    from nqueens_cp.core.errors import NQueensError

    try:
        cls = backend_class(args.backend)
    except NQueensError:  # an unknown name: refused later, in its own words
        return False
    if Answer.COUNT not in cls.answers:
        return True
    return cls.counts_only() and instance.n - len(instance.fixed) > largest_accepted_n(
        args.backend, memory_budget_mb=args.max_model_mb)


def long_run(args: argparse.Namespace, instance: Instance, what: Answer) -> ContextManager[object]:
    """The terminal line around one ``solve`` call of ``what`` (``count`` or ``first``): elapsed time,
    and for an empty board's count by ``bitboard`` the estimated total (see the module docstring)."""
    if not sys.stderr.isatty():
        return nullcontext()
    from nqueens_cp.system.progress import Ticker

    expected = None
    if what is Answer.COUNT and args.backend == "bitboard" and not (instance.fixed or instance.blocked):
        expected = count_seconds(instance.n) if args.limit is None else None
    doing = "counting the solutions of" if what is Answer.COUNT else "looking for a solution of"
    return Ticker(sys.stderr, f"{doing} n = {instance.n} with {args.backend}", expected=expected, after=TICK_AFTER)
