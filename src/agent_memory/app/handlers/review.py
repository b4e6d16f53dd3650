"""Human review: the procedures a reviewer lists, reads, decides and repairs (edits before
approving, retires), and the contested facts they settle.
"""

from __future__ import annotations

from functools import partial

from agent_memory.app.handlers.maintenance import ingest
from agent_memory.app.messages import (
    DecideProcedure,
    EditProcedure,
    FastPathFacts,
    GetFact,
    Ingest,
    ListContestedFacts,
    ListProcedures,
    ResolveFact,
    RetireProcedure,
    ShowProcedure,
)
from agent_memory.app.ports import StorePorts
from agent_memory.core.api.bootstrap_reply import ProcedureView
from agent_memory.core.api.fact_record import FactRecord, fact_record
from agent_memory.core.model.decisions import MAX_REASON, Action, RecordKind, fact_record_id
from agent_memory.core.model.errors import NotFound
from agent_memory.core.model.models import Fact
from agent_memory.core.paging import every
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.tiers import procedural, procedure_repair, semantic
from agent_memory.core.workflows.history import record_decision, scrubbed
from agent_memory.core.workflows.ingestion import request_ingestion


def list_procedures(message: ListProcedures, ports: StorePorts) -> list[ProcedureView]:
    """Every procedure of the tenant (of every tenant) with the status (any), page by page."""
    listing = partial(ports.procedures.list, tenant_id=message.tenant_id, status=message.status)
    policy = ports.policies.procedural
    return [procedural.procedure_view(p, policy) for p in every(listing)]


def show_procedure(message: ShowProcedure, ports: StorePorts) -> ProcedureView:
    """One procedure; ``NotFound`` if the tenant (or the store) holds none of that id."""
    found = ports.procedures.get(message.procedure_id, tenant_id=message.tenant_id)
    if found is None:
        raise NotFound(f"no procedure {message.procedure_id!r}")
    return procedural.procedure_view(found, ports.policies.procedural)


def decide_procedure(message: DecideProcedure, ports: MemoryPorts) -> ProcedureView:
    """Record a person's decision (the reviewer's name and reason scrubbed as stored text)."""
    m = message
    # Only an approval that may overrule a rejection or retirement names the review it replaces.
    overruling = m.approve and m.overrule
    before = ports.procedures.get(m.procedure_id, tenant_id=m.tenant_id) if overruling else None
    updated = procedural.decide(
        ports,
        m.procedure_id,
        approve=m.approve,
        reviewer=m.reviewer,
        note=m.note,
        tenant_id=m.tenant_id,
        overrule=m.overrule,
        revision=m.expected_revision,
    )
    reason = updated.review_note
    decision = procedural.OVERRULED.get(before.status) if before is not None else None
    if before is not None and decision is not None:
        # Both decisions stay in the history: the one overruled as recorded, and this one naming it.
        overruled = f"overrules the {decision} by {before.reviewer}: {before.review_note}"
        reason = overruled if reason is None else f"{reason} ({overruled})"
    # The review as the procedure keeps it: its reviewer and reason scrubbed already.
    record_decision(
        ports,
        updated.tenant_id,
        Action.APPROVE if m.approve else Action.REJECT,
        RecordKind.PROCEDURE,
        updated.procedure_id,
        updated.reviewer or m.reviewer,
        reason=reason[:MAX_REASON] if reason is not None else None,
    )
    return procedural.procedure_view(updated, ports.policies.procedural)


def edit_procedure(message: EditProcedure, ports: MemoryPorts) -> ProcedureView:
    """Replace an unserved procedure's steps as a person edited them
    (``procedure_repair.edit``), recorded in the history with the digest of the steps replaced.
    """
    m = message
    edited = procedure_repair.edit(
        ports,
        m.procedure_id,
        tenant_id=m.tenant_id,
        steps=m.steps,
        editor=m.reviewer,
        reason=m.reason,
        title=m.title,
        expected_revision=m.expected_revision,
    )
    record_decision(
        ports,
        edited.procedure.tenant_id,
        Action.EDIT,
        RecordKind.PROCEDURE,
        edited.procedure.procedure_id,
        edited.editor,
        reason=f"{edited.reason} (revision {edited.procedure.revision})",
        digest=edited.replaced_digest,
    )
    return procedural.procedure_view(edited.procedure, ports.policies.procedural)


def retire_procedure(message: RetireProcedure, ports: MemoryPorts) -> ProcedureView:
    """Take a served procedure out of service (``procedure_repair.retire``), recorded in the
    history as the procedure keeps the review (name and reason scrubbed).
    """
    m = message
    retired = procedure_repair.retire(
        ports, m.procedure_id, tenant_id=m.tenant_id, reviewer=m.reviewer, reason=m.reason
    )
    record_decision(
        ports,
        retired.tenant_id,
        Action.RETIRE,
        RecordKind.PROCEDURE,
        retired.procedure_id,
        retired.reviewer or m.reviewer,
        reason=retired.review_note,
    )
    return procedural.procedure_view(retired, ports.policies.procedural)


def get_fact(message: GetFact, ports: StorePorts) -> FactRecord | None:
    """The fact, as stored, with its confirmation log."""
    m = message
    found = ports.facts.get(m.tenant_id, m.domain, m.fact_hash)
    return None if found is None else fact_record(found, ports.policies.semantic.independence)


def fast_path_facts(message: FastPathFacts, ports: StorePorts) -> list[Fact]:
    """Confirmed facts the knowledge base does not serve yet."""
    return ports.facts.fast_path(message.tenant_id, message.domain)


def contested_facts(message: ListContestedFacts, ports: StorePorts) -> list[Fact]:
    """The tenant's facts held back as contradictions."""
    return ports.facts.contested(message.tenant_id)


def resolve_fact(message: ResolveFact, ports: MemoryPorts) -> tuple[str, ...]:
    """A person's decision on a contested fact (``semantic.resolve_contested``), recorded in
    the tenant's history, then the KB brought up to date; the hashes of the facts removed.
    """
    m = message
    reviewer, _ = scrubbed(ports, m.tenant_id, m.reviewer, None)
    removed = semantic.resolve_contested(
        ports.facts,
        ports.knowledge_base,
        tenant_id=m.tenant_id,
        domain=m.domain,
        fact_hash=m.fact_hash,
        keep=m.keep,
        now=ports.clock(),
    )
    record_decision(
        ports,
        m.tenant_id,
        Action.RESOLVE,
        RecordKind.FACT,
        fact_record_id(m.domain, m.fact_hash),
        reviewer,
        reason=f"kept {m.keep}; removed {', '.join(removed) or 'nothing'}",
    )
    if removed:
        # The KB index must drop what was removed, now rather than at the next window.
        request_ingestion(ports.checkpoints, now=ports.clock())
    ingest(Ingest(), ports)
    return removed
