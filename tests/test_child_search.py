"""A search in a forked child hands back its reports and its answer whole, however large
(:func:`nqueens_cp.system.child_search.search_in_child`; its speed: ``benchmarks/bench_child_answer.py``)."""

from __future__ import annotations

from typing import Callable

import pytest

from nqueens_cp.system.child_search import search_in_child


def test_reports_and_a_large_answer_come_back_whole() -> None:
    heard: list[object] = []
    answer = bytes(range(256)) * (12 << 12)  # 12 MB: many reads of the pipe

    def search(report: Callable[[object], None]) -> bytes:
        for step in range(5):
            report(("step", step, b"y" * (step << 18)))  # reports of growing size, one over a read
        return answer

    done, back = search_in_child(search, heard.append, None)
    assert done and back == answer
    assert heard == [("step", step, b"y" * (step << 18)) for step in range(5)]


def test_an_error_of_the_search_is_raised_here_after_its_reports() -> None:
    heard: list[object] = []

    def search(report: Callable[[object], None]) -> None:
        report(1)
        raise ValueError("no such board")

    with pytest.raises(ValueError, match="no such board"):
        search_in_child(search, heard.append, None)
    assert heard == [1]


def test_at_the_time_limit_no_answer_and_what_was_reported() -> None:
    heard: list[object] = []

    def search(report: Callable[[object], None]) -> None:
        import time

        report("best so far")
        time.sleep(60)

    assert search_in_child(search, heard.append, 0.5) == (False, None)
    assert heard == ["best so far"]
