"""What each Lambda does between parsing its event and replying: one core call, plus metrics.

Handlers (``functions/<name>/handler.py``) are decorators and one call into this module.
Tenant data is reached only through credentials narrowed to the event's tenant. Metrics go to
the ``AgentMemory`` namespace under the ``service`` dimension (Powertools' default); the
dashboard and alarms of ``stacks/observability.py`` read them by these names.
"""

from __future__ import annotations

import json
from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.api.contracts import StepStateModel
from agent_memory.core.api.json_input import check_document
from agent_memory.core.api.review_request import ReviewRequest
from agent_memory.core.model.records import to_json
from agent_memory.core.workflows import consolidation
from agent_memory.core.workflows.bootstrap import BootstrapRequestModel, bootstrap
from agent_memory.core.workflows.decay import decay
from agent_memory.core.workflows.episodes import parse_episode_request, run_episode_request
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.review import run_review
from agent_memory.core.workflows.run_state import (
    FactResults,
    RunState,
    state_from_json,
    state_to_json,
)
from agent_memory.core.workflows.stats import memory_stats
from agent_memory.serverless import caller_tenancy
from agent_memory.serverless.observability import logger, metrics
from agent_memory.serverless.parsing import parse_model, parse_run_finished_event
from agent_memory.wiring.aws import runtime

State = dict[str, Any]


def _count(name: str, value: float) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def _milliseconds(name: str, value: float) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Milliseconds, value=value)


def _step_state(event: Any) -> RunState:
    """The step's input: validated as the state machine's state, read into a RunState."""
    model = parse_model(event, StepStateModel)
    logger.append_keys(tenant_id=model.run.tenant_id, run_id=model.run.run_id)
    return state_from_json(event)


def extract(event: Any) -> State:
    """Validate a RunFinished event and distil the run (no write happens here)."""
    run = parse_run_finished_event(event)
    logger.append_keys(tenant_id=run.tenant_id, run_id=run.run_id)
    caller_tenancy.check_source(runtime(), event, run.tenant_id)
    state = consolidation.extract_run(run, runtime().ports(run.tenant_id))
    _count("RunsReceived", 1)
    logger.info("run extracted", extracted_by=state.extracted_by)
    return state_to_json(state)


def scrub(event: Any) -> State:
    """Remove PII from every field, as read (fails closed)."""
    state = _step_state(event)
    result = consolidation.scrub(state, runtime().ports(state.run.tenant_id))
    _count("PiiEntitiesScrubbed", sum((result.pii_entities or {}).values()))
    return state_to_json(result)


def write_episode(event: Any) -> State:
    """Store the run's episode once."""
    state = _step_state(event)
    result = consolidation.write_episode(state, runtime().ports(state.run.tenant_id))
    _count("EpisodesWritten", int(bool(result.episode_written)))
    return state_to_json(result)


def confirm_facts(event: Any) -> State:
    """Log the run's facts and promote those confirmed by enough independent runs."""
    state = _step_state(event)
    result = consolidation.confirm_facts(state, runtime().ports(state.run.tenant_id))
    facts = result.facts or FactResults()
    _count("FactsObserved", len(facts.observed))
    _count("FactsConfirmed", len(facts.newly_confirmed))
    _count("FactsContested", len(facts.contested))
    if facts.newly_confirmed:
        logger.info("facts confirmed", fact_hashes=list(facts.newly_confirmed))
    return state_to_json(result)


def stage_kb_docs(event: Any) -> State:
    """Write KB documents of newly confirmed facts (ingestion is batched elsewhere)."""
    state = _step_state(event)
    result = consolidation.stage_kb_docs(state, runtime().ports(state.run.tenant_id))
    _count("KbDocumentsStaged", len(result.kb_staged or ()))
    return state_to_json(result)


def propose_procedure(event: Any) -> State:
    """Propose the run's procedure and count its procedure feedback."""
    state = _step_state(event)
    result = consolidation.propose_procedure(state, runtime().ports(state.run.tenant_id))
    procedure = result.procedure
    _count("ProceduresProposed", int(bool(procedure and procedure.created)))
    feedback = procedure.feedback if procedure else None
    _count("ProcedureFeedbackCounted", int(bool(feedback and feedback.counted)))
    logger.info("run consolidated", **consolidation.summary(result))
    return state_to_json(result)


# The dead-letter message carries this much of the error's cause (Step Functions allows 32,768
# characters); the failed-run record keeps all of it.
MAX_MESSAGE_CAUSE_CHARS = 4_096


def record_failure(event: Any) -> State:
    """Keep a failed run replayable and return the (small) dead-letter message.

    The state machine sends the error and the execution's ARN, never the run's event (which
    may be near Step Functions' 256 KiB state limit already): the event is read back from the
    execution itself. So does the rule for executions that ended without their Catch
    (timed out, aborted, failed); an execution already recorded counts once. A payload that
    carries ``event`` (the local pipeline's form) is kept as it is.
    """
    payload = dict(event) if isinstance(event, dict) else {"error": event}
    if "event" not in payload and payload.get("execution"):
        payload["event"] = _execution_input(str(payload["execution"]))
    ports = runtime().ports(None)
    record = consolidation.record_failure(payload, ports)
    if not record.get("repeated"):
        _count("ConsolidationFailures", 1)
        logger.warning("run failed", key=record["key"], error=record.get("error"))
    identity = ports.run_ledger.identify(record["key"])
    if identity is None:
        raise RuntimeError(f"{record['key']!r} names no run: record_failure keeps none there")
    return failure_message(record, identity)


