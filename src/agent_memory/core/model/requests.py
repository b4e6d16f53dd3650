"""Requests the core serves, as validated values (their JSON contracts are in ``core/api``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from agent_memory.core.model.scope import AGENT_SCOPE, Scope

# Who reads the block: what it tells the model to do depends on what that surface offers it
# (the SDK, the CLI and the bootstrap function: a RunFinished event; MCP: its tools; the
# LangGraph and Strands integrations report on the model's behalf).
Surface = Literal["sdk", "mcp", "langgraph", "strands"]
SURFACES: tuple[Surface, ...] = get_args(Surface)


@dataclass(frozen=True, slots=True)
class BootstrapRequest:
    """A validated bootstrap request."""

    tenant_id: str
    agent_id: str
    task: str
    task_type: str | None = None
    domain: str | None = None
    scope: Scope = AGENT_SCOPE
    surface: Surface = "sdk"

    def as_json(self) -> dict[str, object]:
        """The request as the bootstrap function takes it (defaults left out)."""
        data: dict[str, object] = {
            "tenant_id": self.tenant_id,
            "agent_id": self.agent_id,
            "task": self.task,
        }
        if self.task_type:
            data["task_type"] = self.task_type
        if self.domain:
            data["domain"] = self.domain
        if self.surface != "sdk":
            data["surface"] = self.surface
        return {**data, **self.scope.as_json()}
