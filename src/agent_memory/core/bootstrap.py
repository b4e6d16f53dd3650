"""The read path: one memory-context block for a run about to start."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import StringConstraints

from agent_memory.core import episodic, procedural, reranking, semantic
from agent_memory.core.contracts import (
    MAX_TASK_CHARS,
    NOT_BLANK,
    Identifier,
    StrictModel,
    validate,
)
from agent_memory.core.episode_index import EpisodeHit, SearchResult
from agent_memory.core.errors import InvalidInput
from agent_memory.core.markers import CONTEXT_END, CONTEXT_START
from agent_memory.core.models import Procedure
from agent_memory.core.ports import FloatArray, MemoryPorts
from agent_memory.core.scrubbing import query_form

T = TypeVar("T")

_shared_pool: ThreadPoolExecutor | None = None


def _pool() -> ThreadPoolExecutor:
    global _shared_pool
    if _shared_pool is None:
        _shared_pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="bootstrap")
    return _shared_pool


class BootstrapRequestModel(StrictModel):
    """The bootstrap request: who is starting which task."""

    tenant_id: Identifier
    agent_id: Identifier
    task: Annotated[str, StringConstraints(pattern=NOT_BLANK)]
    task_type: Identifier | None = None
    domain: Identifier | None = None


@dataclass(frozen=True, slots=True)
class BootstrapRequest:
    """A validated bootstrap request."""

    tenant_id: str
    agent_id: str
    task: str
    task_type: str | None = None
    domain: str | None = None


def parse_bootstrap_request(data: object) -> BootstrapRequest:
    """Validate a request; raises :class:`InvalidInput` naming the offending field."""
    if not isinstance(data, dict):
        raise InvalidInput("request", "must be a JSON object")
    model = validate(BootstrapRequestModel, data)
    # A long task is cut, not refused: the query only needs its gist.
    return BootstrapRequest(
        model.tenant_id, model.agent_id, model.task[:MAX_TASK_CHARS], model.task_type, model.domain
    )


def bootstrap(
    request: BootstrapRequest, ports: MemoryPorts, *, executor: Executor | None = None
) -> dict[str, Any]:
    """Retrieve all three tiers and assemble the memory context.

    The procedural lookup needs no embedding, so it starts at once; the episodic and semantic
    lookups start as soon as the task is embedded. The reply carries the context block, what
    each tier found, and how long each took (milliseconds).
    """
    pool = executor or _pool()
    started = time.perf_counter()
    now = ports.clock()
    procedure_job = pool.submit(_timed, lambda: _procedure(request, ports))
    # Memory stores names as pseudonyms: the query must say them the same way.
    text, query_ms = _timed(
        lambda: query_form(request.task, ports.pii, ports.pseudonyms(request.tenant_id))
    )
    query, embed_ms = _timed(lambda: ports.embedder.embed_query(text))
    episodes_job = pool.submit(_timed, lambda: _episodes(request, ports, text, query, now))
    facts_job = pool.submit(_timed, lambda: _facts(request, ports, text, query))
    found, episodic_ms = episodes_job.result()
    found, rerank_ms = _timed(
        lambda: reranking.rerank(
            found, text, ports.reranker, top_episodes=ports.policies.episodic.top_k
        )
    )
    episodes = list(found.episodes)
    facts, semantic_ms = facts_job.result()
    procedure, procedural_ms = procedure_job.result()
    sections = [
        episodic.format_episodes(episodes),
        semantic.format_facts(facts),
        procedural.format_procedure(procedure, ports.policies.procedural) if procedure else "",
    ]
    body = [s for s in sections if s]
    context = "\n\n".join([CONTEXT_START, *body, CONTEXT_END]) if body else ""
    return {
        "context": context,
        "episodes": [_episode_json(e) for e in episodes],
        "episodes_ranked_by": found.ranked_by,
        "facts": [
            {
                "content": f.content,
                "score": round(f.score, 4),
                "source": f.source,
                "fact_hash": f.fact_hash,
            }
            for f in facts
        ],
        "procedure": (
            procedural.procedure_view(procedure, ports.policies.procedural) if procedure else None
        ),
        "timings_ms": {
            "query": query_ms,
            "embed": embed_ms,
            "episodic": episodic_ms,
            "rerank": rerank_ms,
            "semantic": semantic_ms,
            "procedural": procedural_ms,
            "total": round((time.perf_counter() - started) * 1000, 3),
        },
    }


def _timed(work: Callable[[], T]) -> tuple[T, float]:
    started = time.perf_counter()
    result = work()
    return result, round((time.perf_counter() - started) * 1000, 3)


def _episodes(
    request: BootstrapRequest, ports: MemoryPorts, text: str, query: FloatArray, now: float
) -> SearchResult:
    policy = ports.policies.episodic
    index = ports.episode_index.index(
        ports.episodes,
        ports.embedder,
        request.tenant_id,
        request.agent_id,
        now=now,
        policy=policy,
    )
    return index.search(
        text,
        query,
        now=now,
        top_episodes=reranking.pool_size(policy.top_k, policy, ports.reranker),
        units_per_episode=policy.units_per_episode,
        min_similarity=ports.episode_threshold(),
        candidates=policy.rerank_candidates,
    )


def _facts(
    request: BootstrapRequest, ports: MemoryPorts, text: str, query: FloatArray
) -> list[semantic.ScoredFact]:
    return semantic.retrieve_facts(
        ports.knowledge_base,
        ports.facts,
        tenant_id=request.tenant_id,
        domain=request.domain,
        task=text,
        query=query,
        model_id=ports.embedder.model_id,
        min_score=ports.fact_threshold(),
        top_k=ports.policies.semantic.top_k,
    )


def _procedure(request: BootstrapRequest, ports: MemoryPorts) -> Procedure | None:
    if not request.task_type:
        return None
    candidates = ports.procedures.for_task_type(request.tenant_id, request.task_type)
    return procedural.select_procedure(candidates, ports.policies.procedural)


def _episode_json(hit: EpisodeHit) -> dict[str, Any]:
    e = hit.episode
    return {
        "run_id": e.run_id,
        "task_summary": e.task_summary,
        "outcome": e.outcome,
        "similarity": round(hit.similarity, 4),
        "score": round(hit.score, 6),
        "created_at": e.created_at,
        "key_findings": list(e.key_findings),
        "reusable_patterns": list(e.reusable_patterns),
        "units": [
            {
                "kind": u.unit.kind,
                "seq": u.unit.seq,
                "speaker": u.unit.speaker,
                "text": u.unit.text,
                "score": round(u.score, 6),
            }
            for u in hit.units
        ],
    }
