"""EpisodeStore contract: put-if-absent, TTL on read, keyset pagination, tenant isolation."""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Episode, EpisodeUnit, StoredVector
from agent_memory.core.ports import EpisodeStore
from tests.contract.builders import (
    AWKWARD_TIME,
    DAY,
    NOW,
    VECTOR,
    all_pages,
    episode,
    in_threads,
)
from tests.contract.conftest import Stores


def test_store_satisfies_the_port(episodes: EpisodeStore) -> None:
    assert isinstance(episodes, EpisodeStore)


def test_every_field_round_trips_exactly(episodes: EpisodeStore) -> None:
    stored = episode(
        task='Répondre au client 📨 with "quotes", a\nnewline and a NUL \x00',
        task_summary="Answered; see ticket #42",
        outcome="PARTIAL",
        created_at=AWKWARD_TIME,
        expires_at=AWKWARD_TIME + 90 * DAY,
        task_type="support.reply",
        domain="billing",
        key_findings=("first", "", "second ünïcode", "first"),
        approach_used="Looked up the invoice",
        tools_used=("search", "crm_lookup"),
        reusable_patterns=("ask for the invoice id first",),
        embedding=VECTOR,
    )
    episodes.add(stored)

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_episode_without_optional_fields_round_trips(episodes: EpisodeStore) -> None:
    stored = episode(task_type=None, domain=None, approach_used="", embedding=None)
    episodes.add(stored)

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_add_returns_true_when_it_writes(episodes: EpisodeStore) -> None:
    assert episodes.add(episode()) is True


def test_add_of_an_existing_key_returns_false(episodes: EpisodeStore) -> None:
    episodes.add(episode())

    assert episodes.add(episode()) is False


def test_add_of_an_existing_key_leaves_the_first_episode_unchanged(
    episodes: EpisodeStore,
) -> None:
    first = episode(task_summary="first delivery")
    episodes.add(first)

    episodes.add(episode(task_summary="redelivered with other content", outcome="FAILED"))

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == first


def test_same_run_id_under_another_agent_is_another_episode(episodes: EpisodeStore) -> None:
    episodes.add(episode(agent_id="agent-1"))

    assert episodes.add(episode(agent_id="agent-2")) is True
    assert episodes.get("acme", "agent-2", "run-1", now=NOW) is not None


def test_concurrent_adds_of_one_key_write_exactly_once(episodes: EpisodeStore) -> None:
    results = in_threads(lambda i: episodes.add(episode(task_summary=f"writer {i}")), range(16))

    assert results.count(True) == 1


def test_get_of_a_missing_episode_returns_none(episodes: EpisodeStore) -> None:
    assert episodes.get("acme", "agent-1", "nope", now=NOW) is None


def test_episode_expiring_exactly_now_is_invisible(episodes: EpisodeStore) -> None:
    episodes.add(episode(expires_at=NOW))

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is None


def test_episode_expiring_just_after_now_is_visible(episodes: EpisodeStore) -> None:
    episodes.add(episode(expires_at=NOW + 0.001))

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is not None


def test_expired_episode_is_missing_from_recent(episodes: EpisodeStore) -> None:
    episodes.add(episode(run_id="expired", expires_at=NOW))
    episodes.add(episode(run_id="live"))

    page = episodes.recent("acme", "agent-1", now=NOW, limit=10)

    assert [e.run_id for e in page.items] == ["live"]


def test_recent_lists_newest_first(episodes: EpisodeStore) -> None:
    for run_id, age in [("middle", 2), ("oldest", 3), ("newest", 1)]:
        episodes.add(episode(run_id=run_id, created_at=NOW - age * DAY))

    page = episodes.recent("acme", "agent-1", now=NOW, limit=10)

    assert [e.run_id for e in page.items] == ["newest", "middle", "oldest"]
    assert page.cursor is None


def test_recent_pages_hold_at_most_limit_and_cover_every_episode_once(
    episodes: EpisodeStore,
) -> None:
    for i in range(5):
        episodes.add(episode(run_id=f"run-{i}", created_at=NOW - i))

    pages = all_pages(lambda c: episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor=c))

    assert [len(p.items) for p in pages] == [2, 2, 1]
    assert [e.run_id for p in pages for e in p.items] == [f"run-{i}" for i in range(5)]


