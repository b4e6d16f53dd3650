"""A stored episode as plain JSON: what reading one episode back answers (every surface alike).

Unlike :class:`~agent_memory.core.api.bootstrap_reply.EpisodeView`, which is a search hit, it
carries every text field of the episode as it was stored (scrubbed of PII), and no score.
"""

# No ``from __future__ import annotations`` here: TypedDict needs evaluated annotations.
from typing import TypedDict

from agent_memory.core.model.models import Episode


class EpisodeRecord(TypedDict):
    """One stored episode of an agent (its vectors left out)."""

    run_id: str
    agent_id: str
    task: str
    task_summary: str
    task_type: str | None
    domain: str | None
    outcome: str
    created_at: float
    expires_at: float
    key_findings: list[str]
    approach_used: str
    tools_used: list[str]
    reusable_patterns: list[str]


class EpisodePage(TypedDict):
    """One page of an agent's episodes, newest first; ``cursor`` is None on the last page."""

    episodes: list[EpisodeRecord]
    cursor: str | None


def episode_record(episode: Episode) -> EpisodeRecord:
    """The episode's JSON form."""
    return {
        "run_id": episode.run_id,
        "agent_id": episode.agent_id,
        "task": episode.task,
        "task_summary": episode.task_summary,
        "task_type": episode.task_type,
        "domain": episode.domain,
        "outcome": str(episode.outcome),
        "created_at": episode.created_at,
        "expires_at": episode.expires_at,
        "key_findings": list(episode.key_findings),
        "approach_used": episode.approach_used,
        "tools_used": list(episode.tools_used),
        "reusable_patterns": list(episode.reusable_patterns),
    }
