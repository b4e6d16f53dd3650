"""The storage contract of an embedding-model migration, for every adapter: a second vector per
record (episodes' summary and units, facts), store-wide listings, and reads in a model's space.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

import pytest

from agent_memory.adapters.aws.dynamodb_episodes import DynamoDbEpisodeStore
from agent_memory.adapters.aws.dynamodb_facts import DynamoDbFactStore
from agent_memory.adapters.aws.dynamodb_schema import EPISODES, FACTS
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Episode, EpisodeUnit, FactStatus, StoredVector
from agent_memory.core.ports import EpisodeStore, FactStore
from tests.contract.builders import DAY, NOW, all_pages, episode, observation
from tests.integration.aws.moto_dynamodb import mocked_tables
from tests.support.in_memory import MemoryDatabase, MemoryEpisodeStore, MemoryFactStore

OLD = StoredVector("model-old", 4, b"\x01old-vector")
NEW = StoredVector("model-new", 2, b"\x01new")
OLD_UNIT = StoredVector("model-old", 4, b"\x01old-unit")
NEW_UNIT = StoredVector("model-new", 2, b"\x01nu")


UNIT_KEYS: tuple[tuple[Literal["message", "finding"], int], ...] = (
    ("message", 0),
    ("message", 1),
    ("finding", 0),
)


def units(*, old: bool = True, new: bool = False) -> tuple[EpisodeUnit, ...]:
    return tuple(
        EpisodeUnit(
            kind,
            seq,
            f"{kind} {seq}",
            speaker="ana" if kind == "message" else None,
            embedding=OLD_UNIT if old else None,
            spare_embedding=NEW_UNIT if new else None,
        )
        for kind, seq in UNIT_KEYS
    )


def migrated(stored: Episode) -> Episode:
    """``stored`` with the new model's vectors beside the old ones."""
    return replace(stored, spare_embedding=NEW, units=units(new=True))


# --- episodes ----------------------------------------------------------------------------------


def test_spare_vectors_of_an_episode_round_trip(episodes: EpisodeStore) -> None:
    stored = migrated(episode(embedding=OLD, units=units()))
    episodes.add(stored)

    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_set_vectors_writes_both_slots_and_nothing_else(episodes: EpisodeStore) -> None:
    # Given an episode with the old model's vectors
    stored = episode(embedding=OLD, units=units(), key_findings=("f",), domain="billing")
    episodes.add(stored)
    # When the new model's vectors are written beside them
    assert episodes.set_vectors(migrated(stored)) is True
    # Then it reads back with both, every other field as it was
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == migrated(stored)


def test_set_vectors_replaces_and_clears_slots(episodes: EpisodeStore) -> None:
    stored = migrated(episode(embedding=OLD, units=units()))
    episodes.add(stored)
    only_new = replace(
        stored,
        embedding=NEW,
        spare_embedding=None,
        units=tuple(replace(u, embedding=NEW_UNIT, spare_embedding=None) for u in stored.units),
    )

    assert episodes.set_vectors(only_new) is True
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == only_new


def test_set_vectors_of_an_episode_without_units_or_vectors(episodes: EpisodeStore) -> None:
    stored = episode()
    episodes.add(stored)

    assert episodes.set_vectors(replace(stored, embedding=NEW)) is True
    assert episodes.set_vectors(stored) is True
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_set_vectors_of_a_missing_episode_writes_nothing(episodes: EpisodeStore) -> None:
    assert episodes.set_vectors(episode(embedding=NEW)) is False
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) is None


def test_set_vectors_with_other_units_is_refused(episodes: EpisodeStore) -> None:
    # Vectors computed for other unit texts must not land on these.
    stored = episode(embedding=OLD, units=units())
    episodes.add(stored)
    other = replace(migrated(stored), units=migrated(stored).units[:2])

    assert episodes.set_vectors(other) is False
    assert episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_set_vectors_moves_the_agents_version(episodes: EpisodeStore) -> None:
    # Caches of the agent's episodes must look again: a search may now find new vectors.
    stored = episode(embedding=OLD, units=units())
    episodes.add(stored)
    before = episodes.version("acme", "agent-1")

    episodes.set_vectors(migrated(stored))

    assert episodes.version("acme", "agent-1") != before