def test_recent_cursor_is_none_when_the_last_page_is_exactly_full(
    episodes: EpisodeStore,
) -> None:
    for i in range(4):
        episodes.add(episode(run_id=f"run-{i}", created_at=NOW - i))

    first = episodes.recent("acme", "agent-1", now=NOW, limit=2)
    second = episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor=first.cursor)

    assert first.cursor is not None
    assert len(second.items) == 2
    assert second.cursor is None


def test_recent_pages_through_ties_in_created_at_without_loss_or_repeat(
    episodes: EpisodeStore,
) -> None:
    # Given seven episodes created in the same instant, read two at a time
    for i in range(7):
        episodes.add(episode(run_id=f"run-{i}", created_at=NOW - DAY))

    pages = all_pages(lambda c: episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor=c))

    run_ids = [e.run_id for p in pages for e in p.items]
    assert sorted(run_ids) == [f"run-{i}" for i in range(7)]


def test_recent_cursor_keeps_working_after_returned_episodes_are_deleted(
    episodes: EpisodeStore,
) -> None:
    for i in range(6):
        episodes.add(episode(run_id=f"run-{i}", created_at=NOW - i))
    first = episodes.recent("acme", "agent-1", now=NOW, limit=2)

    # When the episodes of the first page are deleted before the next page is read
    for e in first.items:
        episodes.delete("acme", "agent-1", e.run_id)
    rest = all_pages(
        lambda c: episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor=c or first.cursor)
    )

    assert [e.run_id for p in rest for e in p.items] == ["run-2", "run-3", "run-4", "run-5"]


def test_recent_lists_only_the_requested_agent(episodes: EpisodeStore) -> None:
    episodes.add(episode(agent_id="agent-1", run_id="mine"))
    episodes.add(episode(agent_id="agent-2", run_id="theirs"))

    page = episodes.recent("acme", "agent-1", now=NOW, limit=10)

    assert [e.run_id for e in page.items] == ["mine"]


@pytest.mark.parametrize("lookalike", ["acme2", "acm", "acme-x", "ACME"])
def test_recent_never_lists_a_lookalike_tenant(episodes: EpisodeStore, lookalike: str) -> None:
    episodes.add(episode(tenant_id=lookalike, run_id="theirs"))

    page = episodes.recent("acme", "agent-1", now=NOW, limit=10)

    assert page.items == ()


def test_recent_of_an_agent_without_episodes_is_one_empty_page(episodes: EpisodeStore) -> None:
    page = episodes.recent("acme", "agent-1", now=NOW, limit=10)

    assert page.items == ()
    assert page.cursor is None


def test_recent_within_a_window_holds_since_and_leaves_out_until(episodes: EpisodeStore) -> None:
    # Given episodes created a day apart
    for age in range(4):
        episodes.add(episode(run_id=f"day-{age}", created_at=NOW - age * DAY))

    # When the window runs from three days ago up to (not including) the newest one
    page = episodes.recent("acme", "agent-1", now=NOW, limit=10, since=NOW - 3 * DAY, until=NOW)

    # Then its first moment is in, its last moment is out
    assert [e.run_id for e in page.items] == ["day-1", "day-2", "day-3"]


def test_recent_within_an_open_ended_window_bounds_one_side(episodes: EpisodeStore) -> None:
    for age in range(4):
        episodes.add(episode(run_id=f"day-{age}", created_at=NOW - age * DAY))

    newer = episodes.recent("acme", "agent-1", now=NOW, limit=10, since=NOW - DAY)
    older = episodes.recent("acme", "agent-1", now=NOW, limit=10, until=NOW - DAY)

    assert [e.run_id for e in newer.items] == ["day-0", "day-1"]
    assert [e.run_id for e in older.items] == ["day-2", "day-3"]


def test_recent_within_an_empty_window_is_one_empty_page(episodes: EpisodeStore) -> None:
    episodes.add(episode(created_at=NOW - DAY))

    page = episodes.recent("acme", "agent-1", now=NOW, limit=10, since=NOW - DAY, until=NOW - DAY)

    assert page.items == ()
    assert page.cursor is None


