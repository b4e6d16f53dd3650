"""Human review: the procedures a reviewer lists, reads and decides, and the contested facts
they settle, whichever surface asks (the review Lambda, the SDK in both modes, the CLI).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from agent_memory.core.model.errors import InvalidInput, NotFound
from agent_memory.core.model.models import Procedure, ProcedureStatus
from agent_memory.core.paging import every
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.tiers import procedural, semantic
from agent_memory.core.workflows.ingestion import request_ingestion, run_ingestion

if TYPE_CHECKING:
    # Its contract needs pydantic, which the CLI's listing need not load.
    from agent_memory.core.api.review_request import ReviewRequest


def list_procedures(
    ports: MemoryPorts, *, tenant_id: str | None, status: ProcedureStatus | None
) -> list[Procedure]:
    """Every procedure of the tenant (of every tenant: None) with the status (any: None)."""
    return list(every(partial(ports.procedures.list, tenant_id=tenant_id, status=status)))


def run_review(request: ReviewRequest, ports: MemoryPorts) -> dict[str, Any]:
    """Carry out the request within its tenant; the procedure(s) after."""
    policy = ports.policies.procedural
    if request.action == "list":
        listed = list_procedures(ports, tenant_id=request.tenant_id, status=request.status)
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


def resolve_contested_fact(
    ports: MemoryPorts,
    *,
    tenant_id: str,
    domain: str,
    fact_hash: str,
    keep: Literal["new", "old", "both"],
) -> tuple[str, ...]:
    """A human's decision on a contested fact (``semantic.resolve_contested``), then the KB
    brought up to date; the hashes of the facts removed.
    """
    removed = semantic.resolve_contested(
        ports.facts,
        ports.knowledge_base,
        tenant_id=tenant_id,
        domain=domain,
        fact_hash=fact_hash,
        keep=keep,
        now=ports.clock(),
    )
    if removed:
        # The KB index must drop what was removed, now rather than at the next window.
        request_ingestion(ports.checkpoints, now=ports.clock())
    run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock())
    return removed
