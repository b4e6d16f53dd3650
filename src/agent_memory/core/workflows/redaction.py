"""Redacting a text from every record of a tenant: what the PII scrubber missed, removed.

A person names a text (a secret, a name the detectors did not know); every record of the
tenant that holds it, as a reader would read it (``core/privacy/redacting.py``: the scrubber's
Unicode folding, any case), is rewritten with the text replaced:

- episodes: every text field and every unit, their vectors embedded again by the active
  embedder (a vector of the old text is dropped, the spare slot of a migration too: its
  catch-up pass fills it again);
- facts: the content and review note. A fact's key is a hash of its content, so a redacted
  fact moves to the hash of its new content, its status, counts and log kept (a fact another
  one names as ``superseded_by`` is pointed at the new key). Where a fact already holds that
  key (two facts that differed only in the text), the redacted one is deleted: the one kept
  says the same. A confirmed fact's knowledge-base document is deleted, written again under
  the new key, and an ingestion is run at once so the index drops the old text;
- procedures: title, steps and review note, in place (a procedure's id, a digest of its
  original steps, is kept: its logs and receipts name it);
- the run ledger's records (a run's scrubbed state, a failed run's event), flags' reasons and
  the history's reasons.

The decision is recorded first (who, why, a SHA-256 digest of the text: never the text; a
reason naming the text is redacted too), so an interrupted redaction is in the history; it
is idempotent, so running it again finishes it. What was not found is not recorded.

Not covered: later runs bringing the same text again are scrubbed by the detectors only (no
per-tenant deny list is kept), and a run consolidating while the redaction runs may write the
text after its record was passed: run it again after such runs.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from agent_memory.core.model.decisions import Action, Decision, RecordKind
from agent_memory.core.model.flags import Flag
from agent_memory.core.model.keys import check_tenant, document_key
from agent_memory.core.model.models import Episode, Fact, FactStatus, Procedure, StoredVector
from agent_memory.core.model.run_records import without_digest
from agent_memory.core.paging import every
from agent_memory.core.ports import MemoryPorts, RunEntry
from agent_memory.core.privacy.reading_form import stored_form
from agent_memory.core.privacy.redacting import DEFAULT_REPLACEMENT, Needle, needle
from agent_memory.core.retrieval import vectors
from agent_memory.core.tiers.semantic import fact_hash, stage_documents
from agent_memory.core.workflows.history import record_decision, scrubbed
from agent_memory.core.workflows.ingestion import request_ingestion, run_ingestion
from agent_memory.core.workflows.reembed import episode_texts
from agent_memory.core.workflows.tenants import iso_time

_PAGE = 100


@dataclass(frozen=True, slots=True)
class TextRedacted:
    """What a redaction rewrote, store by store (never the text: ``digest`` is its SHA-256).

    ``episodes`` names the episodes rewritten (``agent/run``); ``facts`` the facts rewritten,
    as ``domain/old_hash -> new_hash``, and ``facts_merged`` those deleted because the
    redacted content was already a fact; ``kb_index`` how the KB index dropped the old
    documents (``untouched``, or ``ingestion <status>``). ``decision_id`` names the history
    entry (None when nothing held the text).
    """

    tenant_id: str
    at: float
    digest: str
    episodes: tuple[str, ...] = ()
    facts: tuple[str, ...] = ()
    facts_merged: tuple[str, ...] = ()
    procedures: tuple[str, ...] = ()
    ledger_records: int = 0
    flags: int = 0
    decisions: int = 0
    kb_documents: int = 0
    kb_index: str = "untouched"
    ingestion_job: str | None = None
    decision_id: str | None = None

    @property
    def found(self) -> bool:
        """Whether any record held the text."""
        counts = (self.ledger_records, self.flags, self.decisions)
        return bool(self.episodes or self.facts or self.facts_merged or self.procedures) or any(
            counts
        )

    def as_json(self) -> dict[str, Any]:
        """The receipt as JSON, its time in ISO 8601."""
        return {
            "operation": "redact",
            "tenant_id": self.tenant_id,
            "at": iso_time(self.at),
            "digest": self.digest,
            "episodes": list(self.episodes),
            "facts": list(self.facts),
            "facts_merged": list(self.facts_merged),
            "procedures": list(self.procedures),
            "ledger_records": self.ledger_records,
            "flags": self.flags,
            "decisions": self.decisions,
            "kb_documents": self.kb_documents,
            "kb_index": self.kb_index,
            "ingestion_job": self.ingestion_job,
            "decision_id": self.decision_id,
        }


# Keeps a redaction's digest apart from every other use of the key.
_DIGEST_LABEL = b"agent-memory redaction digest\x00"


def text_digest(text: str, key: bytes | None = None) -> str:
    """The digest (hex) of the text as stored text is kept (canonically composed): keyed
    (HMAC-SHA256 under the deployment's pseudonym key) where a key is configured, so a short
    secret cannot be recovered from the history by trying candidates; else its SHA-256. Whoever
    holds the key can still check whether a given text was redacted.
    """
    data = stored_form(text).encode("utf-8")
    if key is None:
        return hashlib.sha256(data).hexdigest()
    return hmac.new(key, _DIGEST_LABEL + data, hashlib.sha256).hexdigest()


@dataclass(slots=True)
class _Found:
    """The tenant's records holding the text, found before anything is rewritten."""

    episodes: list[Episode] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    procedures: list[Procedure] = field(default_factory=list)
    ledger: list[RunEntry] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)

    def any(self) -> bool:
        groups = (self.episodes, self.facts, self.procedures, self.ledger, self.flags)
        return any(groups) or bool(self.decisions)