_WINDOW_TENANTS = itertools.count()
# Moments a few days apart, often equal (ties), often exactly on a bound.
_MOMENTS = st.one_of(
    st.sampled_from([NOW - k * DAY for k in range(4)]),
    st.floats(NOW - 4 * DAY, NOW, allow_nan=False),
)
_BOUND = st.one_of(st.none(), _MOMENTS)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    moments=st.lists(st.tuples(_MOMENTS, st.booleans()), max_size=10),
    since=_BOUND,
    until=_BOUND,
    page=st.integers(1, 4),
)
def test_any_window_pages_back_exactly_its_episodes_newest_first(
    episodes: EpisodeStore,
    moments: list[tuple[float, bool]],
    since: float | None,
    until: float | None,
    page: int,
) -> None:
    # Given episodes of a fresh tenant created at any moments, some of them expired
    tenant = f"w{next(_WINDOW_TENANTS)}"
    for n, (created_at, expired) in enumerate(moments):
        expires_at = NOW - 1 if expired else NOW + 90 * DAY
        episodes.add(
            episode(
                tenant_id=tenant, run_id=f"run-{n}", created_at=created_at, expires_at=expires_at
            )
        )
    # When the window is read page by page
    pages = all_pages(
        lambda cursor: episodes.recent(
            tenant, "agent-1", now=NOW, limit=page, cursor=cursor, since=since, until=until
        )
    )
    found = [e for p in pages for e in p.items]
    # Then every unexpired episode created in [since, until) comes exactly once, newest first
    expected = {
        f"run-{n}"
        for n, (created_at, expired) in enumerate(moments)
        if not expired
        and (since is None or created_at >= since)
        and (until is None or created_at < until)
    }
    assert sorted(e.run_id for e in found) == sorted(expected)
    assert [e.created_at for e in found] == sorted((e.created_at for e in found), reverse=True)
    assert all(len(p.items) <= page for p in pages)


def test_failed_before_lists_failed_episodes_created_strictly_before_cutoff(
    episodes: EpisodeStore,
) -> None:
    cutoff = NOW - 7 * DAY
    episodes.add(episode(run_id="old-failed", outcome="FAILED", created_at=cutoff - 1))
    episodes.add(episode(run_id="at-cutoff", outcome="FAILED", created_at=cutoff))
    episodes.add(episode(run_id="new-failed", outcome="FAILED", created_at=cutoff + 1))
    episodes.add(episode(run_id="old-completed", outcome="COMPLETED", created_at=cutoff - 1))

    page = episodes.failed_before(cutoff, now=NOW, limit=10)

    assert [e.run_id for e in page.items] == ["old-failed"]


def test_failed_before_spans_every_tenant(episodes: EpisodeStore) -> None:
    episodes.add(episode(tenant_id="acme", outcome="FAILED"))
    episodes.add(episode(tenant_id="globex", outcome="FAILED"))

    page = episodes.failed_before(NOW, now=NOW, limit=10)

    assert sorted(e.tenant_id for e in page.items) == ["acme", "globex"]


def test_failed_before_skips_expired_episodes(episodes: EpisodeStore) -> None:
    episodes.add(episode(outcome="FAILED", expires_at=NOW))

    assert episodes.failed_before(NOW, now=NOW, limit=10).items == ()


def test_failed_before_pages_while_each_page_is_deleted(episodes: EpisodeStore) -> None:
    # Given failed episodes across tenants, deleted page by page as decay does
    for i in range(7):
        episodes.add(
            episode(
                tenant_id=f"t{i % 3}", run_id=f"run-{i}", outcome="FAILED", created_at=NOW - 1 - i
            )
        )
    deleted: list[str] = []
    cursor: str | None = None
    while True:
        page = episodes.failed_before(NOW, now=NOW, limit=2, cursor=cursor)
        for e in page.items:
            assert episodes.delete(e.tenant_id, e.agent_id, e.run_id)
            deleted.append(e.run_id)
        if page.cursor is None:
            break
        cursor = page.cursor

    assert sorted(deleted) == [f"run-{i}" for i in range(7)]
    assert episodes.failed_before(NOW, now=NOW, limit=10).items == ()


