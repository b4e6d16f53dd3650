"""Semantic memory: facts confirmed by independent runs, promoted to the knowledge base."""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from agent_memory.core.model.errors import InvalidInput, NotFound
from agent_memory.core.model.keys import document_key
from agent_memory.core.model.markers import SEMANTIC, Line, Section
from agent_memory.core.model.models import (
    Fact,
    FactCandidate,
    FactObservation,
    FactStatus,
    KbDocument,
    RunArtifacts,
)
from agent_memory.core.model.policies import SemanticPolicy
from agent_memory.core.ports import Embedder, FactStore, FloatArray, KnowledgeBase
from agent_memory.core.retrieval import vectors
from agent_memory.core.tiers.contradiction import contradiction

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_DASHES = re.compile(r"[\u2010-\u2015\u2212]")
_TRAILING = re.compile(r"[\s.;:!]+$")


def normalize_fact(text: str) -> str:
    """The form two wordings of one fact share: Unicode-folded, case-folded, quotes and dashes
    unified, whitespace collapsed, trailing punctuation dropped.
    """
    folded = unicodedata.normalize("NFKC", text).translate(_QUOTES)
    folded = _DASHES.sub("-", folded).casefold()
    return _TRAILING.sub("", " ".join(folded.split()))


def fact_hash(text: str) -> str:
    """Key of a fact: a hash of its normalized form."""
    return hashlib.sha256(normalize_fact(text).encode("utf-8")).hexdigest()[:32]


def facts_worth_keeping(
    artifacts: RunArtifacts, policy: SemanticPolicy = SemanticPolicy()
) -> list[FactCandidate]:
    """The run's facts that may enter the confirmation log.

    Only COMPLETED runs teach facts, only at ``min_confidence`` or above, and one run counts once
    per fact even if it states it twice.
    """
    if artifacts.outcome != "COMPLETED":
        return []
    best: dict[str, FactCandidate] = {}
    for fact in artifacts.facts:
        if fact.confidence >= policy.min_confidence and normalize_fact(fact.content):
            key = fact_hash(fact.content)
            if key not in best or fact.confidence > best[key].confidence:
                best[key] = fact
    return list(best.values())


@dataclass(frozen=True, slots=True)
class FactProgress:
    """Where one fact the run reported stands under the tenant's rule once the run was logged.

    ``confirmations`` of ``needed`` independent runs (from ``agents`` of ``agents_needed``
    agents); ``counted``: this run's sighting was one of them. When it was not,
    ``counts_again_at`` is when this agent's next run can count and ``others_count_from`` when
    another agent's run can (at once when it is not after the sighting).
    """

    fact_hash: str
    status: str
    confirmations: int
    needed: int
    agents: int
    agents_needed: int
    counted: bool
    seen_at: float
    counts_again_at: float | None = None
    others_count_from: float | None = None
    # The rule's gap: one agent's runs count at most once in this many seconds.
    agent_gap: float | None = None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FactProgress:
        """Inverse of ``to_json``."""
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def progress_of(
    fact: Fact, *, agent_id: str, seen_at: float, policy: SemanticPolicy
) -> FactProgress:
    """Where ``fact`` stands once ``agent_id``'s run saw it at ``seen_at``: the one place the
    promotion rule is read back for a person (the run's summary).

    The sighting counted when the store recorded this agent's last counted confirmation at
    ``seen_at``; when it did not, the Independence policy says when this agent's next run, and
    another agent's, can count (what ``facts show`` says per agent, from the same rule; at
    ``seen_at`` itself: at once).
    """
    last = dict(fact.counted_by)
    counted = last.get(agent_id) == seen_at
    independence = policy.independence
    return FactProgress(
        fact_hash=fact.fact_hash,
        status=fact.status.value,
        confirmations=fact.confirmations,
        needed=policy.confirmations,
        agents=fact.agents,
        agents_needed=policy.min_distinct_agents,
        counted=counted,
        seen_at=seen_at,
        # Never before the sighting (JSON has no -inf): at ``seen_at`` means at once.
        counts_again_at=None if counted else max(seen_at, independence.counts_from(last, agent_id)),
        others_count_from=None if counted else max(seen_at, independence.counts_from(last, None)),
        agent_gap=None if counted else independence.same_agent_gap,
    )


@dataclass(frozen=True, slots=True)
class Confirmation:
    """What observing one run's facts did, and where each observed fact stands."""

    observed: tuple[str, ...]
    confirmed: tuple[str, ...]
    newly_confirmed: tuple[str, ...]
    contested: tuple[str, ...] = ()
    progress: tuple[FactProgress, ...] = ()


