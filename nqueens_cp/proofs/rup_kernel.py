"""The compiled parts of the DRUP checker: reading DIMACS/DRUP text, and forward RUP checking.

Literals are coded as ``2*v`` (positive) and ``2*v + 1`` (negative), so ``lit ^ 1`` is the
negation. Clauses live in one flat array; the two watched literals of a clause of two or more are
its first two, and each literal's watch list is a linked list through the clauses' two watch slots
(node ``2*c + slot``), so moving a watch is a constant-time relink and nothing is allocated while
checking. A clause deleted by the proof is marked and dropped from a watch list when next met.

Checking (Goldberg and Novikov, DATE 2003; Wetzler, Heule and Hunt, SAT 2014 for DRUP with
deletions) runs forward: every lemma must be a reverse unit propagation (RUP) consequence of the
clauses before it: assigning the negation of each of its literals and propagating units reaches a
conflict. The assignments propagated from the unit clauses (top level) stay; a proof's deletion of a
clause that is the reason of a top-level assignment is ignored, as drat-trim does by default (never
unsound: keeping a clause can only make propagation stronger). A deletion that matches no live
clause is ignored and counted.

numba and numpy are imported with this module: import it only where proofs are checked.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nqueens_cp.system.compiled import compiled, inline

Int64Array = npt.NDArray[np.int64]
UInt8Array = npt.NDArray[np.uint8]

#: Outcomes of :func:`check_rup`, in slot 0 of its result.
REFUTED, LEMMA_NOT_RUP, NO_CONFLICT = 0, 1, 2
#: Outcomes of :func:`parse_clauses`, in slot 0 of its result.
PARSED, BAD_TOKEN, UNTERMINATED = 0, 1, 2

_SPACE, _NEWLINE, _MINUS, _ZERO, _NINE = 32, 10, 45, 48, 57


@compiled
def _no_clauses() -> Int64Array:
    return np.zeros(0, np.int64)


@compiled
def _no_starts() -> Int64Array:
    return np.zeros(1, np.int64)


@compiled
def parse_clauses(text: UInt8Array, proof: bool) -> tuple[int, int, Int64Array, Int64Array, Int64Array]:
    """The clauses of ``text`` (DIMACS literals, each clause ended by ``0``), tokens split by blanks.

    Lines starting with ``c`` are comments; in a CNF a line starting with ``p`` is the header; in a
    proof a ``d`` token makes the clause that follows a deletion. Returns ``(status, where,
    literals, starts, deletion)``: ``where`` is the byte offset of a bad token (``BAD_TOKEN``) or of
    the clause left without its ``0`` (``UNTERMINATED``); clause ``i`` is
    ``literals[starts[i]:starts[i + 1]]``; ``deletion[i]`` is 1 for a deletion line.
    """
    size = text.shape[0]
    literals = np.empty(max(16, size // 2), np.int64)
    starts = np.empty(max(16, size // 4), np.int64)
    deletion = np.zeros(max(16, size // 4), np.int64)
    n_lits = 0
    n_clauses = 0
    starts[0] = 0
    pending_delete = 0
    clause_begin = -1
    at_line_start = True
    i = 0
    while i < size:
        ch = text[i]
        if ch == _NEWLINE or ch == 13:
            at_line_start = True
            i += 1
            continue
        if ch == _SPACE or ch == 9:
            i += 1
            continue
        if at_line_start and (ch == 99 or (ch == 112 and not proof)):  # 'c' comment, 'p' header
            while i < size and text[i] != _NEWLINE:
                i += 1
            continue
        at_line_start = False
        if proof and ch == 100:  # 'd'
            if clause_begin >= 0 or pending_delete:
                return BAD_TOKEN, i, _no_clauses(), _no_starts(), _no_clauses()
            pending_delete = 1
            clause_begin = i
            i += 1
            if i < size and not (text[i] == _SPACE or text[i] == 9):
                return BAD_TOKEN, i - 1, _no_clauses(), _no_starts(), _no_clauses()
            continue
        token_start = i
        negative = False
        if ch == _MINUS:
            negative = True
            i += 1
        value = 0
        digits = 0
        while i < size and _ZERO <= text[i] <= _NINE:
            value = value * 10 + (text[i] - _ZERO)
            digits += 1
            i += 1
            if digits > 18:
                return BAD_TOKEN, token_start, _no_clauses(), _no_starts(), _no_clauses()
        if digits == 0 or (i < size and not (text[i] == _SPACE or text[i] == 9 or text[i] == _NEWLINE
                                             or text[i] == 13)) or (negative and value == 0):
            return BAD_TOKEN, token_start, _no_clauses(), _no_starts(), _no_clauses()
        if clause_begin < 0:
            clause_begin = token_start
        if value == 0:
            if n_clauses + 2 > starts.shape[0]:
                starts = np.concatenate((starts, np.empty(starts.shape[0], np.int64)))
                deletion = np.concatenate((deletion, np.zeros(deletion.shape[0], np.int64)))
            deletion[n_clauses] = pending_delete
            n_clauses += 1
            starts[n_clauses] = n_lits
            pending_delete = 0
            clause_begin = -1
        else:
            if n_lits + 1 > literals.shape[0]:
                literals = np.concatenate((literals, np.empty(literals.shape[0], np.int64)))
            literals[n_lits] = -value if negative else value
            n_lits += 1
    if clause_begin >= 0:
        return UNTERMINATED, clause_begin, _no_clauses(), _no_starts(), _no_clauses()
    return PARSED, 0, literals[:n_lits].copy(), starts[: n_clauses + 1].copy(), deletion[:n_clauses].copy()


@compiled
def _mix(x: np.uint64) -> np.uint64:
    """splitmix64's finaliser: a literal's share of an order-free clause hash."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))  # type: ignore[no-any-return]


