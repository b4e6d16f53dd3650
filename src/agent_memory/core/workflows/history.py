"""Recording a person's decision in the tenant's history, as stored text is recorded.

Who decided and why are scrubbed like every other stored text (a name becomes the tenant's
keyed pseudonym) before anything is decided (:func:`scrubbed`); a detector failure decides and
writes nothing. A procedure's review is scrubbed where the procedure stores it, and recorded as
stored.
"""

from __future__ import annotations

from agent_memory.core.model.decisions import (
    MAX_ACTOR,
    MAX_REASON,
    Action,
    Decision,
    RecordKind,
    check_texts,
)
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_signed


def scrubbed(
    ports: MemoryPorts, tenant_id: str, actor: str, reason: str | None
) -> tuple[str, str | None]:
    """Who decided and why, as the history keeps them: within their bounds (refused by name
    past them) and scrubbed; call it before the decision changes anything, so a detector
    failure leaves nothing decided and nothing recorded.
    """
    actor = actor.strip()
    check_texts(actor, "", reason)
    pseudonyms = pseudonyms_for(ports.pseudonym_key, tenant_id)
    return scrub_signed(actor, reason, ports.pii, pseudonyms, max_who=MAX_ACTOR, max_why=MAX_REASON)


def record_decision(
    ports: MemoryPorts,
    tenant_id: str,
    action: Action,
    kind: RecordKind,
    record_id: str,
    actor: str,
    *,
    reason: str | None = None,
    digest: str | None = None,
) -> Decision:
    """Append one decision, its texts already :func:`scrubbed` (or scrubbed where they are
    stored besides), to the tenant's history at the ports' clock; the decision kept.
    """
    decision = Decision(tenant_id, action, kind, record_id, actor, ports.clock(), reason, digest)
    ports.decisions.record(decision)
    return decision
