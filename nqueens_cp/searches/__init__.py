"""The hand-written searches: readable rows, bitboards (pure Python and compiled), first-fail.

Imports only the core; the backends in ``nqueens_cp.backends`` adapt these searches.
"""
