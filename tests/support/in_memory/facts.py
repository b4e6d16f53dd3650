"""Semantic facts in memory: one record per (tenant#domain, fact_hash) with its distinct runs."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.core.model.keys import check_tenant, partition_key
from agent_memory.core.model.models import RUN_IDS_KEPT, Fact, FactObservation, FactStatus
from agent_memory.core.model.policies import Independence
from agent_memory.core.ports import Page, Sighting
from tests.support.in_memory.database import FactRow, MemoryDatabase

_Key = tuple[str, str]


class MemoryFactStore:
    """``FactStore`` over a :class:`MemoryDatabase`, behaving as the SQLite one does.

    A fact's log keeps every distinct run, so a redelivered run is never counted twice; it
    names the first :data:`RUN_IDS_KEPT` and counts them all. ``observe`` keeps the highest
    confidence and the latest ``last_seen``, and judges a new run's independence under the lock
    it writes the sighting with. Listings are in key order but for ``pending_seen_before``
    (stalest first). Facts are read in ``active_model``'s space when given
    (:meth:`Fact.in_space`).
    """

    def __init__(self, db: MemoryDatabase, *, active_model: str | None = None) -> None:
        self._db = db
        self._rows = db.facts
        self._model = active_model

    def _as_fact(self, row: FactRow) -> Fact:
        """The fact as read: its log's fields filled in (the lock is held)."""
        fact = replace(
            row.fact,
            run_ids=frozenset(list(row.runs)[:RUN_IDS_KEPT]),
            sightings=len(row.runs),
            counted_by=tuple(sorted(row.counted_by.items())),
        )
        return fact if self._model is None else fact.in_space(self._model)

    def observe(
        self, observation: FactObservation, independence: Independence = Independence()
    ) -> Fact:
        """Atomically record that a run saw the fact (creating it PENDING); the fact after."""
        o = observation
        key = (partition_key(o.tenant_id, o.domain), o.fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            if row is None:
                # The first sighting counts: nothing was counted before it.
                row = self._rows[key] = FactRow(
                    _created(o), {o.run_id: True}, {o.agent_id: o.seen_at}
                )
                return self._as_fact(row)
            stored = row.fact
            last_seen = max(stored.last_seen, o.seen_at)
            if o.run_id in row.runs:
                # A known run changes nothing but last_seen (see the port).
                row.fact = replace(stored, last_seen=last_seen)
                return self._as_fact(row)
            counted = independence.counted(row.counted_by, o.agent_id, o.seen_at)
            row.runs[o.run_id] = counted is not None
            if counted is not None:
                row.counted_by = counted
            row.fact = replace(
                stored,
                last_seen=last_seen,
                confidence=max(stored.confidence, o.confidence),
                embedding=(
                    stored.embedding
                    if stored.embedding is not None or stored.status is FactStatus.RETRACTED
                    else o.embedding
                ),
                confirmations=stored.confirmations + (counted is not None),
            )
            return self._as_fact(row)

    def get(self, tenant_id: str, domain: str, fact_hash: str) -> Fact | None:
        """Looked up by (``tenant#domain``, hash) under the lock."""
        key = (partition_key(tenant_id, domain), fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            return self._as_fact(row) if row is not None else None

    def confirm(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        now: float,
        from_status: FactStatus = FactStatus.PENDING,
    ) -> bool:
        """Move a fact from ``from_status`` to CONFIRMED at ``now``; True only for the call
        that changed it.
        """
        return self._move(
            (partition_key(tenant_id, domain), fact_hash),
            from_status,
            lambda f: replace(f, status=FactStatus.CONFIRMED, confirmed_at=now),
        )

    def contest(
        self, tenant_id: str, domain: str, fact_hash: str, *, now: float, reason: str
    ) -> bool:
        """Hold a PENDING fact back for review, noting why; True only for the call that did."""
        return self._move(
            (partition_key(tenant_id, domain), fact_hash),
            FactStatus.PENDING,
            lambda f: replace(f, status=FactStatus.CONTESTED, review_note=reason),
        )

    def withdraw(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Move a CONFIRMED fact back to PENDING, no longer staged or ingested."""
        return self._move(
            (partition_key(tenant_id, domain), fact_hash),
            FactStatus.CONFIRMED,
            lambda f: replace(
                f, status=FactStatus.PENDING, confirmed_at=None, staged_at=None, ingested_at=None
            ),
        )

    def retract(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        now: float,
        superseded_by: str | None = None,
    ) -> bool:
        """Move a fact of another status to RETRACTED, its document awaiting ingestion again;
        True only for the call that changed it.
        """
        key = (partition_key(tenant_id, domain), fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            if row is None or row.fact.status is FactStatus.RETRACTED:
                return False
            row.fact = replace(
                row.fact,
                status=FactStatus.RETRACTED,
                superseded_by=superseded_by,
                staged_at=now,
                ingested_at=None,
                content="",
                embedding=None,
                spare_embedding=None,
            )
        return True

    def assert_fact(self, fact: Fact) -> Fact:
        """Store the person's fact CONFIRMED, or confirm the stored one in its name."""
        key = (partition_key(fact.tenant_id, fact.domain), fact.fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            if row is None:
                row = self._rows[key] = FactRow(
                    replace(
                        fact,
                        status=FactStatus.CONFIRMED,
                        run_ids=frozenset(),
                        sightings=0,
                        confirmations=0,
                        counted_by=(),
                        superseded_by=None,
                        staged_at=None,
                        ingested_at=None,
                    ),
                    {},
                    {},
                )
            else:
                row.fact = replace(
                    row.fact,
                    status=FactStatus.CONFIRMED,
                    asserted_by=fact.asserted_by,
                    confirmed_at=fact.confirmed_at,
                    superseded_by=None,
                    staged_at=None,
                    ingested_at=None,
                    content=row.fact.content or fact.content,
                    embedding=row.fact.embedding or fact.embedding,
                )
            return self._as_fact(row)

    def _move(self, key: _Key, from_status: FactStatus, change: Callable[[Fact], Fact]) -> bool:
        with self._db.lock:
            row = self._rows.get(key)
            if row is None or row.fact.status != from_status:
                return False
            row.fact = change(row.fact)
        return True

    def contested(self, tenant_id: str) -> list[Fact]:
        """The tenant's CONTESTED facts, in key order."""
        check_tenant(tenant_id)
        return self._select(lambda f: f.tenant_id == tenant_id and f.status is FactStatus.CONTESTED)

    def of_tenant(
        self,
        tenant_id: str,
        *,
        status: FactStatus | None = None,
        domain: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Fact]:
        """One page of the tenant's facts (of the status and domain given), in key order."""
        if domain is not None:
            partition_key(tenant_id, domain)
        else:
            check_tenant(tenant_id)
        return self._page(
            "facts.of_tenant",
            lambda f: (
                f.tenant_id == tenant_id
                and (domain is None or f.domain == domain)
                and (status is None or f.status is status)
            ),
            limit=limit,
            cursor=cursor,
        )

    def mark_staged(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the fact's KB document was (re)written: it awaits ingestion again.

        A missing fact is left missing.
        """
        self._update(
            (partition_key(tenant_id, domain), fact_hash),
            lambda f: replace(f, staged_at=now, ingested_at=None),
        )

    def awaiting_ingestion(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Staged facts of every tenant not yet ingested, in key order."""
        return self._page(
            "awaiting_ingestion",
            lambda f: f.staged_at is not None and f.ingested_at is None,
            limit=limit,
            cursor=cursor,
        )

    def mark_ingested(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the KB now serves the fact; a missing fact is left missing."""
        self._update(
            (partition_key(tenant_id, domain), fact_hash), lambda f: replace(f, ingested_at=now)
        )

    def _update(self, key: _Key, change: Callable[[Fact], Fact]) -> None:
        with self._db.lock:
            row = self._rows.get(key)
            if row is not None:
                row.fact = change(row.fact)

    def fast_path(self, tenant_id: str, domain: str | None) -> list[Fact]:
        """CONFIRMED facts the KB does not serve yet (every domain of the tenant if None)."""
        if domain is not None:
            partition_key(tenant_id, domain)
        else:
            check_tenant(tenant_id)
        return self._select(
            lambda f: (
                f.tenant_id == tenant_id
                and (domain is None or f.domain == domain)
                and f.status is FactStatus.CONFIRMED
                and f.ingested_at is None
            )
        )

    def pending_seen_before(
        self, cutoff: float, *, limit: int, cursor: str | None = None
    ) -> Page[Fact]:
        """PENDING facts of every tenant last seen before ``cutoff``, stalest first."""
        check_limit(limit)
        after = (
            decode_cursor("pending_seen_before", cursor, (float, str, str))
            if cursor is not None
            else None
        )
        with self._db.lock:
            found = sorted(
                ((row.fact.last_seen, *key), row)
                for key, row in self._rows.items()
                if row.fact.status is FactStatus.PENDING and row.fact.last_seen < cutoff
            )
            ordered = [(p, row) for p, row in found if after is None or p > after]
            page, more = page_of(ordered, limit)
            items = tuple(self._as_fact(row) for _, row in page)
        next_cursor = encode_cursor("pending_seen_before", page[-1][0]) if more else None
        return Page(items, next_cursor)

    def list_all(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Facts of every tenant and status in key order, one page of at most ``limit``."""
        return self._page("facts.list_all", lambda f: True, limit=limit, cursor=cursor)

    def _page(
        self, kind: str, keep: Callable[[Fact], bool], *, limit: int, cursor: str | None
    ) -> Page[Fact]:
        """One page, in key order, of the facts ``keep`` keeps."""
        check_limit(limit)
        after = decode_cursor(kind, cursor, (str, str)) if cursor is not None else None
        with self._db.lock:
            ordered = sorted(
                (key, row)
                for key, row in self._rows.items()
                if keep(row.fact) and (after is None or key > after)
            )
            page, more = page_of(ordered, limit)
            items = tuple(self._as_fact(row) for _, row in page)
        return Page(items, encode_cursor(kind, page[-1][0]) if more else None)

    def _select(self, keep: Callable[[Fact], bool]) -> list[Fact]:
        """Every fact ``keep`` keeps, in key order."""
        with self._db.lock:
            return [self._as_fact(row) for key, row in sorted(self._rows.items()) if keep(row.fact)]

    def set_vectors(self, fact: Fact) -> bool:
        """Replace the fact's vectors (both slots) if it exists with the same content."""
        key = (partition_key(fact.tenant_id, fact.domain), fact.fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            if row is None or row.fact.content != fact.content:
                return False
            row.fact = replace(
                row.fact, embedding=fact.embedding, spare_embedding=fact.spare_embedding
            )
        return True

    def rekey(self, tenant_id: str, domain: str, fact_hash: str, fact: Fact) -> Fact | None:
        """Moved under the lock, its log with it (None if gone or the new key is taken)."""
        pk = partition_key(tenant_id, domain)
        old, new = (pk, fact_hash), (pk, fact.fact_hash)
        with self._db.lock:
            row = self._rows.get(old)
            if row is None or (new != old and new in self._rows):
                return None
            row.fact = replace(
                row.fact,
                fact_hash=fact.fact_hash,
                content=fact.content,
                review_note=fact.review_note,
                superseded_by=fact.superseded_by,
                staged_at=fact.staged_at,
                ingested_at=fact.ingested_at,
                embedding=fact.embedding,
                spare_embedding=fact.spare_embedding,
            )
            del self._rows[old]
            self._rows[new] = row
            return self._as_fact(row)

    def delete(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Delete one fact and its log; True if it existed."""
        key = (partition_key(tenant_id, domain), fact_hash)
        with self._db.lock:
            return self._rows.pop(key, None) is not None

    def sightings(self, tenant_id: str) -> Iterator[Sighting]:
        """Every logged sighting of the tenant's facts, in key order."""
        check_tenant(tenant_id)
        with self._db.lock:
            found = [
                Sighting(row.fact.domain, row.fact.fact_hash, run)
                for _, row in sorted(self._rows.items())
                if row.fact.tenant_id == tenant_id
                for run in row.runs
            ]
        return iter(found)

    def unsee(self, tenant_id: str, domain: str, fact_hash: str, run_id: str) -> Fact | None:
        """Take the run's sighting back under the lock; the fact after."""
        key = (partition_key(tenant_id, domain), fact_hash)
        with self._db.lock:
            row = self._rows.get(key)
            if row is None or run_id not in row.runs:
                return None
            counted = row.runs.pop(run_id)
            if counted:
                row.fact = replace(row.fact, confirmations=max(row.fact.confirmations - 1, 0))
            return self._as_fact(row)

    def count_by_status(self, *, tenant_id: str | None = None) -> dict[str, int]:
        """Facts by status, of the tenant or of every tenant."""
        if tenant_id is not None:
            check_tenant(tenant_id)
        counts: dict[str, int] = {}
        with self._db.lock:
            for row in self._rows.values():
                if tenant_id is None or row.fact.tenant_id == tenant_id:
                    status = str(row.fact.status)
                    counts[status] = counts.get(status, 0) + 1
        return counts

    def export(self, tenant_id: str) -> Iterator[Fact]:
        """Every fact of the tenant in key order (read at once: the caller may write meanwhile)."""
        check_tenant(tenant_id)
        return iter(self._select(lambda f: f.tenant_id == tenant_id))

    def forget(self, tenant_id: str) -> int:
        """Delete every fact of the tenant and its log; the number of facts deleted."""
        check_tenant(tenant_id)
        with self._db.lock:
            keys = [k for k, row in self._rows.items() if row.fact.tenant_id == tenant_id]
            for key in keys:
                del self._rows[key]
        return len(keys)


def _created(o: FactObservation) -> Fact:
    """The fact a first sighting creates (its log's fields are filled in on read)."""
    return Fact(
        tenant_id=o.tenant_id,
        domain=o.domain,
        fact_hash=o.fact_hash,
        content=o.content,
        status=FactStatus.PENDING,
        confidence=o.confidence,
        run_ids=frozenset(),
        first_seen=o.seen_at,
        last_seen=o.seen_at,
        embedding=o.embedding,
        confirmations=1,
    )
