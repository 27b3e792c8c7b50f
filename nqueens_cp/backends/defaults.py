"""Which backend answers a question when none is named: the one that answers it fastest.

Whoever asks for a count or for every solution wants the answer, so those questions go to the
compiled bitboard backend (start constellations for a count of the empty board, the compiled
row kernel streaming solutions otherwise: ``benchmarks/bench_defaults.py`` measures the default
``solve N --count`` against the fastest backend). The first solution goes to first-fail search
(``backtrack``, ``search=auto``). The readable pure-Python row search is ``--backend backtrack``.
"""

from __future__ import annotations

from typing import Literal

from ..instance import Instance

#: What is asked: the first solution; a count (of all solutions or of symmetry classes, or one
#: representative of a class: ``--unique``); every solution, streamed.
Question = Literal["first", "count", "all"]

#: The backend each question goes to when none is named.
DEFAULT_BACKENDS: dict[str, str] = {"first": "backtrack", "count": "bitboard", "all": "bitboard"}


def default_backend(question: Question, instance: Instance) -> str:
    """The name of the backend that answers ``question`` about ``instance`` when none is named."""
    del instance  # every question has one answer today; the board size will choose for "first"
    return DEFAULT_BACKENDS[question]
