"""The backend keeps nqueens-cp's contract: the same checks as the built-in backends."""

import pytest
from nqcp_example.backend import SetsBackend

from nqueens_cp.testing.backend_contract import CHECKS, check_first_solutions


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_contract(check):
    if check is check_first_solutions:
        # Rows in order, in pure Python: n = 22..29 take minutes to a first solution (n = 28: 20 s).
        check_first_solutions(SetsBackend(), range(0, 22))
    else:
        check(SetsBackend())
