"""Bounds checked before anything is built: a model's estimated memory, a search's reach.

Every model's size is known in advance from the closed forms of :mod:`nqueens_cp.models.sizes`;
multiplied by the bytes a clause or a variable costs in Python and in the solver (measured,
``benchmarks/RESULTS.md``), it gives the memory a model will take. A model over the budget
(``--max-model-mb``; by default a quarter of this machine's memory, at most 4 GiB) is refused
with one line that gives the estimate and what to use instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from nqueens_cp.core.errors import ModelTooLargeError
from nqueens_cp.core.instance import Instance
from nqueens_cp.models.cnf import Encoding
from nqueens_cp.models.geometry import ModelSize
from nqueens_cp.models.reduction import uses_reduction
from nqueens_cp.models.sizes import cnf_size
from nqueens_cp.system.processes import physical_memory_mb

#: Bytes one clause of a ``build_cnf`` formula costs: the Python lists of the CNF plus the solver's
#: copy (with BYTES_PER_VARIABLE, within 5 % of the memory measured for pairwise at n = 60 and 100,
#: and for seqcounter at n = 100 and 200, with CaDiCaL 1.9.5).
BYTES_PER_CLAUSE = 200
#: Bytes one variable costs in the CNF's pool and the solver.
BYTES_PER_VARIABLE = 300
#: Bytes one Boolean of the CP-SAT Boolean model costs in CP-SAT (measured at n = 300..1000).
BYTES_PER_CPSAT_BOOLEAN = 1400
#: Bytes one (row, column) pair costs in CP-SAT's AllDifferent model when the branching takes a
#: row's median column: CP-SAT then encodes every row's domain value by value, n² literals
#: (``solve N --backend cpsat --time-limit 3``, max RSS: 0.50 GB at n = 500, 1.26 GB at 1000,
#: 3.95 GB at 2000; min-value branching stays near 180 MB at n = 1000).
BYTES_PER_CPSAT_MEDIAN_SQUARE = 1024

#: The largest board on which a row-order search is asked for a first solution: beyond it row
#: order walks into subtrees of billions of nodes (reports/first: row order times out from n = 64).
ROW_ORDER_FIRST_MAX_N = 32

#: The largest board of CP-SAT's AllDifferent model: CP-SAT encodes a domain in full only when it
#: holds fewer than 100,000 values, and beyond that it aborts the whole process ("Domain too large
#: for full encoding", exit status 134); each row's domain holds the board's n columns.
CPSAT_MAX_N = 99_999

_MAX_DEFAULT_MB = 4096
_budget_mb: float | None = None


@dataclass(frozen=True)
class ModelEstimate:
    """What a model will take before it is built: its size (closed forms) and the memory it needs."""

    what: str
    size: ModelSize
    megabytes: float
    #: What to use instead when it does not fit.
    instead: str


def default_budget_mb() -> float:
    """A quarter of the machine's physical memory, at most 4 GiB."""
    total = physical_memory_mb()
    return _MAX_DEFAULT_MB if total is None else min(total / 4, _MAX_DEFAULT_MB)


def set_budget_mb(megabytes: float | None) -> None:
    """Set the memory budget for models (``--max-model-mb``); None restores the default."""
    global _budget_mb
    if megabytes is not None and megabytes <= 0:
        raise ModelTooLargeError(f"the model budget must be > 0 MB, got {megabytes:g}")
    _budget_mb = megabytes


def budget_mb() -> float:
    """The memory budget models are checked against."""
    return default_budget_mb() if _budget_mb is None else _budget_mb


def check_fits(estimate: ModelEstimate, *, backend: str) -> None:
    """Raise ``ModelTooLargeError`` when ``estimate`` is over the budget."""
    limit = budget_mb()
    if estimate.megabytes > limit:
        raise ModelTooLargeError(
            f"{backend}: the {estimate.what} would take about {estimate.megabytes:,.0f} MB "
            f"({estimate.size.variables:,} variables, {estimate.size.constraints:,} {estimate.size.unit}), over the "
            f"{limit:,.0f} MB limit (set_budget_mb); {estimate.instead}"
        )


