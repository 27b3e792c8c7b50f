"""The backend keeps nqueens-cp's contract: the same checks as the built-in backends."""

import pytest
from nqcp_example.backend import SetsBackend

from nqueens_cp.testing.backend_contract import CHECKS


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_contract(check):
    check(SetsBackend())
