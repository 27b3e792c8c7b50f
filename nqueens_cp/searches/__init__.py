"""The hand-written searches: readable rows, bitboards (pure Python and compiled), first-fail,
local search, the explicit constructions; :mod:`.native` keeps the counting kernel's machine code.

Imports only the core; the backends in ``nqueens_cp.backends`` adapt these searches.
"""
