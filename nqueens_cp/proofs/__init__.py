"""Checking unsatisfiability proofs, sharing no code with the solvers that write them.

- :mod:`.drup` reads a DIMACS CNF and a DRUP proof (text) and checks the proof (forward RUP
  checking with watched literals, compiled: :mod:`.rup_kernel`), and writes DIMACS text.
- :mod:`.rules` checks each clause of a CNF over the square variables against the rules of
  N-Queens, and :mod:`.auxiliary` checks that every board extends to the clauses over an
  encoding's auxiliary variables: then an unsatisfiable CNF means a board without solutions.
- :mod:`.certificate` puts these together with the checked solutions: a certified count.

Nothing here imports the models, the backends or PySAT: a proof is checked against the text a
reader can check too (``nqueens-cp solve --certify --proof FILE`` keeps it).
"""
