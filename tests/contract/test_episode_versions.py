"""A cache that follows an agent's episodes through ``changes_since`` never drifts from them.

Generated sequences of changes (additions, expired additions, deletions, rewrites, forgets,
another agent's additions) run on every adapter, with a follower that syncs between them the
way the episode index cache does: it takes in additions when the store names them and reads
everything again when it cannot.
"""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.episode_versions import EpisodeVersion
from agent_memory.core.ports import EpisodeStore
from tests.contract.builders import DAY, NOW, all_pages, episode

_TENANTS = itertools.count()
_RUNS = [f"run-{n}" for n in range(6)]

_CHANGE = st.one_of(
    st.tuples(st.just("add"), st.sampled_from(_RUNS)),
    st.tuples(st.just("add expired"), st.sampled_from(_RUNS)),
    st.tuples(st.just("delete"), st.sampled_from(_RUNS)),
    st.tuples(st.just("rewrite"), st.sampled_from(_RUNS)),
    st.tuples(st.just("forget"), st.just("")),
    st.tuples(st.just("other agent"), st.sampled_from(_RUNS)),
    st.tuples(st.just("sync"), st.just("")),
)


def _apply(episodes: EpisodeStore, tenant: str, change: str, run_id: str) -> None:
    if change == "add":
        episodes.add(episode(tenant_id=tenant, run_id=run_id))
    elif change == "add expired":
        episodes.add(episode(tenant_id=tenant, run_id=f"{run_id}-x", expires_at=NOW - DAY))
    elif change == "delete":
        episodes.delete(tenant, "agent-1", run_id)
    elif change == "rewrite":
        stored = episodes.get(tenant, "agent-1", run_id, now=NOW)
        if stored is not None:
            episodes.set_vectors(stored)
    elif change == "forget":
        episodes.forget(tenant)
    else:
        episodes.add(episode(tenant_id=tenant, agent_id="agent-2", run_id=run_id))


def _stored(episodes: EpisodeStore, tenant: str) -> set[str]:
    pages = all_pages(
        lambda cursor: episodes.recent(tenant, "agent-1", now=NOW, limit=4, cursor=cursor)
    )
    return {e.run_id for page in pages for e in page.items}


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(changes=st.lists(_CHANGE, max_size=14))
def test_a_follower_of_changes_since_holds_what_the_store_holds(
    episodes: EpisodeStore, changes: list[tuple[str, str]]
) -> None:
    # Given a follower that read the agent's episodes at some version
    tenant = f"t{next(_TENANTS)}"
    token, held = episodes.version(tenant, "agent-1"), _stored(episodes, tenant)
    sets_at = {token: held}
    for change, run_id in [*changes, ("sync", "")]:
        if change != "sync":
            # When the store changes
            _apply(episodes, tenant, change, run_id)
            continue
        # And the follower syncs through changes_since
        found = episodes.changes_since(tenant, "agent-1", token, now=NOW, limit=2)
        if found.added is None:
            held = _stored(episodes, tenant)
        else:
            held |= {e.run_id for e in found.added}
            assert all(e.expires_at > NOW for e in found.added)
        token = found.version
        # Then it holds exactly the unexpired episodes the store holds, at a token it can parse
        assert held == _stored(episodes, tenant)
        # And a token seen before names the same episodes as then
        assert sets_at.setdefault(token, held) == held
        assert token == episodes.version(tenant, "agent-1")
        assert EpisodeVersion.parse(token) is not None