def test_delete_returns_true_for_an_existing_episode(episodes: EpisodeStore) -> None:
    episodes.add(episode())

    assert episodes.delete("acme", "agent-1", "run-1") is True
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is None


def test_delete_returns_false_for_a_missing_episode(episodes: EpisodeStore) -> None:
    assert episodes.delete("acme", "agent-1", "run-1") is False


def test_purge_expired_removes_at_most_limit_expired_episodes(stores: Stores) -> None:
    episodes = stores.episodes
    for i in range(3):
        episodes.add(episode(run_id=f"expired-{i}", expires_at=NOW - i))
    episodes.add(episode(run_id="live", expires_at=NOW + 1))

    purged = episodes.purge_expired(NOW, limit=2)

    assert 0 <= purged <= 2
    if stores.purges_expired:
        assert purged == 2
    assert len(list(episodes.export("acme"))) == 4 - purged


def test_purge_expired_never_removes_a_live_episode(stores: Stores) -> None:
    episodes = stores.episodes
    episodes.add(episode(run_id="expired", expires_at=NOW))
    episodes.add(episode(run_id="live", expires_at=NOW + 1))

    episodes.purge_expired(NOW, limit=10)
    episodes.purge_expired(NOW, limit=10)

    assert episodes.get("acme", "agent-1", "live", now=NOW) is not None
    if stores.purges_expired:
        assert [e.run_id for e in episodes.export("acme")] == ["live"]


def test_export_yields_every_episode_of_the_tenant_including_expired(
    episodes: EpisodeStore,
) -> None:
    live = episode(run_id="live")
    expired = episode(run_id="expired", agent_id="agent-2", expires_at=NOW - DAY)
    episodes.add(live)
    episodes.add(expired)
    episodes.add(episode(tenant_id="acme2", run_id="other-tenant"))

    exported = list(episodes.export("acme"))

    assert sorted(exported, key=lambda e: e.run_id) == [expired, live]


def test_export_yields_large_tenants_completely(episodes: EpisodeStore) -> None:
    for i in range(1_201):
        episodes.add(episode(run_id=f"run-{i:05d}"))

    run_ids = [e.run_id for e in episodes.export("acme")]

    assert sorted(run_ids) == [f"run-{i:05d}" for i in range(1_201)]


def test_forget_deletes_every_episode_of_the_tenant_and_counts_them(
    episodes: EpisodeStore,
) -> None:
    episodes.add(episode(agent_id="agent-1", run_id="a"))
    episodes.add(episode(agent_id="agent-2", run_id="b"))
    episodes.add(episode(agent_id="agent-2", run_id="expired", expires_at=NOW - DAY))

    assert episodes.forget("acme") == 3
    assert list(episodes.export("acme")) == []


def test_forget_leaves_lookalike_tenants_untouched(episodes: EpisodeStore) -> None:
    lookalikes = ["acme2", "acm", "acme-x", "acme.x", "ACME"]
    episodes.add(episode(tenant_id="acme"))
    for tenant in lookalikes:
        episodes.add(episode(tenant_id=tenant))

    episodes.forget("acme")

    for tenant in lookalikes:
        assert episodes.get(tenant, "agent-1", "run-1", now=NOW) is not None, tenant


def test_forget_of_an_unknown_tenant_returns_zero(episodes: EpisodeStore) -> None:
    episodes.add(episode(tenant_id="acme"))

    assert episodes.forget("globex") == 0


@pytest.mark.parametrize(
    "record",
    [episode(tenant_id="acme#agent-1"), episode(agent_id="agent#1")],
    ids=["tenant", "agent"],
)
def test_a_key_part_containing_the_separator_is_refused(
    episodes: EpisodeStore, record: Episode
) -> None:
    with pytest.raises(InvalidInput):
        episodes.add(record)


def test_a_malformed_cursor_is_refused(episodes: EpisodeStore) -> None:
    with pytest.raises(InvalidInput):
        episodes.recent("acme", "agent-1", now=NOW, limit=2, cursor="not a cursor")


def test_a_cursor_of_another_listing_is_refused(episodes: EpisodeStore) -> None:
    for i in range(3):
        episodes.add(episode(run_id=f"run-{i}", outcome="FAILED"))
    cursor = episodes.recent("acme", "agent-1", now=NOW, limit=1).cursor
    assert cursor is not None

    with pytest.raises(InvalidInput):
        episodes.failed_before(NOW, now=NOW, limit=1, cursor=cursor)