def observe_facts(
    store: FactStore,
    embedder: Embedder,
    kb: KnowledgeBase,
    *,
    tenant_id: str,
    domain: str,
    agent_id: str,
    run_id: str,
    facts: list[FactCandidate],
    now: float,
    policy: SemanticPolicy = SemanticPolicy(),
) -> Confirmation:
    """Log the run's sightings and promote each fact that enough independent runs confirmed.

    A fact is promoted once ``policy.confirmations`` of its sightings counted as independent
    (``policy.independence``: by default an agent's runs count at most once an hour, judged on
    ``now``, the consolidation clock) and came from ``policy.min_distinct_agents`` agents or
    more. A fact that would be promoted but contradicts a confirmed fact of its domain is held
    back for a human instead (CONTESTED): the two are never served side by side. Safe to
    repeat for the same run: the store counts each run once, so nothing counts twice, and the
    promotion is a conditional write that only one caller wins.
    """
    if not facts:
        return Confirmation((), (), ())
    embeddings = embedder.embed_documents([f.content for f in facts])
    observed: list[str] = []
    confirmed: list[str] = []
    newly: list[str] = []
    contested: list[str] = []
    progress: list[FactProgress] = []
    for fact, embedding in zip(facts, embeddings, strict=True):
        key = fact_hash(fact.content)
        record = store.observe(
            FactObservation(
                tenant_id=tenant_id,
                domain=domain,
                fact_hash=key,
                content=fact.content,
                confidence=fact.confidence,
                run_id=run_id,
                seen_at=now,
                embedding=vectors.encode(embedding, embedder.model_id),
                agent_id=agent_id,
            ),
            policy.independence,
        )
        observed.append(key)
        status, promoted = _promote(
            store, kb, record, fact.content, embedding, embedder.model_id, now=now, policy=policy
        )
        if status is FactStatus.CONFIRMED:
            confirmed.append(key)
            if promoted:
                newly.append(key)
        elif status is FactStatus.CONTESTED:
            contested.append(key)
        stands = progress_of(record, agent_id=agent_id, seen_at=now, policy=policy)
        progress.append(replace(stands, status=status.value))
    return Confirmation(
        tuple(observed), tuple(confirmed), tuple(newly), tuple(contested), tuple(progress)
    )


def _promote(
    store: FactStore,
    kb: KnowledgeBase,
    record: Fact,
    content: str,
    embedding: FloatArray,
    model_id: str,
    *,
    now: float,
    policy: SemanticPolicy,
) -> tuple[FactStatus, bool]:
    """The fact's status once its sighting is logged, and whether this call promoted it."""
    if record.status is not FactStatus.PENDING or not is_confirmed(record, policy):
        # A retracted fact is logged and counted; only a person brings it back.
        return record.status, False
    tenant_id, domain, key = record.tenant_id, record.domain, record.fact_hash
    conflict = find_conflict(
        kb,
        store,
        tenant_id=tenant_id,
        domain=domain,
        content=content,
        fact_hash=key,
        query=embedding,
        model_id=model_id,
    )
    if conflict is not None:
        store.contest(tenant_id, domain, key, now=now, reason=conflict)
        return FactStatus.CONTESTED, False
    return FactStatus.CONFIRMED, store.confirm(tenant_id, domain, key, now=now)


def is_confirmed(fact: Fact, policy: SemanticPolicy) -> bool:
    """Whether the fact's counted confirmations are enough to promote it under ``policy``."""
    return fact.confirmations >= policy.confirmations and fact.agents >= policy.min_distinct_agents


def find_conflict(
    kb: KnowledgeBase,
    store: FactStore,
    *,
    tenant_id: str,
    domain: str,
    content: str,
    fact_hash: str,
    query: FloatArray,
    model_id: str,
    candidates: int = 10,
) -> str | None:
    """Why ``content`` contradicts a confirmed fact of the domain, or None.

    Candidates are the domain's nearest confirmed facts (the KB's and the fast path's); the
    test itself is :func:`~agent_memory.core.tiers.contradiction.contradiction`.
    """
    hits = kb.retrieve(
        content,
        tenant_id=tenant_id,
        domain=domain,
        limit=candidates,
        query_vector=query,
        query_model_id=model_id,
    )
    nearby = [
        (str(hit.metadata.get("fact_hash", "")), hit.text)
        for hit in hits
        if hit.metadata.get("tenant_id") == tenant_id
    ]
    nearby += [(f.fact_hash, f.content) for f in store.fast_path(tenant_id, domain)]
    for other_hash, other in nearby:
        if other_hash == fact_hash:
            continue
        reason = contradiction(content, other)
        if reason is not None:
            return f"contradicts confirmed fact {other_hash}: {reason}"
    return None


def kb_document(fact: Fact) -> KbDocument:
    """The KB document of a confirmed fact; filters read the metadata sidecar, not the body."""
    return KbDocument(
        key=document_key(fact.tenant_id, fact.domain, fact.fact_hash),
        text=fact.content,
        metadata={
            "tenant_id": fact.tenant_id,
            "domain": fact.domain,
            "confidence": round(fact.confidence, 4),
            "fact_hash": fact.fact_hash,
            "confirmations": fact.confirmations,
            "confirmed_at": fact.confirmed_at or fact.last_seen,
        },
    )


