"""The N-Queens models, built apart from any solver: board geometry, CP-SAT, CNF, lex-leader, text.

Imports only the core (``instance``, ``symmetry``, ``errors``, ...); solver packages are imported
inside the functions that need them.
"""