def test_a_limit_below_one_is_refused(episodes: EpisodeStore) -> None:
    with pytest.raises(InvalidInput):
        episodes.recent("acme", "agent-1", now=NOW, limit=0)


def test_export_returns_every_episode_once_across_many_pages(episodes: EpisodeStore) -> None:
    # Given more episodes than any one read returns
    for i in range(1_234):
        episodes.add(episode(run_id=f"run-{i:05d}"))
    # When exported
    run_ids = [e.run_id for e in episodes.export("acme")]
    # Then each appears exactly once
    assert sorted(run_ids) == [f"run-{i:05d}" for i in range(1_234)]


def _unit_vector(seed: int) -> StoredVector:
    return StoredVector("model-a", 4, bytes([1]) + bytes([0, 0, 128, 63]) + bytes([seed, 2, 3, 4]))


def test_units_round_trip_exactly(episodes: EpisodeStore) -> None:
    # Given an episode with message and finding units, with vectors and unicode text
    units = (
        EpisodeUnit("message", 0, "Hi — how's the MSA? 📦", "Ana", _unit_vector(1)),
        EpisodeUnit("message", 3, "Clause 7.3 caps liability", None, _unit_vector(2)),
        EpisodeUnit("finding", 0, "Cap is 0.5x fees", None, _unit_vector(3)),
    )
    episodes.add(episode(units=units))
    # When read back
    stored = episodes.get("acme", "agent-1", "run-1", now=NOW)
    # Then every unit is exactly as written
    assert stored is not None and stored.units == units


def test_an_episode_without_units_reads_back_without_units(episodes: EpisodeStore) -> None:
    episodes.add(episode())
    stored = episodes.get("acme", "agent-1", "run-1", now=NOW)
    assert stored is not None and stored.units == ()


def test_a_version_is_never_reused_for_another_set_of_episodes(episodes: EpisodeStore) -> None:
    # Given the agent's episodes changing: added, deleted, forgotten, added again
    sets: dict[str, set[frozenset[str]]] = {}

    def observe() -> None:
        run_ids = frozenset(e.run_id for e in episodes.export("acme"))
        sets.setdefault(episodes.version("acme", "agent-1"), set()).add(run_ids)

    observe()
    for change in (
        lambda: episodes.add(episode(run_id="run-1")),
        lambda: episodes.add(episode(run_id="run-2")),
        lambda: episodes.delete("acme", "agent-1", "run-1"),
        lambda: episodes.forget("acme"),
        lambda: episodes.add(episode(run_id="run-1")),
        lambda: episodes.add(episode(run_id="run-3")),
    ):
        change()
        observe()
    # Then a token always stands for one set of episodes (a cache keyed on it is never stale)
    assert all(len(stood_for) == 1 for stood_for in sets.values())
    assert len(sets) >= 5


def test_version_of_one_agent_ignores_another_agents_changes(episodes: EpisodeStore) -> None:
    episodes.add(episode(agent_id="agent-1"))
    before = episodes.version("acme", "agent-1")
    episodes.add(episode(agent_id="agent-2"))
    episodes.add(episode(tenant_id="acme2", agent_id="agent-1"))
    assert episodes.version("acme", "agent-1") == before


def test_count_by_outcome_counts_every_tenants_unexpired_episodes(
    episodes: EpisodeStore,
) -> None:
    # Given episodes of two tenants, one of them expired
    episodes.add(episode(run_id="a", outcome="COMPLETED"))
    episodes.add(episode(run_id="b", outcome="COMPLETED", agent_id="agent-2"))
    episodes.add(episode(run_id="c", outcome="FAILED"))
    episodes.add(episode(run_id="d", outcome="PARTIAL", tenant_id="acme2"))
    episodes.add(episode(run_id="gone", outcome="FAILED", expires_at=NOW - DAY))

    # When they are counted across tenants
    counts = episodes.count_by_outcome(now=NOW)

    # Then each outcome counts the live episodes only (absent outcomes may be missing)
    assert {k: v for k, v in counts.items() if v} == {"COMPLETED": 2, "FAILED": 1, "PARTIAL": 1}