def redact_text(
    ports: MemoryPorts,
    tenant_id: str,
    text: str,
    *,
    actor: str,
    reason: str | None,
    replacement: str = DEFAULT_REPLACEMENT,
) -> TextRedacted:
    """Replace ``text`` by ``replacement`` in every record of the tenant that holds it (as
    read: any case, look-alike characters folded); the receipt. The text is refused by name
    (``text``) when blank, shorter than four characters as read, or too long; who and why
    are scrubbed and bounded; all before anything changes.
    """
    check_tenant(tenant_id)
    wanted = needle(text, replacement)
    actor, reason = scrubbed(ports, tenant_id, actor, reason)
    actor = wanted.redact(actor)
    reason = None if reason is None else wanted.redact(reason)
    at = ports.clock()
    digest = text_digest(text, ports.pseudonym_key)
    found = _find(ports, tenant_id, wanted)
    if not found.any():
        return TextRedacted(tenant_id, at, digest)
    decision = record_decision(
        ports,
        tenant_id,
        Action.REDACT,
        RecordKind.TENANT,
        tenant_id,
        actor,
        reason=reason,
        digest=digest,
    )
    episodes = _episodes(ports, found.episodes, wanted)
    facts = _FactsRekeyed(ports, tenant_id, wanted, at)
    facts.rewrite(found.facts)
    procedures = [
        p.procedure_id
        for p in found.procedures
        if ports.procedures.reword(
            p.procedure_id,
            tenant_id=tenant_id,
            title=wanted.redact(p.title),
            steps=[wanted.redact(step) for step in p.steps],
            review_note=_redacted(wanted, p.review_note),
        )
        is not None
    ]
    ledger = sum(
        ports.run_ledger.reword(entry.key, without_digest(_redacted_json(wanted, entry.value)))
        for entry in found.ledger
    )
    flags = sum(
        ports.flags.reword(replace(flag, reason=wanted.redact(flag.reason))) for flag in found.flags
    )
    decisions = sum(
        ports.decisions.reword(
            replace(d, actor=wanted.redact(d.actor), reason=_redacted(wanted, d.reason))
        )
        for d in found.decisions
    )
    ports.episode_indexes.clear(tenant_id)
    index, job = facts.settle()
    return TextRedacted(
        tenant_id,
        at,
        digest,
        episodes=tuple(episodes),
        facts=tuple(facts.moved),
        facts_merged=tuple(facts.merged),
        procedures=tuple(procedures),
        ledger_records=ledger,
        flags=flags,
        decisions=decisions,
        kb_documents=facts.documents,
        kb_index=index,
        ingestion_job=job,
        decision_id=decision.decision_id,
    )


def _redacted(wanted: Needle, text: str | None) -> str | None:
    return None if text is None else wanted.redact(text)


def _redacted_json(wanted: Needle, value: Any) -> Any:
    """A JSON value with the text replaced in every string, keys included."""
    if isinstance(value, str):
        return wanted.redact(value)
    if isinstance(value, list):
        return [_redacted_json(wanted, item) for item in value]
    if isinstance(value, dict):
        return {wanted.redact(k): _redacted_json(wanted, v) for k, v in value.items()}
    return value


def _holds_json(wanted: Needle, value: Any) -> bool:
    if isinstance(value, str):
        return wanted.holds(value)
    if isinstance(value, list):
        return any(_holds_json(wanted, item) for item in value)
    if isinstance(value, dict):
        return any(wanted.holds(k) or _holds_json(wanted, v) for k, v in value.items())
    return False


def _episode_holds(wanted: Needle, e: Episode) -> bool:
    texts = [e.task, e.task_summary, e.approach_used, *e.key_findings, *e.tools_used]
    texts += [*e.reusable_patterns, *(unit.text for unit in e.units)]
    return any(wanted.holds(text) for text in texts)


def _find(ports: MemoryPorts, tenant_id: str, wanted: Needle) -> _Found:
    """Every record of the tenant holding the text (one pass over each store)."""
    found = _Found()
    found.episodes = [e for e in ports.episodes.export(tenant_id) if _episode_holds(wanted, e)]
    found.facts = [
        f
        for f in ports.facts.export(tenant_id)
        if wanted.holds(f.content) or wanted.holds(f.review_note)
    ]
    found.procedures = [
        p
        for p in ports.procedures.export(tenant_id)
        if any(wanted.holds(t) for t in (p.title, *p.steps, p.review_note))
    ]
    found.ledger = [e for e in ports.run_ledger.entries(tenant_id) if _holds_json(wanted, e.value)]
    flags: Callable[..., Any] = partial(ports.flags.list, tenant_id, limit=_PAGE)
    found.flags = [f for f in every(flags) if wanted.holds(f.reason)]
    history: Callable[..., Any] = partial(ports.decisions.history, tenant_id, limit=_PAGE)
    found.decisions = [d for d in every(history) if wanted.holds(d.actor) or wanted.holds(d.reason)]
    return found


