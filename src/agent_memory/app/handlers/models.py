"""Moving the store to another embedding model, as a planned, resumable migration."""

from __future__ import annotations

from agent_memory.app.messages import MigrationStatus, Reembed
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows import reembed
from agent_memory.core.workflows.reembed import ReembedReport, ReembedStatus


def migration_status(message: MigrationStatus, ports: MemoryPorts) -> ReembedStatus:
    """The active model, the migration in progress and, asked for, each model's coverage."""
    return reembed.status(ports, coverage=message.coverage)


def advance_migration(message: Reembed, ports: MemoryPorts) -> ReembedReport:
    """The decision, then the pass carried as far as it goes; its report."""
    m = message
    if m.decision == "begin":
        if m.to is None:
            raise InvalidInput("to", "name the embedding model to move to")
        reembed.begin(ports, m.embedders(m.to))
    elif m.decision == "switch":
        reembed.request_switch(ports)
    elif m.decision == "finish":
        reembed.request_finish(ports)
    elif m.decision == "abort":
        reembed.request_abort(ports)
    report = reembed.advance(ports, m.embedders, page_size=m.page_size, should_stop=m.should_stop)
    if m.switch_when_done and report.done and report.stage == reembed.Stage.EMBEDDING:
        reembed.request_switch(ports)
        report = reembed.advance(
            ports, m.embedders, page_size=m.page_size, should_stop=m.should_stop
        )
    return report
