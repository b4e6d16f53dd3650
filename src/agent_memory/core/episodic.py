"""Episodic memory: distilled past runs, found again by embedding similarity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from agent_memory.core import vectors
from agent_memory.core.markers import EPISODIC, neutralize
from agent_memory.core.models import Episode, RunArtifacts, RunFinished
from agent_memory.core.policies import DAY, EpisodicPolicy
from agent_memory.core.ports import Embedder, EpisodeStore, FloatArray

# Similarities equal to this many decimals are ties; COMPLETED runs win them.
_TIE_DECIMALS = 4


@dataclass(frozen=True, slots=True)
class ScoredEpisode:
    """An episode with its similarity to the current task."""

    episode: Episode
    similarity: float


def episode_text(artifacts: RunArtifacts) -> str:
    """What an episode is embedded from: its summary and its findings."""
    return " ".join([artifacts.task_summary, *artifacts.key_findings]).strip()


def build_episode(
    run: RunFinished,
    artifacts: RunArtifacts,
    embedding: FloatArray,
    model_id: str,
    *,
    now: float,
    policy: EpisodicPolicy = EpisodicPolicy(),
) -> Episode:
    """The episode record of a run; it expires ``retention_days`` after the run finished."""
    created = run.finished_at or now
    return Episode(
        tenant_id=run.tenant_id,
        agent_id=run.agent_id,
        run_id=run.run_id,
        task=run.task,
        task_type=run.task_type,
        domain=run.domain,
        task_summary=artifacts.task_summary,
        outcome=artifacts.outcome,
        key_findings=artifacts.key_findings,
        approach_used=artifacts.approach_used,
        tools_used=artifacts.tools_used,
        reusable_patterns=artifacts.reusable_patterns,
        embedding=vectors.encode(embedding, model_id),
        created_at=created,
        expires_at=created + policy.retention_days * DAY,
    )


def recent_episodes(
    store: EpisodeStore, tenant_id: str, agent_id: str, *, now: float, policy: EpisodicPolicy
) -> list[Episode]:
    """The agent's newest unexpired episodes, at most ``policy.candidates``, across pages."""
    episodes: list[Episode] = []
    cursor: str | None = None
    while len(episodes) < policy.candidates:
        page = store.recent(
            tenant_id,
            agent_id,
            now=now,
            limit=min(policy.page_size, policy.candidates - len(episodes)),
            cursor=cursor,
        )
        episodes.extend(page.items)
        cursor = page.cursor
        if cursor is None:
            break
    return episodes


def rank_episodes(
    episodes: list[Episode],
    query: FloatArray,
    embedder: Embedder,
    *,
    min_similarity: float,
    top_k: int,
) -> list[ScoredEpisode]:
    """The ``top_k`` episodes at or above ``min_similarity``, best first.

    One matrix-vector product ranks every candidate; episodes embedded by another model are
    skipped, never compared. Near-equal similarities are ties, and a COMPLETED run wins a tie,
    then the newer run.
    """
    if not episodes:
        return []
    matrix, usable = vectors.stack(
        [e.embedding for e in episodes], embedder.model_id, embedder.dimension
    )
    scores = matrix @ np.asarray(query, dtype=np.float32)
    candidates = np.flatnonzero(usable & (scores >= min_similarity))
    ranked = sorted(
        candidates.tolist(),
        key=lambda i: (
            -round(float(scores[i]), _TIE_DECIMALS),
            episodes[i].outcome != "COMPLETED",
            -episodes[i].created_at,
        ),
    )
    return [ScoredEpisode(episodes[i], float(scores[i])) for i in ranked[:top_k]]


def format_episodes(scored: list[ScoredEpisode]) -> str:
    """The episodic section of the memory context ("" when nothing was found)."""
    if not scored:
        return ""
    lines = [EPISODIC]
    for item in scored:
        episode = item.episode
        lines.append(f"Task: {neutralize(episode.task_summary or episode.task)}")
        lines.append(f"Outcome: {episode.outcome} (similarity {item.similarity:.2f})")
        if episode.approach_used:
            lines.append(f"Approach: {neutralize(episode.approach_used)}")
        if episode.key_findings:
            lines.append("Key findings:")
            lines.extend(f"  - {neutralize(finding)}" for finding in episode.key_findings)
        if episode.reusable_patterns:
            lines.append("Patterns that worked:")
            lines.extend(f"  - {neutralize(pattern)}" for pattern in episode.reusable_patterns)
        lines.append("")
    return "\n".join(lines).rstrip()