def model_rows(instance: Instance) -> int:
    """The rows a model of ``instance`` has: its free rows when models use its reduction
    (:func:`~nqueens_cp.models.reduction.uses_reduction`), else all of them."""
    return instance.n - len(instance.fixed) if uses_reduction(instance) else instance.n


def cnf_estimate(instance: Instance, encoding: Encoding | str) -> ModelEstimate:
    """The CNF of ``instance`` with ``encoding``: its size by the closed forms, and its memory."""
    encoding = Encoding.parse(encoding)
    if uses_reduction(instance):  # the reduced CNF is at most the full CNF of its free rows
        size = cnf_size(encoding, model_rows(instance))
    else:
        size = cnf_size(encoding, instance.n, len(instance.fixed))
    megabytes = (size.constraints * BYTES_PER_CLAUSE + size.variables * BYTES_PER_VARIABLE) / 2**20
    answering = answering_backends(instance.n, empty=_is_empty(instance))
    if encoding is Encoding.PAIRWISE:
        instead = f"use option encoding={Encoding.SEQCOUNTER} (O(n²) clauses), or for one solution {answering}"
    else:
        instead = f"for one solution use {answering}"
    return ModelEstimate(f"{encoding} CNF of n = {instance.n}", size, megabytes, instead)


def cpsat_estimate(n: int, model: str, *, median_branching: bool = False, empty: bool = True) -> ModelEstimate:
    """The CP-SAT model of an n x n board: the AllDifferent model is O(n), or O(n²) when the
    branching takes each row's median column (CP-SAT encodes every domain value); the Boolean
    model is O(n²). ``empty``: the board has no pre-placed queen or blocked square."""
    answering = answering_backends(n, empty=empty)
    if model == "boolean":
        booleans = n * n
        megabytes = booleans * BYTES_PER_CPSAT_BOOLEAN / 2**20
        return ModelEstimate(f"Boolean CP-SAT model of n = {n}", ModelSize(booleans, 6 * n), megabytes,
                             f"use option model=alldiff or {answering}")
    if median_branching:
        return ModelEstimate(f"AllDifferent CP-SAT model of n = {n} with median-column branching (every "
                             f"domain value encoded)", ModelSize(n, 3), n * n * BYTES_PER_CPSAT_MEDIAN_SQUARE / 2**20,
                             'use option strategy=tuned (smallest column first, O(n) memory) or backend "localsearch"')
    return ModelEstimate(f"AllDifferent CP-SAT model of n = {n}", ModelSize(n, 3), n * 2048 / 2**20,
                         f"use {answering}")


def refuse_cpsat_domains(n: int) -> None:
    """Raise ``ModelTooLargeError`` for an AllDifferent CP-SAT model of n > :data:`CPSAT_MAX_N`."""
    if n > CPSAT_MAX_N:
        raise ModelTooLargeError(
            f"cpsat: a row's domain of n = {n} columns is too large for CP-SAT (it fully encodes fewer than "
            f"100,000 values; n <= {CPSAT_MAX_N}); use {answering_backends(n)}"
        )


#: The largest board on which each backend, with its default options, finds a first solution
#: within a minute on 2 shared cores (``benchmarks/bench_largest_boards.py``; benchmarks/RESULTS.md,
#: "Every backend at its largest board": the largest size answered of those tried, a run being
#: stopped after 75 s of wall time on a loaded machine, 12 to 30 s of CPU). A larger board is
#: refused with one line naming what answers there, unless the backend is given a time limit
#: (option ``time_limit``): it then stops at that limit with a line saying so. Backends not named
#: here answer every board they accept.
FIRST_SOLUTION_MAX_N: dict[str, int] = {
    "backtrack": 20_000,  # 13 s CPU (n = 30,000: none in 17 s)
    "cpsat": 256,  # 16 s CPU (n = 500: none in 18 s; n = 1,000: none in 10 minutes)
    "sat": 100,  # 5.5 s CPU (n = 150: none in 16 s)
    "minizinc": 150,  # 2.6 s CPU, 15 s wall (n = 500: none in 75 s wall)
    "choco": 1_000,  # 12 s CPU (n = 3,000: none in 15 s)
    "xcsp3": 100,  # 31 s wall (n = 300: none in 75 s; n = 3,000: ACE answered "no solution", wrongly)
    "cpmpy": 128,  # 3.1 s CPU (n = 256: none in 13 s CPU)
    "asp": 200,  # 2.1 s CPU, 14 s wall (n = 500: none in 13 s CPU)
    "pb": 400,  # 9.8 s CPU (n = 1,158: none in 13 s CPU)
    "smt": 300,  # 9.3 s CPU (n = 846: none in 17 s CPU)
    "mip": 300,  # 12 s CPU (n = 1,036: none in 16 s CPU)
    "localsearch": 50_000_000,  # 16 s CPU (n = 10^8: 29 s on a quieter machine, none in 39 s CPU here)
    "construction": 100_000_000,  # 11 s CPU
}

