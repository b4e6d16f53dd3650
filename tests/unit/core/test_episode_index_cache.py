from pathlib import Path

import pytest

from agent_memory.core.consolidation import consolidate
from agent_memory.core.episode_index import EpisodeIndex, EpisodeIndexCache
from agent_memory.core.policies import EpisodicPolicy
from tests.support.memory import Memory, make_memory, run_event

POLICY = EpisodicPolicy()


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    memory = make_memory(tmp_path)
    for agent in ("a1", "a2", "a3"):
        for run in range(3):
            consolidate(run_event(f"{agent}-run-{run}", agent_id=agent), memory.ports)
    return memory


def index_of(cache: EpisodeIndexCache, memory: Memory, agent: str) -> EpisodeIndex:
    ports = memory.ports
    return cache.index(
        ports.episodes, ports.embedder, "acme", agent, now=memory.clock(), policy=POLICY
    )


def test_an_unchanged_agent_gets_the_same_index_and_a_new_episode_a_new_one(memory: Memory):
    cache = EpisodeIndexCache()
    # Given an agent's index, built once
    first = index_of(cache, memory, "a1")
    # When nothing changed, then the same index is served
    assert index_of(cache, memory, "a1") is first
    # When a run of the agent is consolidated, then the index is rebuilt with it
    consolidate(run_event("a1-run-9", agent_id="a1"), memory.ports)
    rebuilt = index_of(cache, memory, "a1")
    assert rebuilt is not first
    assert len(rebuilt.episodes) == len(first.episodes) + 1
    # And the episodes it already had are laid out from the rows the first index prepared
    kept = [key for key in first.prepared if key in rebuilt.prepared]
    assert len(kept) == len(first.episodes)
    assert all(rebuilt.prepared[key].own is first.prepared[key].own for key in kept)


def test_the_cache_keeps_within_its_memory_bound_dropping_the_least_recent(memory: Memory):
    # Given a cache that can hold about two of these indexes
    one = index_of(EpisodeIndexCache(), memory, "a1").nbytes
    cache = EpisodeIndexCache(max_bytes=int(2.5 * one))
    # When three agents are searched, the first one again last
    index_of(cache, memory, "a1")
    second = index_of(cache, memory, "a2")
    index_of(cache, memory, "a3")
    # Then two indexes are held, within the bound, and the least recently used one went
    assert len(cache) == 2
    assert cache.nbytes <= 2.5 * one
    assert index_of(cache, memory, "a2") is second


def test_an_index_larger_than_the_bound_is_still_served_and_kept_alone(memory: Memory):
    cache = EpisodeIndexCache(max_bytes=1)
    index_of(cache, memory, "a1")
    newest = index_of(cache, memory, "a2")
    assert len(cache) == 1
    assert index_of(cache, memory, "a2") is newest


def test_an_index_counts_its_arrays_and_the_episodes_it_holds(memory: Memory):
    index = index_of(EpisodeIndexCache(), memory, "a1")
    arrays = index.unit_matrix.nbytes + index.episode_matrix.nbytes
    texts = sum(len(u.text) for u in index.units if u is not None)
    assert index.nbytes > arrays + texts
