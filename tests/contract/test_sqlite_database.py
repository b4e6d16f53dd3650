"""What only the SQLite adapter promises: WAL, schema versioning, locks as TransientError."""

from __future__ import annotations

import gc
import sqlite3
import threading
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.local.sqlite_episodes import SqliteEpisodeStore
from agent_memory.adapters.local.sqlite_facts import SqliteFactStore
from agent_memory.adapters.local.sqlite_ledger import SqliteLedger
from agent_memory.adapters.local.sqlite_schema import MIGRATIONS, SCHEMA_VERSION
from agent_memory.core.model.errors import InvalidInput, StoreUnavailable, TransientError
from tests.contract.builders import NOW, episode, in_threads, observation


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "memory.db"


@pytest.fixture
def db(path: Path) -> Iterator[SqliteDatabase]:
    with SqliteDatabase(path, busy_timeout=0.05) as database:
        yield database


@pytest.fixture
def write_lock(path: Path, db: SqliteDatabase) -> Iterator[sqlite3.Connection]:
    """Another process's connection, holding the write lock for the whole test."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    yield other
    other.execute("ROLLBACK")
    other.close()


def test_the_file_is_in_wal_mode(db: SqliteDatabase) -> None:
    row = db.fetchone("PRAGMA journal_mode")

    assert row is not None
    assert row[0] == "wal"


def test_the_schema_version_is_recorded(db: SqliteDatabase) -> None:
    assert db.schema_version() == SCHEMA_VERSION


def test_reopening_the_file_keeps_the_data_and_the_version(path: Path) -> None:
    with SqliteDatabase(path) as first:
        SqliteEpisodeStore(first).add(episode())

    with SqliteDatabase(path) as second:
        assert SqliteEpisodeStore(second).get("acme", "agent-1", "run-1", now=NOW) == episode()
        assert second.schema_version() == SCHEMA_VERSION


def test_a_file_from_a_newer_version_is_refused(path: Path) -> None:
    with SqliteDatabase(path) as db:
        db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))

    with pytest.raises(StoreUnavailable, match="schema version"):
        SqliteDatabase(path)


def test_a_write_blocked_past_the_busy_timeout_raises_transient_error(
    db: SqliteDatabase, write_lock: sqlite3.Connection
) -> None:
    with pytest.raises(TransientError):
        SqliteEpisodeStore(db).add(episode())


def test_an_observe_blocked_past_the_busy_timeout_raises_transient_error(
    db: SqliteDatabase, write_lock: sqlite3.Connection
) -> None:
    with pytest.raises(TransientError):
        SqliteFactStore(db).observe(observation())


def test_reads_proceed_while_another_connection_holds_the_write_lock(
    db: SqliteDatabase, path: Path
) -> None:
    SqliteEpisodeStore(db).add(episode())
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        assert SqliteEpisodeStore(db).get("acme", "agent-1", "run-1", now=NOW) is not None
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_write_waits_for_a_lock_released_within_the_busy_timeout(path: Path) -> None:
    # Given another connection releasing the write lock well within the busy timeout
    with SqliteDatabase(path, busy_timeout=5.0) as db:
        other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        timer = threading.Timer(0.1, lambda: other.execute("ROLLBACK"))
        timer.start()
        try:
            assert SqliteEpisodeStore(db).add(episode()) is True
        finally:
            timer.join()
            other.close()


def test_a_failed_write_transaction_leaves_no_trace(db: SqliteDatabase) -> None:
    with pytest.raises(ZeroDivisionError), db.write() as conn:
        conn.execute("INSERT INTO ledger (key, value) VALUES (?, ?)", ("k", "{}"))
        _ = 1 / 0

    assert SqliteLedger(db).get("k", now=NOW) is None


def test_each_thread_gets_its_own_connection(db: SqliteDatabase) -> None:
    connections = in_threads(lambda _: id(db.connection()), range(4), workers=4)

    assert id(db.connection()) not in connections


def test_a_finished_thread_releases_its_connection(db: SqliteDatabase) -> None:
    refs = in_threads(lambda _: weakref.ref(db.connection()), range(4), workers=4)
    gc.collect()

    assert all(ref() is None for ref in refs)


def test_the_parent_directory_is_created(tmp_path: Path) -> None:
    with SqliteDatabase(tmp_path / "new" / "home" / "memory.db") as db:
        assert db.schema_version() == SCHEMA_VERSION


def test_observes_through_two_database_objects_count_each_run_once(path: Path) -> None:
    # Given two independent openings of one file, as two processes would have
    with SqliteDatabase(path) as first, SqliteDatabase(path) as second:
        stores = [SqliteFactStore(first), SqliteFactStore(second)]
        deliveries = [(stores[i % 2], f"run-{i % 15}") for i in range(60)]

        in_threads(lambda d: d[0].observe(observation(run_id=d[1])), deliveries, workers=10)

        fact = stores[0].get("acme", "billing", "h-1")
    assert fact is not None
    assert fact.run_ids == {f"run-{i}" for i in range(15)}


def test_ledger_purge_expired_removes_expired_records_up_to_limit(db: SqliteDatabase) -> None:
    ledger = SqliteLedger(db)
    for i in range(3):
        ledger.put(f"old-{i}", {}, now=NOW, expires_at=NOW - i)
    ledger.put("live", {}, now=NOW, expires_at=NOW + 1)
    ledger.put("forever", {}, now=NOW, expires_at=None)

    purged = ledger.purge_expired(NOW, limit=2)

    assert purged == 2
    assert sorted(k for k, _ in ledger.scan("")) == ["forever", "live", "old-0"]


def test_ledger_refuses_values_json_cannot_carry(db: SqliteDatabase) -> None:
    with pytest.raises(InvalidInput):
        SqliteLedger(db).put("k", {"score": float("nan")}, now=NOW, expires_at=None)


def test_a_closed_database_refuses_further_use(path: Path) -> None:
    db = SqliteDatabase(path)
    db.close()

    with pytest.raises(RuntimeError):
        db.connection()


def test_sqlite_answers_with_the_episodes_added_since_a_token(db: SqliteDatabase) -> None:
    # Given an agent's episode and a token taken after it
    episodes = SqliteEpisodeStore(db)
    episodes.add(episode(run_id="a"))
    token = episodes.version("acme", "agent-1")
    # When two more are added
    episodes.add(episode(run_id="b", created_at=NOW - 2))
    episodes.add(episode(run_id="c", created_at=NOW - 1))
    found = episodes.changes_since("acme", "agent-1", token, now=NOW, limit=5).added
    # Then the store tells which, newest first (the contract also allows None)
    assert found is not None
    assert [e.run_id for e in found] == ["c", "b"]


def test_a_version_3_file_takes_in_additions_after_its_migration(path: Path) -> None:
    # Given a file at schema version 3 holding an episode
    with SqliteDatabase(path) as db:
        SqliteEpisodeStore(db).add(episode(run_id="before"))
    as_of_version(path, 3)
    # When this code opens it, and an episode is added after a token
    with SqliteDatabase(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
        episodes = SqliteEpisodeStore(db)
        token = episodes.version("acme", "agent-1")
        episodes.add(episode(run_id="after"))
        found = episodes.changes_since("acme", "agent-1", token, now=NOW, limit=5).added
        # Then the older episode is still read, and only the new one counts as added
        assert episodes.get("acme", "agent-1", "before", now=NOW) is not None
    assert found is not None
    assert [e.run_id for e in found] == ["after"]


def as_of_version(path: Path, version: int) -> None:
    """Rewrite the closed database at ``path`` as a release at schema ``version`` left it: only
    that version's migrations applied, its tables holding the rows and columns they had then.
    """
    current = path.with_name(f"{path.name}.current")
    path.rename(current)
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
        for number in range(1, version + 1):
            for statement in MIGRATIONS[number]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version (version) VALUES (?)", (number,))
        conn.execute("ATTACH DATABASE ? AS current", (str(current),))
        tables = conn.execute("SELECT name FROM main.sqlite_master WHERE type = 'table'")
        for (table,) in tables.fetchall():
            if table == "schema_version":
                continue
            then = [row[1] for row in conn.execute(f"PRAGMA main.table_info({table})")]
            now = {row[1] for row in conn.execute(f"PRAGMA current.table_info({table})")}
            columns = ", ".join(c for c in then if c in now)
            conn.execute(
                f"INSERT OR REPLACE INTO main.{table} ({columns}) "
                f"SELECT {columns} FROM current.{table}"
            )
    finally:
        conn.close()


def test_a_version_4_file_counts_each_facts_log_as_one_confirmation(path: Path) -> None:
    # Given a file at schema version 4 holding a fact seen by two runs, never judged independent
    with SqliteDatabase(path) as db:
        for run_id in ("run-1", "run-2"):
            SqliteFactStore(db).observe(observation(run_id=run_id))
    as_of_version(path, 4)
    # When this code opens it, and another agent sees the fact
    with SqliteDatabase(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
        facts = SqliteFactStore(db)
        migrated = facts.get("acme", "billing", "h-1")
        after = facts.observe(observation(run_id="run-3", agent_id="agent-2"))
    # Then its log counted once, with no agent named, and the new agent's run counts on top
    assert migrated is not None
    assert (migrated.sightings, migrated.confirmations, migrated.counted_by) == (2, 1, ())
    assert (after.sightings, after.confirmations, after.counted_by) == (3, 2, (("agent-2", NOW),))
