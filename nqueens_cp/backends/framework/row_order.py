"""What the backends with a row-order search (option ``search=rows``: ``backtrack``, ``bitboard``)
share: rows in order find no first solution of a large board in reasonable time, so that search
declares its reach and refuses such a board in one line before it starts."""

from __future__ import annotations

from typing import ClassVar

from nqueens_cp.backends.framework.base import Backend
from nqueens_cp.backends.framework.limits import ROW_ORDER_FIRST_MAX_N, refuse_row_order_first
from nqueens_cp.core.instance import Instance


class RowOrderBackend(Backend):
    """A backend whose option ``search`` may be ``rows``, the search of the rows in order."""

    #: How a refusal names the row-order search.
    row_order_label: ClassVar[str]

    def reach(self, first: bool) -> int | None:
        return ROW_ORDER_FIRST_MAX_N if first and self._searches_rows() else None

    def _searches_rows(self) -> bool:
        return bool(self.options["search"] == "rows")

    def _refuse_row_order_first(self, instance: Instance) -> None:
        """Refuse a first solution of ``instance`` when the rows are searched in order and the
        board is beyond that search's reach."""
        if self._searches_rows():
            refuse_row_order_first(instance, self.row_order_label)
