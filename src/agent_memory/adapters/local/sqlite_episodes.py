"""Episodic memory in SQLite: one row per (tenant#agent, run_id), expired rows hidden on read."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from typing import cast

from agent_memory.adapters.local.sqlite_codec import (
    decode_strings,
    encode_strings,
    tenant_key_range,
    vector_columns,
    vector_from,
)
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.adapters.unit_codec import pack_spare_units, pack_units, unpack_units
from agent_memory.core.model.episode_versions import EpisodeChanges, EpisodeVersion, changes_since
from agent_memory.core.model.keys import partition_key
from agent_memory.core.model.models import Episode, Outcome
from agent_memory.core.ports import Page

_VECTOR_COLUMNS = (
    "embedding_model",
    "embedding_dimension",
    "embedding",
    "unit_model",
    "unit_dimension",
    "unit_vectors",
    "spare_embedding_model",
    "spare_embedding_dimension",
    "spare_embedding",
    "unit_spare_model",
    "unit_spare_dimension",
    "unit_spare_vectors",
)
_COLUMNS = (
    "pk, run_id, tenant_id, agent_id, task, task_summary, outcome, created_at, expires_at, "
    "task_type, domain, key_findings, approach_used, tools_used, reusable_patterns, units, "
    + ", ".join(_VECTOR_COLUMNS)
)
_PLACEHOLDERS = ", ".join("?" for _ in _COLUMNS.split(","))
# An agent's version row: the generation of its last change, of its last change that was more
# than an addition, and how many tenants the store forgot.
_VERSION_ROW = (
    "SELECT (SELECT generation FROM episode_versions WHERE pk = ?1) AS generation, "
    "(SELECT rewritten FROM episode_versions WHERE pk = ?1) AS rewritten, "
    "forgets FROM store_generation WHERE id = 1"
)

# Bound parameters per statement, well under SQLite's smallest default limit (999).
_MAX_PARAMETERS = 500
# The distinct partition keys in [?1, ?2), each found from the last by the key index.
_AGENTS = (
    "WITH RECURSIVE agent(pk) AS ("
    "SELECT (SELECT MIN(pk) FROM episodes WHERE pk >= ?1 AND pk < ?2) "
    "UNION ALL SELECT (SELECT MIN(pk) FROM episodes WHERE pk > agent.pk AND pk < ?2) "
    "FROM agent WHERE agent.pk IS NOT NULL"
    ") SELECT pk FROM agent WHERE pk IS NOT NULL ORDER BY pk"
)


class SqliteEpisodeStore:
    """``EpisodeStore`` over a :class:`SqliteDatabase`; TTL is applied on read, like DynamoDB's.

    ``recent`` orders by ``created_at`` then ``run_id``, both descending; ``failed_before`` by
    ``created_at`` ascending. Cursors are keyset positions, so deleting rows between pages
    never skips or repeats one. Episodes are read in ``active_model``'s space when given
    (:meth:`Episode.in_space`): the embedding model the process searches with.
    """

    def __init__(self, db: SqliteDatabase, *, active_model: str | None = None) -> None:
        self._db = db
        self._model = active_model

    def _as_episode(self, row: sqlite3.Row) -> Episode:
        episode = self._db.decoded("episode", _episode, row)
        return episode if self._model is None else episode.in_space(self._model)

    def add(self, episode: Episode) -> bool:
        """Write the episode unless its key exists; True if this call wrote it."""
        pk = partition_key(episode.tenant_id, episode.agent_id)
        with self._db.write() as conn:
            changed = conn.execute(
                f"INSERT INTO episodes ({_COLUMNS}) VALUES ({_PLACEHOLDERS}) "
                "ON CONFLICT (pk, run_id) DO NOTHING",
                (
                    pk,
                    episode.run_id,
                    episode.tenant_id,
                    episode.agent_id,
                    episode.task,
                    episode.task_summary,
                    episode.outcome,
                    episode.created_at,
                    episode.expires_at,
                    episode.task_type,
                    episode.domain,
                    encode_strings(episode.key_findings),
                    episode.approach_used,
                    encode_strings(episode.tools_used),
                    encode_strings(episode.reusable_patterns),
                    pack_units(episode.units)[0],
                    *_vector_values(episode),
                ),
            ).rowcount
            if changed:
                conn.execute(
                    "UPDATE episodes SET added = ? WHERE pk = ? AND run_id = ?",
                    (_bump(conn, [pk], rewrite=False), pk, episode.run_id),
                )
        return changed == 1

    def agents(self, tenant_id: str) -> list[str]:
        """The tenant's agents with stored episodes: one skip through the key index, a step
        per agent (not per episode).
        """
        low, high = tenant_key_range(tenant_id)
        rows = self._db.fetchall(_AGENTS, (low, high))
        return [str(row["pk"])[len(low) :] for row in rows]

    def version(self, tenant_id: str, agent_id: str) -> str:
        """A token that changes whenever the agent's set of episodes changes."""
        row = self._db.fetchone(_VERSION_ROW, (partition_key(tenant_id, agent_id),))
        assert row is not None  # the schema inserts the one row
        return _version(row["forgets"], row).token

    def versions(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, str]:
        """Each agent's version token, from one read of the version rows."""
        keys = {partition_key(tenant_id, agent): agent for agent in agent_ids}
        if not keys:
            return {}
        found: dict[str, sqlite3.Row] = {}
        with self._db.read() as conn:
            (forgets,) = conn.execute(
                "SELECT forgets FROM store_generation WHERE id = 1"
            ).fetchone()
            for start in range(0, len(keys), _MAX_PARAMETERS):
                chunk = list(keys)[start : start + _MAX_PARAMETERS]
                rows = conn.execute(
                    "SELECT pk, generation, rewritten FROM episode_versions "
                    f"WHERE pk IN ({', '.join('?' for _ in chunk)})",
                    chunk,
                ).fetchall()
                found.update((row["pk"], row) for row in rows)
        return {agent: _version(forgets, found.get(pk)).token for pk, agent in keys.items()}

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and its unexpired episodes added after ``version``'s
        generation (the rule is ``episode_versions.changes_since``'s). One read transaction.
        """
        check_limit(limit)
        pk = partition_key(tenant_id, agent_id)
        with self._db.read() as conn:

            def added_after(generation: int, at_most: int) -> list[Episode]:
                rows = conn.execute(
                    f"SELECT {_COLUMNS} FROM episodes "
                    "WHERE pk = ? AND added > ? AND expires_at > ? LIMIT ?",
                    (pk, generation, now, at_most + 1),
                ).fetchall()
                return [self._as_episode(row) for row in rows]

            row = conn.execute(_VERSION_ROW, (pk,)).fetchone()
            current = _version(row["forgets"], row)
            return changes_since(current, version, now=now, limit=limit, added_after=added_after)

    def get(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> Episode | None:
        """Return the episode, or None if absent or expired (``expires_at <= now``)."""
        row = self._db.fetchone(
            f"SELECT {_COLUMNS} FROM episodes WHERE pk = ? AND run_id = ? AND expires_at > ?",
            (partition_key(tenant_id, agent_id), run_id, now),
        )
        return self._as_episode(row) if row is not None else None

    def recent(
        self,
        tenant_id: str,
        agent_id: str,
        *,
        now: float,
        limit: int,
        cursor: str | None = None,
        since: float | None = None,
        until: float | None = None,
    ) -> Page[Episode]:
        """List the agent's unexpired episodes, newest first, one page of at most ``limit``
        (of those created in ``[since, until)``: a range of the ``(pk, created_at)`` index).
        """
        check_limit(limit)
        sql = f"SELECT {_COLUMNS} FROM episodes WHERE pk = ? AND expires_at > ?"
        params: list[object] = [partition_key(tenant_id, agent_id), now]
        if since is not None:
            sql += " AND created_at >= ?"
            params.append(since)
        if until is not None:
            sql += " AND created_at < ?"
            params.append(until)
        if cursor is not None:
            created_at, run_id = decode_cursor("recent", cursor, (float, str))
            sql += " AND (created_at, run_id) < (?, ?)"
            params += [created_at, run_id]
        sql += " ORDER BY created_at DESC, run_id DESC LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor("recent", (rows[-1]["created_at"], rows[-1]["run_id"])) if more else None
        )
        return Page(tuple(self._as_episode(r) for r in rows), next_cursor)

    def failed_before(
        self, cutoff: float, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """List unexpired FAILED episodes of all tenants created before ``cutoff``, oldest first."""
        check_limit(limit)
        sql = (
            f"SELECT {_COLUMNS} FROM episodes "
            "WHERE outcome = 'FAILED' AND created_at < ? AND expires_at > ?"
        )
        params: list[object] = [cutoff, now]
        if cursor is not None:
            created_at, pk, run_id = decode_cursor("failed_before", cursor, (float, str, str))
            sql += " AND (created_at, pk, run_id) > (?, ?, ?)"
            params += [created_at, pk, run_id]
        sql += " ORDER BY created_at, pk, run_id LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor(
                "failed_before", (rows[-1]["created_at"], rows[-1]["pk"], rows[-1]["run_id"])
            )
            if more
            else None
        )
        return Page(tuple(self._as_episode(r) for r in rows), next_cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode, expired or not; True if it existed."""
        pk = partition_key(tenant_id, agent_id)
        with self._db.write() as conn:
            changed = conn.execute(
                "DELETE FROM episodes WHERE pk = ? AND run_id = ?", (pk, run_id)
            ).rowcount
            if changed:
                _bump(conn, [pk])
        return changed == 1

    def count_by_outcome(self, *, now: float, tenant_id: str | None = None) -> dict[str, int]:
        """Unexpired episodes by outcome, of the tenant or of every tenant (one GROUP BY)."""
        sql = "SELECT outcome, COUNT(*) AS n FROM episodes WHERE expires_at > ?"
        params: list[object] = [now]
        if tenant_id is not None:
            sql += " AND pk >= ? AND pk < ? AND tenant_id = ?"
            params += [*tenant_key_range(tenant_id), tenant_id]
        rows = self._db.fetchall(sql + " GROUP BY outcome", params)
        return {str(row["outcome"]): int(row["n"]) for row in rows}

    def list_all(self, *, now: float, limit: int, cursor: str | None = None) -> Page[Episode]:
        """List unexpired episodes of every tenant in key order, one page of at most ``limit``."""
        check_limit(limit)
        sql = f"SELECT {_COLUMNS} FROM episodes WHERE expires_at > ?"
        params: list[object] = [now]
        if cursor is not None:
            params += decode_cursor("list_all", cursor, (str, str))
            sql += " AND (pk, run_id) > (?, ?)"
        sql += " ORDER BY pk, run_id LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor("list_all", (rows[-1]["pk"], rows[-1]["run_id"])) if more else None
        )
        return Page(tuple(self._as_episode(r) for r in rows), next_cursor)

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the episode's vectors (both slots) if it exists with the same units."""
        pk = partition_key(episode.tenant_id, episode.agent_id)
        assignments = ", ".join(f"{column} = ?" for column in _VECTOR_COLUMNS)
        with self._db.write() as conn:
            changed = conn.execute(
                f"UPDATE episodes SET {assignments} WHERE pk = ? AND run_id = ? AND units = ?",
                (*_vector_values(episode), pk, episode.run_id, pack_units(episode.units)[0]),
            ).rowcount
            if changed:
                _bump(conn, [pk])
        return changed == 1

    def rewrite(self, episode: Episode) -> bool:
        """One UPDATE of the texts and vectors, in a transaction that folds the log back."""
        e = episode
        pk = partition_key(e.tenant_id, e.agent_id)
        texts = {
            "task": e.task,
            "task_summary": e.task_summary,
            "key_findings": encode_strings(e.key_findings),
            "approach_used": e.approach_used,
            "tools_used": encode_strings(e.tools_used),
            "reusable_patterns": encode_strings(e.reusable_patterns),
            "units": pack_units(e.units)[0],
        }
        columns = (*texts, *_VECTOR_COLUMNS)
        assignments = ", ".join(f"{column} = ?" for column in columns)
        with self._db.write(erases=True) as conn:
            changed = conn.execute(
                f"UPDATE episodes SET {assignments} WHERE pk = ? AND run_id = ?",
                (*texts.values(), *_vector_values(e), pk, e.run_id),
            ).rowcount
            if changed:
                _bump(conn, [pk])
        return changed == 1

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Delete up to ``limit`` episodes with ``expires_at <= now``; how many were deleted."""
        check_limit(limit)
        with self._db.write() as conn:
            rows = conn.execute(
                "DELETE FROM episodes WHERE rowid IN "
                "(SELECT rowid FROM episodes WHERE expires_at <= ? ORDER BY expires_at LIMIT ?) "
                "RETURNING pk",
                (now, limit),
            ).fetchall()
            _bump(conn, sorted({r["pk"] for r in rows}))
        return len(rows)

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Yield every stored episode of the tenant, expired or not, in key order."""
        rows = self._db.tenant_rows(
            f"SELECT {_COLUMNS} FROM episodes",
            table="episodes",
            sort_key="run_id",
            tenant_id=tenant_id,
        )
        return (self._as_episode(r) for r in rows)

    def forget(self, tenant_id: str) -> int:
        """One transaction: the rows of the tenant's key range, and a new store generation."""
        low, high = tenant_key_range(tenant_id)
        with self._db.write() as conn:
            deleted = conn.execute(
                "DELETE FROM episodes WHERE pk >= ? AND pk < ? AND tenant_id = ?",
                (low, high, tenant_id),
            ).rowcount
            # No trace of the tenant is left; every token changes instead (forget is rare).
            conn.execute("DELETE FROM episode_versions WHERE pk >= ? AND pk < ?", (low, high))
            conn.execute("UPDATE store_generation SET forgets = forgets + 1 WHERE id = 1")
        return deleted


