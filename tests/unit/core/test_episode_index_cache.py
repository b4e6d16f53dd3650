from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.core.model.models import Episode
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.ports import EpisodeStore
from agent_memory.core.retrieval.episode_index import (
    EpisodeIndex,
    EpisodeIndexCache,
    recent_episodes,
)
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, make_memory, run_event

POLICY = EpisodicPolicy()


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    memory = make_memory(tmp_path, stores="memory")
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


class CountingReads:
    """The agent's store, counting full reads (``recent``), version reads (``version`` and
    ``changes_since``) and changes answered with additions.
    """

    def __init__(self, store: EpisodeStore) -> None:
        self.store = store
        self.full_reads = 0
        self.version_reads = 0
        self.deltas = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def recent(self, *args: Any, **kwargs: Any) -> Any:
        self.full_reads += 1
        return self.store.recent(*args, **kwargs)

    def version(self, *args: Any, **kwargs: Any) -> Any:
        self.version_reads += 1
        return self.store.version(*args, **kwargs)

    def changes_since(self, *args: Any, **kwargs: Any) -> Any:
        self.version_reads += 1
        changes = self.store.changes_since(*args, **kwargs)
        self.deltas += bool(changes.added)
        return changes


def built(cache: EpisodeIndexCache, store: Any, memory: Memory, policy: EpisodicPolicy) -> Any:
    return cache.index(
        store, memory.ports.embedder, "acme", "a1", now=memory.clock(), policy=policy
    )


def stored(memory: Memory, run_id: str) -> Episode:
    found = memory.ports.episodes.get("acme", "a1", run_id, now=memory.clock())
    assert found is not None
    return found


def full_read(memory: Memory, policy: EpisodicPolicy) -> list[str]:
    found = recent_episodes(memory.ports.episodes, "acme", "a1", now=memory.clock(), policy=policy)
    return [e.run_id for e in found]


def test_after_new_runs_only_the_new_episodes_are_read(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingReads(memory.ports.episodes)
    built(cache, store, memory, POLICY)
    assert store.full_reads == 1
    # Given new runs of the agent, one of them older than every episode it has
    consolidate(run_event("a1-run-new", agent_id="a1"), memory.ports)
    memory.ports.episodes.add(replace(stored(memory, "a1-run-0"), run_id="a1-old", created_at=1.0))
    # When its index is asked for again
    index = built(cache, store, memory, POLICY)
    # Then the store was asked only what was added, in one read of the agent's version, and
    # the index holds what a full read gives, in its order
    assert (store.full_reads, store.deltas, store.version_reads) == (1, 1, 2)
    assert [e.run_id for e in index.episodes] == full_read(memory, POLICY)
    assert {"a1-run-new", "a1-old"} <= {e.run_id for e in index.episodes}


def test_a_deleted_episode_makes_the_store_read_again(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingReads(memory.ports.episodes)
    built(cache, store, memory, POLICY)
    # Given one of the agent's episodes deleted, and a new run
    memory.ports.episodes.delete("acme", "a1", "a1-run-1")
    consolidate(run_event("a1-run-new", agent_id="a1"), memory.ports)
    # When its index is asked for again
    index = built(cache, store, memory, POLICY)
    # Then it was read in full, and the deleted episode is gone
    assert store.full_reads == 2
    assert [e.run_id for e in index.episodes] == full_read(memory, POLICY)
    assert "a1-run-1" not in {e.run_id for e in index.episodes}


def test_a_full_window_losing_an_episode_to_expiry_is_read_again(memory: Memory) -> None:
    # Given an index of the agent's newest two episodes (of three), the newest about to expire
    policy = EpisodicPolicy(candidates=2)
    newest = stored(memory, full_read(memory, policy)[0])
    memory.ports.episodes.delete("acme", "a1", newest.run_id)
    memory.ports.episodes.add(replace(newest, expires_at=memory.clock() + 10))
    cache, store = EpisodeIndexCache(), CountingReads(memory.ports.episodes)
    assert len(built(cache, store, memory, policy).episodes) == 2
    # When it expires, and an episode older than all arrives (a replayed run)
    memory.clock.advance(11)
    memory.ports.episodes.add(replace(stored(memory, "a1-run-0"), run_id="a1-old", created_at=1.0))
    index = built(cache, store, memory, policy)
    # Then the store was read again, so the next older episode moves up into the window
    assert store.full_reads == 2
    assert [e.run_id for e in index.episodes] == full_read(memory, policy)
    assert "a1-old" not in {e.run_id for e in index.episodes}


def test_an_unchanged_agent_costs_one_version_read_and_no_episode_read(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingReads(memory.ports.episodes)
    first = built(cache, store, memory, POLICY)
    # When the index of an agent whose episodes did not change is asked for twice more
    again = [built(cache, store, memory, POLICY) for _ in range(2)]
    # Then each time one version read answered, and the same index was served
    assert (store.full_reads, store.version_reads) == (1, 3)
    assert all(index is first for index in again)


def test_a_changed_policy_reads_the_agent_again(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingReads(memory.ports.episodes)
    assert len(built(cache, store, memory, POLICY).episodes) == 3
    # When the policy now indexes fewer episodes, with nothing stored changed
    index = built(cache, store, memory, EpisodicPolicy(candidates=2))
    # Then the index follows the policy at once
    assert store.full_reads == 2
    assert [e.run_id for e in index.episodes] == full_read(memory, EpisodicPolicy(candidates=2))


def test_a_policy_matching_other_neighbours_gets_an_index_built_for_them(memory: Memory) -> None:
    cache = EpisodeIndexCache()
    # Given an agent's index under the default policy
    first = index_of(cache, memory, "a1")
    # When the policy matches a message's words with no neighbours
    alone = replace(POLICY, neighbour_window=0)
    ports = memory.ports
    index = cache.index(
        ports.episodes, ports.embedder, "acme", "a1", now=memory.clock(), policy=alone
    )
    # Then the index is built again for it, no prepared row of the other reused
    assert index is not first and index.neighbours == (0, 0.5) != first.neighbours
    assert all(index.prepared[k].own is not first.prepared[k].own for k in index.prepared)
