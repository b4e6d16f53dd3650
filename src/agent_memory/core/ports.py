"""Ports: what the core needs from storage and models, as Protocols adapters implement.

Every method takes the tenant explicitly where data is tenant-owned; adapters build their keys
from it (``{tenant_id}#...``), so no query can be written without naming a tenant.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from agent_memory.core.model.calibration import DEFAULT_CALIBRATIONS, Calibration
from agent_memory.core.model.decisions import Decision
from agent_memory.core.model.episode_versions import EpisodeChanges
from agent_memory.core.model.flags import Flag
from agent_memory.core.model.models import (
    DocumentState,
    Episode,
    Fact,
    FactObservation,
    FactStatus,
    IngestionJob,
    KbDocument,
    KbHit,
    Procedure,
    ProcedureStatus,
    Review,
    SearchResult,
)
from agent_memory.core.model.policies import EpisodicPolicy, Independence, Policies, RankingPolicy
from agent_memory.core.model.scope import AGENT_SCOPE, Scope
from agent_memory.core.model.time_window import OPEN, TimeWindow

T = TypeVar("T")
FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a paginated listing; ``cursor`` is None on the last page."""

    items: tuple[T, ...]
    cursor: str | None = None


@runtime_checkable
class EpisodeStore(Protocol):
    """Episodic memory: one record per (tenant, agent, run_id); expired records are invisible."""

    def add(self, episode: Episode) -> bool:
        """Write the episode unless one with its key exists; True if this call wrote it."""
        ...

    def get(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> Episode | None:
        """The episode, or None if absent or expired at ``now``."""
        ...

    def recent(
        self,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        limit: int,
        cursor: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[Episode]:
        """The agent's unexpired episodes, newest first, one page of at most ``limit``; with
        ``since`` or ``until``, only those created in ``[since, until)``, chosen by the store's
        query (not by filtering a page). A cursor continues the listing with the same bounds.
        """
        ...

    def failed_before(
        self, cutoff: float, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """FAILED episodes of every tenant created before ``cutoff`` (for decay)."""
        ...

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode; True if it existed."""
        ...

    def count_by_outcome(self, *, now: float, tenant_id: str | None = None) -> dict[str, int]:
        """Unexpired episodes by outcome, of the tenant or (None) of every tenant.

        Outcomes without episodes may be missing. Reads every episode in scope: for nightly
        gauges and operators, never on a request path.
        """
        ...

    def agents(self, tenant_id: str) -> list[str]:
        """The agents of the tenant that have stored episodes, sorted, in one read (for reads
        scoped to the whole tenant). An agent whose episodes were all deleted or expired may
        still be listed; no other tenant's agent ever is.
        """
        ...

    def version(self, tenant_id: str, agent_id: str) -> str:
        """A token that changes whenever the agent's set of stored episodes changes: an
        :class:`~agent_memory.core.model.episode_versions.EpisodeVersion`'s.

        Caches of an agent's episodes (search indexes) are valid while it stays the same; a
        token is never reused, not even after the tenant is forgotten.
        """
        ...

    def versions(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, str]:
        """Each agent's :meth:`version` token, read together (one read where the store can
        batch): lets a cache of several agents' episodes see in one call whether any changed.
        """
        ...

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and its unexpired episodes added since ``version`` (a token
        :meth:`version` returned) when additions are all that changed them and no more than
        ``limit`` were added; ``added`` is None otherwise, or when the store cannot tell: a
        deletion, a rewrite, a forget or an unknown token means reading the episodes again.

        One read: lets a cache of the agent's episodes see whether they changed and take in a
        new run's episode without reading every other one again.
        """
        ...

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Remove up to ``limit`` expired records (a store with native TTL may return 0)."""
        ...

    def list_all(self, *, now: float, limit: int, cursor: str | None = None) -> Page[Episode]:
        """Unexpired episodes of every tenant, one page, in a stable order (store-wide jobs
        such as re-embedding); an episode added or deleted meanwhile may or may not appear.
        """
        ...

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the stored vectors (summary and units, both slots) of the episode with this
        key by ``episode``'s, leaving every other field as stored; False if that episode is
        gone or its units are not ``episode``'s. Caches of its agent are told to look again.
        """
        ...

    def rewrite(self, episode: Episode) -> bool:
        """Replace the stored texts (task, summary, findings, approach, tools, patterns, the
        units' texts) and vectors (both slots, units' too) of the episode with this key by
        ``episode``'s, keeping its outcome, times and expiry as stored; False if it is gone.
        What was stored before leaves the store's files (a redaction's guarantee); caches of
        its agent are told to look again.
        """
        ...

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Every stored episode of the tenant, expired or not."""
        ...

    def forget(self, tenant_id: str) -> int:
        """Delete every episode of the tenant; the number deleted."""
        ...


@dataclass(frozen=True, slots=True)
class Sighting:
    """One run's logged sighting of a fact (the run as facts log it: its run marker)."""

    domain: str
    fact_hash: str
    run_id: str


@runtime_checkable
class FactStore(Protocol):
    """Semantic facts and their confirmation log, keyed by (tenant, domain, fact_hash)."""

    def observe(
        self, observation: FactObservation, independence: Independence = Independence()
    ) -> Fact:
        """Atomically record that a run saw the fact (creating it PENDING); the fact after.

        A new run is counted in ``sightings``, and in ``confirmations`` (its agent then in
        ``counted_by``) when ``independence`` says so, judged against the fact as it stands
        when the sighting is written: concurrent sightings are each judged once, in some order.
        A run already seen changes nothing but ``last_seen``, so redelivery never counts twice.
        """
        ...

    def get(self, tenant_id: str, domain: str, fact_hash: str) -> Fact | None:
        """The fact, or None."""
        ...

    def confirm(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        now: float,
        from_status: FactStatus = FactStatus.PENDING,
    ) -> bool:
        """Move a fact from ``from_status`` (PENDING, or CONTESTED once a human accepts it) to
        CONFIRMED; True only for the call that made the change.
        """
        ...

    def contest(
        self, tenant_id: str, domain: str, fact_hash: str, *, now: float, reason: str
    ) -> bool:
        """Hold a PENDING fact back for review (CONTESTED, with why); True if this call did."""
        ...

    def retract(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        now: float,
        superseded_by: str | None = None,
    ) -> bool:
        """Move a fact of any other status to RETRACTED (naming the fact that ``superseded_by``
        it, if given), keeping its content and its log; True only for the call that did.

        It leaves the fast path, the contested and the decay listings at once; its knowledge-base
        document, deleted by the caller, awaits ingestion again (staged at ``now``, not
        ingested), so the next ingestion's job drops it from the index. Later sightings are
        still logged and counted, and leave it RETRACTED.
        """
        ...

    def assert_fact(self, fact: Fact) -> Fact:
        """Store a person's ``fact`` as CONFIRMED (``asserted_by``, ``confirmed_at``) whatever
        its status was; the fact after.

        A new fact is stored as given (no run saw it: no sightings, no confirmations). A fact
        with that key keeps its wording, log and counts, and takes the status, ``asserted_by``
        and ``confirmed_at``; it is superseded by nothing, and its document is not staged
        (the caller stages it again).
        """
        ...

    def contested(self, tenant_id: str) -> list[Fact]:
        """The tenant's facts held back for review."""
        ...

    def withdraw(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Move a CONFIRMED fact back to PENDING, no longer staged or ingested (its KB
        document is the caller's to remove); True only for the call that did.
        """
        ...

    def of_tenant(
        self,
        tenant_id: str,
        *,
        status: FactStatus | None = None,
        domain: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Fact]:
        """One page of the tenant's facts (of one status, of one domain, when given), in an
        order that stays the same from page to page: every fact listed once, none of another
        tenant.
        """
        ...

    def mark_staged(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the fact's KB document was written and awaits ingestion."""
        ...

    def awaiting_ingestion(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Staged facts of every tenant not yet ingested by the KB."""
        ...

    def mark_ingested(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the KB now serves the fact."""
        ...

    def fast_path(self, tenant_id: str, domain: str | None) -> list[Fact]:
        """CONFIRMED facts the KB does not serve yet (all domains of the tenant if None)."""
        ...

    def pending_seen_before(
        self, cutoff: float, *, limit: int, cursor: str | None = None
    ) -> Page[Fact]:
        """PENDING facts of every tenant last seen before ``cutoff`` (for decay)."""
        ...

    def delete(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Delete one fact; True if it existed."""
        ...

    def sightings(self, tenant_id: str) -> Iterator[Sighting]:
        """Every logged sighting of the tenant's facts, whatever their status (reads every
        fact's log: for forgetting runs, never on a request path).
        """
        ...

    def unsee(self, tenant_id: str, domain: str, fact_hash: str, run_id: str) -> Fact | None:
        """Take one run's sighting back, atomically: the run leaves the log, ``sightings``
        drops by one, and ``confirmations`` too if its sighting counted (one logged before the
        store kept that is taken as counted). The fact after; None if it is absent or its log
        does not hold the run. Nothing else changes: its status is the caller's to decide.
        """
        ...

    def list_all(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Facts of every tenant and status, one page, in a stable order (store-wide jobs)."""
        ...

    def set_vectors(self, fact: Fact) -> bool:
        """Replace the stored vectors (both slots) of the fact with this key by ``fact``'s,
        leaving every other field as stored; False if the fact is gone or its content differs.
        """
        ...

    def rekey(self, tenant_id: str, domain: str, fact_hash: str, fact: Fact) -> Fact | None:
        """Move the fact stored under ``fact_hash`` to ``fact.fact_hash`` (the same key, or a
        new one: the hash of new content), atomically, taking ``fact``'s content, review note,
        ``superseded_by``, vectors (both slots), ``staged_at`` and ``ingested_at``, and keeping
        its status, counts, times and log (its sightings follow it to the new key). The fact
        after; None if it is gone, or if another fact already holds the new key (nothing
        changes then). What was stored before leaves the store's files.
        """
        ...

    def count_by_status(self, *, tenant_id: str | None = None) -> dict[str, int]:
        """Facts by status (``FactStatus`` values), of the tenant or (None) of every tenant.

        Statuses without facts may be missing. Reads every fact in scope: for nightly gauges
        and operators, never on a request path.
        """
        ...

    def export(self, tenant_id: str) -> Iterator[Fact]:
        """Every fact of the tenant."""
        ...

    def forget(self, tenant_id: str) -> int:
        """Delete every fact of the tenant; the number deleted."""
        ...


@dataclass(frozen=True, slots=True)
class RunTrace:
    """What one run left on a procedure: it proposed it (``source``), its feedback counted
    (``feedback``), or both.
    """

    procedure_id: str
    run_id: str
    source: bool
    feedback: bool


class FeedbackCount(StrEnum):
    """What :meth:`ProcedureStore.record_feedback` did with one report (its value says so)."""

    COUNTED = "counted"
    RUN_COUNTED = "already counted for this run"
    RECEIPT_USED = "receipt already used"
    NO_PROCEDURE = "unknown procedure"


@runtime_checkable
class ProcedureStore(Protocol):
    """Procedures keyed by (tenant, task_type, procedure_id) and findable by procedure_id."""

    def propose(self, procedure: Procedure, run_id: str) -> bool:
        """Store a PENDING proposal unless its id exists (then only add ``run_id`` to its
        sources); True if this call created it.
        """
        ...

    def get(self, procedure_id: str, *, tenant_id: str | None = None) -> Procedure | None:
        """The procedure with this id (restricted to ``tenant_id`` when given)."""
        ...

    def for_task_type(self, tenant_id: str, task_type: str) -> list[Procedure]:
        """Every procedure of the tenant's task type, whatever its status."""
        ...

    def list(
        self,
        *,
        tenant_id: str | None = None,
        status: ProcedureStatus | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Procedure]:
        """Procedures filtered by tenant and status, one page."""
        ...

    def set_status(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        status: ProcedureStatus,
        allowed_from: Sequence[ProcedureStatus],
        now: float,
        review: Review | None = None,
        revision: int | None = None,
    ) -> Procedure | None:
        """Change the status only if the current one is in ``allowed_from`` (and its steps are
        at ``revision``, when given: what the reviewer read); the procedure after, or None if
        the condition failed or it does not exist. ``updated_at`` becomes ``now``; with a
        ``review``, the procedure's review is replaced by it, at ``now``.
        """
        ...

    def replace_steps(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        edited_by: str,
        revision: int,
        allowed_from: Sequence[ProcedureStatus],
        now: float,
    ) -> Procedure | None:
        """Replace the title and steps, as a person edited them, only if the procedure is the
        tenant's, its status is in ``allowed_from`` and its revision is still ``revision``; the
        procedure after (revision one more, ``edited_by`` at ``now``, ``updated_at`` ``now``,
        id, status, review, sources and record unchanged), or None if the condition failed.
        """
        ...

    def record_feedback(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        run_id: str,
        receipt_id: str,
        succeeded: bool,
        now: float,
    ) -> FeedbackCount:
        """Atomically count one application (and success), once per run and once per serving
        receipt (``receipt_id``, the nonce of a verified receipt); what happened: counted,
        the run already counted, the receipt already used by another run, or no such procedure
        of the tenant (nothing changes but in the first case).
        """
        ...

    def run_traces(self, tenant_id: str) -> Iterator[RunTrace]:
        """Every run the tenant's procedures logged, as sources or by counted feedback
        (reads every procedure's logs: for forgetting runs, never on a request path).
        """
        ...

    def untrace(self, procedure_id: str, *, tenant_id: str, run_id: str) -> Procedure | None:
        """Take one run back from the procedure, atomically: out of its sources
        (``proposals`` one fewer) and its counted feedback undone (``times_applied`` one fewer,
        ``times_succeeded`` too if it succeeded; the receipt it used is released). The
        procedure after; None if the tenant has no such procedure. A run it never logged
        changes nothing.
        """
        ...

    def reword(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        review_note: str | None,
    ) -> Procedure | None:
        """Replace the procedure's title, steps and review note in place (a redaction: its
        id, status, revision, counts and logs stay as stored); the procedure after, or None
        if the tenant has no such procedure. What was stored before leaves the store's files.
        """
        ...

    def delete(self, procedure_id: str, *, tenant_id: str) -> bool:
        """Delete one procedure of the tenant with its logs; True if it existed."""
        ...

    def export(self, tenant_id: str) -> Iterator[Procedure]:
        """Every procedure of the tenant."""
        ...

    def forget(self, tenant_id: str) -> int:
        """Delete every procedure of the tenant; the number deleted."""
        ...


class RunEntryKind(StrEnum):
    """What a run ledger entry holds."""

    RUN = "run"  # the run's scrubbed state, kept to answer redeliveries identically
    FAILURE = "failed"  # a failed run awaiting replay


@dataclass(frozen=True, slots=True)
class RunEntry:
    """One record of the run ledger: a run's consolidation record or a failed run's.

    ``key`` is the handle the adapter keeps it under, what listings show and ``replay`` takes;
    the core passes it back and never builds it. ``agent_id`` is None for an event too broken
    to name its run.
    """

    key: str
    kind: RunEntryKind
    tenant_id: str
    agent_id: str | None
    run_id: str
    value: dict[str, Any]


@runtime_checkable
class RunLedger(Protocol):
    """Each run's consolidation record and the failed runs kept for replay, by tenant.

    Records are small JSON objects; one with an expiry at or before ``now`` is absent. A
    failure's tenant may be ``_unroutable`` (an event too broken to name its own).
    """

    def run(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> RunEntry | None:
        """The run's record, or None."""
        ...

    def start_run(
        self,
        tenant_id: str,
        agent_id: str,
        run_id: str,
        value: dict[str, Any],
        *,
        now: float,
        expires_at: float,
    ) -> bool:
        """Write the run's record unless an unexpired one exists; True if this call wrote it."""
        ...

    def failure_key(self, tenant_id: str, agent_id: str | None, run_id: str) -> str:
        """The key a failed run is (or would be) kept under."""
        ...

    def identify(self, key: str) -> tuple[str, str | None, str] | None:
        """(tenant_id, agent_id, run_id) a run or failure key names; None for any other key."""
        ...

    def put_failure(
        self,
        tenant_id: str,
        agent_id: str | None,
        run_id: str,
        value: dict[str, Any],
        *,
        now: float,
        expires_at: float | None,
    ) -> None:
        """Write the run's failure record, replacing any."""
        ...

    def entry(self, key: str, *, now: float) -> RunEntry | None:
        """The run or failure record kept under ``key``, or None."""
        ...

    def rewrite(
        self, entry: RunEntry, value: dict[str, Any], *, now: float, expires_at: float | None
    ) -> None:
        """Replace an entry's value and expiry, where it is kept."""
        ...

    def delete(self, key: str) -> None:
        """Remove the entry kept under ``key``, if present."""
        ...

    def reword(self, key: str, value: dict[str, Any]) -> bool:
        """Replace the value of the run or failure record kept under ``key``, keeping its
        expiry (a redaction); False if none is kept there.
        """
        ...

    def failures(self, tenant_id: str) -> Iterator[RunEntry]:
        """The tenant's failure records, resolved and expired included (one key range)."""
        ...

    def entries(self, tenant_id: str | None = None) -> Iterator[RunEntry]:
        """Every run and failure record of the tenant, expired included (no clock here), for
        export and forget; of every tenant when ``tenant_id`` is None (an operator's pass over
        the whole ledger). May be deleted from while iterating.
        """
        ...

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Remove up to ``limit`` expired records (a store with native TTL may return 0)."""
        ...


@runtime_checkable
class DecisionLog(Protocol):
    """Each tenant's history: every decision people made about its memory, append-only."""

    def record(self, decision: Decision) -> None:
        """Append the decision (one already recorded under its ``decision_id`` stays as it is)."""
        ...

    def history(
        self,
        tenant_id: str,
        *,
        limit: int,
        cursor: str | None = None,
        record_id: str | None = None,
    ) -> Page[Decision]:
        """The tenant's decisions (only those about ``record_id``, when given), newest first,
        one page of at most ``limit``; ``cursor`` continues a listing.
        """
        ...

    def forget(self, tenant_id: str) -> int:
        """Delete the tenant's history (the tenant is being forgotten); how many were deleted."""
        ...

    def reword(self, decision: Decision) -> bool:
        """Replace the recorded decision of ``decision``'s id by ``decision`` (its texts
        redacted; its id, time and action as recorded); False if none is recorded.
        """
        ...


@runtime_checkable
class FlagStore(Protocol):
    """Each tenant's open flags: agents' reports of served memory they found wrong, one per
    agent and item, kept until a person closes them (the history keeps what was decided).
    """

    def add(self, flag: Flag) -> bool:
        """Keep the flag open unless its agent has one open on the item; True if this call
        kept it.
        """
        ...

    def get(self, tenant_id: str, flag_id: str) -> Flag | None:
        """The open flag of that id, or None."""
        ...

    def of_agent(self, tenant_id: str, agent_id: str, *, limit: int) -> list[Flag]:
        """At most ``limit`` of the agent's open flags, in one read."""
        ...

    def list(self, tenant_id: str, *, limit: int, cursor: str | None = None) -> Page[Flag]:
        """One page of the tenant's open flags; ``cursor`` continues a listing (one of another
        tenant's listings is refused).
        """
        ...

    def close(self, tenant_id: str, flag_id: str) -> Flag | None:
        """Remove the open flag; the flag removed (None: none of that id was open)."""
        ...

    def reword(self, flag: Flag) -> bool:
        """Replace the open flag of ``flag``'s id by ``flag`` (its reason redacted); False if
        none of that id is open.
        """
        ...

    def forget(self, tenant_id: str) -> int:
        """Delete the tenant's flags (the tenant is being forgotten); how many were deleted."""
        ...


class Checkpoint(StrEnum):
    """The jobs' saved states, one record each (the values are what the adapters key them by)."""

    DECAY_PROGRESS = "decay-progress"  # where an interrupted decay pass resumes
    INGESTION_JOB = "ingestion-job"  # the knowledge base's last ingestion job
    INGESTION_REQUESTED = "ingestion-requested"  # an ingestion asked for with nothing waiting
    INGESTION_RETRIES = "ingestion-retries"  # rewrites of documents that failed to ingest
    REEMBEDDING = "reembedding"  # the embedding migration: target, stage, position


class Lease(StrEnum):
    """Work that one process at a time may do."""

    REEMBEDDING = "reembedding"


@runtime_checkable
class JobCheckpoints(Protocol):
    """The saved state of resumable jobs (small JSON records, one per :class:`Checkpoint`)
    and the leases that keep a job to one runner at a time.
    """

    def load(self, checkpoint: Checkpoint, *, now: float) -> dict[str, Any] | None:
        """The saved state, or None."""
        ...

    def save(self, checkpoint: Checkpoint, value: dict[str, Any], *, now: float) -> None:
        """Save the state, replacing any."""
        ...

    def clear(self, checkpoint: Checkpoint) -> None:
        """Remove the saved state, if any."""
        ...

    def acquire(self, lease: Lease, holder: str, *, now: float, until: float) -> bool:
        """Take the lease for ``holder`` until ``until`` unless another holds it unexpired;
        True if this call took it.
        """
        ...

    def renew(self, lease: Lease, holder: str, *, now: float, until: float) -> None:
        """Hold the lease for ``holder`` until ``until``."""
        ...

    def release(self, lease: Lease, holder: str, *, now: float) -> None:
        """Give the lease up if ``holder`` still holds it (not if it lapsed and was taken)."""
        ...


@dataclass(frozen=True, slots=True)
class ActiveModel:
    """The store's active embedding model: what wiring embeds with and searches compare."""

    model_id: str
    dimension: int
    switched_at: float | None = None
    previous_model_id: str | None = None


@runtime_checkable
class ModelRegistry(Protocol):
    """Which embedding model the store's vectors are searched in (recorded at a switch)."""

    def active_model(self, *, now: float) -> ActiveModel | None:
        """The recorded active model; None for a store that never recorded one."""
        ...

    def set_active_model(self, model: ActiveModel, *, now: float) -> None:
        """Record ``model`` as the active one."""
        ...


@runtime_checkable
class KnowledgeBase(Protocol):
    """Semantic memory's document store and its search index.

    Documents become searchable only after an ingestion job that started after they were
    written has completed, as with a Bedrock Knowledge Base.
    """

    def put_document(self, document: KbDocument) -> None:
        """Write (or overwrite) a document and its metadata sidecar."""
        ...

    def delete_document(self, key: str) -> None:
        """Remove a document and its sidecar (the index drops it at the next ingestion)."""
        ...

    def document_keys(self, tenant_id: str) -> list[str]:
        """Keys of every document of the tenant."""
        ...

    def start_ingestion(self, *, now: float) -> IngestionJob:
        """Start indexing the documents; raises ``IngestionBusy`` while a job is running."""
        ...

    def ingestion_job(self, job_id: str) -> IngestionJob:
        """The current state of a job."""
        ...

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        """What the index says of each document (a key the KB does not know is FAILED).

        Asked when a COMPLETE job reports failed documents, which it does not name.
        """
        ...

    def retrieve(
        self,
        text: str,
        *,
        tenant_id: str,
        domain: str | None,
        limit: int,
        query_vector: FloatArray | None = None,
        query_model_id: str | None = None,
    ) -> list[KbHit]:
        """Best documents for ``text`` among the tenant's (and the domain's, when given).

        An adapter whose index uses ``query_model_id`` may use ``query_vector`` instead of
        embedding ``text`` again.
        """
        ...


@runtime_checkable
class ReindexableKnowledgeBase(Protocol):
    """A knowledge base whose vector index this application builds (the local one), so it can
    follow a change of embedding model: the new model's index is built beside the one served,
    then swapped in. A managed KB (Bedrock) fixes its model at creation and is not one.
    """

    def index_model(self) -> str | None:
        """The embedding model of the index served now (None before the first ingestion)."""
        ...

    def prepare_index(self, embedder: Embedder) -> int:
        """Build, or bring up to date, the documents' index in ``embedder``'s space beside the
        served one, which stays in use; the number of documents in it.
        """
        ...

    def publish_index(self, embedder: Embedder) -> None:
        """Serve the documents' index in ``embedder``'s space (the prepared one, brought up to
        date), swapped in at once; nothing to do if none is served yet or it already is.
        """
        ...

    def discard_prepared_index(self) -> None:
        """Drop an index prepared and never published."""
        ...


@dataclass(frozen=True, slots=True)
class KbErasure:
    """What a knowledge base that erases a tenant at once did."""

    documents: int
    files_removed: int
    folders_removed: int
    index_generations_rewritten: int
    index_generations_removed: int
    # The index could not be read, so it was removed whole: the next ingestion rebuilds it.
    index_rebuild_needed: bool = False


@runtime_checkable
class ErasingKnowledgeBase(Protocol):
    """A knowledge base whose index this application writes (the local one), so it can drop a
    tenant from it at once instead of at the next ingestion.
    """

    def erase_tenant(self, tenant_id: str) -> KbErasure:
        """Delete the tenant's documents and its rows in every index; ``IngestionBusy``, with
        nothing changed, while an ingestion holds the index too long.
        """
        ...


@runtime_checkable
class Embedder(Protocol):
    """A text embedding model; vectors are float32 and L2-normalised, except that a text with
    nothing to embed (blank) may get all zeros, which matches nothing.
    """

    @property
    def model_id(self) -> str:
        """Identifies the vector space: vectors of different ids are never compared."""
        ...

    @property
    def dimension(self) -> int:
        """Length of every vector."""
        ...

    def embed_documents(self, texts: Sequence[str]) -> FloatArray:
        """Embed texts to be stored; shape (len(texts), dimension)."""
        ...

    def embed_query(self, text: str) -> FloatArray:
        """Embed a search query; shape (dimension,)."""
        ...


@dataclass(frozen=True, slots=True)
class PiiEntity:
    """A span of personal data found in a text: ``text[begin:end]`` is of kind ``type``."""

    type: str
    begin: int
    end: int
    score: float = 1.0


@runtime_checkable
class PiiDetector(Protocol):
    """Finds personal data in text. Raising means "unknown", and the caller writes nothing."""

    @property
    def max_chunk_chars(self) -> int:
        """Longest text one ``detect`` call accepts; callers split longer text."""
        ...

    def detect(self, text: str) -> list[PiiEntity]:
        """Every entity found in ``text`` (offsets into ``text``)."""
        ...


@runtime_checkable
class ChatModel(Protocol):
    """A chat model for summarising and extracting: one system prompt, one user turn."""

    def complete(self, system: str, user: str) -> str:
        """The model's reply text."""
        ...


@runtime_checkable
class Reranker(Protocol):
    """A model that reads a query and each passage together (a cross-encoder) and scores how
    well the passage answers it: the last ordering of what the index found.

    Raises ``TransientError`` when it cannot answer now; the read path then serves the
    index's own order.
    """

    @property
    def model_id(self) -> str:
        """Identifies the model (reported beside the order it produced)."""
        ...

    def scores(self, query: str, passages: Sequence[str]) -> list[float]:
        """One relevance score per passage, in the passages' order; higher is more relevant."""
        ...


@runtime_checkable
class EpisodeSearch(Protocol):
    """A search index over an agent's episodes as they stood when it was built."""

    def search(
        self,
        text: str,
        query: FloatArray,
        *,
        now: float,
        top_episodes: int,
        top_units: int = 10,
        units_per_episode: int = 3,
        min_similarity: float | None = None,
        candidates: int = 64,
        min_word_share: float | None = None,
        excluded: frozenset[tuple[str, str]] = frozenset(),
        window: TimeWindow = OPEN,
        ranking: RankingPolicy = RankingPolicy(),  # noqa: B008 (frozen: one shared default)
    ) -> SearchResult:
        """The live episodes and their units best matching ``text`` (and its vector ``query``),
        best first, weighed as ``ranking`` says. With ``min_similarity``, none ranked below
        the last episode that reaches it (or, with ``min_word_share``, holds that share of the
        query's word weight) is returned (none at all when no episode does). The ``excluded``
        episodes, by (agent, run), are never returned, nor any created outside ``window``:
        the episodes ranked are chosen among those created in it.
        """
        ...


@runtime_checkable
class EpisodeIndexes(Protocol):
    """Where the read path keeps each agent's search index between calls, so a warm process
    answers from memory until the agent's episodes change.
    """

    def index(
        self,
        store: EpisodeStore,
        embedder: Embedder,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        policy: EpisodicPolicy,
        scope: Scope = AGENT_SCOPE,
        window: TimeWindow = OPEN,
    ) -> EpisodeSearch:
        """The index of the episodes of the scope's agents (``agent_id``'s own by default) as
        they stand in ``store`` at ``now``: one index over all of them, each episode keeping
        its author; it holds every episode created in ``window`` that a search of the window
        may rank (the newest ``policy.candidates`` of each agent's in the window, at least).
        """
        ...

    def clear(self, tenant_id: str | None = None) -> None:
        """Drop kept indexes (of one tenant, or all)."""
        ...


def _policies() -> Policies:
    return Policies()


def _calibrations() -> dict[str, Calibration]:
    return dict(DEFAULT_CALIBRATIONS)


@dataclass(frozen=True, slots=True)
class MemoryPorts:
    """Everything the core talks to, wired once per process, and the configuration it applies
    (policies, model calibrations, keys): values and ports only, no implementation.
    """

    episodes: EpisodeStore
    facts: FactStore
    procedures: ProcedureStore
    run_ledger: RunLedger
    checkpoints: JobCheckpoints
    model_registry: ModelRegistry
    decisions: DecisionLog
    # Agents' open flags on served memory (kept in the ledger table beside the history).
    flags: FlagStore
    knowledge_base: KnowledgeBase
    embedder: Embedder
    pii: PiiDetector
    # Each agent's episode search index, kept between calls (``EpisodeIndexCache``).
    episode_indexes: EpisodeIndexes
    chat: ChatModel | None = None
    clock: Callable[[], float] = time.time
    policies: Policies = field(default_factory=_policies)
    calibrations: Mapping[str, Calibration] = field(default_factory=_calibrations)
    # Secret for keyed name pseudonyms (see ``scrubbing.Pseudonyms``); None: plain labels.
    pseudonym_key: bytes | None = None
    # Signs and checks serving receipts (``core/model/receipts.py``), a key derived for that alone;
    # None: bootstrap hands out no receipt and no procedure feedback counts.
    receipt_key: bytes | None = None
    # Reorders the episodes the index found before they are served; None: the index's order.
    reranker: Reranker | None = None
