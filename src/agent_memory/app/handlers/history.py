"""A tenant's history: every decision people made about its memory, as recorded."""

from __future__ import annotations

from agent_memory.app.messages import History
from agent_memory.core.api.history_page import HistoryPage, history_page
from agent_memory.core.model.decisions import check_texts
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.ports import MemoryPorts

# The most decisions one page holds.
MAX_PAGE = 100


def history(message: History, ports: MemoryPorts) -> HistoryPage:
    """One page of the tenant's decisions (about one record, when named), newest first."""
    m = message
    if isinstance(m.limit, bool) or not 1 <= m.limit <= MAX_PAGE:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_PAGE}")
    if m.record_id is not None:
        check_texts("reader", m.record_id, None)
    page = ports.decisions.history(
        m.tenant_id, limit=m.limit, cursor=m.cursor, record_id=m.record_id
    )
    return history_page(page)
