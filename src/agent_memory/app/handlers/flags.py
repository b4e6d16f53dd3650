"""Agents flag served memory; people list the open flags and close them."""

from __future__ import annotations

from agent_memory.app.messages import CloseFlag, FlagMemory, ListFlags
from agent_memory.core.api.flag_page import FlagPage, FlagRecord, flag_page, flag_record
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.flags import FlagOutcome
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows import flags

# The most flags one page holds.
MAX_PAGE = 100


def flag_memory(message: FlagMemory, ports: MemoryPorts) -> FlagRecord:
    """The agent's flag on the item, kept and recorded (or the one open on it already)."""
    m = message
    flagged = flags.flag_memory(
        ports, m.tenant_id, m.agent_id, m.kind, m.record_id, m.reason, m.run_id
    )
    return flag_record(flagged)


def list_flags(message: ListFlags, ports: MemoryPorts) -> FlagPage:
    """One page of the tenant's open flags."""
    m = message
    if isinstance(m.limit, bool) or not 1 <= m.limit <= MAX_PAGE:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_PAGE}")
    return flag_page(ports.flags.list(m.tenant_id, limit=m.limit, cursor=m.cursor))


def close_flag(message: CloseFlag, ports: MemoryPorts) -> FlagRecord:
    """A person's closing of an open flag, recorded in the history; the flag closed."""
    m = message
    try:
        outcome = FlagOutcome(m.outcome)
    except ValueError:
        raise InvalidInput("outcome", "must be dismissed or acted") from None
    closed = flags.close_flag(ports, m.tenant_id, m.flag_id, m.actor, m.reason, outcome)
    return flag_record(closed)
