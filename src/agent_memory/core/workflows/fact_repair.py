"""A person repairs semantic memory: retracts a fact, corrects it, or asserts one of their own.

Each is recorded in the tenant's history (who and why scrubbed, before anything changes). A
retracted fact is served nowhere from the next bootstrap on: it leaves the fast path at once,
its knowledge-base document is deleted (the next ingestion drops it from the index, and until
then retrieval skips it), its text and vectors are erased from the store and from the run
records that carried it (only its hash stays, and agents' later sightings count without
promoting it again). A
person's text, a correction's or an assertion's, is held to the bounds of an agent's fact and
scrubbed as every stored text is; it is served at once (fast path) and staged for the KB.
The history keeps ids and, for what was removed, a digest: never the content.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_memory.core.api.contracts import MAX_ITEM_CHARS
from agent_memory.core.model.decisions import Action, RecordKind, digest
from agent_memory.core.model.decisions import fact_record_id as record_id
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound
from agent_memory.core.model.keys import document_key
from agent_memory.core.model.models import Fact, FactStatus
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, scrub_texts
from agent_memory.core.retrieval import vectors
from agent_memory.core.tiers import semantic
from agent_memory.core.workflows.history import record_decision, scrubbed

# A person's word is certain: nothing in it to weigh against agents' confidence.
ASSERTED_CONFIDENCE = 1.0


@dataclass(frozen=True, slots=True)
class Signed:
    """Who decides and why, as the caller gave them."""

    actor: str
    reason: str | None = None


def retract(ports: MemoryPorts, tenant_id: str, domain: str, fact_hash: str, by: Signed) -> Fact:
    """Retract the fact (``NotFound`` if there is none; ``Conflict`` if it was retracted
    already, its document deleted again all the same); the fact after.
    """
    actor, reason = scrubbed(ports, tenant_id, by.actor, by.reason)
    fact = _existing(ports, tenant_id, domain, fact_hash)
    _withdraw(ports, fact)
    record_decision(
        ports,
        tenant_id,
        Action.RETRACT,
        RecordKind.FACT,
        record_id(domain, fact_hash),
        actor,
        reason=reason,
        digest=digest(fact.content),
    )
    return _read(ports, tenant_id, domain, fact_hash)


def correct(
    ports: MemoryPorts, tenant_id: str, domain: str, fact_hash: str, content: str, by: Signed
) -> Fact:
    """Put the person's ``content`` in the fact's place: a new fact, CONFIRMED in their name,
    and the old one RETRACTED, naming it; the new fact.
    """
    checked = checked_content(content)
    actor, reason = scrubbed(ports, tenant_id, by.actor, by.reason)
    old = _existing(ports, tenant_id, domain, fact_hash)
    if old.status is FactStatus.RETRACTED:
        raise Conflict(f"fact {fact_hash!r} was retracted already: assert the right one instead")
    new = _asserted(ports, tenant_id, domain, _scrubbed_content(ports, tenant_id, checked), actor)
    if new.fact_hash == fact_hash:
        raise InvalidInput("content", "says what the fact says already (the same text, normalized)")
    stored = _store(ports, new)
    _withdraw(ports, old, superseded_by=new.fact_hash)
    note = f"replaced by {record_id(domain, new.fact_hash)}"
    record_decision(
        ports,
        tenant_id,
        Action.CORRECT,
        RecordKind.FACT,
        record_id(domain, fact_hash),
        actor,
        reason=note if reason is None else f"{reason} ({note})",
        digest=digest(old.content),
    )
    return stored


def assert_fact(ports: MemoryPorts, tenant_id: str, domain: str, content: str, by: Signed) -> Fact:
    """Store the person's ``content`` as a fact of the domain, CONFIRMED in their name (one
    agents saw, or one retracted, takes their word); the fact after.
    """
    checked = checked_content(content)
    actor, reason = scrubbed(ports, tenant_id, by.actor, by.reason)
    new = _asserted(ports, tenant_id, domain, _scrubbed_content(ports, tenant_id, checked), actor)
    stored = _store(ports, new)
    record_decision(
        ports,
        tenant_id,
        Action.ASSERT,
        RecordKind.FACT,
        record_id(domain, new.fact_hash),
        actor,
        reason=reason,
    )
    return stored


def checked_content(content: object) -> str:
    """A person's fact text within the bounds of an agent's (``InvalidInput`` naming
    ``content``).
    """
    if not isinstance(content, str):
        raise InvalidInput("content", "must be a string")
    if not semantic.normalize_fact(content):
        raise InvalidInput("content", "is required: the fact's text")
    if len(content) > MAX_ITEM_CHARS:
        raise InvalidInput("content", f"holds more than {MAX_ITEM_CHARS:,} characters")
    return content


def _existing(ports: MemoryPorts, tenant_id: str, domain: str, fact_hash: str) -> Fact:
    found = ports.facts.get(tenant_id, domain, fact_hash)
    if found is None:
        raise NotFound(f"no fact {fact_hash!r} in {tenant_id}/{domain}")
    return found


def _read(ports: MemoryPorts, tenant_id: str, domain: str, fact_hash: str) -> Fact:
    return _existing(ports, tenant_id, domain, fact_hash)


def _withdraw(ports: MemoryPorts, fact: Fact, *, superseded_by: str | None = None) -> None:
    """RETRACTED in the store first (the authority: no bootstrap serves it from then on), then
    its document deleted; retracting it again deletes the document again, and says so.
    """
    changed = ports.facts.retract(
        fact.tenant_id, fact.domain, fact.fact_hash, now=ports.clock(), superseded_by=superseded_by
    )
    ports.knowledge_base.delete_document(document_key(fact.tenant_id, fact.domain, fact.fact_hash))
    _drop_from_runs(ports, fact.tenant_id, fact.fact_hash)
    if not changed:
        raise Conflict(f"fact {fact.fact_hash!r} was retracted already")


def _drop_from_runs(ports: MemoryPorts, tenant_id: str, fact_hash: str) -> int:
    """Take the retracted fact out of every run record that carries it (a run's scrubbed
    state, a failed run's event), so no record keeps its text; a run redelivered or replayed
    later simply does not report it. How many records were rewritten.
    """
    rewritten = 0
    for entry in ports.run_ledger.entries(tenant_id):
        value, dropped = _without_fact(entry.value, fact_hash)
        if dropped:
            rewritten += ports.run_ledger.reword(entry.key, value)
    return rewritten


def _without_fact(value: Any, fact_hash: str) -> tuple[Any, bool]:
    """``value`` with every fact of that hash taken out of its ``facts`` lists."""
    if isinstance(value, list):
        pairs = [_without_fact(item, fact_hash) for item in value]
        return [item for item, _ in pairs], any(dropped for _, dropped in pairs)
    if not isinstance(value, dict):
        return value, False
    kept: dict[str, Any] = {}
    dropped = False
    for key, item in value.items():
        if key == "facts" and isinstance(item, list):
            facts = [f for f in item if not _is_fact(f, fact_hash)]
            dropped |= len(facts) < len(item)
            item = facts
        kept[key], inner = _without_fact(item, fact_hash)
        dropped |= inner
    return kept, dropped


def _is_fact(item: Any, fact_hash: str) -> bool:
    content = item.get("content") if isinstance(item, dict) else None
    return isinstance(content, str) and semantic.fact_hash(content) == fact_hash


def _scrubbed_content(ports: MemoryPorts, tenant_id: str, content: str) -> str:
    pseudonyms = pseudonyms_for(ports.pseudonym_key, tenant_id)
    clean = scrub_texts([content], ports.pii, pseudonyms).texts[0]
    if len(clean) > MAX_ITEM_CHARS:
        raise InvalidInput(
            "content", f"holds more than {MAX_ITEM_CHARS:,} characters once PII is replaced"
        )
    return clean


def _asserted(ports: MemoryPorts, tenant_id: str, domain: str, content: str, actor: str) -> Fact:
    """The person's fact as stored: embedded as agents' facts are, keyed by its text."""
    [embedding] = ports.embedder.embed_documents([content])
    now = ports.clock()
    return Fact(
        tenant_id=tenant_id,
        domain=domain,
        fact_hash=semantic.fact_hash(content),
        content=content,
        status=FactStatus.CONFIRMED,
        confidence=ASSERTED_CONFIDENCE,
        run_ids=frozenset(),
        first_seen=now,
        last_seen=now,
        confirmed_at=now,
        embedding=vectors.encode(embedding, ports.embedder.model_id),
        asserted_by=actor,
    )


def _store(ports: MemoryPorts, fact: Fact) -> Fact:
    """Stored CONFIRMED and served from the fast path at once; its document staged."""
    ports.facts.assert_fact(fact)
    now = ports.clock()
    semantic.stage_documents(
        ports.facts,
        ports.knowledge_base,
        tenant_id=fact.tenant_id,
        domain=fact.domain,
        fact_hashes=(fact.fact_hash,),
        now=now,
    )
    return _read(ports, fact.tenant_id, fact.domain, fact.fact_hash)