def test_list_all_pages_every_tenants_unexpired_episodes_once(episodes: EpisodeStore) -> None:
    # Given episodes of three tenants and two agents, one of them expired
    expected = set()
    for i in range(9):
        tenant, agent = f"t{i % 3}", f"agent-{i % 2}"
        episodes.add(episode(tenant_id=tenant, agent_id=agent, run_id=f"run-{i}"))
        expected.add((tenant, agent, f"run-{i}"))
    episodes.add(episode(run_id="expired", expires_at=NOW))
    # When every page is read
    pages = all_pages(lambda c: episodes.list_all(now=NOW, limit=4, cursor=c))
    # Then each live episode appears exactly once, and no page is over the limit
    listed = [(e.tenant_id, e.agent_id, e.run_id) for p in pages for e in p.items]
    assert sorted(listed) == sorted(expected)
    assert all(len(p.items) <= 4 for p in pages)


def test_list_all_keeps_its_place_while_episodes_are_rewritten(episodes: EpisodeStore) -> None:
    # Given episodes rewritten page by page, as the migration does
    for i in range(7):
        episodes.add(episode(tenant_id=f"t{i % 2}", run_id=f"run-{i}", embedding=OLD))
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page = episodes.list_all(now=NOW, limit=3, cursor=cursor)
        for e in page.items:
            assert episodes.set_vectors(replace(e, spare_embedding=NEW))
            seen.append(e.run_id)
        if page.cursor is None:
            break
        cursor = page.cursor

    assert sorted(seen) == [f"run-{i}" for i in range(7)]
    listed = episodes.list_all(now=NOW, limit=20).items
    assert all(e.spare_embedding == NEW for e in listed)


def test_list_all_of_an_empty_store_is_one_empty_page(episodes: EpisodeStore) -> None:
    assert episodes.list_all(now=NOW, limit=5) == episodes.list_all(now=NOW, limit=5, cursor=None)
    assert episodes.list_all(now=NOW, limit=5).items == ()
    assert episodes.list_all(now=NOW, limit=5).cursor is None


def test_list_all_refuses_a_cursor_of_another_listing(episodes: EpisodeStore) -> None:
    for i in range(3):
        episodes.add(episode(run_id=f"run-{i}"))
    recent = episodes.recent("acme", "agent-1", now=NOW, limit=1).cursor
    assert recent is not None

    with pytest.raises(InvalidInput):
        episodes.list_all(now=NOW, limit=1, cursor=recent)


# --- facts -------------------------------------------------------------------------------------


def test_set_vectors_of_a_fact_writes_both_slots_and_nothing_else(facts: FactStore) -> None:
    fact = facts.observe(observation(embedding=OLD))
    facts.observe(observation(run_id="run-2", seen_at=NOW + 1))
    current = facts.get("acme", "billing", "h-1")
    assert current is not None

    assert facts.set_vectors(replace(current, spare_embedding=NEW)) is True
    assert facts.get("acme", "billing", "h-1") == replace(current, spare_embedding=NEW)
    assert fact.embedding == OLD


def test_set_vectors_of_a_missing_fact_or_other_content_writes_nothing(facts: FactStore) -> None:
    fact = facts.observe(observation(embedding=OLD))

    assert facts.set_vectors(replace(fact, fact_hash="h-missing", spare_embedding=NEW)) is False
    assert facts.set_vectors(replace(fact, content="another text", spare_embedding=NEW)) is False
    assert facts.get("acme", "billing", "h-missing") is None
    assert facts.get("acme", "billing", "h-1") == fact


def test_a_sighting_after_set_vectors_keeps_the_vectors(facts: FactStore) -> None:
    fact = facts.observe(observation(embedding=OLD))
    facts.set_vectors(replace(fact, embedding=NEW, spare_embedding=OLD))

    after = facts.observe(observation(run_id="run-2", seen_at=NOW + 1, embedding=OLD))

    assert (after.embedding, after.spare_embedding) == (NEW, OLD)
    assert after.run_ids == {"run-1", "run-2"}


def test_list_all_pages_every_fact_of_every_tenant_and_status_once(facts: FactStore) -> None:
    expected = set()
    for i in range(8):
        tenant, domain = f"t{i % 3}", f"d{i % 2}"
        facts.observe(observation(tenant_id=tenant, domain=domain, fact_hash=f"h-{i}"))
        expected.add((tenant, domain, f"h-{i}"))
    facts.confirm("t0", "d0", "h-0", now=NOW)

    pages = all_pages(lambda c: facts.list_all(limit=3, cursor=c))

    listed = [(f.tenant_id, f.domain, f.fact_hash) for p in pages for f in p.items]
    assert sorted(listed) == sorted(expected)
    assert all(len(p.items) <= 3 for p in pages)
    statuses = {f.fact_hash: f.status for p in pages for f in p.items}
    assert statuses["h-0"] is FactStatus.CONFIRMED