#: Options with which a backend's first solution is not held to its bound above (its memory bounds
#: still hold): CP-SAT's local search on the Boolean model answers n = 1,000 (docs/solving.md).
UNBOUNDED_WITH: dict[str, dict[str, object]] = {"cpsat": {"strategy": "localsearch"}}

#: The largest board each counting-only backend counts within a minute (same measure); ``bdd``
#: counts n = 13 in 42 s CPU, its own memory bound (``BDD_MAX_N``).
COUNT_MAX_N: dict[str, int] = {
    "ganak": 10,  # 11 s CPU (n = 11: none in 19 s)
    "approxmc": 12,  # 34 s CPU
}


def answering_backends(n: int, *, empty: bool = True, but: str = "") -> str:
    """What answers a first solution of a board of n rows (of backtrack's first-fail search, local
    search and, for an ``empty`` board, the construction; not ``but``), in API words:
    ``backend "A" or "B"``."""
    names = [name for name in ("backtrack", "localsearch", "construction")
             if name != but and n <= FIRST_SOLUTION_MAX_N.get(name, n) and (empty or name != "construction")]
    if not names:
        return f"a smaller board (none of the backends answers n = {n:,} within a minute)"
    quoted = [f'"{name}"' for name in names]
    return "backend " + (f"{', '.join(quoted[:-1])} or {quoted[-1]}" if len(quoted) > 1 else quoted[0])


def _is_empty(instance: Instance) -> bool:
    """Whether ``instance`` is the empty board (no pre-placed queen, no blocked square)."""
    return not (instance.fixed or instance.blocked)


def first_solution_bound(backend: str, options: Mapping[str, object]) -> int | None:
    """``FIRST_SOLUTION_MAX_N[backend]``, or None when ``options`` lift it (a time limit, or
    :data:`UNBOUNDED_WITH`)."""
    farther = UNBOUNDED_WITH.get(backend)
    if options.get("time_limit") or (farther and all(options.get(key) == value for key, value in farther.items())):
        return None
    return FIRST_SOLUTION_MAX_N.get(backend)


def refuse_slow_first(instance: Instance, backend: str, options: Mapping[str, object]) -> None:
    """Raise ``ModelTooLargeError`` for a first solution of more free rows (rows without a pre-placed
    queen: a completion's model is built over those) than the backend's bound with ``options``
    (:func:`first_solution_bound`)."""
    bound = first_solution_bound(backend, options)
    free = instance.n - len(instance.fixed)
    if bound is None or free <= bound:
        return
    limit = ", or give it option time_limit=SECONDS, at which it stops" if "time_limit" in options else ""
    rows = f"n = {instance.n:,}" if free == instance.n else f"n = {instance.n:,}, {free:,} free rows"
    raise ModelTooLargeError(
        f"{backend} finds no first solution of n > {bound:,} within a minute ({rows}); "
        f"use {answering_backends(free, empty=_is_empty(instance), but=backend)}{limit}"
    )


def refuse_slow_count(instance: Instance, backend: str) -> None:
    """Raise ``ModelTooLargeError`` for a count of more free rows than ``COUNT_MAX_N[backend]``
    (the rows without a pre-placed queen: a split run's sub-problems have few)."""
    bound = COUNT_MAX_N.get(backend)
    free = instance.n - len(instance.fixed)
    if bound is not None and free > bound:
        raise ModelTooLargeError(
            f"{backend} counts no board of more than {bound} free rows within a minute (n = {instance.n:,}, "
            f"{free:,} free); "
            'use backend "bitboard" (it counts n = 17 in about 10 s)'
        )


