"""Searching an agent's episodic memory directly: ranked episodes and units, not a context block."""

from __future__ import annotations

from agent_memory.core.model.models import SearchResult
from agent_memory.core.model.scope import AGENT_SCOPE, Scope
from agent_memory.core.ports import FloatArray, MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval.reranking import pool_size, rerank


def search_episodes(
    ports: MemoryPorts,
    tenant_id: str,
    agent_id: str,
    text: str,
    *,
    top_episodes: int,
    top_units: int = 10,
    now: float | None = None,
    query: FloatArray | None = None,
    min_similarity: float | None = None,
    scope: Scope = AGENT_SCOPE,
) -> SearchResult:
    """The agent's episodes and units best matching ``text``, best first.

    Unlike bootstrap, no similarity threshold applies unless ``min_similarity`` is given (with
    the policy's ``min_word_share`` beside it, as in bootstrap), so the full ranking can be
    evaluated. Names in ``text`` are matched through the same pseudonyms as stored memory.
    ``query`` may carry the embedding of that form of ``text``. With a reranker configured, it
    orders the result (``SearchResult.ranked_by``). ``scope`` widens the search to a team's or
    the tenant's episodes (each keeps its author).
    """
    moment = ports.clock() if now is None else now
    text = query_form(text, ports.pii, pseudonyms_for(ports.pseudonym_key, tenant_id))
    vector = ports.embedder.embed_query(text) if query is None else query
    policy = ports.policies.episodic
    index = ports.episode_indexes.index(
        ports.episodes,
        ports.embedder,
        tenant_id,
        agent_id,
        now=moment,
        policy=policy,
        scope=scope,
    )
    found = index.search(
        text,
        vector,
        now=moment,
        top_episodes=pool_size(top_episodes, policy, ports.reranker),
        top_units=top_units,
        units_per_episode=policy.units_per_episode,
        min_similarity=min_similarity,
        candidates=policy.rerank_candidates,
        min_word_share=policy.min_word_share,
    )
    return rerank(found, text, ports.reranker, top_episodes=top_episodes)
