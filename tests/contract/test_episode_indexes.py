"""The ``EpisodeIndexes`` contract, on every episode store: the index the read path is served is
the agent's episodes as they stand, whatever the cache kept between calls.

The core's ``EpisodeIndexCache`` is the port's one implementation; it leans on each store's
version tokens and ``changes_since``, so it runs here over every storage adapter (the
``stores`` fixture), with a deterministic embedder.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_memory.core.model.models import Episode
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.model.scope import AGENT_SCOPE, TENANT_SCOPE, Scope, team_scope
from agent_memory.core.ports import EpisodeIndexes, EpisodeStore
from agent_memory.core.retrieval import vectors
from agent_memory.core.retrieval.episode_index import EpisodeIndexCache
from tests.contract.builders import NOW, episode
from tests.support.embedder import HashingEmbedder

EMBEDDER = HashingEmbedder()
POLICY = EpisodicPolicy()
IMPLEMENTATIONS = {"cache": EpisodeIndexCache}


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def indexes(request: pytest.FixtureRequest) -> EpisodeIndexes:
    return IMPLEMENTATIONS[request.param]()


def stored(store: EpisodeStore, run_id: str, summary: str, **overrides: object) -> Episode:
    vector = vectors.encode(EMBEDDER.embed_documents([summary])[0], EMBEDDER.model_id)
    record = replace(
        episode(run_id=run_id, task_summary=summary, task=summary, embedding=vector),
        **overrides,
    )
    assert store.add(record)
    return record


def served(
    indexes: EpisodeIndexes, store: EpisodeStore, text: str, *, tenant: str = "acme"
) -> list[str]:
    """The run ids the agent's index serves for ``text``, best first."""
    index = indexes.index(store, EMBEDDER, tenant, "agent-1", now=NOW, policy=POLICY)
    found = index.search(text, EMBEDDER.embed_query(text), now=NOW, top_episodes=10)
    return [hit.episode.run_id for hit in found.episodes]


def test_the_cache_is_the_port(indexes: EpisodeIndexes) -> None:
    assert isinstance(indexes, EpisodeIndexes)