@inline
def _propagate(
    head: int, trail_size: int, lits: Int64Array, begin: Int64Array, end: Int64Array, value: npt.NDArray[np.int8],
    reason: Int64Array, trail: Int64Array, watch_head: Int64Array, watch_next: Int64Array,
    deleted: npt.NDArray[np.uint8],
) -> tuple[int, int, bool]:
    """Unit propagation from the trail's ``head`` on (watched literals, deleted clauses unlinked on the way):
    the new head and trail size, and whether a clause became false."""
    while head < trail_size:
        false_lit = trail[head] ^ 1
        head += 1
        previous = -1
        node = watch_head[false_lit]
        while node >= 0:
            clause = node >> 1
            following = watch_next[node]
            if deleted[clause] == 1:
                if previous < 0:
                    watch_head[false_lit] = following
                else:
                    watch_next[previous] = following
                node = following
                continue
            b = begin[clause]
            if lits[b] == false_lit:
                lits[b] = lits[b + 1]
                lits[b + 1] = false_lit
            first = lits[b]
            if value[first] == 1:
                previous = node
                node = following
                continue
            moved = False
            for k in range(b + 2, end[clause]):
                if value[lits[k]] != -1:
                    lits[b + 1] = lits[k]
                    lits[k] = false_lit
                    if previous < 0:
                        watch_head[false_lit] = following
                    else:
                        watch_next[previous] = following
                    watch_next[node] = watch_head[lits[b + 1]]
                    watch_head[lits[b + 1]] = node
                    moved = True
                    break
            if moved:
                node = following
                continue
            if value[first] == -1:
                return head, trail_size, True
            value[first] = 1
            value[first ^ 1] = -1
            reason[first >> 1] = clause
            trail[trail_size] = first
            trail_size += 1
            previous = node
            node = following
    return head, trail_size, False


