"""Batched knowledge-base ingestion: one job per window for everything staged, never per fact.

A fact leaves the fast path (``mark_ingested``) only once its document is known to be in the
index. A COMPLETE job that reports no failed document vouches for every document staged before
it started; one that reports failures does not say which, so the KB is asked document by
document. A fact whose document failed stays on the fast path and its document is written
again, so the next job (which only processes added or modified documents, per
https://docs.aws.amazon.com/bedrock/latest/userguide/kb-data-source-sync-ingest.html) retries
it; once ``MAX_ATTEMPTS`` rewrites have all failed it is left alone, still served from the fast
path, and counted as stuck until its document is indexed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from agent_memory.core.model.errors import IngestionBusy
from agent_memory.core.model.keys import document_key, tenant_folder
from agent_memory.core.model.models import Fact, FactStatus, IngestionJob
from agent_memory.core.paging import every
from agent_memory.core.ports import Checkpoint, FactStore, JobCheckpoints, KnowledgeBase
from agent_memory.core.tiers.semantic import kb_document

# The job checkpoints kept: the last job, a request to ingest with nothing waiting, and
# {"attempts": {document key: rewrites so far}} of facts whose documents failed to ingest.
JOB = Checkpoint.INGESTION_JOB
REQUESTED = Checkpoint.INGESTION_REQUESTED
RETRIES = Checkpoint.INGESTION_RETRIES
_RUNNING = ("STARTING", "IN_PROGRESS")
MAX_ATTEMPTS = 3
_STUCK = MAX_ATTEMPTS + 1  # the tries of a fact that failed after its last rewrite
# Bounds the retry record (one checkpoint record, ~100 bytes an entry, far below DynamoDB's 400 KB
# item limit). While it is full, no job's statistics are trusted: every due fact is checked.
MAX_TRACKED = 1000


@dataclass(frozen=True, slots=True)
class IngestionReport:
    """What one ingestion window did.

    ``documents_failed`` is what the KB reported for the jobs settled in this window;
    ``facts_retried`` the facts whose documents were written again for the next job;
    ``facts_stuck`` the waiting facts whose documents failed ``MAX_ATTEMPTS`` times (served
    from the fast path, not retried); ``jobs_failed`` the jobs the KB reported FAILED in this
    window (their facts simply wait for the next job, so this is the only trace of them).
    """

    status: str
    job_id: str | None = None
    facts_ingested: int = 0
    facts_waiting: int = 0
    documents_failed: int = 0
    facts_retried: int = 0
    facts_stuck: int = 0
    jobs_failed: tuple[str, ...] = ()

    @property
    def found_nothing(self) -> bool:
        """No job ran or settled, and nothing waits, failed or is stuck."""
        return self == IngestionReport(status="idle")


@dataclass(slots=True)
class _Window:
    ingested: int = 0
    documents_failed: int = 0
    retried: int = 0
    jobs_failed: list[str] = field(default_factory=list)


def run_ingestion(
    facts: FactStore,
    kb: KnowledgeBase,
    checkpoints: JobCheckpoints,
    *,
    now: float,
    page_size: int = 100,
) -> IngestionReport:
    """Settle the previous job, then start one job if anything waits.

    A job still running, or a conflict from the KB, means "try in the next window". Facts
    whose documents are stuck do not start a job by themselves.
    """
    window = _Window()
    saved = _attempts(checkpoints, now)
    attempts = dict(saved)
    previous = checkpoints.load(JOB, now=now)
    if previous is not None and not previous.get("settled", previous["status"] not in _RUNNING):
        job = kb.ingestion_job(previous["job_id"])
        if job.status in _RUNNING:
            # The backlog is still reported: a long job must not read as an empty one.
            return _report("busy", job.job_id, window, *_count_waiting(facts, attempts, page_size))
        _settle(facts, kb, job, attempts, window, now, page_size)
        checkpoints.save(JOB, _job_json(job, settled=True), now=now)
    waiting, stuck = _count_waiting(facts, attempts, page_size)
    saved = _save_attempts(checkpoints, saved, attempts, now)
    dirty = checkpoints.load(REQUESTED, now=now)
    if waiting - stuck == 0 and dirty is None:
        return _report("idle", None, window, waiting, stuck)
    try:
        job = kb.start_ingestion(now=now)
    except IngestionBusy:
        return _report("busy", None, window, waiting, stuck)
    # Kept unsettled until its facts are settled: a window that dies in between (a timeout,
    # a crash) leaves the next window to settle it, before any later job could vouch for
    # documents this one failed (a later job skips unchanged documents, so reports no failure).
    checkpoints.save(JOB, _job_json(job, settled=False), now=now)
    if dirty is not None and dirty["at"] < job.started_at:
        checkpoints.clear(REQUESTED)
    if job.status not in _RUNNING:
        _settle(facts, kb, job, attempts, window, now, page_size)
        checkpoints.save(JOB, _job_json(job, settled=True), now=now)
    waiting, stuck = _count_waiting(facts, attempts, page_size)
    _save_attempts(checkpoints, saved, attempts, now)
    return _report(job.status.lower(), job.job_id, window, waiting, stuck)


def request_ingestion(checkpoints: JobCheckpoints, *, now: float) -> None:
    """Ask the next window to ingest even if no fact waits (documents were deleted)."""
    checkpoints.save(REQUESTED, {"at": now}, now=now)


def forget_retries(checkpoints: JobCheckpoints, tenant_id: str, *, now: float) -> int:
    """Drop the tenant's documents from the retry record (their keys name the tenant); how
    many were dropped.
    """
    prefix = tenant_folder(tenant_id)
    saved = _attempts(checkpoints, now)
    kept = {key: tries for key, tries in saved.items() if not key.startswith(prefix)}
    _save_attempts(checkpoints, saved, kept, now)
    return len(saved) - len(kept)


def _report(
    status: str, job_id: str | None, window: _Window, waiting: int, stuck: int
) -> IngestionReport:
    return IngestionReport(
        status,
        job_id,
        facts_ingested=window.ingested,
        facts_waiting=waiting,
        documents_failed=window.documents_failed,
        facts_retried=window.retried,
        facts_stuck=stuck,
        jobs_failed=tuple(window.jobs_failed),
    )


def _job_json(job: IngestionJob, *, settled: bool) -> dict[str, object]:
    """The job's checkpoint; ``settled`` once its facts are marked (a checkpoint from before
    the mark existed counts as settled when its job had finished).
    """
    return {
        "job_id": job.job_id,
        "status": job.status,
        "started_at": job.started_at,
        "settled": settled,
    }


def _key(fact: Fact) -> str:
    return document_key(fact.tenant_id, fact.domain, fact.fact_hash)


def _settle(
    facts: FactStore,
    kb: KnowledgeBase,
    job: IngestionJob,
    attempts: dict[str, int],
    window: _Window,
    now: float,
    page_size: int,
) -> None:
    """Mark ingested the due facts whose documents the finished ``job`` indexed."""
    if job.status == "FAILED":
        window.jobs_failed.append(job.job_id)
    if job.status != "COMPLETE":
        return  # a failed job vouches for nothing: its facts wait for the next one
    window.documents_failed += job.statistics.failed
    due = _due(facts, job, page_size)
    # A retracted fact waits for the job that drops its deleted document: any completed job
    # started after the deletion did (there is no document left to ask about, or to rewrite).
    for fact in [f for f in due if f.status is FactStatus.RETRACTED]:
        facts.mark_ingested(fact.tenant_id, fact.domain, fact.fact_hash, now=now)
        attempts.pop(_key(fact), None)
    due = [f for f in due if f.status is not FactStatus.RETRACTED]
    # A fact already retried is always checked: a job reporting no failure may simply not
    # have processed its (unchanged, or stuck) document.
    trust = job.statistics.failed == 0 and len(attempts) < MAX_TRACKED
    vouched = [f for f in due if trust and _key(f) not in attempts]
    checked = [f for f in due if not (trust and _key(f) not in attempts)]
    states = kb.document_states([_key(f) for f in checked]) if checked else {}
    for fact in vouched:
        facts.mark_ingested(fact.tenant_id, fact.domain, fact.fact_hash, now=now)
        window.ingested += 1
    for fact in checked:
        key = _key(fact)
        state = states.get(key, "FAILED")
        if state == "INDEXED":
            facts.mark_ingested(fact.tenant_id, fact.domain, fact.fact_hash, now=now)
            attempts.pop(key, None)
            window.ingested += 1
        elif state == "FAILED":
            tries = attempts.get(key, 0)
            if tries >= MAX_ATTEMPTS:
                attempts[key] = _STUCK  # failed again after its last rewrite
                continue
            if key not in attempts and len(attempts) >= MAX_TRACKED:
                continue  # no room to count its tries: it waits, served as it is
            # Written again, it is a modified document the next job processes.
            kb.put_document(kb_document(fact))
            facts.mark_staged(fact.tenant_id, fact.domain, fact.fact_hash, now=now)
            attempts[key] = tries + 1
            window.retried += 1
        # PENDING: the index has not processed it yet; it stays due for a later job.


def _due(facts: FactStore, job: IngestionJob, page_size: int) -> list[Fact]:
    """Facts staged strictly before ``job`` started (collected first: marking removes facts
    from the listing being paged).
    """
    waiting = every(partial(facts.awaiting_ingestion, limit=page_size))
    return [f for f in waiting if (f.staged_at or job.started_at) < job.started_at]


def _count_waiting(facts: FactStore, attempts: dict[str, int], page_size: int) -> tuple[int, int]:
    """Facts waiting, and how many of them are stuck; forgets the tries of facts that no
    longer wait (ingested, superseded or forgotten).
    """
    count = 0
    seen: set[str] = set()
    for fact in every(partial(facts.awaiting_ingestion, limit=page_size)):
        count += 1
        if (key := _key(fact)) in attempts:
            seen.add(key)
    for key in [k for k in attempts if k not in seen]:
        del attempts[key]
    return count, sum(attempts[k] >= _STUCK for k in attempts)


def _attempts(checkpoints: JobCheckpoints, now: float) -> dict[str, int]:
    record = checkpoints.load(RETRIES, now=now)
    raw = {} if record is None else record.get("attempts", {})
    return {str(k): int(v) for k, v in raw.items()} if isinstance(raw, dict) else {}


def _save_attempts(
    checkpoints: JobCheckpoints, saved: dict[str, int], attempts: dict[str, int], now: float
) -> dict[str, int]:
    """Write the tries back if they changed; what is saved now."""
    if attempts != saved:
        if attempts:
            checkpoints.save(RETRIES, {"attempts": dict(attempts)}, now=now)
        else:
            checkpoints.clear(RETRIES)
    return dict(attempts)
