"""Batched knowledge-base ingestion: one job per window for everything staged, never per fact."""

from __future__ import annotations

from dataclasses import dataclass

from agent_memory.core.errors import IngestionBusy
from agent_memory.core.models import Fact, IngestionJob
from agent_memory.core.ports import FactStore, KnowledgeBase, Ledger

# System records start with "_", which no tenant id can: no tenant's keys reach them.
JOB_KEY = "_kb-ingestion#current"
DIRTY_KEY = "_kb-ingestion#dirty"
_RUNNING = ("STARTING", "IN_PROGRESS")


@dataclass(frozen=True, slots=True)
class IngestionReport:
    """What one ingestion window did."""

    status: str
    job_id: str | None = None
    facts_ingested: int = 0
    facts_waiting: int = 0


def run_ingestion(
    facts: FactStore, kb: KnowledgeBase, ledger: Ledger, *, now: float, page_size: int = 100
) -> IngestionReport:
    """Settle the previous job, then start one job if anything waits.

    Facts staged strictly before a completed job started are marked ingested (the fast path
    stops serving them). A job still running, or a conflict from the KB, means "try in the
    next window".
    """
    ingested = 0
    previous = ledger.get(JOB_KEY, now=now)
    if previous is not None and previous["status"] in _RUNNING:
        job = kb.ingestion_job(previous["job_id"])
        if job.status in _RUNNING:
            return IngestionReport("busy", job.job_id)
        ledger.put(JOB_KEY, _job_json(job), now=now, expires_at=None)
        if job.status == "COMPLETE":
            ingested += _mark_ingested(facts, job, now, page_size)
    waiting = _count_waiting(facts, page_size)
    dirty = ledger.get(DIRTY_KEY, now=now)
    if waiting == 0 and dirty is None:
        return IngestionReport("idle", None, ingested, 0)
    try:
        job = kb.start_ingestion(now=now)
    except IngestionBusy:
        return IngestionReport("busy", None, ingested, waiting)
    ledger.put(JOB_KEY, _job_json(job), now=now, expires_at=None)
    if dirty is not None and dirty["at"] < job.started_at:
        ledger.delete(DIRTY_KEY)
    if job.status == "COMPLETE":
        ingested += _mark_ingested(facts, job, now, page_size)
    waiting = _count_waiting(facts, page_size)
    return IngestionReport(job.status.lower(), job.job_id, ingested, waiting)


def _job_json(job: IngestionJob) -> dict[str, object]:
    return {"job_id": job.job_id, "status": job.status, "started_at": job.started_at}


def _mark_ingested(facts: FactStore, job: IngestionJob, now: float, page_size: int) -> int:
    # Collect first: marking removes facts from the listing being paged.
    due: list[Fact] = []
    cursor = None
    while True:
        page = facts.awaiting_ingestion(limit=page_size, cursor=cursor)
        due.extend(f for f in page.items if (f.staged_at or job.started_at) < job.started_at)
        if page.cursor is None:
            break
        cursor = page.cursor
    for fact in due:
        facts.mark_ingested(fact.tenant_id, fact.domain, fact.fact_hash, now=now)
    return len(due)


def _count_waiting(facts: FactStore, page_size: int) -> int:
    count, cursor = 0, None
    while True:
        page = facts.awaiting_ingestion(limit=page_size, cursor=cursor)
        count += len(page.items)
        if page.cursor is None:
            return count
        cursor = page.cursor


def request_ingestion(ledger: Ledger, *, now: float) -> None:
    """Ask the next window to ingest even if no fact waits (documents were deleted)."""
    ledger.put(DIRTY_KEY, {"at": now}, now=now, expires_at=None)
