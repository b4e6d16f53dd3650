"""Domain records of the four memory tiers: what is stored and what is served."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Literal

Role = Literal["system", "human", "ai", "tool"]
Outcome = Literal["COMPLETED", "PARTIAL", "FAILED", "UNKNOWN"]
OUTCOMES: tuple[Outcome, ...] = ("COMPLETED", "PARTIAL", "FAILED", "UNKNOWN")


class FactStatus(StrEnum):
    """Lifecycle of a semantic fact: observed, then confirmed by enough independent runs, or held
    back for a human when it contradicts a confirmed fact; retracted by a person (served
    nowhere, and never promoted again by agents' sightings).
    """

    PENDING = "PENDING"
    CONFIRMED = "CONFIRMED"
    CONTESTED = "CONTESTED"
    RETRACTED = "RETRACTED"


class ProcedureStatus(StrEnum):
    """Lifecycle of a procedure: proposed, reviewed by a human, flagged when it goes stale,
    retired by a person once it should no longer be served (never served again unless a person
    approves it again, overruling the retirement).
    """

    PENDING = "PENDING"
    VALIDATED = "VALIDATED"
    REJECTED = "REJECTED"
    NEEDS_REVIEW = "NEEDS_REVIEW"
    RETIRED = "RETIRED"


@dataclass(frozen=True, slots=True)
class Message:
    """One message of a run's working memory.

    ``tool_calls`` holds the ids of the tool calls an ``ai`` message issued; a ``tool`` message
    names the call it answers in ``tool_call_id``. Without ids, a tool message belongs to the
    nearest ``ai`` message before it.
    """

    role: Role
    content: str
    name: str | None = None
    tool_call_id: str | None = None
    tool_calls: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FactCandidate:
    """A fact a run claims to have learned, with the run's confidence in it."""

    content: str
    confidence: float


@dataclass(frozen=True, slots=True)
class ProcedureDraft:
    """Steps a run proposes for its task type."""

    title: str
    steps: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RunArtifacts:
    """What consolidation distils from one finished run."""

    task_summary: str
    outcome: Outcome
    key_findings: tuple[str, ...] = ()
    approach_used: str = ""
    tools_used: tuple[str, ...] = ()
    reusable_patterns: tuple[str, ...] = ()
    facts: tuple[FactCandidate, ...] = ()
    procedure: ProcedureDraft | None = None


@dataclass(frozen=True, slots=True)
class ProcedureFeedback:
    """A run's report of whether a served procedure worked, with the serving receipt its
    bootstrap handed out (see ``core/model/receipts.py``; without one the report does not count).
    """

    procedure_id: str
    succeeded: bool
    receipt: str | None = None


@dataclass(frozen=True, slots=True)
class RunFinished:
    """A validated RunFinished event (see ``schemas/run_finished.schema.json``)."""

    tenant_id: str
    agent_id: str
    run_id: str
    task: str
    task_type: str | None = None
    domain: str | None = None
    outcome: Outcome | None = None
    messages: tuple[Message, ...] = ()
    artifacts: RunArtifacts | None = None
    procedure_feedback: ProcedureFeedback | None = None
    finished_at: float | None = None
    # What the event held that is not kept (parts carrying no text, citations), one line each.
    not_kept: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StoredVector:
    """An embedding as stored: compact bytes plus the model that produced it."""

    model_id: str
    dimension: int
    data: bytes


def in_space(
    embedding: StoredVector | None, spare: StoredVector | None, model_id: str
) -> tuple[StoredVector | None, StoredVector | None]:
    """``(embedding, spare)`` of a record read in ``model_id``'s space.

    A record holds at most two vectors of its text: ``embedding``, which searches compare, and
    ``spare_embedding``, written beside it while the store moves to another embedding model
    (``core/workflows/reembed.py``). Read by a process embedding with ``model_id``, a record whose
    spare vector is of that model presents it as ``embedding`` (the other as spare), so searches
    compare it; otherwise nothing moves, and a search skips a vector of another model.
    """
    if (
        spare is not None
        and spare.model_id == model_id
        and (embedding is None or embedding.model_id != model_id)
    ):
        return spare, embedding
    return embedding, spare


@dataclass(frozen=True, slots=True)
class EpisodeUnit:
    """One searchable piece of an episode: a message of the run, or a finding.

    ``seq`` is the message's position in the run (findings count from 0 on their own), so a
    hit can be traced back to the turn that holds it.
    """

    kind: Literal["message", "finding"]
    seq: int
    text: str
    speaker: str | None = None
    embedding: StoredVector | None = None
    spare_embedding: StoredVector | None = None

    def in_space(self, model_id: str) -> EpisodeUnit:
        """The unit with its ``model_id`` vector as ``embedding`` (see :func:`in_space`)."""
        embedding, spare = in_space(self.embedding, self.spare_embedding, model_id)
        if embedding is self.embedding:
            return self
        return replace(self, embedding=embedding, spare_embedding=spare)


@dataclass(frozen=True, slots=True)
class Episode:
    """The distilled record of one past run (episodic memory)."""

    tenant_id: str
    agent_id: str
    run_id: str
    task: str
    task_summary: str
    outcome: Outcome
    created_at: float
    expires_at: float
    task_type: str | None = None
    domain: str | None = None
    key_findings: tuple[str, ...] = ()
    approach_used: str = ""
    tools_used: tuple[str, ...] = ()
    reusable_patterns: tuple[str, ...] = ()
    embedding: StoredVector | None = None
    units: tuple[EpisodeUnit, ...] = ()
    spare_embedding: StoredVector | None = None

    def in_space(self, model_id: str) -> Episode:
        """The episode as searches in ``model_id``'s space see it (see :func:`in_space`)."""
        embedding, spare = in_space(self.embedding, self.spare_embedding, model_id)
        units = tuple(unit.in_space(model_id) for unit in self.units)
        moved = [a is not b for a, b in zip(units, self.units, strict=True)]
        if embedding is self.embedding and not any(moved):
            return self
        return replace(self, embedding=embedding, spare_embedding=spare, units=units)


RUN_IDS_KEPT = 100
"""How many run ids a fact's log names: the first distinct runs that observed it. Later runs
are still counted once each (``Fact.sightings``), so a common fact's record stays bounded."""


AGENTS_KEPT = 100
"""How many agents a fact remembers the last counted confirmation of: those that counted last.
An agent pushed out counted before a hundred others did since, so the gap it could skip says
nothing a hundred agents have not already said."""


@dataclass(frozen=True, slots=True)
class Fact:
    """A semantic fact and its confirmation log: the distinct runs that observed it.

    ``run_ids`` holds the first :data:`RUN_IDS_KEPT` of them; ``sightings`` counts them all
    (stores always set it; a record built without it counts its ``run_ids``).
    ``confirmations`` counts the sightings that were independent
    (:class:`~agent_memory.core.model.policies.Independence`): a fact is promoted on those, not on
    its sightings. ``counted_by`` names, per agent, when its last counted confirmation was
    (the :data:`AGENTS_KEPT` agents that counted last, by agent id). ``asserted_by`` names the
    person who asserted it (confirmed at once, as a correction or a fact of their own), and
    ``superseded_by`` the hash of the fact a person's correction of it put in its place.
    """

    tenant_id: str
    domain: str
    fact_hash: str
    content: str
    status: FactStatus
    confidence: float
    run_ids: frozenset[str]
    first_seen: float
    last_seen: float
    confirmed_at: float | None = None
    staged_at: float | None = None
    ingested_at: float | None = None
    embedding: StoredVector | None = None
    review_note: str | None = None
    spare_embedding: StoredVector | None = None
    sightings: int = 0
    confirmations: int = 0
    counted_by: tuple[tuple[str, float], ...] = ()
    asserted_by: str | None = None
    superseded_by: str | None = None

    @property
    def runs(self) -> int:
        """How many distinct runs observed the fact."""
        return max(self.sightings, len(self.run_ids))

    @property
    def agents(self) -> int:
        """How many distinct agents' confirmations were counted (at most :data:`AGENTS_KEPT`)."""
        return len(self.counted_by)

    def in_space(self, model_id: str) -> Fact:
        """The fact as searches in ``model_id``'s space see it (see :func:`in_space`)."""
        embedding, spare = in_space(self.embedding, self.spare_embedding, model_id)
        if embedding is self.embedding:
            return self
        return replace(self, embedding=embedding, spare_embedding=spare)


@dataclass(frozen=True, slots=True)
class FactObservation:
    """One run's sighting of a fact, as written to the confirmation log.

    ``seen_at`` is the consolidation clock when the sighting is recorded, never a time the
    agent reports: the independence of sightings is judged by it.
    """

    tenant_id: str
    domain: str
    fact_hash: str
    content: str
    confidence: float
    run_id: str
    seen_at: float
    embedding: StoredVector | None = None
    agent_id: str = field(kw_only=True)


SOURCE_RUN_IDS_KEPT = 20
"""How many run ids a procedure's log names: the first distinct runs that proposed it. Later
runs are still counted once each (``Procedure.proposals``). Fewer than a fact's: the largest
procedure (50 steps of 2,000 four-byte characters, some 391 KiB) leaves room under DynamoDB's
400 KB item for about 60 ids of 128 characters, and a reviewer is shown 20."""


@dataclass(frozen=True, slots=True)
class Review:
    """A person's decision on a procedure as it is recorded: who decided and, for a rejection,
    why. A procedure keeps its last review (its reviewer, note and time); a status change
    without one (decay flagging a procedure) leaves the last review as it was.
    """

    reviewer: str
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Procedure:
    """A step list for a task type, gated by human review, with its track record.

    ``source_run_ids`` names the first :data:`SOURCE_RUN_IDS_KEPT` distinct runs that proposed it;
    ``proposals`` counts them all, so a procedure every run proposes keeps a bounded record
    (stores always set it; a record built without it counts its ``source_run_ids``).
    ``revision`` counts the times a person replaced its steps (an edit names the revision it
    read, so two edits never overwrite each other unseen); ``edited_by`` and ``edited_at`` say
    who made the last edit and when (None: the steps are as a run proposed them).
    """

    tenant_id: str
    task_type: str
    procedure_id: str
    title: str
    steps: tuple[str, ...]
    status: ProcedureStatus
    created_at: float
    updated_at: float
    source_run_ids: frozenset[str] = field(default_factory=frozenset)
    times_applied: int = 0
    times_succeeded: int = 0
    last_applied_at: float | None = None
    reviewer: str | None = None
    reviewed_at: float | None = None
    review_note: str | None = None
    proposals: int = 0
    revision: int = 0
    edited_by: str | None = None
    edited_at: float | None = None

    @property
    def proposed_by(self) -> int:
        """How many distinct runs proposed the procedure."""
        return max(self.proposals, len(self.source_run_ids))

    @property
    def success_rate(self) -> float | None:
        """Share of applications that succeeded, computed at read; None before the first use."""
        if self.times_applied == 0:
            return None
        return self.times_succeeded / self.times_applied


@dataclass(frozen=True, slots=True)
class KbDocument:
    """A promoted fact as a knowledge-base document: plain text plus its metadata sidecar.

    Plain text because Bedrock Knowledge Bases ingest ``.txt`` (not ``.json``) from S3 and
    return the text as the retrieval result; everything else rides in the sidecar, where
    metadata filters can see it.
    """

    key: str
    text: str
    metadata: dict[str, object]


@dataclass(frozen=True, slots=True)
class KbHit:
    """One knowledge-base retrieval result."""

    text: str
    score: float
    metadata: dict[str, object]


IngestionState = Literal["STARTING", "IN_PROGRESS", "COMPLETE", "FAILED"]
# What the index says of one document: served (INDEXED), not processed yet (PENDING), or not
# served although an ingestion should have taken it (FAILED: refused, ignored, unknown).
DocumentState = Literal["INDEXED", "PENDING", "FAILED"]


@dataclass(frozen=True, slots=True)
class IngestionStatistics:
    """What a job did with the documents it scanned.

    A COMPLETE job can still have failed documents: only those the KB reports INDEXED are in
    the index.
    """

    scanned: int = 0
    indexed: int = 0
    failed: int = 0


@dataclass(frozen=True, slots=True)
class IngestionJob:
    """A knowledge-base ingestion job: what was staged before ``started_at`` is in it, except
    the ``statistics.failed`` documents it could not index (``failure_reasons`` says why, in
    the KB's words).
    """

    job_id: str
    status: IngestionState
    started_at: float
    statistics: IngestionStatistics = field(default_factory=IngestionStatistics)
    failure_reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class UnitHit:
    """A unit of an episode that matched the query."""

    run_id: str
    unit: EpisodeUnit
    score: float
    similarity: float
    # The episode's author: in a team's or a tenant's results, two agents' runs may share an id.
    agent_id: str = ""


@dataclass(frozen=True, slots=True)
class EpisodeHit:
    """An episode that matched, its similarity to the query, and its best units."""

    episode: Episode
    score: float
    similarity: float
    units: tuple[UnitHit, ...]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Ranked episodes and ranked units (across episodes) for one query; ``ranked_by`` names
    the reranker whose scores ordered them (``None``: the index's own).
    """

    episodes: tuple[EpisodeHit, ...]
    units: tuple[UnitHit, ...]
    ranked_by: str | None = None


def unit_text(unit: EpisodeUnit, day: str | None = None) -> str:
    """What a unit is matched as: its run's calendar day, its speaker and its text."""
    body = f"{unit.speaker}: {unit.text}" if unit.speaker else unit.text
    return f"({day}) {body}" if day else body


@dataclass(frozen=True, slots=True)
class Retention:
    """A copy of tenant data the deployment keeps for a time and ``forget`` cannot delete."""

    where: str
    what: str
    days: float
