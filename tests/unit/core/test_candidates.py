"""The first stage of episodic search: choosing the top of many scores, and the projected
prefilter of the nearest centroids."""

import numpy as np
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from agent_memory.core.model.models import Episode
from agent_memory.core.retrieval import episode_index, vectors
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from agent_memory.core.retrieval.selection import top_positions

DIM = 64
MODEL = "test-model"


@given(
    n=st.integers(min_value=1, max_value=6_000),
    count=st.integers(min_value=1, max_value=40),
    seed=st.integers(min_value=0, max_value=2**16),
    levels=st.sampled_from([None, 5]),
)
@example(n=10_000, count=64, seed=1, levels=None)  # chosen by group maxima first
@example(n=10_007, count=32, seed=2, levels=5)  # with a remainder, and ties
def test_the_top_positions_are_those_of_a_full_sort(
    n: int, count: int, seed: int, levels: int | None
) -> None:
    # Given scores, with many ties or none, and a count no larger than them
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal(n).astype(np.float32)
    if levels:
        scores = np.round(scores * levels).astype(np.float32)
    count = min(count, n)
    # When the top positions are chosen
    top = top_positions(scores, count)
    # Then there are exactly ``count`` distinct ones, holding the ``count`` highest scores
    assert len(set(top.tolist())) == count
    assert np.array_equal(np.sort(scores[top]), np.sort(scores)[n - count :])


def centroid_episodes(matrix: np.ndarray) -> list[Episode]:
    return [
        Episode(
            tenant_id="t",
            agent_id="a",
            run_id=f"r{i}",
            task="x",
            task_summary="x",
            outcome="COMPLETED",
            created_at=float(i),
            expires_at=1e12 if i % 7 else 5.0,
            embedding=vectors.encode(row, MODEL, encoding="float32"),
        )
        for i, row in enumerate(matrix)
    ]


def test_the_projected_prefilter_keeps_the_exact_nearest_of_data_in_its_subspace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Given more episodes than the projection threshold, whose vectors span fewer dimensions
    # than the projection keeps (so nothing is lost by projecting), every 7th expired
    monkeypatch.setattr(episode_index, "PROJECT_ABOVE", 100)
    rng = np.random.default_rng(3)
    basis = np.linalg.qr(rng.standard_normal((DIM, DIM // 4)))[0]
    matrix = (rng.standard_normal((1_000, DIM // 4)) @ basis.T).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    index = EpisodeIndex(centroid_episodes(matrix), MODEL, DIM)
    assert index.projection is not None
    alive = index.expires_at > 10.0
    for _ in range(20):
        query = (basis @ rng.standard_normal(DIM // 4)).astype(np.float32)
        query /= np.linalg.norm(query)
        # When the nearest live episodes are chosen through the projection
        nearest = index._nearest(query, alive, 8)
        # Then they are the exact nearest live ones, nearest first
        exact = np.where(alive, index.episode_matrix @ query, -np.inf)
        assert nearest.tolist() == np.argsort(-exact, kind="stable")[:8].tolist()


def test_small_indexes_keep_no_projection() -> None:
    matrix = np.eye(DIM, dtype=np.float32)[:10]
    assert EpisodeIndex(centroid_episodes(matrix), MODEL, DIM).projection is None
