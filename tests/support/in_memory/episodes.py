"""Episodic memory in memory: one record per (tenant#agent, run_id), expired ones hidden on read."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import replace

from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.adapters.unit_codec import pack_spare_units, pack_units
from agent_memory.core.model.episode_versions import EpisodeChanges, EpisodeVersion, changes_since
from agent_memory.core.model.keys import check_tenant, partition_key
from agent_memory.core.model.models import Episode, EpisodeUnit
from agent_memory.core.ports import Page
from tests.support.in_memory.database import (
    AgentVersion,
    EpisodeRow,
    EpisodeTable,
    MemoryDatabase,
)

# An episode with the key it is stored under: (tenant#agent, run_id).
_Keyed = tuple[tuple[str, str], Episode]


class MemoryEpisodeStore:
    """``EpisodeStore`` over a :class:`MemoryDatabase`; TTL is applied on read, like DynamoDB's.

    Orders and cursors are SQLite's: ``recent`` by ``created_at`` then ``run_id``, both
    descending; ``failed_before`` by ``created_at`` then key, ascending; ``list_all`` and
    ``export`` in key order. Cursors are keyset positions, so deleting records between pages
    never skips or repeats one. Episodes are read in ``active_model``'s space when given
    (:meth:`Episode.in_space`): the embedding model the process searches with.
    """

    def __init__(self, db: MemoryDatabase, *, active_model: str | None = None) -> None:
        self._db = db
        self._table: EpisodeTable = db.episodes
        self._model = active_model

    def _as_episode(self, episode: Episode) -> Episode:
        return episode if self._model is None else episode.in_space(self._model)

    def add(self, episode: Episode) -> bool:
        """Write the episode unless its key exists; True if this call wrote it."""
        pk = partition_key(episode.tenant_id, episode.agent_id)
        stored = _as_stored(episode)
        with self._db.lock:
            agent = self._table.rows.setdefault(pk, {})
            if episode.run_id in agent:
                return False
            agent[episode.run_id] = EpisodeRow(stored, added=self._bump([pk], rewrite=False))
        return True

    def agents(self, tenant_id: str) -> list[str]:
        """The tenant's agents holding a record, sorted."""
        prefix = partition_key(tenant_id, "")
        with self._db.lock:
            keys = [pk for pk, rows in self._table.rows.items() if rows and pk.startswith(prefix)]
        return sorted(pk[len(prefix) :] for pk in keys)

    def version(self, tenant_id: str, agent_id: str) -> str:
        """A token that changes whenever the agent's set of episodes changes."""
        pk = partition_key(tenant_id, agent_id)
        with self._db.lock:
            return self._version(pk).token

    def versions(self, tenant_id: str, agent_ids: Sequence[str]) -> dict[str, str]:
        """Each agent's version token, under one hold of the lock."""
        keys = {agent: partition_key(tenant_id, agent) for agent in agent_ids}
        with self._db.lock:
            return {agent: self._version(pk).token for agent, pk in keys.items()}

    def changes_since(
        self, tenant_id: str, agent_id: str, version: str, *, now: float, limit: int
    ) -> EpisodeChanges:
        """The agent's version now, and its episodes added after ``version``'s generation
        (the rule is ``episode_versions.changes_since``'s), under one hold of the lock.
        """
        check_limit(limit)
        pk = partition_key(tenant_id, agent_id)

        def added_after(generation: int, at_most: int) -> list[Episode]:
            rows = self._table.rows.get(pk, {}).values()
            return [self._as_episode(row.episode) for row in rows if row.added > generation]

        with self._db.lock:
            return changes_since(
                self._version(pk), version, now=now, limit=limit, added_after=added_after
            )

    def get(self, tenant_id: str, agent_id: str, run_id: str, *, now: float) -> Episode | None:
        """The episode, or None if absent or expired (``expires_at <= now``)."""
        pk = partition_key(tenant_id, agent_id)
        with self._db.lock:
            row = self._table.rows.get(pk, {}).get(run_id)
            episode = row.episode if row is not None else None
        if episode is None or episode.expires_at <= now:
            return None
        return self._as_episode(episode)

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
        """Sorted newest first from the agent's own records in the window, then cut at the
        cursor.
        """
        check_limit(limit)
        pk = partition_key(tenant_id, agent_id)
        after = decode_cursor("recent", cursor, (float, str)) if cursor is not None else None
        with self._db.lock:
            found = [
                row.episode
                for row in self._table.rows.get(pk, {}).values()
                if row.episode.expires_at > now
                and (since is None or row.episode.created_at >= since)
                and (until is None or row.episode.created_at < until)
                and (after is None or _recency(row.episode) < after)
            ]
        page, more = page_of(_newest_first(found), limit)
        next_cursor = encode_cursor("recent", _recency(page[-1])) if more else None
        return Page(tuple(self._as_episode(e) for e in page), next_cursor)

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
                (key, e)
                for key, e in self._every()
                if e.outcome == "FAILED" and e.created_at < cutoff and e.expires_at > now
            ]
        ordered = sorted(
            (p for p in found if after is None or _age(p) > after),
            key=_age,
        )
        page, more = page_of(ordered, limit)
        next_cursor = encode_cursor("failed_before", _age(page[-1])) if more else None
        return Page(tuple(self._as_episode(e) for _, e in page), next_cursor)

    def delete(self, tenant_id: str, agent_id: str, run_id: str) -> bool:
        """Delete one episode, expired or not; True if it existed."""
        pk = partition_key(tenant_id, agent_id)
        with self._db.lock:
            if self._table.rows.get(pk, {}).pop(run_id, None) is None:
                return False
            self._bump([pk])
        return True

    def count_by_outcome(self, *, now: float, tenant_id: str | None = None) -> dict[str, int]:
        """Unexpired episodes by outcome, of the tenant or of every tenant."""
        if tenant_id is not None:
            check_tenant(tenant_id)
        counts: dict[str, int] = {}
        with self._db.lock:
            for _, e in self._every():
                if e.expires_at > now and (tenant_id is None or e.tenant_id == tenant_id):
                    counts[e.outcome] = counts.get(e.outcome, 0) + 1
        return counts

    def list_all(self, *, now: float, limit: int, cursor: str | None = None) -> Page[Episode]:
        """Unexpired episodes of every tenant in key order, one page of at most ``limit``."""
        check_limit(limit)
        after = decode_cursor("list_all", cursor, (str, str)) if cursor is not None else None
        with self._db.lock:
            found = [
                (key, e)
                for key, e in self._every()
                if e.expires_at > now and (after is None or key > after)
            ]
        page, more = page_of(sorted(found, key=_key), limit)
        next_cursor = encode_cursor("list_all", page[-1][0]) if more else None
        return Page(tuple(self._as_episode(e) for _, e in page), next_cursor)

    def set_vectors(self, episode: Episode) -> bool:
        """Replace the episode's vectors (summary and units, both slots) if it exists with the
        same units; every other field stays as stored.
        """
        pk = partition_key(episode.tenant_id, episode.agent_id)
        given = _as_stored(episode)
        with self._db.lock:
            row = self._table.rows.get(pk, {}).get(episode.run_id)
            if row is None or _unit_texts(row.episode.units) != _unit_texts(given.units):
                return False
            row.episode = replace(
                row.episode,
                embedding=given.embedding,
                spare_embedding=given.spare_embedding,
                units=given.units,
            )
            self._bump([pk])
        return True

    def rewrite(self, episode: Episode) -> bool:
        """Replace the episode's texts and vectors, keeping its outcome, times and expiry."""
        pk = partition_key(episode.tenant_id, episode.agent_id)
        given = _as_stored(episode)
        with self._db.lock:
            row = self._table.rows.get(pk, {}).get(episode.run_id)
            if row is None:
                return False
            row.episode = replace(
                given,
                outcome=row.episode.outcome,
                created_at=row.episode.created_at,
                expires_at=row.episode.expires_at,
                task_type=row.episode.task_type,
                domain=row.episode.domain,
            )
            self._bump([pk])
        return True

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Delete up to ``limit`` episodes with ``expires_at <= now``, soonest expired first;
        how many were deleted.
        """
        check_limit(limit)
        with self._db.lock:
            expired = sorted((e.expires_at, key) for key, e in self._every() if e.expires_at <= now)
            purged = [key for _, key in expired[:limit]]
            for pk, run_id in purged:
                del self._table.rows[pk][run_id]
            self._bump(sorted({pk for pk, _ in purged}))
        return len(purged)

    def export(self, tenant_id: str) -> Iterator[Episode]:
        """Every stored episode of the tenant, expired or not, in key order (read at once, so
        the caller may write, even delete them, while iterating).
        """
        check_tenant(tenant_id)
        with self._db.lock:
            found = [(key, e) for key, e in self._every() if e.tenant_id == tenant_id]
        return iter([self._as_episode(e) for _, e in sorted(found, key=_key)])

    def forget(self, tenant_id: str) -> int:
        """The tenant's agents dropped at once, and the forget counter moved (no token reused)."""
        check_tenant(tenant_id)
        with self._db.lock:
            # Every key of the tenant starts so, and no other tenant's (ids hold no separator).
            prefix = partition_key(tenant_id, "")
            agents = [pk for pk in self._table.rows if pk.startswith(prefix)]
            deleted = sum(len(self._table.rows.pop(pk)) for pk in agents)
            # No trace of the tenant is left; every token changes instead (forget is rare).
            for pk in [pk for pk in self._table.versions if pk.startswith(prefix)]:
                del self._table.versions[pk]
            self._table.forgets += 1
        return deleted

    def _every(self) -> Iterator[_Keyed]:
        """Every stored episode with its key (the lock is held)."""
        for pk, agent in self._table.rows.items():
            for run_id, row in agent.items():
                yield (pk, run_id), row.episode

    def _version(self, pk: str) -> EpisodeVersion:
        """The agent's version (the lock is held): a new epoch at each forget of the store and
        each change of the agent that was not an addition; the generation of its last change.
        """
        agent = self._table.versions.get(pk, AgentVersion())
        return EpisodeVersion(f"{self._table.forgets}-{agent.rewritten}", agent.generation)

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


def _recency(episode: Episode) -> tuple[float, str]:
    return episode.created_at, episode.run_id


def _newest_first(episodes: list[Episode]) -> list[Episode]:
    return sorted(episodes, key=_recency, reverse=True)


def _age(keyed: _Keyed) -> tuple[float, str, str]:
    (pk, run_id), episode = keyed
    return episode.created_at, pk, run_id


def _key(keyed: _Keyed) -> tuple[str, str]:
    return keyed[0]