def _episodes(ports: MemoryPorts, episodes: list[Episode], wanted: Needle) -> list[str]:
    """Rewrite each episode with the text replaced and every vector embedded again."""
    policy = ports.policies.episodic
    model = ports.embedder.model_id
    rewritten = []
    for episode in episodes:
        redacted = replace(
            episode,
            task=wanted.redact(episode.task),
            task_summary=wanted.redact(episode.task_summary),
            key_findings=tuple(wanted.redact(t) for t in episode.key_findings),
            approach_used=wanted.redact(episode.approach_used),
            tools_used=tuple(wanted.redact(t) for t in episode.tools_used),
            reusable_patterns=tuple(wanted.redact(t) for t in episode.reusable_patterns),
            units=tuple(replace(u, text=wanted.redact(u.text)) for u in episode.units),
        )
        embedded = ports.embedder.embed_documents(episode_texts(redacted, policy))
        stored = [vectors.encode(v, model, encoding=policy.vector_encoding) for v in embedded]
        units = tuple(
            replace(unit, embedding=vector, spare_embedding=None)
            for unit, vector in zip(redacted.units, stored[1:], strict=True)
        )
        redacted = replace(redacted, embedding=stored[0], spare_embedding=None, units=units)
        if ports.episodes.rewrite(redacted):
            rewritten.append(f"{episode.agent_id}/{episode.run_id}")
    return rewritten


class _FactsRekeyed:
    """The facts rewritten under the hash of their new content, and their documents."""

    def __init__(self, ports: MemoryPorts, tenant_id: str, wanted: Needle, at: float) -> None:
        self._ports = ports
        self._tenant = tenant_id
        self._wanted = wanted
        self._at = at
        self.moved: list[str] = []
        self.merged: list[str] = []
        self.documents = 0

    def rewrite(self, facts: list[Fact]) -> None:
        """Move each fact to its new key, and the facts naming one of them as superseding."""
        ports, tenant = self._ports, self._tenant
        new_keys = {
            (f.domain, f.fact_hash): fact_hash(self._wanted.redact(f.content)) for f in facts
        }
        pointing = [
            f
            for f in ports.facts.export(tenant)
            if (f.domain, f.superseded_by) in new_keys and (f.domain, f.fact_hash) not in new_keys
        ]
        contents = [self._wanted.redact(f.content) for f in facts]
        if not contents:
            return
        embedded = ports.embedder.embed_documents(contents)
        for fact, content, vector in zip(facts, contents, embedded, strict=True):
            stored = vectors.encode(vector, ports.embedder.model_id)
            self._move(fact, new_keys, content=content, embedding=stored)
        for fact in pointing:
            self._move(fact, new_keys, content=fact.content, embedding=fact.embedding)

    def _move(
        self,
        fact: Fact,
        new_keys: dict[tuple[str, str], str],
        *,
        content: str,
        embedding: StoredVector | None,
    ) -> None:
        ports, tenant = self._ports, self._tenant
        old = fact.fact_hash
        new = new_keys.get((fact.domain, old), old)
        superseded_by = fact.superseded_by
        if superseded_by is not None:
            superseded_by = new_keys.get((fact.domain, superseded_by), superseded_by)
        if fact.staged_at is not None or fact.ingested_at is not None:
            # The document first: a failure after it leaves the fact holding the text, so
            # running the redaction again finds it and finishes.
            ports.knowledge_base.delete_document(document_key(tenant, fact.domain, old))
            self.documents += 1
        target = replace(
            fact,
            fact_hash=new,
            content=content,
            review_note=_redacted(self._wanted, fact.review_note),
            superseded_by=superseded_by,
            embedding=embedding,
            spare_embedding=None,
            staged_at=None,
            ingested_at=None,
        )
        after = ports.facts.rekey(tenant, fact.domain, old, target)
        if after is None:
            if ports.facts.get(tenant, fact.domain, old) is not None and new != old:
                # The redacted content is a fact already: the one kept says the same.
                ports.facts.delete(tenant, fact.domain, old)
                self.merged.append(f"{fact.domain}/{old}")
            return
        self.moved.append(f"{fact.domain}/{old} -> {new}")
        if after.status is FactStatus.CONFIRMED:
            stage_documents(
                ports.facts,
                ports.knowledge_base,
                tenant_id=tenant,
                domain=fact.domain,
                fact_hashes=(new,),
                now=self._at,
            )

    def settle(self) -> tuple[str, str | None]:
        """Have the KB index drop the old documents now (or at the next window)."""
        if not self.documents:
            return "untouched", None
        ports = self._ports
        request_ingestion(ports.checkpoints, now=ports.clock())
        report = run_ingestion(
            ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock()
        )
        return f"ingestion {report.status}", report.job_id
