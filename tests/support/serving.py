"""Serving a procedure as an agent is served one: bootstrap, then report with its receipt."""

from __future__ import annotations

from typing import Any

from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.bootstrap import bootstrap

TASK = "Review the vendor MSA liability cap"


def serve(
    ports: MemoryPorts,
    *,
    tenant_id: str = "acme",
    agent_id: str = "reviewer",
    task_type: str = "contract_review",
    task: str = TASK,
) -> dict[str, Any]:
    """The procedure a run of ``agent_id`` is served at bootstrap (with its receipt)."""
    reply = bootstrap(BootstrapRequest(tenant_id, agent_id, task, task_type), ports)
    served = reply["procedure"]
    assert served is not None, "bootstrap served no procedure"
    return dict(served)


def feedback(served: dict[str, Any], succeeded: bool) -> dict[str, Any]:
    """The ``procedure_feedback`` of a run that was served ``served``."""
    return {
        "procedure_id": served["procedure_id"],
        "succeeded": succeeded,
        "receipt": served["receipt"],
    }
