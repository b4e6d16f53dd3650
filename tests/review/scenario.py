"""A review queue to test against: a served procedure, its re-proposal, and a flagged one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, run_event

SERVED_STEPS = ["Read clause 7.3", "Compare the cap with annual fees", "Escalate to legal"]
PROPOSED_STEPS = [
    "Read clause 7.3",
    "Compare the cap with twice the annual fees",
    "Check the indemnity carve-outs",
    "Escalate to legal",
]


@dataclass(frozen=True)
class Scenario:
    """Ids of what :func:`seed` stored."""

    served_id: str
    proposed_id: str
    proposing_runs: tuple[str, ...]


def consolidate_run(
    memory: Memory,
    run_id: str,
    *,
    title: str,
    steps: list[str],
    summary: str = "Reviewed the vendor MSA liability cap",
    **overrides: Any,
) -> str:
    """Consolidate one COMPLETED run proposing ``steps``; the id of its procedure."""
    event = run_event(run_id, **overrides)
    event["artifacts"] = {
        **event["artifacts"],
        "task_summary": summary,
        "procedure": {"title": title, "steps": steps},
    }
    consolidate(event, memory.ports)
    return procedural.procedure_id(event["tenant_id"], event["task_type"], tuple(steps))


def seed(memory: Memory) -> Scenario:
    """A validated procedure served for acme/contract_review and a pending re-proposal of it
    made by two runs (one of another agent).
    """
    served = consolidate_run(memory, "run-001", title="MSA review", steps=SERVED_STEPS)
    procedural.review(
        memory.ports.procedures, served, approve=True, reviewer="legal-lead", now=memory.clock()
    )
    proposed = consolidate_run(
        memory,
        "run-002",
        title="Vendor MSA review",
        steps=PROPOSED_STEPS,
        summary="Found a cap at 0.5x fees",
    )
    consolidate_run(
        memory,
        "run-003",
        title="Vendor MSA review",
        steps=PROPOSED_STEPS,
        summary="Checked the Tailspin indemnities",
        agent_id="checker",
    )
    return Scenario(served, proposed, ("run-002", "run-003"))


def status_of(memory: Memory, procedure_id: str) -> ProcedureStatus:
    found = memory.ports.procedures.get(procedure_id)
    assert found is not None
    return found.status