def test_an_agent_with_no_episodes_is_served_nothing(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    assert served(indexes, episodes, "liability cap") == []


def test_an_episode_added_after_an_index_was_served_is_in_the_next(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    # Given an index served while the agent had one episode
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    assert served(indexes, episodes, "liability cap") == ["run-1"]
    # When a second run's episode is written
    stored(episodes, "run-2", "Checked the liability cap again after the amendment")
    # Then the next index serves both
    assert sorted(served(indexes, episodes, "liability cap")) == ["run-1", "run-2"]


def test_a_deleted_episode_is_not_in_the_next_index(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    stored(episodes, "run-2", "Checked the liability cap again after the amendment")
    assert len(served(indexes, episodes, "liability cap")) == 2
    # When one is deleted (decay, or an operator)
    assert episodes.delete("acme", "agent-1", "run-1")
    # Then the next index no longer serves it
    assert served(indexes, episodes, "liability cap") == ["run-2"]


def test_a_forgotten_tenant_is_served_nothing_from_a_warm_cache(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    assert served(indexes, episodes, "liability cap") == ["run-1"]
    # When the tenant is forgotten, the cache not told
    episodes.forget("acme")
    # Then its next index is empty
    assert served(indexes, episodes, "liability cap") == []


def test_an_index_holds_only_its_own_tenant_and_agent(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    stored(episodes, "run-2", "Liability cap of globex", tenant_id="globex")
    stored(episodes, "run-3", "Liability cap by another agent", agent_id="agent-2")
    assert served(indexes, episodes, "liability cap") == ["run-1"]
    assert served(indexes, episodes, "liability cap", tenant="globex") == ["run-2"]


def test_clearing_a_tenant_changes_nothing_served(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    before = served(indexes, episodes, "liability cap")
    # When the tenant's kept indexes are dropped (forget does so), and all of them
    indexes.clear("acme")
    assert served(indexes, episodes, "liability cap") == before
    indexes.clear()
    assert served(indexes, episodes, "liability cap") == before


def scoped(
    indexes: EpisodeIndexes,
    store: EpisodeStore,
    text: str,
    scope: Scope,
    *,
    tenant: str = "acme",
    agent: str = "agent-1",
) -> list[tuple[str, str]]:
    """(author, run id) of each episode the scope's index serves for ``text``, sorted."""
    index = indexes.index(store, EMBEDDER, tenant, agent, now=NOW, policy=POLICY, scope=scope)
    found = index.search(text, EMBEDDER.embed_query(text), now=NOW, top_episodes=10)
    return sorted((hit.episode.agent_id, hit.episode.run_id) for hit in found.episodes)


def test_a_team_index_holds_its_members_episodes_with_their_authors(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    # Given episodes of agent-1, of its team mate agent-2 and of agent-3, outside the team
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    stored(episodes, "run-2", "Liability cap found in the security review", agent_id="agent-2")
    stored(episodes, "run-3", "Liability cap seen by an outsider", agent_id="agent-3")
    # When agent-1 reads with a team of agent-2
    found = scoped(indexes, episodes, "liability cap", team_scope(["agent-2"]))
    # Then its own episode and its mate's are served, each with its author, not the outsider's
    assert found == [("agent-1", "run-1"), ("agent-2", "run-2")]
    # And its own scope still serves its own episode alone
    assert scoped(indexes, episodes, "liability cap", AGENT_SCOPE) == [("agent-1", "run-1")]


def test_a_tenant_index_holds_every_agent_of_the_tenant_and_no_other_tenants(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    # Given episodes of two agents of acme, and of globex (the same agent names)
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    stored(episodes, "run-2", "Liability cap in the security review", agent_id="agent-2")
    stored(episodes, "run-3", "Liability cap of globex", tenant_id="globex")
    stored(episodes, "run-4", "Liability cap, globex", tenant_id="globex", agent_id="agent-2")
    # When each tenant reads its whole tenant
    acme = scoped(indexes, episodes, "liability cap", TENANT_SCOPE)
    globex = scoped(indexes, episodes, "liability cap", TENANT_SCOPE, tenant="globex")
    # Then each sees its own agents' episodes and none of the other's
    assert acme == [("agent-1", "run-1"), ("agent-2", "run-2")]
    assert globex == [("agent-1", "run-3"), ("agent-2", "run-4")]


def test_a_members_new_episode_is_in_the_next_team_index(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    # Given a team index served while only agent-1 had an episode
    team = team_scope(["agent-2"])
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    assert scoped(indexes, episodes, "liability cap", team) == [("agent-1", "run-1")]
    # When the team mate writes one, then deletes it
    stored(episodes, "run-2", "Liability cap found in the security review", agent_id="agent-2")
    # Then the next index serves it, and the one after the deletion no longer does
    assert scoped(indexes, episodes, "liability cap", team) == [
        ("agent-1", "run-1"),
        ("agent-2", "run-2"),
    ]
    assert episodes.delete("acme", "agent-2", "run-2")
    assert scoped(indexes, episodes, "liability cap", team) == [("agent-1", "run-1")]


def test_a_new_agent_of_the_tenant_is_in_the_next_tenant_index(
    indexes: EpisodeIndexes, episodes: EpisodeStore
) -> None:
    # Given a tenant index served while the tenant had one agent
    stored(episodes, "run-1", "Reviewed the liability cap of the vendor MSA")
    assert scoped(indexes, episodes, "liability cap", TENANT_SCOPE) == [("agent-1", "run-1")]
    # When an agent never seen before writes its first episode
    stored(episodes, "run-2", "Liability cap in a new agent's run", agent_id="newcomer")
    # Then the next tenant index serves it too
    assert scoped(indexes, episodes, "liability cap", TENANT_SCOPE) == [
        ("agent-1", "run-1"),
        ("newcomer", "run-2"),
    ]
