import numpy as np
import pytest

from agent_memory.core import vectors
from agent_memory.core.episodic import rank_episodes
from agent_memory.core.models import Episode
from tests.support.embedder import HashingEmbedder

DIM = 256


def episode(
    run_id: str,
    first: float,
    *,
    outcome: str = "COMPLETED",
    model: str | None = None,
    created_at: float = 0.0,
) -> Episode:
    # A unit vector whose cosine with the query e0 is exactly ``first``.
    v = np.zeros(DIM, dtype=np.float32)
    v[0], v[1] = first, np.sqrt(1 - first * first)
    return Episode(
        tenant_id="t",
        agent_id="a",
        run_id=run_id,
        task="x",
        task_summary="x",
        outcome=outcome,  # type: ignore[arg-type]
        created_at=created_at,
        expires_at=1e12,
        embedding=vectors.encode(v, model or HashingEmbedder().model_id, encoding="float32"),
    )


QUERY = np.eye(DIM, dtype=np.float32)[0]


def ranked(episodes: list[Episode], threshold: float, top_k: int = 3) -> list[str]:
    found = rank_episodes(episodes, QUERY, HashingEmbedder(), min_similarity=threshold, top_k=top_k)
    return [s.episode.run_id for s in found]


def test_threshold_is_inclusive() -> None:
    assert ranked([episode("at", 0.5)], 0.5) == ["at"]
    assert ranked([episode("at", 0.5)], np.nextafter(np.float32(0.5), np.float32(1))) == []


def test_best_first_and_top_k() -> None:
    eps = [episode(f"e{i}", s) for i, s in enumerate((0.6, 0.9, 0.7, 0.8))]
    assert ranked(eps, 0.0, top_k=3) == ["e1", "e3", "e2"]


@pytest.mark.parametrize("newer_outcome", ["FAILED", "PARTIAL", "UNKNOWN"])
def test_completed_wins_a_tie_even_when_older(newer_outcome: str) -> None:
    eps = [
        episode("new", 0.8, outcome=newer_outcome, created_at=10.0),
        episode("old", 0.8, outcome="COMPLETED", created_at=1.0),
    ]
    assert ranked(eps, 0.0) == ["old", "new"]


def test_vectors_of_another_model_are_never_compared() -> None:
    assert ranked([episode("alien", 0.99, model="amazon.titan-embed-text-v2:0")], 0.0) == []