def test_list_all_of_facts_refuses_a_cursor_of_another_listing(facts: FactStore) -> None:
    for i in range(3):
        facts.observe(observation(fact_hash=f"h-{i}", seen_at=NOW - DAY))
    stale = facts.pending_seen_before(NOW, limit=1).cursor
    assert stale is not None

    with pytest.raises(InvalidInput):
        facts.list_all(limit=1, cursor=stale)


# --- reads in a model's space ------------------------------------------------------------------


@dataclass(frozen=True)
class Spaces:
    """One adapter's stores over one storage: plain, and read in the new model's space."""

    episodes: EpisodeStore
    facts: FactStore
    new_episodes: EpisodeStore
    new_facts: FactStore


@contextmanager
def sqlite_spaces(tmp_path: Path) -> Iterator[Spaces]:
    db = SqliteDatabase(tmp_path / "memory.db")
    try:
        yield Spaces(
            SqliteEpisodeStore(db),
            SqliteFactStore(db),
            SqliteEpisodeStore(db, active_model=NEW.model_id),
            SqliteFactStore(db, active_model=NEW.model_id),
        )
    finally:
        db.close()


@contextmanager
def dynamodb_spaces(tmp_path: Path) -> Iterator[Spaces]:
    del tmp_path
    with mocked_tables() as tables:
        client, episodes, facts = tables.client, tables.name(EPISODES), tables.name(FACTS)
        yield Spaces(
            DynamoDbEpisodeStore(client, episodes),
            DynamoDbFactStore(client, facts),
            DynamoDbEpisodeStore(client, episodes, active_model=NEW.model_id),
            DynamoDbFactStore(client, facts, active_model=NEW.model_id),
        )


@contextmanager
def memory_spaces(tmp_path: Path) -> Iterator[Spaces]:
    del tmp_path
    db = MemoryDatabase()
    yield Spaces(
        MemoryEpisodeStore(db),
        MemoryFactStore(db),
        MemoryEpisodeStore(db, active_model=NEW.model_id),
        MemoryFactStore(db, active_model=NEW.model_id),
    )


@pytest.fixture(params=["dynamodb", "memory", "sqlite"])
def spaces(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Spaces]:
    factory = {"sqlite": sqlite_spaces, "dynamodb": dynamodb_spaces, "memory": memory_spaces}[
        request.param
    ]
    with factory(tmp_path) as built:
        yield built


def test_a_store_read_in_a_models_space_presents_that_models_vectors(spaces: Spaces) -> None:
    # Given an episode and a fact holding the old model's vectors with the new one's as spares
    stored = migrated(episode(embedding=OLD, units=units()))
    spaces.episodes.add(stored)
    fact = spaces.facts.observe(observation(embedding=OLD))
    spaces.facts.set_vectors(replace(fact, spare_embedding=NEW))
    spaces.facts.confirm("acme", "billing", "h-1", now=NOW)
    # When they are read by a store in the new model's space, whatever the listing
    read = [
        spaces.new_episodes.get("acme", "agent-1", "run-1", now=NOW),
        *spaces.new_episodes.recent("acme", "agent-1", now=NOW, limit=5).items,
        *spaces.new_episodes.list_all(now=NOW, limit=5).items,
    ]
    read_facts = [
        spaces.new_facts.get("acme", "billing", "h-1"),
        *spaces.new_facts.fast_path("acme", None),
        *spaces.new_facts.list_all(limit=5).items,
    ]
    # Then the new model's vectors are the ones searches compare, the old ones the spares
    for e in read:
        assert e is not None and (e.embedding, e.spare_embedding) == (NEW, OLD)
        assert all((u.embedding, u.spare_embedding) == (NEW_UNIT, OLD_UNIT) for u in e.units)
    for f in read_facts:
        assert f is not None and (f.embedding, f.spare_embedding) == (NEW, OLD)
    # And a plain store still reads them as stored
    assert spaces.episodes.get("acme", "agent-1", "run-1", now=NOW) == stored


def test_a_record_without_the_models_vectors_is_read_as_stored(spaces: Spaces) -> None:
    # A search in the new space then skips it: nothing of another model is presented as its own.
    stored = episode(embedding=OLD, units=units())
    spaces.episodes.add(stored)

    assert spaces.new_episodes.get("acme", "agent-1", "run-1", now=NOW) == stored