def stage_documents(
    store: FactStore,
    kb: KnowledgeBase,
    *,
    tenant_id: str,
    domain: str,
    fact_hashes: tuple[str, ...],
    now: float,
) -> tuple[str, ...]:
    """Write the KB documents of confirmed facts not yet staged; the hashes staged now.

    Ingestion is a separate, batched job: staging never starts one.
    """
    staged = []
    for key in fact_hashes:
        fact = store.get(tenant_id, domain, key)
        if fact is None or fact.status is not FactStatus.CONFIRMED or fact.staged_at is not None:
            continue
        kb.put_document(kb_document(fact))
        store.mark_staged(tenant_id, domain, key, now=now)
        staged.append(key)
    return tuple(staged)


@dataclass(frozen=True, slots=True)
class ScoredFact:
    """A fact served to a run, with its relevance and where it came from."""

    content: str
    score: float
    source: str
    fact_hash: str


def retrieve_facts(
    kb: KnowledgeBase,
    store: FactStore,
    *,
    tenant_id: str,
    domain: str | None,
    task: str,
    query: FloatArray,
    model_id: str,
    min_score: float,
    top_k: int,
) -> list[ScoredFact]:
    """The best facts for ``task``: KB results plus confirmed facts the KB has not ingested yet.

    Every KB result is checked against the tenant again (defence in depth) and against the
    store (served only while its fact is confirmed), results below ``min_score`` are dropped,
    and a fact found both ways appears once.
    """
    best: dict[str, ScoredFact] = {}
    hits = kb.retrieve(
        task,
        tenant_id=tenant_id,
        domain=domain,
        limit=top_k,
        query_vector=query,
        query_model_id=model_id,
    )
    for hit in hits:
        key = str(hit.metadata.get("fact_hash", ""))
        if hit.metadata.get("tenant_id") != tenant_id or hit.score < min_score or not key:
            continue
        if not _still_confirmed(store, tenant_id, hit.metadata.get("domain"), key):
            continue
        best[key] = ScoredFact(hit.text, hit.score, "knowledge_base", key)
    recent = [f for f in store.fast_path(tenant_id, domain) if f.tenant_id == tenant_id]
    if recent:
        matrix, usable = vectors.stack([f.embedding for f in recent], model_id, query.shape[0])
        scores = matrix @ np.asarray(query, dtype=np.float32)
        for fact, score, ok in zip(recent, scores.tolist(), usable.tolist(), strict=True):
            if ok and score >= min_score and score > best.get(fact.fact_hash, _NONE).score:
                best[fact.fact_hash] = ScoredFact(fact.content, score, "fast_path", fact.fact_hash)
    return sorted(best.values(), key=lambda f: -f.score)[:top_k]


_NONE = ScoredFact("", float("-inf"), "", "")


def _still_confirmed(store: FactStore, tenant_id: str, domain: object, key: str) -> bool:
    """Whether the fact of a KB hit is still confirmed: a fact a person retracted, or one
    forgetting a run withdrew or deleted, has its document deleted at once, but the index keeps
    it until the next ingestion's job is done, and it is served nowhere meanwhile.
    """
    if not isinstance(domain, str):
        return False
    try:
        fact = store.get(tenant_id, domain, key)
    except InvalidInput:
        return False  # no such key: no fact of the store
    return fact is not None and fact.status is FactStatus.CONFIRMED


def format_facts(facts: list[ScoredFact]) -> Section | None:
    """The semantic section of the memory context (None when nothing was found)."""
    if not facts:
        return None
    return Section(SEMANTIC, "domain knowledge", tuple(Line("- ", fact.content) for fact in facts))


_CONFLICT = re.compile(r"contradicts confirmed fact ([0-9a-f]+)")


def resolve_contested(
    store: FactStore,
    kb: KnowledgeBase,
    *,
    tenant_id: str,
    domain: str,
    fact_hash: str,
    keep: Literal["new", "old", "both"],
    now: float,
) -> tuple[str, ...]:
    """A human's decision on a contested fact; the hashes of the facts removed.

    ``new``: the contested fact is confirmed and the one it contradicted is forgotten;
    ``old``: the contested fact is forgotten; ``both``: they do not really conflict, and the
    contested fact is confirmed beside the other. Confirmed facts go to the KB as usual.
    """
    fact = store.get(tenant_id, domain, fact_hash)
    if fact is None or fact.status is not FactStatus.CONTESTED:
        raise NotFound(f"no contested fact {fact_hash!r} in {tenant_id}/{domain}")
    removed: list[str] = []
    if keep == "old":
        store.delete(tenant_id, domain, fact_hash)
        return (fact_hash,)
    store.confirm(tenant_id, domain, fact_hash, now=now, from_status=FactStatus.CONTESTED)
    stage_documents(
        store, kb, tenant_id=tenant_id, domain=domain, fact_hashes=(fact_hash,), now=now
    )
    match = _CONFLICT.search(fact.review_note or "")
    if keep == "new" and match:
        old = match.group(1)
        kb.delete_document(document_key(tenant_id, domain, old))
        if store.delete(tenant_id, domain, old):
            removed.append(old)
    return tuple(removed)
