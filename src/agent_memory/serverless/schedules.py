"""The scheduled functions: a batched ingestion window, and the nightly forgetting pass."""

from __future__ import annotations

from typing import Any

from agent_memory.app.messages import Decay, Ingest, Stats
from agent_memory.core.model.records import to_json
from agent_memory.serverless.metrics import count
from agent_memory.serverless.observability import logger
from agent_memory.wiring.aws import runtime


def ingest(_: Any) -> dict[str, Any]:
    """One batched KB ingestion window."""
    report = runtime().application(None).handle(Ingest())
    if report.found_nothing:
        # Nothing staged, waiting, failed or running: a window every 5 minutes that publishes
        # zeros would keep each of its metrics billed every hour of an idle month ($0.30
        # each). The alarms on them treat missing data as not breaching.
        logger.debug("ingestion window: nothing to ingest")
        return dict(to_json(report))
    count("FactsIngested", report.facts_ingested)
    # Gauges (one value a window): the backlog, and the facts whose documents keep failing.
    count("FactsAwaitingIngestion", report.facts_waiting)
    count("FactsIngestionStuck", report.facts_stuck)
    # Documents a COMPLETE job could not index: their facts stay on the fast path and retry.
    count("KbDocumentsFailed", report.documents_failed)
    count("KbDocumentsRetried", report.facts_retried)
    count("IngestionBusy", int(report.status == "busy"))
    count("IngestionJobsStarted", int(report.status not in ("busy", "idle")))
    count("IngestionJobsFailed", len(report.jobs_failed))
    if report.jobs_failed:
        logger.warning("ingestion job failed", job_ids=sorted(report.jobs_failed))
    if report.documents_failed or report.facts_stuck:
        logger.warning(
            "kb documents failed to ingest",
            documents_failed=report.documents_failed,
            retried=report.facts_retried,
            stuck=report.facts_stuck,
        )
    logger.info("ingestion window", **to_json(report))
    return dict(to_json(report))


def decay_pass(_: Any) -> dict[str, Any]:
    """The nightly forgetting pass."""
    app = runtime().application(None)
    report = app.handle(Decay())
    count("FailedEpisodesDeleted", report.failed_episodes_deleted)
    count("PendingFactsExpired", report.pending_facts_expired)
    count("ProceduresFlagged", len(report.procedures_flagged))
    logger.info("decay pass", **to_json(report))
    # What memory holds after the pass, as gauges. Failed runs are left to the dead-letter
    # queue's own depth metric: counting them here would Scan the whole ledger.
    stats = app.handle(Stats(count_failed_runs=False))
    for name, value in stats.gauges().items():
        count(name, value)
    logger.info("memory stats", **to_json(stats))
    return dict(to_json(report))
