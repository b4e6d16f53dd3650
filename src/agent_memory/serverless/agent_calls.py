"""The functions agents call: bootstrap (and search), single episodes and procedure review.

Each parses its request once, checks the caller's tenant, hands the application one message
and replies.
"""

from __future__ import annotations

from typing import Any

from aws_lambda_powertools.metrics import MetricUnit

from agent_memory.app.messages import Bootstrap, ForgetRun
from agent_memory.app.wire import (
    FactRepair,
    episode_message,
    flag_message,
    is_flag,
    is_search,
    reply_json,
    review_message,
    search_message,
)
from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.api.bootstrap_request import BootstrapRequestModel
from agent_memory.core.api.episode_search import EpisodeSearch
from agent_memory.core.api.json_input import check_document
from agent_memory.serverless import caller_tenancy
from agent_memory.serverless.metrics import count, milliseconds
from agent_memory.serverless.observability import logger, metrics
from agent_memory.serverless.parsing import parse_model
from agent_memory.wiring.aws import runtime


def bootstrap_reply(event: Any) -> BootstrapReply | EpisodeSearch | dict[str, Any]:
    """The memory context for a run about to start, with per-tier hits and timings; or, asked
    with ``"action": "search"``, the ranked episodes of a search (the same reads, the same
    grants, the same kept index); or, with ``"action": "flag"``, the agent's flag on an item
    it was served (kept; the item is not served to it again until a person decides).
    """
    event, proof = caller_tenancy.split_proof(event)
    if is_search(event):
        return _search(event, proof)
    if is_flag(event):
        return _flag(event, proof)
    model = parse_model(event, BootstrapRequestModel)
    logger.append_keys(tenant_id=model.tenant_id, agent_id=model.agent_id)
    caller_tenancy.check_caller(runtime(), proof, model.tenant_id)
    reply = runtime().application(model.tenant_id).handle(Bootstrap(model.request()))
    _retrieval_metrics(reply)
    return reply


def _search(event: dict[str, Any], proof: object) -> EpisodeSearch:
    check_document(event, max_bytes=None)
    message = search_message(event)
    logger.append_keys(tenant_id=message.tenant_id, agent_id=message.agent_id)
    caller_tenancy.check_caller(runtime(), proof, message.tenant_id)
    found = runtime().application(message.tenant_id).handle(message)
    count("EpisodeSearches", 1)
    return found


def _flag(event: dict[str, Any], proof: object) -> dict[str, Any]:
    check_document(event, max_bytes=None)
    message = flag_message(event)
    logger.append_keys(tenant_id=message.tenant_id, agent_id=message.agent_id)
    caller_tenancy.check_caller(runtime(), proof, message.tenant_id)
    flagged = runtime().application(message.tenant_id).handle(message)
    count("MemoryFlagged", 1)
    logger.info("memory flagged", kind=flagged["kind"], flag_id=flagged["flag_id"])
    return reply_json(message, flagged)


def _retrieval_metrics(reply: BootstrapReply) -> None:
    """Per tier: hits, best score (a procedure's success rate), latency; empty contexts."""
    # An episode's best score is its similarity to the task, a fact's its retrieval score.
    episodic = [e["similarity"] for e in reply["episodes"]]
    semantic = [f["score"] for f in reply["facts"]]
    for tier, scores in (("Episodic", episodic), ("Semantic", semantic)):
        count(f"{tier}Hits", len(scores))
        if scores:
            metrics.add_metric(name=f"{tier}BestScore", unit=MetricUnit.NoUnit, value=max(scores))
    count("SemanticFastPathHits", sum(f["source"] == "fast_path" for f in reply["facts"]))
    procedure = reply["procedure"]
    count("ProceduralHits", int(procedure is not None))
    if procedure is not None and procedure["success_rate"] is not None:
        rate = 100 * procedure["success_rate"]
        metrics.add_metric(name="ProceduralSuccessRate", unit=MetricUnit.Percent, value=rate)
    count("EmptyRetrievals", int(not reply["context"]))
    timings = reply["timings_ms"]
    milliseconds("BootstrapLatency", timings["total"])
    for tier in ("episodic", "semantic", "procedural"):
        milliseconds(f"{tier.title()}Latency", timings[tier])
    if reply.get("episodes_ranked_by") is not None:
        milliseconds("RerankLatency", timings["rerank"])


def episodes(event: Any) -> dict[str, Any]:
    """Read, list or forget one agent's episodes, or name the tenant's agents, for the caller's
    tenant (checked as bootstrap checks it).
    """
    # Held to what JSON could carry first, as every parsed request is (a million keys, say).
    check_document(event, max_bytes=None)
    event, proof = caller_tenancy.split_proof(event)
    message = episode_message(event)
    logger.append_keys(tenant_id=message.tenant_id, agent_id=getattr(message, "agent_id", None))
    caller_tenancy.check_caller(runtime(), proof, message.tenant_id)
    answer = runtime().application(message.tenant_id).handle(message)
    count("EpisodesForgotten", int(isinstance(message, ForgetRun) and bool(answer)))
    logger.info(
        "episode request", action=event.get("action"), run_id=getattr(message, "run_id", None)
    )
    return reply_json(message, answer)


def review(event: Any) -> dict[str, Any]:
    """Approve or reject a procedure (the human gate), or list or show a tenant's procedures;
    retract, correct or assert a fact (an operator's repair).
    """
    check_document(event, max_bytes=None)
    message = review_message(event)
    logger.append_keys(tenant_id=message.tenant_id)
    answer = runtime().application(message.tenant_id).handle(message)
    action = str(event["action"])
    if isinstance(message, FactRepair):
        count(f"Facts{action.title()}", 1)
        logger.info("fact repaired", action=action, fact_hash=getattr(message, "fact_hash", None))
        return reply_json(message, answer)
    count(f"ProceduresReview{action.title()}", 1)
    procedure_id = getattr(message, "procedure_id", None)
    logger.info("procedure review", action=action, procedure_id=procedure_id)
    return reply_json(message, answer)
