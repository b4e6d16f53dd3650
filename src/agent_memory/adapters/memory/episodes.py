"""Episodic memory in memory: one record per (tenant#agent, run_id), expired ones hidden on read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace

from agent_memory.adapters.memory.database import (
    AgentVersion,
    EpisodeRow,
    EpisodeTable,
    MemoryDatabase,
)
from agent_memory.adapters.memory.keys import (
    check_limit,
    check_tenant,
    decode_cursor,
    encode_cursor,
    page_of,
    partition_key,
)
from agent_memory.adapters.unit_codec import pack_spare_units, pack_units
from agent_memory.core.models import Episode, EpisodeUnit
from agent_memory.core.ports import EpisodeChanges, Page


class MemoryEpisodeStore:
    """``EpisodeStore`` over a :class:`MemoryDatabase`; TTL is applied on read, like DynamoDB's.

    Orders and cursors are SQLite's: ``recent`` by ``created_at`` then ``run_id``, both
    descending; ``failed_before`` by ``created_at``, key ascending; ``list_all`` and ``export``
    in key order. Cursors are keyset positions, so deleting records between pages never skips or
    repeats one. Episodes are read in ``active_model``'s space when given
    (:meth:`Episode.in_space`): the embedding model the process searches with.
    """

    def __init__(self, db: MemoryDatabase, *, active_model: str | None = None) -> None:
        self._db = db
        self._table: EpisodeTable = db.episodes
        self._model = active_model

    def _as_episode(self, row: EpisodeRow) -> Episode:
        episode = row.episode
        return episode if self._model is None else episode.in_space(self._model)

    def add(self, episode: Episode) -> bool:
        """Write the episode unless its key exists; True if this call wrote it."""
        key = (partition_key(episode.tenant_id, episode.agent_id), episode.run_id)
        stored = _as_stored(episode)
        with self._db.lock:
            if key in self._table.rows:
                return False
            generation = self._bump([key[0]], rewrite=False)
            self._table.rows[key] = EpisodeRow(stored, added=generation)
        return True

    def version(self, tenant_id: str, agent_id: str) -> str:
        """A token that changes whenever the agent's set of episodes changes."""
        pk = partition_key(tenant_id, agent_id)
        with self._db.lock:
            return self._token(pk)

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and its unexpired episodes added after ``version``'s
        generation, newest first; ``added`` is None if its episodes were deleted or rewritten
        since, the store forgot a tenant, or the token is not one this store handed out.
        """
        check_limit(limit)
        pk = partition_key(tenant_id, agent_id)
        with self._db.lock:
            current = self._token(pk)
            if current == version:
                return EpisodeChanges(current, [])
            try:
                generation, forgets = (int(part) for part in version.split("."))
            except ValueError:
                return EpisodeChanges(current, None)
            agent = self._table.versions.get(pk, AgentVersion())
            if (
                forgets != self._table.forgets
                or agent.rewritten > generation
                or generation > self._table.generation
            ):
                return EpisodeChanges(current, None)
            added = [
                row
                for (row_pk, _), row in self._table.rows.items()
                if row_pk == pk and row.added > generation and row.episode.expires_at > now
            ]
        if len(added) > limit:
            return EpisodeChanges(current, None)
        return EpisodeChanges(current, [self._as_episode(r) for r in _newest_first(added)])

    def get(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> Episode | None:
        """The episode, or None if absent or expired (``expires_at <= now``)."""
        key = (partition_key(tenant_id, agent_id), run_id)
        with self._db.lock:
            row = self._table.rows.get(key)
        if row is None or row.episode.expires_at <= now:
            return None
        return self._as_episode(row)

    def recent(
        self, tenant_id: str, agent_id: str, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """The agent's unexpired episodes, newest first, one page of at most ``limit``."""
        check_limit(limit)
        pk = partition_key(tenant_id, agent_id)
        after = decode_cursor("recent", cursor, (float, str)) if cursor is not None else None
        with self._db.lock:
            rows = [
                row
                for (row_pk, _), row in self._table.rows.items()
                if row_pk == pk
                and row.episode.expires_at > now
                and (after is None or _recency(row) < after)
            ]
        page, more = page_of(_newest_first(rows), limit)
        next_cursor = encode_cursor("recent", _recency(page[-1])) if more else None
        return Page(tuple(self._as_episode(r) for r in page), next_cursor)

    def failed_before(
        self, cutoff: float, *, now: float, limit: int, cursor: str | None = None
    ) -> Page[Episode]:
        """Unexpired FAILED episodes of every tenant created before ``cutoff``, oldest first."""
        check_limit(limit)
        after = (
            decode_cursor("failed_before", cursor, (float, str, str))
            if cursor is not None
            else None
        )
        with self._db.lock:
            found = [
                (_age(key, row), row)
                for key, row in self._table.rows.items()
                if row.episode.outcome == "FAILED"
                and row.episode.created_at < cutoff
                and row.episode.expires_at > now
            ]
        ordered = sorted((p for p in found if after is None or p[0] > after), key=_first)
        page, more = page_of(ordered, limit)
        next_cursor = encode_cursor("failed_before", page[-1][0]) if more else None
        return Page(tuple(self._as_episode(row) for _, row in page), next_cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode, expired or not; True if it existed."""
        key = (partition_key(tenant_id, agent_id), run_id)
        with self._db.lock:
            if self._table.rows.pop(key, None) is None:
                return False
            self._bump([key[0]])
        return True

    def count_by_outcome(self, *, now: float, tenant_id: str | None = None) -> dict[str, int]:
        """Unexpired episodes by outcome, of the tenant or of every tenant."""
        if tenant_id is not None:
            check_tenant(tenant_id)
        counts: dict[str, int] = {}
        with self._db.lock:
            for row in self._table.rows.values():
                e = row.episode
                if e.expires_at > now and (tenant_id is None or e.tenant_id == tenant_id):
                    counts[e.outcome] = counts.get(e.outcome, 0) + 1
        return counts

    def list_all(self, *, now: float, limit: int, cursor: str | None = None) -> Page[Episode]:
        """Unexpired episodes of every tenant in key order, one page of at most ``limit``."""
        check_limit(limit)
        after = decode_cursor("list_all", cursor, (str, str)) if cursor is not None else None
        with self._db.lock:
            found = [
                (key, row)
                for key, row in self._table.rows.items()
                if row.episode.expires_at > now and (after is None or key > after)
            ]
        page, more = page_of(sorted(found, key=_first), limit)
        next_cursor = encode_cursor("list_all", page[-1][0]) if more else None
        return Page(tuple(self._as_episode(row) for _, row in page), next_cursor)

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the episode's vectors (summary and units, both slots) if it exists with the
        same units; every other field stays as stored.
        """
        key = (partition_key(episode.tenant_id, episode.agent_id), episode.run_id)
        given = _as_stored(episode)
        with self._db.lock:
            row = self._table.rows.get(key)
            if row is None or _unit_texts(row.episode.units) != _unit_texts(given.units):
                return False
            row.episode = replace(
                row.episode,
                embedding=given.embedding,
                spare_embedding=given.spare_embedding,
                units=given.units,
            )
            self._bump([key[0]])
        return True

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Delete up to ``limit`` episodes with ``expires_at <= now``, soonest expired first;
        how many were deleted.
        """
        check_limit(limit)
        with self._db.lock:
            expired = sorted(
                (row.episode.expires_at, key)
                for key, row in self._table.rows.items()
                if row.episode.expires_at <= now
            )[:limit]
            for _, key in expired:
                del self._table.rows[key]
            self._bump(sorted({pk for _, (pk, _) in expired}))
        return len(expired)

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Every stored episode of the tenant, expired or not, in key order (read at once, so
        the caller may write, even delete them, while iterating).
        """
        check_tenant(tenant_id)
        with self._db.lock:
            found = [
                (key, row)
                for key, row in self._table.rows.items()
                if row.episode.tenant_id == tenant_id
            ]
        return iter([self._as_episode(row) for _, row in sorted(found, key=_first)])

    def forget(self, tenant_id: str) -> int:
        """Delete every episode of the tenant; the number deleted."""
        check_tenant(tenant_id)
        with self._db.lock:
            keys = [k for k, row in self._table.rows.items() if row.episode.tenant_id == tenant_id]
            for key in keys:
                del self._table.rows[key]
            # No trace of the tenant is left; every token changes instead (forget is rare).
            prefix = partition_key(tenant_id, "")
            for pk in [pk for pk in self._table.versions if pk.startswith(prefix)]:
                del self._table.versions[pk]
            self._table.forgets += 1
        return len(keys)

    def _token(self, pk: str) -> str:
        """The agent's version token (the lock is held)."""
        agent = self._table.versions.get(pk, AgentVersion())
        return f"{agent.generation}.{self._table.forgets}"

    def _bump(self, pks: Iterable[str], *, rewrite: bool = True) -> int:
        """Move the agents' versions to a new store generation (never reused), and return it;
        ``rewrite``: the change is more than an addition. The lock is held.
        """
        pks = list(pks)
        if not pks:
            return 0
        self._table.generation += 1
        generation = self._table.generation
        for pk in pks:
            agent = self._table.versions.setdefault(pk, AgentVersion())
            agent.generation = generation
            if rewrite:
                agent.rewritten = generation
        return generation


def _as_stored(episode: Episode) -> Episode:
    """The episode as the store keeps it: its sequences as tuples, its units' vectors checked
    as every adapter packs them (all of one model, or none).
    """
    pack_units(episode.units)
    pack_spare_units(episode.units)
    return replace(
        episode,
        key_findings=tuple(episode.key_findings),
        tools_used=tuple(episode.tools_used),
        reusable_patterns=tuple(episode.reusable_patterns),
        units=tuple(episode.units),
    )


def _unit_texts(units: tuple[EpisodeUnit, ...]) -> list[tuple[str, int, str | None, str]]:
    """What identifies an episode's units, whatever their vectors."""
    return [(u.kind, u.seq, u.speaker, u.text) for u in units]


def _recency(row: EpisodeRow) -> tuple[float, str]:
    return row.episode.created_at, row.episode.run_id


def _newest_first(rows: list[EpisodeRow]) -> list[EpisodeRow]:
    return sorted(rows, key=_recency, reverse=True)


def _age(key: tuple[str, str], row: EpisodeRow) -> tuple[float, str, str]:
    return row.episode.created_at, key[0], key[1]


def _first(pair: tuple[tuple[object, ...], EpisodeRow]) -> tuple[object, ...]:
    return pair[0]