def _vector_values(episode: Episode) -> tuple[object, ...]:
    """Values of :data:`_VECTOR_COLUMNS`, in order."""
    return (
        *vector_columns(episode.embedding),
        *pack_units(episode.units)[1:],
        *vector_columns(episode.spare_embedding),
        *pack_spare_units(episode.units),
    )


def _episode(row: sqlite3.Row) -> Episode:
    return Episode(
        tenant_id=row["tenant_id"],
        agent_id=row["agent_id"],
        run_id=row["run_id"],
        task=row["task"],
        task_summary=row["task_summary"],
        outcome=cast(Outcome, row["outcome"]),
        created_at=row["created_at"],
        expires_at=row["expires_at"],
        task_type=row["task_type"],
        domain=row["domain"],
        key_findings=decode_strings(row["key_findings"]),
        approach_used=row["approach_used"],
        tools_used=decode_strings(row["tools_used"]),
        reusable_patterns=decode_strings(row["reusable_patterns"]),
        embedding=vector_from(row),
        spare_embedding=vector_from(row, "spare_embedding"),
        units=unpack_units(
            row["units"],
            row["unit_model"],
            row["unit_dimension"],
            _blob(row["unit_vectors"]),
            (
                row["unit_spare_model"],
                row["unit_spare_dimension"],
                _blob(row["unit_spare_vectors"]),
            ),
        ),
    )