def failure_message(record: State, identity: tuple[str, str | None, str]) -> State:
    """What a dead-letter message says of a failed-run record (named ``identity``): enough
    to find and replay it.
    """
    error = dict(record.get("error") or {})
    if isinstance(error.get("Cause"), str):
        error["Cause"] = error["Cause"][:MAX_MESSAGE_CAUSE_CHARS]
    tenant_id, agent_id, run_id = identity
    return {
        "key": record["key"],
        "tenant_id": tenant_id,
        "agent_id": agent_id,
        "run_id": run_id,
        "failures": record["failures"],
        "execution": record.get("execution"),
        "error": error,
    }


def _execution_input(execution_arn: str) -> Any:
    """The input of execution ``execution_arn`` (Standard workflows keep it 90 days)."""
    described = runtime().client("stepfunctions").describe_execution(executionArn=execution_arn)
    return json.loads(described["input"]) if described.get("input") else None


def bootstrap_reply(event: Any) -> BootstrapReply:
    """The memory context for a run about to start, with per-tier hits and timings."""
    event, proof = caller_tenancy.split_proof(event)
    model = parse_model(event, BootstrapRequestModel)
    logger.append_keys(tenant_id=model.tenant_id, agent_id=model.agent_id)
    caller_tenancy.check_caller(runtime(), proof, model.tenant_id)
    reply = bootstrap(model.request(), runtime().ports(model.tenant_id))
    _retrieval_metrics(reply)
    return reply


def _retrieval_metrics(reply: BootstrapReply) -> None:
    """Per tier: hits, best score (a procedure's success rate), latency; empty contexts."""
    # An episode's best score is its similarity to the task, a fact's its retrieval score.
    episodic = [e["similarity"] for e in reply["episodes"]]
    semantic = [f["score"] for f in reply["facts"]]
    for tier, scores in (("Episodic", episodic), ("Semantic", semantic)):
        _count(f"{tier}Hits", len(scores))
        if scores:
            metrics.add_metric(name=f"{tier}BestScore", unit=MetricUnit.NoUnit, value=max(scores))
    _count("SemanticFastPathHits", sum(f["source"] == "fast_path" for f in reply["facts"]))
    procedure = reply["procedure"]
    _count("ProceduralHits", int(procedure is not None))
    if procedure is not None and procedure["success_rate"] is not None:
        rate = 100 * procedure["success_rate"]
        metrics.add_metric(name="ProceduralSuccessRate", unit=MetricUnit.Percent, value=rate)
    _count("EmptyRetrievals", int(not reply["context"]))
    timings = reply["timings_ms"]
    _milliseconds("BootstrapLatency", timings["total"])
    for tier in ("episodic", "semantic", "procedural"):
        _milliseconds(f"{tier.title()}Latency", timings[tier])
    if reply.get("episodes_ranked_by") is not None:
        _milliseconds("RerankLatency", timings["rerank"])


def episodes(event: Any) -> State:
    """Read, list or forget one agent's episodes, or name the tenant's agents, for the caller's
    tenant (checked as bootstrap checks it).
    """
    # Held to what JSON could carry first, as every parsed request is (a million keys, say).
    check_document(event, max_bytes=None)
    event, proof = caller_tenancy.split_proof(event)
    request = parse_episode_request(event)
    logger.append_keys(tenant_id=request.tenant_id, agent_id=request.agent_id)
    caller_tenancy.check_caller(runtime(), proof, request.tenant_id)
    reply = run_episode_request(request, runtime().ports(request.tenant_id))
    _count("EpisodesForgotten", int(bool(reply.get("forgotten"))))
    logger.info("episode request", action=request.action, run_id=request.run_id)
    return reply


def ingest(_: Any) -> State:
    """One batched KB ingestion window."""
    ports = runtime().ports(None)
    report = run_ingestion(ports.facts, ports.knowledge_base, ports.checkpoints, now=ports.clock())
    _count("FactsIngested", report.facts_ingested)
    # Gauges (one value a window): the backlog, and the facts whose documents keep failing.
    _count("FactsAwaitingIngestion", report.facts_waiting)
    _count("FactsIngestionStuck", report.facts_stuck)
    # Documents a COMPLETE job could not index: their facts stay on the fast path and retry.
    _count("KbDocumentsFailed", report.documents_failed)
    _count("KbDocumentsRetried", report.facts_retried)
    _count("IngestionBusy", int(report.status == "busy"))
    _count("IngestionJobsStarted", int(report.status not in ("busy", "idle")))
    _count("IngestionJobsFailed", len(report.jobs_failed))
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


def decay_pass(_: Any) -> State:
    """The nightly forgetting pass."""
    ports = runtime().ports(None)
    report = decay(
        ports.episodes,
        ports.facts,
        ports.procedures,
        ports.run_ledger,
        ports.checkpoints,
        now=ports.clock(),
        policy=ports.policies.decay,
    )
    _count("FailedEpisodesDeleted", report.failed_episodes_deleted)
    _count("PendingFactsExpired", report.pending_facts_expired)
    _count("ProceduresFlagged", len(report.procedures_flagged))
    logger.info("decay pass", **to_json(report))
    # What memory holds after the pass, as gauges. Failed runs are left to the dead-letter
    # queue's own depth metric: counting them here would Scan the whole ledger.
    stats = memory_stats(ports, now=ports.clock(), count_failed_runs=False)
    for name, value in stats.gauges().items():
        _count(name, value)
    logger.info("memory stats", **to_json(stats))
    return dict(to_json(report))


def review(event: Any) -> State:
    """Approve or reject a procedure (the human gate), or list a tenant's procedures."""
    request = parse_model(event, ReviewRequest)
    logger.append_keys(tenant_id=request.tenant_id)
    result = run_review(request, runtime().ports(request.tenant_id))
    _count(f"ProceduresReview{request.action.title()}", 1)
    logger.info("procedure review", action=request.action, procedure_id=request.procedure_id)
    return result
