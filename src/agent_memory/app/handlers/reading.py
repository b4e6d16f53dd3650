"""What memory serves and holds: the bootstrap block and counts."""

from __future__ import annotations

from agent_memory.app.messages import Bootstrap, Stats
from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows import bootstrap as bootstrap_workflow
from agent_memory.core.workflows.stats import MemoryStats, memory_stats


def bootstrap(message: Bootstrap, ports: MemoryPorts) -> BootstrapReply:
    """One memory-context block for a run about to start, with its hits and timings."""
    return bootstrap_workflow.bootstrap(message.request, ports)


def stats(message: Stats, ports: MemoryPorts) -> MemoryStats:
    """Counts of what memory holds, for one tenant or every tenant."""
    return memory_stats(
        ports,
        now=ports.clock(),
        tenant_id=message.tenant_id,
        count_failed_runs=message.count_failed_runs,
    )
