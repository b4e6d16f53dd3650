"""Episodic memory: distilled past runs, found again by embedding similarity."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from agent_memory.core.model.markers import EPISODIC, Section
from agent_memory.core.model.models import (
    Episode,
    EpisodeHit,
    EpisodeUnit,
    RunArtifacts,
    RunFinished,
    unit_text,
)
from agent_memory.core.model.policies import DAY, EpisodicPolicy
from agent_memory.core.ports import FloatArray
from agent_memory.core.retrieval import vectors


def episode_text(artifacts: RunArtifacts) -> str:
    """What an episode is embedded from: its summary and its findings."""
    return " ".join([artifacts.task_summary, *artifacts.key_findings]).strip()


def episode_units(messages: Sequence[EpisodeUnit], artifacts: RunArtifacts) -> list[EpisodeUnit]:
    """The episode's units: the run's messages (as kept by extraction), then its findings."""
    units = list(messages)
    units += [EpisodeUnit("finding", i, f) for i, f in enumerate(artifacts.key_findings)]
    return [u for u in units if u.text.strip()]


def embed_units(
    units: list[EpisodeUnit], embeddings: FloatArray, model_id: str
) -> tuple[EpisodeUnit, ...]:
    """The units with their compact vectors attached."""
    return tuple(
        replace(unit, embedding=vectors.encode(vector, model_id))
        for unit, vector in zip(units, embeddings, strict=True)
    )


def build_episode(
    run: RunFinished,
    artifacts: RunArtifacts,
    embedding: FloatArray,
    model_id: str,
    *,
    now: float,
    policy: EpisodicPolicy = EpisodicPolicy(),
    units: tuple[EpisodeUnit, ...] = (),
) -> Episode:
    """The episode record of a run; it expires ``retention_days`` after the run finished."""
    # A finish time in the future would never expire and always rank newest.
    created = min(run.finished_at or now, now)
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
        # Whole seconds: DynamoDB's TTL reads epoch seconds.
        expires_at=float(math.ceil(created + policy.retention_days * DAY)),
        units=units,
    )


def format_episodes(hits: Sequence[EpisodeHit], *, reader: str | None = None) -> Section | None:
    """The episodic section of the memory context (None when nothing was found).

    An episode of another agent than ``reader`` (the agent the context is for) says who
    learned it; the reader's own episodes do not (nor any, when ``reader`` is None).
    """
    if not hits:
        return None
    lines: list[str] = []
    for hit in hits:
        episode = hit.episode
        if lines:
            lines.append("")
        lines.append(f"Task: {episode.task_summary or episode.task}")
        if reader is not None and episode.agent_id != reader:
            lines.append(f"Learned by: {episode.agent_id}")
        lines.append(f"Outcome: {episode.outcome} (similarity {hit.similarity:.2f})")
        if episode.approach_used:
            lines.append(f"Approach: {episode.approach_used}")
        if episode.key_findings:
            lines.append("Key findings:")
            lines.extend(f"  - {finding}" for finding in episode.key_findings)
        if episode.reusable_patterns:
            lines.append("Patterns that worked:")
            lines.extend(f"  - {pattern}" for pattern in episode.reusable_patterns)
        moments = [u.unit for u in hit.units if u.unit.kind == "message"]
        if moments:
            lines.append("Most relevant moments:")
            lines.extend(f"  - {_short(unit_text(u))}" for u in moments)
    return Section(EPISODIC, "relevant past runs", tuple(lines))


def _short(text: str, limit: int = 300) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."