def refuse_row_order_first(instance: Instance, backend: str) -> None:
    """Raise ``ModelTooLargeError`` for a row-order first-solution search on a board too large for it."""
    if instance.n > ROW_ORDER_FIRST_MAX_N:
        raise ModelTooLargeError(
            f"{backend} searches rows in order, which finds no first solution of n > {ROW_ORDER_FIRST_MAX_N} "
            f"in reasonable time (n = {instance.n}); use {'option search=firstfail, or ' if backend.startswith('backtrack') else ''}"
            f"{answering_backends(instance.n, empty=_is_empty(instance), but=backend.split()[0])}"
        )


#: Bytes per row of a solution handed over as a tuple: the tuple's pointer and its int object
#: (columns above 256 are objects of their own), plus the list ``tolist`` makes on the way.
BYTES_PER_TUPLE_ROW = 8 + 28 + 8
#: Bytes per row of the numpy working space around a linear-time search (the free row and column
#: lists, the output slices): a margin. ``nqueens-cp solve 100000000`` peaked at 2,491,732 KB,
#: about 25 bytes a row all told, under the swap search's 18 + 8 estimated.
BYTES_PER_ROW_OVERHEAD = 8


def linear_estimate(what: str, n: int, bytes_per_row: int, *, as_tuple: bool, instead: str) -> ModelEstimate:
    """The memory of a linear-time search or construction of an n x n board (``bytes_per_row`` of
    arrays), plus the tuple of the answer when ``as_tuple`` (the Python API; the command line
    streams the array instead)."""
    per_row = bytes_per_row + BYTES_PER_ROW_OVERHEAD + (BYTES_PER_TUPLE_ROW if as_tuple else 0)
    return ModelEstimate(f"{what} of n = {n:,}", ModelSize(n, 3, "line counts"), n * per_row / 2**20, instead)


#: Bytes one square-on-a-line fact of the ASP ``lines`` program costs in gringo and clasp (peak
#: memory over start-up: 530 B at n = 128, 256 and 512).
BYTES_PER_ASP_LINE_SQUARE = 550
#: Bytes one pair of squares on a line costs in the ``pairwise`` program (158 B at n = 64, 176 B at n = 32).
BYTES_PER_ASP_PAIR = 180


def _line_lengths(n: int) -> list[int]:
    """The length of every line of the n x n board with two or more squares (rows, columns, diagonals)."""
    diagonals = [*range(2, n), n, *range(n - 1, 1, -1)] if n >= 2 else []
    return [n] * (2 * n) + diagonals * 2


