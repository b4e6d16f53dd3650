from pathlib import Path

import numpy as np

from agent_memory.core.model.models import Episode
from agent_memory.core.retrieval.episode_index import EpisodeIndex
from agent_memory.core.retrieval.index_rows import episode_key
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, make_memory, run_event


def episodes_of(memory: Memory) -> list[Episode]:
    return list(memory.ports.episodes.export("acme"))


def build(
    memory: Memory, episodes: list[Episode], reuse: EpisodeIndex | None = None
) -> EpisodeIndex:
    embedder = memory.ports.embedder
    return EpisodeIndex(episodes, embedder.model_id, embedder.dimension, reuse=reuse)


def searched(index: EpisodeIndex, memory: Memory, text: str) -> list[tuple[object, ...]]:
    query = memory.ports.embedder.embed_query(text)
    found = index.search(text, query, now=memory.clock(), top_episodes=5, top_units=10)
    return [
        (h.episode.run_id, h.score, [(u.unit.seq, u.score) for u in h.units])
        for h in found.episodes
    ] + [(u.run_id, u.unit.seq, u.score) for u in found.units]


def seeded(tmp_path: Path) -> Memory:
    memory = make_memory(tmp_path, stores="memory")
    tasks = [
        "Review the vendor MSA liability cap",
        "Check the DPA breach terms",
        "Audit renewal notices",
    ]
    for number, task in enumerate(tasks):
        consolidate(run_event(f"run-{number}", task=task), memory.ports)
    return memory


def test_an_index_built_on_the_last_one_is_the_index_built_afresh(tmp_path: Path):
    # Given an agent's index, then one more run and one run deleted
    memory = seeded(tmp_path)
    before = build(memory, episodes_of(memory))
    consolidate(run_event("run-9", task="Review the reseller agreement cap"), memory.ports)
    memory.ports.episodes.delete("acme", "reviewer", "run-1")
    episodes = episodes_of(memory)
    # When the next index is built on the last one, and another from nothing
    reused = build(memory, episodes, reuse=before)
    afresh = build(memory, episodes)
    # Then both hold the same rows and vectors, and rank every query the same, score for score
    assert reused.units == afresh.units
    assert np.array_equal(reused.unit_matrix, afresh.unit_matrix)
    assert np.array_equal(reused.episode_matrix, afresh.episode_matrix)
    for text in ("liability cap", "breach terms of the DPA", "reseller", "renewal audit"):
        assert searched(reused, memory, text) == searched(afresh, memory, text)


def test_only_the_new_episode_is_prepared_again(tmp_path: Path):
    memory = seeded(tmp_path)
    before = build(memory, episodes_of(memory))
    consolidate(run_event("run-9"), memory.ports)
    after = build(memory, episodes_of(memory), reuse=before)
    kept = {k for k in before.prepared if k in after.prepared}
    assert len(kept) == 3
    # The term arrays of kept episodes are the very arrays the last index prepared
    assert all(after.prepared[k].own is before.prepared[k].own for k in kept)
    new = [e for e in episodes_of(memory) if e.run_id == "run-9"]
    assert episode_key(new[0]) in after.prepared and episode_key(new[0]) not in before.prepared


def test_rows_are_never_reused_across_embedding_models(tmp_path: Path):
    memory = seeded(tmp_path)
    embedder = memory.ports.embedder
    other = EpisodeIndex(episodes_of(memory), "another-model", embedder.dimension)
    assert not other.reusable_for(embedder.model_id, embedder.dimension)
    rebuilt = build(memory, episodes_of(memory), reuse=other)
    assert not any(rebuilt.prepared[k].own is other.prepared[k].own for k in rebuilt.prepared)