def test_count_by_outcome_of_a_tenant_ignores_lookalike_tenants(episodes: EpisodeStore) -> None:
    episodes.add(episode(run_id="a", outcome="COMPLETED"))
    episodes.add(episode(run_id="b", outcome="FAILED", expires_at=NOW - DAY))
    for tenant in ("acme2", "acm", "ACME"):
        episodes.add(episode(tenant_id=tenant, run_id="x", outcome="PARTIAL"))

    counts = episodes.count_by_outcome(now=NOW, tenant_id="acme")

    assert {k: v for k, v in counts.items() if v} == {"COMPLETED": 1}


def test_count_by_outcome_of_an_empty_store_counts_nothing(episodes: EpisodeStore) -> None:
    assert sum(episodes.count_by_outcome(now=NOW).values()) == 0
    assert sum(episodes.count_by_outcome(now=NOW, tenant_id="acme").values()) == 0


def test_count_by_outcome_counts_large_stores_completely(episodes: EpisodeStore) -> None:
    for i in range(450):
        episodes.add(episode(run_id=f"run-{i:04d}", agent_id=f"agent-{i % 7}"))

    assert episodes.count_by_outcome(now=NOW)["COMPLETED"] == 450
    assert episodes.count_by_outcome(now=NOW, tenant_id="acme")["COMPLETED"] == 450


def _run_ids(found: list[Episode] | None) -> list[str] | None:
    return None if found is None else [e.run_id for e in found]


def test_changes_since_are_the_additions_and_the_version_now(episodes: EpisodeStore) -> None:
    # Given an agent's episodes and a token taken after the first one
    episodes.add(episode(run_id="old", created_at=NOW - 3 * DAY))
    token = episodes.version("acme", "agent-1")
    # When episodes are added after it: to the agent (one already expired) and to another
    episodes.add(episode(run_id="late", created_at=NOW - 5 * DAY))
    episodes.add(episode(run_id="new", created_at=NOW - DAY))
    episodes.add(episode(run_id="gone", created_at=NOW - DAY / 2, expires_at=NOW - 1))
    episodes.add(episode(run_id="other", agent_id="agent-2"))
    changes = episodes.changes_since("acme", "agent-1", token, now=NOW, limit=10)
    # Then the store answers with exactly the agent's live additions, newest first, and the
    # token it is at now
    assert _run_ids(changes.added) == ["new", "late"]
    assert changes.version == episodes.version("acme", "agent-1") != token
    # And from that token, nothing has changed
    unchanged = episodes.changes_since("acme", "agent-1", changes.version, now=NOW, limit=10)
    assert (unchanged.version, unchanged.added) == (changes.version, [])


@pytest.mark.parametrize("change", ["delete", "forget", "rewrite", "too many", "foreign token"])
def test_changes_since_hold_no_additions_after_anything_but_additions(
    episodes: EpisodeStore, change: str
) -> None:
    # Given a token over two episodes
    episodes.add(episode(run_id="a", units=(EpisodeUnit("message", 0, "hi", speaker="user"),)))
    episodes.add(episode(run_id="b"))
    token = episodes.version("acme", "agent-1")
    # When anything but a few additions happens after it
    if change == "delete":
        episodes.delete("acme", "agent-1", "a")
    elif change == "forget":
        episodes.forget("acme")
    elif change == "rewrite":
        stored = episodes.get("acme", "agent-1", "a", now=NOW)
        assert stored is not None
        assert episodes.set_vectors(stored)
    elif change == "too many":
        for number in range(3):
            episodes.add(episode(run_id=f"c{number}"))
    else:
        token = "not-a-token-of-this-store"
    episodes.add(episode(run_id="d"))
    changes = episodes.changes_since("acme", "agent-1", token, now=NOW, limit=2)
    # Then the store cannot answer with additions: the episodes must be read again; it still
    # tells the token it is at now
    assert changes.added is None
    assert changes.version == episodes.version("acme", "agent-1")


def test_changes_since_refuse_a_limit_below_one(episodes: EpisodeStore) -> None:
    token = episodes.version("acme", "agent-1")
    with pytest.raises(InvalidInput, match="limit"):
        episodes.changes_since("acme", "agent-1", token, now=NOW, limit=0)