def asp_estimate(instance: Instance, formulation: str) -> ModelEstimate:
    """The ground ASP program of ``instance``: the full board of its model rows (an upper bound when reduced)."""
    n = model_rows(instance)
    lengths = _line_lengths(n)
    if formulation == "pairwise":
        pairs = sum(length * (length - 1) // 2 for length in lengths)
        megabytes = pairs * BYTES_PER_ASP_PAIR / 2**20
        instead = "use option formulation=lines (a cardinality constraint per line, O(n²) ground)"
        size = ModelSize(n * n, pairs, "ground pair constraints")
    else:
        occurrences = sum(lengths)
        megabytes = occurrences * BYTES_PER_ASP_LINE_SQUARE / 2**20
        instead = f"for one solution use {answering_backends(instance.n, empty=_is_empty(instance))}"
        size = ModelSize(n * n, len(lengths), "line constraints")
    return ModelEstimate(f"ground {formulation} ASP program of n = {instance.n}", size, megabytes, instead)


#: Bytes one term of a line constraint costs in Exact (the ``pb`` backend), with its variable's share
#: (peak memory over start-up: 730 B at n = 256, 820 B at n = 128).
BYTES_PER_PB_TERM = 800
#: Bytes one term of a pair constraint costs (``formulation=clauses``: 280 B at n = 64).
BYTES_PER_PB_PAIR_TERM = 300


def pb_estimate(instance: Instance, formulation: str) -> ModelEstimate:
    """The PB model of ``instance`` in Exact: its terms (one per square per line, or two per pair)."""
    n = model_rows(instance)
    lengths = _line_lengths(n)
    if formulation == "clauses":
        pairs = sum(length * (length - 1) // 2 for length in lengths)
        terms, constraints = 2 * pairs + n * n, pairs + 2 * n
        instead = "use option formulation=lines (one cardinality constraint per line)"
        megabytes = terms * BYTES_PER_PB_PAIR_TERM / 2**20
    else:
        terms, constraints = sum(lengths), len(lengths)
        instead = f"for one solution use {answering_backends(instance.n, empty=_is_empty(instance))}"
        megabytes = terms * BYTES_PER_PB_TERM / 2**20
    return ModelEstimate(f"{formulation} PB model of n = {instance.n}", ModelSize(n * n, constraints),
                         megabytes, instead)


#: Bytes the row model of a board of n rows costs per domain value (n² values, enumerated domains)
#: in Choco (pychoco): the process's peak resident memory after the first solution of n = 1000 was
#: 78 MB (one in-process run), under 80 bytes per value with the interpreter included; 40 is the
#: share that grows with n², so the default 4 GiB budget refuses boards above about 10,000 rows.
BYTES_PER_ROW_DOMAIN_VALUE = 40


def row_model_estimate(instance: Instance, solver: str) -> ModelEstimate:
    """The row model (three AllDifferent over enumerated domains) of ``instance`` in ``solver``:
    O(n) variables, but every domain holds its columns, so the memory is O(n²)."""
    rows = model_rows(instance)
    values = rows * instance.n
    return ModelEstimate(f"row model of n = {instance.n} in {solver}", ModelSize(rows, 3 + len(instance.fixed)),
                         values * BYTES_PER_ROW_DOMAIN_VALUE / 2**20,
                         f"for one solution use {answering_backends(instance.n, empty=_is_empty(instance))}")


#: Bytes one square of the Boolean SMT model costs in z3 (text, parse and solver; peak memory over
#: start-up for a first solution: 5.7 KB at n = 128, 4.6 KB at n = 256).
BYTES_PER_SMT_SQUARE = 6000
#: Bytes one pair of rows costs in the integer SMT model (z3 expands each distinct into pairwise
#: disequalities, three per pair, and its arithmetic search keeps bounds on them: 92 KB at n = 32).
BYTES_PER_SMT_ROW_PAIR = 100_000


def smt_estimate(instance: Instance, model: str) -> ModelEstimate:
    """The SMT model of ``instance`` in z3: O(n²) for both (squares, or the distinct's row pairs)."""
    n = model_rows(instance)
    if model == "int":
        pairs = n * (n - 1) // 2
        return ModelEstimate(f"integer SMT model of n = {instance.n}", ModelSize(n, 3 * pairs, "disequalities"),
                             pairs * BYTES_PER_SMT_ROW_PAIR / 2**20, "use option model=bool")
    return ModelEstimate(f"Boolean SMT model of n = {instance.n}", ModelSize(n * n, 6 * n),
                         n * n * BYTES_PER_SMT_SQUARE / 2**20,
                         f"for one solution use {answering_backends(instance.n, empty=_is_empty(instance))}")


#: Bytes one nonzero of the 0-1 program costs in HiGHS with the Python-side arrays (peak memory
#: over start-up for a first solution: 470 B at n = 256 with ``lines``, 1000 B at n = 64 with
#: ``pairwise``; the larger is taken).
BYTES_PER_MIP_NONZERO = 1000


def mip_estimate(instance: Instance, formulation: str) -> ModelEstimate:
    """The 0-1 program of ``instance`` in HiGHS: its nonzeros (one per square per line, or two per pair)."""
    n = model_rows(instance)
    lengths = _line_lengths(n)
    diagonals = lengths[2 * n:]
    if formulation == "pairwise":
        pairs = sum(length * (length - 1) // 2 for length in diagonals)
        nonzeros, rows = 2 * n * n + 2 * pairs, 2 * n + pairs
        instead = "use option formulation=lines (one row per diagonal)"
    else:
        nonzeros, rows = sum(lengths), len(lengths)
        instead = f"for one solution use {answering_backends(instance.n, empty=_is_empty(instance))}"
    return ModelEstimate(f"{formulation} 0-1 program of n = {instance.n}", ModelSize(n * n, rows, "rows"),
                         nonzeros * BYTES_PER_MIP_NONZERO / 2**20, instead)