@compiled
def check_rup(
    literals: Int64Array, starts: Int64Array, n_original: int, kinds: Int64Array, n_vars: int
) -> Int64Array:
    """Check the proof whose steps follow the ``n_original`` clauses of the formula.

    ``literals``/``starts``: every clause (formula, then one per proof step, DIMACS literals);
    ``kinds[k]`` is 1 when step ``k`` (clause ``n_original + k``) deletes, 0 when it adds a lemma.
    Returns ``[outcome, step, lemmas_checked, deletions_ignored, refuted_at]``: ``REFUTED`` when
    the formula and the lemmas propagate to a conflict (``refuted_at`` = the first step after
    which they do, -1 when the formula alone does), ``LEMMA_NOT_RUP`` with the failing ``step``,
    ``NO_CONFLICT`` when the proof ends with no conflict reached.
    """
    n_clauses = starts.shape[0] - 1
    n_lits = 2 * n_vars + 2
    lits = np.empty(literals.shape[0], np.int64)  # coded literals, watched ones moved to the front
    for k in range(literals.shape[0]):
        lit = literals[k]
        lits[k] = 2 * lit if lit > 0 else -2 * lit + 1
    begin = starts[:-1].copy()
    end = starts[1:].copy()
    value = np.zeros(n_lits, np.int8)  # 1 true, -1 false, 0 free
    reason = np.full(n_vars + 1, -1, np.int64)  # the clause that propagated a top-level variable
    trail = np.empty(n_vars + 1, np.int64)
    trail_size = 0
    head = 0
    watch_head = np.full(n_lits, -1, np.int64)
    watch_next = np.full(2 * n_clauses, -1, np.int64)
    deleted = np.zeros(n_clauses, np.uint8)
    mark = np.zeros(n_lits, np.uint8)
    # -- the live clauses by order-free hash, for deletions (chains through bucket_next)
    table_size = 1
    while table_size < 2 * n_clauses + 2:
        table_size *= 2
    bucket = np.full(table_size, -1, np.int64)
    bucket_next = np.full(n_clauses, -1, np.int64)
    result = np.zeros(5, np.int64)
    lemmas = 0
    ignored = 0
    inconsistent = False
    refuted_at = -2

    for c in range(n_clauses):
        step = c - n_original
        is_delete = step >= 0 and kinds[step] == 1
        # -- drop repeated literals; a clause holding a literal and its negation is always true
        tautology = False
        write = begin[c]
        for k in range(begin[c], end[c]):
            lit = lits[k]
            if mark[lit] == 1:
                continue
            if mark[lit ^ 1] == 1:
                tautology = True
            mark[lit] = 1
            lits[write] = lit
            write += 1
        for k in range(begin[c], write):
            mark[lits[k]] = 0
        end[c] = write
        hashed = np.uint64(0)
        for k in range(begin[c], end[c]):
            hashed += _mix(np.uint64(lits[k]))
        slot = np.int64(hashed & np.uint64(table_size - 1))
        if is_delete:
            # -- find a live clause with the same literals and drop it (unless it is a reason)
            for k in range(begin[c], end[c]):
                mark[lits[k]] = 1
            previous = -1
            other = bucket[slot]
            while other >= 0:
                if end[other] - begin[other] == end[c] - begin[c]:
                    same = True
                    for k in range(begin[other], end[other]):
                        if mark[lits[k]] == 0:
                            same = False
                            break
                    if same:
                        break
                previous = other
                other = bucket_next[other]
            for k in range(begin[c], end[c]):
                mark[lits[k]] = 0
            if other < 0:
                ignored += 1
                continue
            is_reason = False
            for k in range(begin[other], end[other]):
                if reason[lits[k] >> 1] == other:
                    is_reason = True
            if is_reason:
                ignored += 1
                continue
            if previous < 0:
                bucket[slot] = bucket_next[other]
            else:
                bucket_next[previous] = bucket_next[other]
            deleted[other] = 1
            continue
        if step >= 0 and not inconsistent:
            # -- the lemma must follow by unit propagation from the negation of its literals
            lemmas += 1
            saved = trail_size
            conflict = False
            for k in range(begin[c], end[c]):
                lit = lits[k]
                if value[lit] == 1:
                    conflict = True
                    break
                if value[lit] == 0:
                    value[lit ^ 1] = 1
                    value[lit] = -1
                    reason[lit >> 1] = -2
                    trail[trail_size] = lit ^ 1
                    trail_size += 1
            # propagate (undone below)
            if not conflict:
                head, trail_size, conflict = _propagate(
                    head, trail_size, lits, begin, end, value, reason, trail, watch_head, watch_next, deleted)
            for k in range(saved, trail_size):
                lit = trail[k]
                value[lit] = 0
                value[lit ^ 1] = 0
                reason[lit >> 1] = -1
            trail_size = saved
            head = saved
            if not conflict:
                result[0] = LEMMA_NOT_RUP
                result[1] = step
                result[2] = lemmas
                result[3] = ignored
                return result
        if inconsistent:
            continue
        # -- add the clause: chain it for deletions, watch two literals, propagate a unit
        bucket_next[c] = bucket[slot]
        bucket[slot] = c
        if tautology:
            continue
        size = end[c] - begin[c]
        b = begin[c]
        # move up to two non-false literals (a true one first) to the front
        for position in range(2):
            if position >= size:
                break
            best = -1
            for k in range(b + position, end[c]):
                v = value[lits[k]]
                if v == 1:
                    best = k
                    break
                if v == 0 and best < 0:
                    best = k
            if best < 0:
                break
            swap = lits[b + position]
            lits[b + position] = lits[best]
            lits[best] = swap
        unit = -1
        if size == 0 or value[lits[b]] == -1:
            inconsistent = True
        elif (size == 1 or value[lits[b + 1]] == -1) and value[lits[b]] == 0:
            unit = lits[b]
        if size >= 2:
            for position in range(2):
                node = 2 * c + position
                watched = lits[b + position]
                watch_next[node] = watch_head[watched]
                watch_head[watched] = node
        if unit >= 0:
            value[unit] = 1
            value[unit ^ 1] = -1
            reason[unit >> 1] = c
            trail[trail_size] = unit
            trail_size += 1
            # propagate at the top level (kept for good)
            head, trail_size, inconsistent = _propagate(
                head, trail_size, lits, begin, end, value, reason, trail, watch_head, watch_next, deleted)
        if inconsistent:
            refuted_at = step if step >= 0 else -1
    result[2] = lemmas
    result[3] = ignored
    result[4] = refuted_at
    result[0] = REFUTED if inconsistent else NO_CONFLICT
    return result