# --- episodes at the policy's bounds ---------------------------------------------------------
# 1,024 dimensions (Titan Text Embeddings v2) stored as int8: 1,029 bytes per vector.
_TITAN = "amazon.titan-embed-text-v2:0"
_NEXT_MODEL = "cohere.embed-multilingual-v3"


def _titan_vector(seed: int, model_id: str = _TITAN) -> StoredVector:
    # A stored int8 vector: tag, float32 scale, then one byte per dimension.
    body = bytes((seed * 31 + i * 7) % 251 for i in range(1_024))
    return StoredVector(model_id, 1_024, bytes([1]) + bytes([0, 0, 128, 60]) + body)


def _large_episode(count: int, chars: int, *, spare: bool = False, **overrides: object) -> Episode:
    """An episode of ``count`` message units of ``chars`` characters (some 4-byte UTF-8), each
    with a 1,024-dim vector and, with ``spare``, a second model's vector too."""
    units = tuple(
        EpisodeUnit(
            "message",
            i,
            (f"{i:04d} 📨 " + "ü" * chars)[:chars],
            "user" if i % 2 else "assistant",
            _titan_vector(i),
            _titan_vector(i + 1, _NEXT_MODEL) if spare else None,
        )
        for i in range(count)
    )
    return episode(units=units, embedding=_titan_vector(0), **overrides)


@pytest.mark.parametrize(
    ("count", "chars", "spare"),
    [(280, 357, False), (100, 1_000, True), (200, 500, True)],
    ids=["280x357", "100x1000-reembedding", "200x500-reembedding"],
)
def test_an_episode_within_the_policy_bounds_round_trips_through_every_read(
    episodes: EpisodeStore, count: int, chars: int, spare: bool
) -> None:
    # Given an agent with one small episode, and a version token taken after it
    small = episode(run_id="small", created_at=NOW - 3 * DAY)
    episodes.add(small)
    token = episodes.version("acme", "agent-1")
    # When an episode the policy allows (EpisodicPolicy: 300 units of at most 1,000
    # characters, 100,000 in all) whose item would pass DynamoDB's 400 KB is written
    stored = _large_episode(count, chars, spare=spare)
    assert episodes.add(stored) is True
    # Then every read returns it whole
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored
    assert episodes.recent("acme", "agent-1", now=NOW, limit=5).items == (stored, small)
    assert sorted(episodes.export("acme"), key=lambda e: e.run_id) == [stored, small]
    assert set(episodes.list_all(now=NOW, limit=5).items) == {stored, small}
    assert episodes.changes_since("acme", "agent-1", token, now=NOW, limit=5).added == [stored]
    # And a redelivery writes nothing again
    assert episodes.add(stored) is False
    assert episodes.count_by_outcome(now=NOW) == {"COMPLETED": 2}


def test_a_large_failed_episode_is_listed_for_decay_whole_and_deleted_whole(
    episodes: EpisodeStore,
) -> None:
    # Given a FAILED episode at the policy's unit bounds, beside a small one
    large = _large_episode(280, 357, outcome="FAILED")
    episodes.add(large)
    episodes.add(episode(run_id="small"))
    # When decay lists it and deletes it
    assert episodes.failed_before(NOW, now=NOW, limit=5).items == (large,)
    assert episodes.delete("acme", "agent-1", "run-1") is True
    # Then it is gone from every read, and the small one is untouched
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is None
    assert [e.run_id for e in episodes.export("acme")] == ["small"]
    assert episodes.delete("acme", "agent-1", "run-1") is False


