"""DynamoDB: an agent's version moves only once a change is visible, so no cache keeps a stale
index under the new token, whenever it happened to read during the change."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from agent_memory.adapters.aws.dynamodb_episodes import LOGGED_ADDITIONS, DynamoDbEpisodeStore
from agent_memory.adapters.aws.dynamodb_schema import EPISODES
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.retrieval.episode_index import EpisodeIndexCache
from tests.contract.builders import NOW, episode
from tests.integration.aws.moto_dynamodb import mocked_tables
from tests.support.embedder import HashingEmbedder


class Interleaved:
    """A DynamoDB client that runs ``between`` just before and just after each write of an
    episode item (not of a version item): where another reader's request could fall.
    """

    def __init__(self, client: Any) -> None:
        self.inner = client
        self.between: Callable[[], None] = lambda: None

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        if name not in ("put_item", "delete_item"):
            return attribute

        def call(**kwargs: Any) -> Any:
            key = kwargs.get("Item") or kwargs["Key"]
            if key["run_id"]["S"].startswith("#"):
                return attribute(**kwargs)
            self.between()
            try:
                return attribute(**kwargs)
            finally:
                self.between()

        return call


@pytest.fixture
def store() -> Iterator[tuple[DynamoDbEpisodeStore, Interleaved]]:
    with mocked_tables() as tables:
        client = Interleaved(tables.client)
        yield DynamoDbEpisodeStore(client, tables.name(EPISODES)), client


def indexed(cache: EpisodeIndexCache, store: DynamoDbEpisodeStore) -> set[str]:
    index = cache.index(
        store, HashingEmbedder(), "acme", "agent-1", now=NOW, policy=EpisodicPolicy()
    )
    return {e.run_id for e in index.episodes}


def before_change(episodes: DynamoDbEpisodeStore, change: str) -> None:
    """The agent's episodes before ``change``: "kept", and "run-x" when it is to be deleted."""
    episodes.add(episode(run_id="kept"))
    if change == "delete":
        episodes.add(episode(run_id="run-x"))


def apply(episodes: DynamoDbEpisodeStore, change: str) -> bool:
    """Add or delete "run-x"; True if this call made the change."""
    if change == "add":
        return episodes.add(episode(run_id="run-x"))
    return episodes.delete("acme", "agent-1", "run-x")


@pytest.mark.parametrize("change", ["add", "delete"])
def test_an_index_read_during_a_change_is_replaced_once_it_is_done(
    store: tuple[DynamoDbEpisodeStore, Interleaved], change: str
) -> None:
    episodes, client = store
    before_change(episodes, change)
    cache = EpisodeIndexCache()
    # Given a cache that reads the agent's episodes right before and after the item's write
    seen: list[set[str]] = []
    client.between = lambda: seen.append(indexed(cache, episodes))
    # When an episode is added (or deleted)
    assert apply(episodes, change)
    client.between = lambda: None
    # Then, whatever it read meanwhile, the cache now serves the change
    assert len(seen) == 2
    assert ("run-x" in indexed(cache, episodes)) is (change == "add")


def _lost(*_: object) -> None:
    raise RuntimeError("the version write was lost")


@pytest.mark.parametrize("change", ["add", "delete"])
def test_a_retry_whose_first_try_changed_only_the_episode_moves_the_version(
    store: tuple[DynamoDbEpisodeStore, Interleaved],
    monkeypatch: pytest.MonkeyPatch,
    change: str,
) -> None:
    episodes, _ = store
    before_change(episodes, change)
    cache = EpisodeIndexCache()
    before = indexed(cache, episodes)
    # Given the episode changed by a try that failed before moving the version
    with monkeypatch.context() as patch:
        patch.setattr(episodes, "_added" if change == "add" else "_rewritten", _lost)
        with pytest.raises(RuntimeError):
            apply(episodes, change)
    assert indexed(cache, episodes) == before  # caches were not told
    # When the delivery is retried (and finds the change already made)
    assert apply(episodes, change) is False
    # Then caches are told: the next index shows the change
    assert ("run-x" in indexed(cache, episodes)) is (change == "add")


def test_changes_since_read_back_only_as_far_as_the_log_reaches(
    store: tuple[DynamoDbEpisodeStore, Interleaved],
) -> None:
    episodes, _ = store
    episodes.add(episode(run_id="first"))
    token = episodes.version("acme", "agent-1")
    # Given more additions since a token than the version item logs
    for number in range(LOGGED_ADDITIONS + 1):
        episodes.add(episode(run_id=f"run-{number}"))
    # Then the store cannot say which, however many the caller would take
    assert episodes.changes_since("acme", "agent-1", token, now=NOW, limit=1000).added is None
    # And a token within the log's reach is answered
    recent = episodes.version("acme", "agent-1")
    episodes.add(episode(run_id="last"))
    found = episodes.changes_since("acme", "agent-1", recent, now=NOW, limit=1000).added
    assert [e.run_id for e in found or []] == ["last"]


def test_a_lost_log_entry_makes_changes_since_read_again(
    store: tuple[DynamoDbEpisodeStore, Interleaved],
) -> None:
    episodes, client = store
    episodes.add(episode(run_id="first"))
    token = episodes.version("acme", "agent-1")
    # Given an addition whose log entry was never written (its count was)
    with pytest.MonkeyPatch.context() as patch:
        real = client.inner.update_item

        def count_only(**kwargs: Any) -> Any:
            if "#slot" in kwargs.get("ExpressionAttributeNames", {}):
                return {}
            return real(**kwargs)

        patch.setattr(client.inner, "update_item", count_only)
        episodes.add(episode(run_id="unlogged"))
    # Then the store does not answer from the log
    assert episodes.changes_since("acme", "agent-1", token, now=NOW, limit=10).added is None


class Counting:
    """A DynamoDB client that counts the requests made through it, by operation."""

    def __init__(self, client: Any) -> None:
        self.inner = client
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        if not callable(attribute):
            return attribute

        def call(**kwargs: Any) -> Any:
            self.calls[name] = self.calls.get(name, 0) + 1
            return attribute(**kwargs)

        return call


def test_a_cached_index_takes_in_a_new_run_with_one_version_read() -> None:
    with mocked_tables() as tables:
        episodes = DynamoDbEpisodeStore(tables.client, tables.name(EPISODES))
        counting = Counting(tables.client)
        reader = DynamoDbEpisodeStore(counting, tables.name(EPISODES))
        cache = EpisodeIndexCache()
        # Given an agent's cached index
        episodes.add(episode(run_id="kept"))
        assert indexed(cache, reader) == {"kept"}
        # When a new run's episode is added and the index is asked for again
        episodes.add(episode(run_id="new"))
        counting.calls.clear()
        assert indexed(cache, reader) == {"kept", "new"}
        # Then the version item was read once and only the new episode fetched, by key
        assert counting.calls == {"get_item": 1, "batch_get_item": 1}
        # And an unchanged agent costs one read of the version item alone
        counting.calls.clear()
        assert indexed(cache, reader) == {"kept", "new"}
        assert counting.calls == {"get_item": 1}