def _version(forgets: int, row: sqlite3.Row | None) -> EpisodeVersion:
    """An agent's version from its row: a new epoch at each forget of the store and each
    change of the agent that was not an addition; the store generation of its last change.
    """
    generation, rewritten = (row["generation"], row["rewritten"]) if row is not None else (0, 0)
    return EpisodeVersion(f"{forgets}-{rewritten or 0}", generation or 0)


def _blob(value: bytes | None) -> bytes | None:
    return bytes(value) if value is not None else None


def _bump(conn: sqlite3.Connection, pks: list[str], *, rewrite: bool = True) -> int:
    """Move the agents' versions to a new store generation (never reused), and return it.

    ``rewrite``: the change is not only an addition (a deletion or rewrite), which a cache
    cannot take in from :meth:`SqliteEpisodeStore.changes_since`.
    """
    if not pks:
        return 0
    conn.execute("UPDATE store_generation SET value = value + 1 WHERE id = 1")
    (generation,) = conn.execute("SELECT value FROM store_generation WHERE id = 1").fetchone()
    conn.executemany(
        "INSERT INTO episode_versions (pk, generation, rewritten) VALUES (?, ?, ?) "
        "ON CONFLICT (pk) DO UPDATE SET generation = excluded.generation, "
        "rewritten = MAX(rewritten, excluded.rewritten)",
        [(pk, generation, generation if rewrite else 0) for pk in pks],
    )
    return int(generation)