def test_a_re_embedding_grows_and_shrinks_a_large_episode_without_loss(
    episodes: EpisodeStore,
) -> None:
    # Given an episode of 200 units of 300 characters that fits one item (no spare vectors)
    stored = _large_episode(200, 300)
    episodes.add(stored)
    token = episodes.version("acme", "agent-1")
    # When a re-embedding gives every unit a spare vector (the item would pass 400 KB)
    both = _large_episode(200, 300, spare=True)
    assert episodes.set_vectors(both) is True
    # Then the episode reads back with both vectors of every unit
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == both
    assert episodes.list_all(now=NOW, limit=5).items == (both,)
    # And when the migration ends (new vectors only), it reads back with those alone
    moved = replace(
        both,
        units=tuple(
            replace(u, embedding=u.spare_embedding, spare_embedding=None) for u in both.units
        ),
    )
    assert episodes.set_vectors(moved) is True
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == moved
    # And each rewrite told caches to read again
    assert episodes.changes_since("acme", "agent-1", token, now=NOW, limit=5).added is None
    # And other units never match
    other = replace(moved, units=moved.units[:-1])
    assert episodes.set_vectors(other) is False


def test_forget_deletes_large_episodes_whole(episodes: EpisodeStore) -> None:
    # Given a tenant with a large episode and a small one, and a lookalike tenant
    episodes.add(_large_episode(200, 500, spare=True))
    episodes.add(episode(run_id="small"))
    episodes.add(_large_episode(200, 500, tenant_id="acme2"))
    # When the tenant is forgotten
    # Then both episodes are counted and gone, and the lookalike keeps its own
    assert episodes.forget("acme") == 2
    assert list(episodes.export("acme")) == []
    assert episodes.get("acme2", "agent-1", "run-1", now=NOW) is not None


def test_agents_are_the_tenants_agents_with_episodes_sorted(episodes: EpisodeStore) -> None:
    # Given episodes of three agents of acme, one of them with two
    for agent, run in [("reviewer", "a"), ("analyst", "b"), ("reviewer", "c"), ("coder", "d")]:
        episodes.add(episode(agent_id=agent, run_id=run))
    # When the tenant's agents are listed
    agents = episodes.agents("acme")
    # Then each is named once, in order
    assert agents == ["analyst", "coder", "reviewer"]


def test_agents_never_name_another_tenants_agent(episodes: EpisodeStore) -> None:
    # Given agents of acme and of lookalike tenants (a shared prefix, another case)
    episodes.add(episode(tenant_id="acme", agent_id="mine"))
    for tenant in ["acme2", "acm", "acme-x", "ACME", "globex"]:
        episodes.add(episode(tenant_id=tenant, agent_id=f"of-{tenant}"))
    # When acme's agents and an unknown tenant's are listed
    # Then acme sees its own agent alone, and the unknown tenant none
    assert episodes.agents("acme") == ["mine"]
    assert episodes.agents("initech") == []


def test_a_forgotten_tenant_has_no_agents(episodes: EpisodeStore) -> None:
    # Given a tenant with two agents and another tenant with one
    episodes.add(episode(agent_id="agent-1", run_id="a"))
    episodes.add(episode(agent_id="agent-2", run_id="b"))
    episodes.add(episode(tenant_id="globex", agent_id="agent-3", run_id="c"))
    # When the first tenant is forgotten
    episodes.forget("acme")
    # Then it lists no agent, and the other tenant keeps its own
    assert episodes.agents("acme") == []
    assert episodes.agents("globex") == ["agent-3"]
    # And an agent writing again afterwards is listed anew
    episodes.add(episode(agent_id="agent-2", run_id="d"))
    assert episodes.agents("acme") == ["agent-2"]


def test_versions_are_each_agents_version_read_together(episodes: EpisodeStore) -> None:
    # Given two agents with episodes, one never written, and another tenant's agent
    episodes.add(episode(agent_id="agent-1", run_id="a"))
    episodes.add(episode(agent_id="agent-2", run_id="b"))
    episodes.add(episode(tenant_id="globex", agent_id="agent-1", run_id="c"))
    agents = ["agent-1", "agent-2", "nobody"]
    # When their versions are read together
    together = episodes.versions("acme", agents)
    # Then each is the token version() gives, one per agent asked
    assert together == {agent: episodes.version("acme", agent) for agent in agents}
    # And a change of one agent moves its token alone
    episodes.add(episode(agent_id="agent-2", run_id="d"))
    after = episodes.versions("acme", agents)
    assert after["agent-2"] != together["agent-2"]
    assert {a: after[a] for a in ("agent-1", "nobody")} == {
        a: together[a] for a in ("agent-1", "nobody")
    }
    assert episodes.versions("acme", []) == {}
