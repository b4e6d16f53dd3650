"""Reads scoped to a team or the tenant: one index over the members' episodes, each episode
keeping its author, cached until a member's episodes change; the default scope unchanged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import SearchEpisodes
from agent_memory.core.model.policies import EpisodicPolicy
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.model.scope import AGENT_SCOPE, TENANT_SCOPE, Scope, team_scope
from agent_memory.core.ports import EpisodeStore
from agent_memory.core.retrieval import episode_index
from agent_memory.core.retrieval.episode_index import EpisodeIndex, EpisodeIndexCache
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.fakes import WordReranker
from tests.support.memory import Memory, make_memory, run_event

TASK = "Review the vendor MSA liability cap"


def finding(agent: str, run_id: str, text: str, *, tenant: str = "acme") -> dict[str, Any]:
    """A run of ``agent`` on the MSA whose one finding is ``text``."""
    return run_event(
        run_id,
        tenant_id=tenant,
        agent_id=agent,
        artifacts={
            "task_summary": f"Reviewed the vendor MSA liability cap ({agent})",
            "key_findings": [text],
        },
    )


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    """A SQLite memory: the reviewer's own run, its team mate's, an outsider's, and a run of
    another tenant's agent of the mate's name.
    """
    memory = make_memory(tmp_path)
    for event in (
        finding("reviewer", "own-1", "Clause 7.3 caps liability at 0.5x fees"),
        finding("security-reviewer", "mate-1", "The MSA liability cap excludes data breaches"),
        finding("outsider", "out-1", "The liability cap was renegotiated in 2024"),
        finding("security-reviewer", "globex-1", "Globex's cap is 2x fees", tenant="globex"),
    ):
        consolidate(event, memory.ports)
    return memory


def read(memory: Memory, scope: Scope, *, agent: str = "reviewer", tenant: str = "acme") -> Any:
    return bootstrap(BootstrapRequest(tenant, agent, TASK, scope=scope), memory.ports)


def authors(reply: Any) -> list[tuple[str, str]]:
    return sorted((e["agent_id"], e["run_id"]) for e in reply["episodes"])


def test_a_team_read_finds_the_mates_episode_with_its_author(memory: Memory) -> None:
    # When the reviewer reads with its team of the security reviewer
    reply = read(memory, team_scope(["security-reviewer"]))
    # Then its own episode and its mate's come back, each naming its author, the outsider's not
    assert authors(reply) == [("reviewer", "own-1"), ("security-reviewer", "mate-1")]
    # And the context says which agent learned the mate's finding, and not of its own
    context = reply["context"]
    assert "> Learned by: security-reviewer" in context
    assert context.count("Learned by:") == 1
    assert "excludes data breaches" in context
    assert "renegotiated" not in context


def test_a_tenant_read_sees_every_agent_of_the_tenant_and_none_of_another(
    memory: Memory,
) -> None:
    # When the reviewer reads its whole tenant, and globex's agent reads its own
    acme = read(memory, TENANT_SCOPE)
    globex = read(memory, TENANT_SCOPE, agent="security-reviewer", tenant="globex")
    # Then acme's read holds all three of acme's agents and nothing of globex
    assert authors(acme) == [
        ("outsider", "out-1"),
        ("reviewer", "own-1"),
        ("security-reviewer", "mate-1"),
    ]
    assert "Globex" not in acme["context"]
    # And globex's read holds its one episode, its own (so no author is named)
    assert authors(globex) == [("security-reviewer", "globex-1")]
    assert "Learned by" not in globex["context"] and "Clause 7.3" not in globex["context"]


def test_the_default_scope_reads_the_agents_own_episodes_as_before(memory: Memory) -> None:
    # When the reviewer reads with no scope (the agent's own)
    default = bootstrap(BootstrapRequest("acme", "reviewer", TASK), memory.ports)
    # Then only its own episode comes back, and the context names no author
    assert authors(default) == [("reviewer", "own-1")]
    assert "Learned by" not in default["context"]
    # And a team of the agent alone serves the same context
    alone = read(memory, team_scope(["reviewer"]))
    assert [e["run_id"] for e in alone["episodes"]] == ["own-1"]
    assert alone["context"].replace(alone["context_token"] or "", "") == default["context"].replace(
        default["context_token"] or "", ""
    )


def test_search_takes_the_scope_too(memory: Memory) -> None:
    # When the episodes are searched with the team scope, and with the default
    def searched(scope: Scope) -> list[str]:
        found = Application(memory.ports).handle(
            SearchEpisodes("acme", "reviewer", "data breaches", top_episodes=5, scope=scope)
        )
        return sorted(hit["run_id"] for hit in found["episodes"])

    # Then the team search finds the mate's run, the default one only the agent's own
    assert searched(team_scope(["security-reviewer"])) == ["mate-1", "own-1"]
    assert searched(AGENT_SCOPE) == ["own-1"]


class CountingStore:
    """The episode store, counting its reads by kind (and full reads per agent)."""

    def __init__(self, store: EpisodeStore) -> None:
        self.store = store
        self.reads: Counter[str] = Counter()
        self.full_reads: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def recent(self, tenant_id: str, agent_id: str, **kwargs: Any) -> Any:
        self.reads["recent"] += 1
        self.full_reads[agent_id] += 1
        return self.store.recent(tenant_id, agent_id, **kwargs)

    def version(self, *args: Any) -> str:
        self.reads["version"] += 1
        return self.store.version(*args)

    def changes_since(self, *args: Any, **kwargs: Any) -> Any:
        self.reads["version"] += 1
        return self.store.changes_since(*args, **kwargs)

    def versions(self, *args: Any) -> dict[str, str]:
        self.reads["versions"] += 1
        return self.store.versions(*args)

    def agents(self, tenant_id: str) -> list[str]:
        self.reads["agents"] += 1
        return self.store.agents(tenant_id)


TEAM = team_scope(["security-reviewer", "outsider"])


def index_of(
    cache: EpisodeIndexCache,
    store: Any,
    memory: Memory,
    scope: Scope,
    policy: EpisodicPolicy | None = None,
) -> EpisodeIndex:
    return cache.index(
        store,
        memory.ports.embedder,
        "acme",
        "reviewer",
        now=memory.clock(),
        policy=policy or EpisodicPolicy(),
        scope=scope,
    )


@pytest.mark.parametrize(
    ("scope", "reads"),
    [
        (AGENT_SCOPE, {"version": 1}),
        (TEAM, {"versions": 1}),
        (TENANT_SCOPE, {"agents": 1, "versions": 1}),
    ],
    ids=["agent", "team", "tenant"],
)
def test_a_warm_read_costs_one_read_of_its_members_versions(
    memory: Memory, scope: Scope, reads: dict[str, int]
) -> None:
    cache, store = EpisodeIndexCache(), CountingStore(memory.ports.episodes)
    # Given a scope's index, built once (three members, or the agent alone)
    first = index_of(cache, store, memory, scope)
    store.reads.clear()
    # When it is asked for again with nothing changed
    again = index_of(cache, store, memory, scope)
    # Then the same index is served, for one read of the versions (and of the tenant's agents)
    assert again is first
    assert store.reads == Counter(reads)


def test_a_members_new_run_rebuilds_the_team_index_reading_only_that_run(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingStore(memory.ports.episodes)
    first = index_of(cache, store, memory, TEAM)
    store.full_reads.clear()
    # When a team mate's new run is consolidated
    consolidate(finding("outsider", "out-2", "Cap reviewed again"), memory.ports)
    rebuilt = index_of(cache, store, memory, TEAM)
    # Then the next index holds it, no member's episodes were read again in full
    assert rebuilt is not first
    assert sorted(e.run_id for e in rebuilt.episodes) == ["mate-1", "out-1", "out-2", "own-1"]
    assert store.full_reads == Counter()
    # And the episodes it had are laid out from the rows the first index prepared
    kept = [key for key in first.prepared if key in rebuilt.prepared]
    assert len(kept) == len(first.episodes)
    assert all(rebuilt.prepared[key].own is first.prepared[key].own for key in kept)


def test_a_members_deletion_reads_that_member_again_and_no_other(memory: Memory) -> None:
    cache, store = EpisodeIndexCache(), CountingStore(memory.ports.episodes)
    index_of(cache, store, memory, TEAM)
    store.full_reads.clear()
    # When a team mate's episode is deleted
    assert memory.ports.episodes.delete("acme", "security-reviewer", "mate-1")
    rebuilt = index_of(cache, store, memory, TEAM)
    # Then the next index no longer holds it, and only that member was read again
    assert sorted(e.run_id for e in rebuilt.episodes) == ["out-1", "own-1"]
    assert store.full_reads == Counter({"security-reviewer": 1})


def test_each_member_brings_at_most_its_newest_candidates(memory: Memory) -> None:
    # Given the outsider with three runs, the others with one
    for i in range(2, 4):
        memory.clock.advance(60)
        consolidate(finding("outsider", f"out-{i}", f"Cap note {i}"), memory.ports)
    # When the team is read with two candidates per member
    index = index_of(
        EpisodeIndexCache(), memory.ports.episodes, memory, TEAM, EpisodicPolicy(candidates=2)
    )
    # Then the outsider brings its two newest runs, the others their one
    assert sorted(e.run_id for e in index.episodes) == ["mate-1", "out-2", "out-3", "own-1"]


def test_two_members_runs_of_one_id_are_reranked_each_on_its_own_text(memory: Memory) -> None:
    # Given the team mate's run under the same run id as the reviewer's own, and a reranker
    # that favours the word only the mate's finding says
    twin = finding("security-reviewer", "own-1", "Breaches are uncapped: breaches void the cap")
    consolidate(twin, memory.ports)
    ports = replace(memory.ports, reranker=WordReranker("breaches"))
    # When the reviewer reads with its team
    reply = bootstrap(
        BootstrapRequest("acme", "reviewer", TASK, scope=team_scope(["security-reviewer"])), ports
    )
    # Then both runs are served, each scored on its own text (the mate's first) and with its
    # own finding
    served = {(e["agent_id"], e["run_id"]): e for e in reply["episodes"]}
    first = reply["episodes"][0]
    assert (first["agent_id"], first["run_id"]) == ("security-reviewer", "own-1")
    mate, own = served[("security-reviewer", "own-1")], served[("reviewer", "own-1")]
    assert mate["score"] > own["score"]
    assert own["key_findings"] == ["Clause 7.3 caps liability at 0.5x fees"]


def test_a_large_scope_shares_its_episodes_among_its_members(
    memory: Memory, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the outsider with three runs, and scope indexes bounded to 4 episodes in all
    for i in range(2, 4):
        memory.clock.advance(60)
        consolidate(finding("outsider", f"out-{i}", f"Cap note {i}"), memory.ports)
    monkeypatch.setattr(episode_index, "SCOPE_EPISODES", 4)
    policy = EpisodicPolicy(candidates=2)
    # When the team of three is read, then the agent alone
    team = index_of(EpisodeIndexCache(), memory.ports.episodes, memory, TEAM, policy)
    alone = index_of(EpisodeIndexCache(), memory.ports.episodes, memory, AGENT_SCOPE, policy)
    # Then each member brings its one newest run (4 // 3), and the agent alone its policy's
    assert sorted(e.run_id for e in team.episodes) == ["mate-1", "out-3", "own-1"]
    assert [e.run_id for e in alone.episodes] == ["own-1"]


def test_a_team_of_ten_keeps_the_policys_candidates_each_and_larger_scopes_fewer() -> None:
    policy = EpisodicPolicy()
    assert [episode_index.member_candidates(policy, n) for n in (1, 10, 50, 100, 10_000)] == [
        500,
        500,
        100,
        50,
        1,
    ]
