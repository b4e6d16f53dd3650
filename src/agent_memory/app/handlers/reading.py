"""What memory serves and holds: the bootstrap block, a ranked search, counts."""

from __future__ import annotations

from dataclasses import replace

from agent_memory.app.messages import Bootstrap, SearchEpisodes, Stats
from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.api.episode_search import EpisodeSearch, episode_search
from agent_memory.core.model.time_window import TimeWindow
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.privacy.scrubbing import pseudonyms_for, query_form
from agent_memory.core.retrieval.reranking import rerank
from agent_memory.core.tiers import episodic
from agent_memory.core.workflows import bootstrap as bootstrap_workflow
from agent_memory.core.workflows.flags import flagged_by
from agent_memory.core.workflows.stats import MemoryStats, memory_stats


def bootstrap(message: Bootstrap, ports: MemoryPorts) -> BootstrapReply:
    """One memory-context block for a run about to start, with its hits and timings."""
    return bootstrap_workflow.bootstrap(message.request, ports)


def search_episodes(message: SearchEpisodes, ports: MemoryPorts) -> EpisodeSearch:
    """The scope's episodes and units best matching the text, best first.

    Names in the text are matched through the same pseudonyms as stored memory; with a
    reranker configured, it orders the result (``SearchResult.ranked_by``), as in bootstrap.
    With ``min_similarity``, units come from the episodes returned. Episodes the agent
    flagged (still open) are left out, as bootstrap leaves them out, and so are those created
    outside ``[since, until)`` (an ``until`` not after ``since`` is refused naming ``until``).
    """
    m, window = message, TimeWindow(message.since, message.until)
    moment = ports.clock() if m.as_of is None else m.as_of
    text = query_form(m.text, ports.pii, pseudonyms_for(ports.pseudonym_key, m.tenant_id))
    vector = ports.embedder.embed_query(text) if m.query_vector is None else m.query_vector
    found = episodic.search(
        ports,
        m.tenant_id,
        m.agent_id,
        text,
        vector,
        now=moment,
        scope=m.scope,
        top_episodes=m.top_episodes,
        top_units=m.top_units,
        min_similarity=m.min_similarity,
        excluded=flagged_by(ports, m.tenant_id, m.agent_id).episodes,
        window=window,
    )
    ranked = rerank(found, text, ports.reranker, top_episodes=m.top_episodes)
    if m.min_similarity is not None:
        # The index ranks units over every candidate; under a threshold, only the returned
        # episodes' units are among what passed it.
        kept = {(hit.episode.agent_id, hit.episode.run_id) for hit in ranked.episodes}
        units = tuple(u for u in ranked.units if (u.agent_id, u.run_id) in kept)
        ranked = replace(ranked, units=units)
    return episode_search(ranked, max_bytes=ports.policies.max_reply_bytes)


def stats(message: Stats, ports: MemoryPorts) -> MemoryStats:
    """Counts of what memory holds, for one tenant or every tenant."""
    return memory_stats(
        ports,
        now=ports.clock(),
        tenant_id=message.tenant_id,
        count_failed_runs=message.count_failed_runs,
    )
