"""The procedure-review Lambda's contract: list, show, approve or reject, with the reviewer."""

from __future__ import annotations

from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from agent_memory.core import procedural
from agent_memory.core.contracts import Identifier
from agent_memory.core.errors import InvalidInput, NotFound
from agent_memory.core.models import ProcedureStatus
from agent_memory.core.paging import every
from agent_memory.core.ports import MemoryPorts


class ReviewRequest(BaseModel):
    """One review operation on the tenant's procedures."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["list", "show", "approve", "reject"]
    tenant_id: Identifier
    procedure_id: Identifier | None = None
    reviewer: str | None = None
    reason: str | None = None
    status: ProcedureStatus | None = None


def run_review(request: ReviewRequest, ports: MemoryPorts) -> dict[str, Any]:
    """Carry out the request within its tenant; the procedure(s) after."""
    policy = ports.policies.procedural
    if request.action == "list":
        listed = every(
            partial(ports.procedures.list, tenant_id=request.tenant_id, status=request.status)
        )
        return {"procedures": [procedural.procedure_view(p, policy) for p in listed]}
    if request.procedure_id is None:
        raise InvalidInput("procedure_id", f"required to {request.action}")
    if request.action == "show":
        shown = ports.procedures.get(request.procedure_id, tenant_id=request.tenant_id)
        if shown is None:
            raise NotFound(f"no procedure {request.procedure_id!r}")
        return {"procedure": procedural.procedure_view(shown, policy)}
    updated = procedural.decide(
        ports,
        request.procedure_id,
        approve=request.action == "approve",
        reviewer=request.reviewer or "",
        note=request.reason,
        tenant_id=request.tenant_id,
    )
    return {"procedure": procedural.procedure_view(updated, policy)}
