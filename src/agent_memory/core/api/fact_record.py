"""A stored fact as plain JSON: what reading one fact back answers (every surface alike).

Its confirmations and who counted them are its provenance: which agents' runs confirmed it,
when each counted last, and whether the knowledge base serves it yet.
"""

# No ``from __future__ import annotations`` here: TypedDict needs evaluated annotations.
from typing import Literal, TypedDict

from agent_memory.core.model.models import Fact, FactStatus
from agent_memory.core.model.policies import Independence
from agent_memory.core.model.visible import shown


class FactRecord(TypedDict):
    """One fact of a tenant's domain, with its confirmation log (its vector left out)."""

    tenant_id: str
    domain: str
    fact_hash: str
    content: str
    status: str
    # Runs that saw it (the first ones the store names), how many did, and how many of those
    # were independent confirmations (what promotion counts).
    run_ids: list[str]
    sightings: int
    confirmations: int
    # Per agent, when its last counted confirmation was, and from when a new run of it counts
    # again (the tenant's Independence policy decides).
    counted_by: dict[str, float]
    counts_again_at: dict[str, float]
    first_seen: float
    last_seen: float
    confirmed_at: float | None
    # Where bootstrap reads it: the knowledge base once ingested, the fast path before.
    served_from: Literal["knowledge base", "fast path"] | None
    # Its knowledge-base document: written and awaiting the next ingestion ("staged"), in the
    # index ("ingested"), or none.
    kb_document: Literal["staged", "ingested"] | None
    review_note: str | None
    # The person who asserted it (a correction, or a fact of their own), and the fact a
    # person's correction put in its place (RETRACTED then).
    asserted_by: str | None
    superseded_by: str | None


class FactPage(TypedDict):
    """One page of a tenant's facts, in the store's stable order; ``cursor`` is None on the
    last page.
    """

    facts: list[FactRecord]
    cursor: str | None


def fact_record(fact: Fact, independence: Independence = Independence()) -> FactRecord:
    """The fact's JSON form (stored text shown with its hidden characters named), with when
    each agent's runs count again under ``independence``.
    """
    confirmed = fact.status is FactStatus.CONFIRMED
    served: Literal["knowledge base", "fast path"] | None = None
    if confirmed:
        served = "knowledge base" if fact.ingested_at is not None else "fast path"
    return {
        "tenant_id": fact.tenant_id,
        "domain": fact.domain,
        "fact_hash": fact.fact_hash,
        "content": shown(fact.content),
        "status": fact.status.value,
        "run_ids": sorted(fact.run_ids),
        "sightings": fact.sightings,
        "confirmations": fact.confirmations,
        "counted_by": dict(fact.counted_by),
        "counts_again_at": independence.counts_again(dict(fact.counted_by)),
        "first_seen": fact.first_seen,
        "last_seen": fact.last_seen,
        "confirmed_at": fact.confirmed_at,
        "served_from": served,
        "kb_document": document_state(fact),
        "review_note": fact.review_note,
        "asserted_by": fact.asserted_by,
        "superseded_by": fact.superseded_by,
    }


def document_state(fact: Fact) -> Literal["staged", "ingested"] | None:
    """Where the fact's knowledge-base document stands."""
    if fact.ingested_at is not None:
        return "ingested"
    return "staged" if fact.staged_at is not None else None
