"""Semantic facts in SQLite: one row per (tenant#domain, fact_hash) plus its distinct run ids."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator

from agent_memory.adapters.local.sqlite_codec import tenant_key_range, vector_columns, vector_from
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.core.model.keys import partition_key
from agent_memory.core.model.models import RUN_IDS_KEPT, Fact, FactObservation, FactStatus
from agent_memory.core.model.policies import Independence
from agent_memory.core.ports import Page, Sighting

# A fact names its first RUN_IDS_KEPT runs (in the order they were recorded) and counts them
# all, as the DynamoDB adapter does; the child table itself keeps every run, so a redelivered
# run is recognised however many came after it.
_SELECT = (
    "SELECT f.*, (SELECT json_group_array(k.run_id) FROM (SELECT r.run_id FROM fact_runs r "
    "WHERE r.pk = f.pk AND r.fact_hash = f.fact_hash ORDER BY r.rowid "
    f"LIMIT {RUN_IDS_KEPT}) k) AS run_ids, "
    "(SELECT COUNT(*) FROM fact_runs r WHERE r.pk = f.pk AND r.fact_hash = f.fact_hash) "
    "AS sightings FROM facts f"
)


class SqliteFactStore:
    """``FactStore`` over a :class:`SqliteDatabase`.

    Run ids live in a child table with a unique (fact, run_id) key, so recording a sighting is an
    insert-or-ignore and a redelivered run is never counted twice. ``observe`` keeps the highest
    confidence and the latest ``last_seen``, so events arriving out of order cannot move it back,
    and judges a new run's independence inside the same write transaction (``counted_by`` is a
    JSON object of agent id to time).
    Facts are read in ``active_model``'s space when given (:meth:`Fact.in_space`).
    """

    def __init__(self, db: SqliteDatabase, *, active_model: str | None = None) -> None:
        self._db = db
        self._model = active_model

    def _as_fact(self, row: sqlite3.Row) -> Fact:
        fact = self._db.decoded("fact", _fact, row)
        return fact if self._model is None else fact.in_space(self._model)

    def observe(
        self, observation: FactObservation, independence: Independence = Independence()
    ) -> Fact:
        """Atomically record that a run saw the fact (creating it PENDING); the fact after."""
        o = observation
        pk = partition_key(o.tenant_id, o.domain)
        model, dimension, data = vector_columns(o.embedding)
        with self._db.write() as conn:
            created = _insert_if_absent(conn, pk, o)
            new_run = _add_run(conn, pk, o, counted=created)
            if not created:
                conn.execute(
                    "UPDATE facts SET last_seen = MAX(last_seen, ?) WHERE pk = ? AND fact_hash = ?",
                    (o.seen_at, pk, o.fact_hash),
                )
            if not created and new_run:
                # A known run changes nothing but last_seen (see the port).
                # A retracted fact keeps no vector: its text was erased with it.
                conn.execute(
                    "UPDATE facts SET confidence = MAX(confidence, ?), "
                    "embedding_model = COALESCE(embedding_model, ?), "
                    "embedding_dimension = COALESCE(embedding_dimension, ?), "
                    "embedding = COALESCE(embedding, ?) "
                    "WHERE pk = ? AND fact_hash = ? AND status != ?",
                    (o.confidence, model, dimension, data, pk, o.fact_hash, FactStatus.RETRACTED),
                )
                if _count_if_independent(conn, pk, o, independence):
                    conn.execute(
                        "UPDATE fact_runs SET counted = 1 "
                        "WHERE pk = ? AND fact_hash = ? AND run_id = ?",
                        (pk, o.fact_hash, o.run_id),
                    )
            row = conn.execute(
                f"{_SELECT} WHERE f.pk = ? AND f.fact_hash = ?", (pk, o.fact_hash)
            ).fetchone()
        return self._as_fact(row)

    def get(self, tenant_id: str, domain: str, fact_hash: str) -> Fact | None:
        """Return the fact, or None."""
        row = self._db.fetchone(
            f"{_SELECT} WHERE f.pk = ? AND f.fact_hash = ?",
            (partition_key(tenant_id, domain), fact_hash),
        )
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
        changed = self._db.execute(
            "UPDATE facts SET status = ?, confirmed_at = ? "
            "WHERE pk = ? AND fact_hash = ? AND status = ?",
            (
                FactStatus.CONFIRMED,
                now,
                partition_key(tenant_id, domain),
                fact_hash,
                from_status,
            ),
        )
        return changed == 1

    def contest(
        self, tenant_id: str, domain: str, fact_hash: str, *, now: float, reason: str
    ) -> bool:
        """Hold a PENDING fact back for review, noting why; True only for the call that did."""
        changed = self._db.execute(
            "UPDATE facts SET status = ?, review_note = ? "
            "WHERE pk = ? AND fact_hash = ? AND status = ?",
            (
                FactStatus.CONTESTED,
                reason,
                partition_key(tenant_id, domain),
                fact_hash,
                FactStatus.PENDING,
            ),
        )
        return changed == 1

    def withdraw(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Move a CONFIRMED fact back to PENDING, no longer staged or ingested."""
        changed = self._db.execute(
            "UPDATE facts SET status = ?, confirmed_at = NULL, staged_at = NULL, "
            "ingested_at = NULL WHERE pk = ? AND fact_hash = ? AND status = ?",
            (
                FactStatus.PENDING,
                partition_key(tenant_id, domain),
                fact_hash,
                FactStatus.CONFIRMED,
            ),
        )
        return changed == 1

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
        # The text and the vectors made of it go (secure_delete zeroes them, and the WAL is
        # folded back): the hash is what keeps later sightings from promoting it again.
        with self._db.write(erases=True) as conn:
            changed = conn.execute(
                "UPDATE facts SET status = ?, superseded_by = ?, staged_at = ?, "
                "ingested_at = NULL, content = '', embedding_model = NULL, "
                "embedding_dimension = NULL, embedding = NULL, spare_embedding_model = NULL, "
                "spare_embedding_dimension = NULL, spare_embedding = NULL "
                "WHERE pk = ? AND fact_hash = ? AND status != ?",
                (
                    FactStatus.RETRACTED,
                    superseded_by,
                    now,
                    partition_key(tenant_id, domain),
                    fact_hash,
                    FactStatus.RETRACTED,
                ),
            ).rowcount
        return changed == 1

    def assert_fact(self, fact: Fact) -> Fact:
        """Insert the person's fact CONFIRMED, or confirm the stored one in its name."""
        f = fact
        pk = partition_key(f.tenant_id, f.domain)
        model, dimension, data = vector_columns(f.embedding)
        with self._db.write() as conn:
            conn.execute(
                "INSERT INTO facts (pk, fact_hash, tenant_id, domain, content, status, confidence, "
                "first_seen, last_seen, confirmed_at, embedding_model, embedding_dimension, "
                "embedding, confirmations, counted_by, asserted_by) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, '{}', ?) "
                "ON CONFLICT (pk, fact_hash) DO UPDATE SET status = excluded.status, "
                "asserted_by = excluded.asserted_by, confirmed_at = excluded.confirmed_at, "
                "superseded_by = NULL, staged_at = NULL, ingested_at = NULL, "
                # A retracted fact's text and vector were erased: the person's word restores them.
                "content = CASE content WHEN '' THEN excluded.content ELSE content END, "
                "embedding_model = COALESCE(embedding_model, excluded.embedding_model), "
                "embedding_dimension = "
                "COALESCE(embedding_dimension, excluded.embedding_dimension), "
                "embedding = COALESCE(embedding, excluded.embedding)",
                (
                    pk,
                    f.fact_hash,
                    f.tenant_id,
                    f.domain,
                    f.content,
                    FactStatus.CONFIRMED,
                    f.confidence,
                    f.first_seen,
                    f.last_seen,
                    f.confirmed_at,
                    model,
                    dimension,
                    data,
                    f.asserted_by,
                ),
            )
            row = conn.execute(
                f"{_SELECT} WHERE f.pk = ? AND f.fact_hash = ?", (pk, f.fact_hash)
            ).fetchone()
        return self._as_fact(row)

    def contested(self, tenant_id: str) -> list[Fact]:
        """The tenant's CONTESTED facts, in key order."""
        low, high = tenant_key_range(tenant_id)
        rows = self._db.fetchall(
            f"{_SELECT} WHERE f.pk >= ? AND f.pk < ? AND f.tenant_id = ? AND f.status = ? "
            "ORDER BY f.pk, f.fact_hash",
            (low, high, tenant_id, FactStatus.CONTESTED),
        )
        return [self._as_fact(r) for r in rows]

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
        check_limit(limit)
        if domain is not None:
            key_filter, params = "f.pk = ?", [partition_key(tenant_id, domain)]
        else:
            low, high = tenant_key_range(tenant_id)
            key_filter = "f.pk >= ? AND f.pk < ? AND f.tenant_id = ?"
            params = [low, high, tenant_id]
        sql = f"{_SELECT} WHERE {key_filter}"
        if status is not None:
            sql += " AND f.status = ?"
            params.append(status.value)
        if cursor is not None:
            params += decode_cursor("facts.of_tenant", cursor, (str, str))
            sql += " AND (f.pk, f.fact_hash) > (?, ?)"
        sql += " ORDER BY f.pk, f.fact_hash LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor("facts.of_tenant", (rows[-1]["pk"], rows[-1]["fact_hash"]))
            if more
            else None
        )
        return Page(tuple(self._as_fact(r) for r in rows), next_cursor)

    def mark_staged(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the fact's KB document was (re)written: it awaits ingestion again.

        A missing fact is left missing.
        """
        self._db.execute(
            "UPDATE facts SET staged_at = ?, ingested_at = NULL WHERE pk = ? AND fact_hash = ?",
            (now, partition_key(tenant_id, domain), fact_hash),
        )

    def awaiting_ingestion(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """List staged facts of every tenant not yet ingested, in key order."""
        check_limit(limit)
        sql = f"{_SELECT} WHERE f.staged_at IS NOT NULL AND f.ingested_at IS NULL"
        params: list[object] = []
        if cursor is not None:
            params += decode_cursor("awaiting_ingestion", cursor, (str, str))
            sql += " AND (f.pk, f.fact_hash) > (?, ?)"
        sql += " ORDER BY f.pk, f.fact_hash LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor("awaiting_ingestion", (rows[-1]["pk"], rows[-1]["fact_hash"]))
            if more
            else None
        )
        return Page(tuple(self._as_fact(r) for r in rows), next_cursor)

    def mark_ingested(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the KB now serves the fact; a missing fact is left missing."""
        self._db.execute(
            "UPDATE facts SET ingested_at = ? WHERE pk = ? AND fact_hash = ?",
            (now, partition_key(tenant_id, domain), fact_hash),
        )

    def fast_path(self, tenant_id: str, domain: str | None) -> list[Fact]:
        """List CONFIRMED facts the KB does not serve yet (every domain of the tenant if None)."""
        if domain is not None:
            pk = partition_key(tenant_id, domain)
            key_filter, params = "f.pk = ?", [pk]
        else:
            low, high = tenant_key_range(tenant_id)
            key_filter = "f.pk >= ? AND f.pk < ? AND f.tenant_id = ?"
            params = [low, high, tenant_id]
        rows = self._db.fetchall(
            f"{_SELECT} WHERE {key_filter} AND f.status = ? AND f.ingested_at IS NULL "
            "ORDER BY f.pk, f.fact_hash",
            [*params, FactStatus.CONFIRMED],
        )
        return [self._as_fact(r) for r in rows]

    def pending_seen_before(
        self, cutoff: float, *, limit: int, cursor: str | None = None
    ) -> Page[Fact]:
        """List PENDING facts of every tenant last seen before ``cutoff``, stalest first."""
        check_limit(limit)
        sql = f"{_SELECT} WHERE f.status = ? AND f.last_seen < ?"
        params: list[object] = [FactStatus.PENDING, cutoff]
        if cursor is not None:
            params += decode_cursor("pending_seen_before", cursor, (float, str, str))
            sql += " AND (f.last_seen, f.pk, f.fact_hash) > (?, ?, ?)"
        sql += " ORDER BY f.last_seen, f.pk, f.fact_hash LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor(
                "pending_seen_before",
                (rows[-1]["last_seen"], rows[-1]["pk"], rows[-1]["fact_hash"]),
            )
            if more
            else None
        )
        return Page(tuple(self._as_fact(r) for r in rows), next_cursor)

    def list_all(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """List facts of every tenant and status in key order, one page of at most ``limit``."""
        check_limit(limit)
        sql, params = _SELECT, []
        if cursor is not None:
            params = [*decode_cursor("facts.list_all", cursor, (str, str))]
            sql += " WHERE (f.pk, f.fact_hash) > (?, ?)"
        sql += " ORDER BY f.pk, f.fact_hash LIMIT ?"
        rows, more = page_of(self._db.fetchall(sql, [*params, limit + 1]), limit)
        next_cursor = (
            encode_cursor("facts.list_all", (rows[-1]["pk"], rows[-1]["fact_hash"]))
            if more
            else None
        )
        return Page(tuple(self._as_fact(r) for r in rows), next_cursor)

    def set_vectors(self, fact: Fact) -> bool:
        """Replace the fact's vectors (both slots) if it exists with the same content."""
        changed = self._db.execute(
            "UPDATE facts SET embedding_model = ?, embedding_dimension = ?, embedding = ?, "
            "spare_embedding_model = ?, spare_embedding_dimension = ?, spare_embedding = ? "
            "WHERE pk = ? AND fact_hash = ? AND content = ?",
            (
                *vector_columns(fact.embedding),
                *vector_columns(fact.spare_embedding),
                partition_key(fact.tenant_id, fact.domain),
                fact.fact_hash,
                fact.content,
            ),
        )
        return changed == 1

    def rekey(self, tenant_id: str, domain: str, fact_hash: str, fact: Fact) -> Fact | None:
        """One transaction: the row and its run log moved to the new key, the texts and
        vectors replaced, then the log folded back (the old text leaves the file).
        """
        pk = partition_key(tenant_id, domain)
        moved = fact.fact_hash != fact_hash
        with self._db.write(erases=True) as conn:
            if (
                moved
                and conn.execute(
                    "SELECT 1 FROM facts WHERE pk = ? AND fact_hash = ?", (pk, fact.fact_hash)
                ).fetchone()
            ):
                return None
            changed = conn.execute(
                "UPDATE facts SET fact_hash = ?, content = ?, review_note = ?, superseded_by = ?, "
                "staged_at = ?, ingested_at = ?, embedding_model = ?, embedding_dimension = ?, "
                "embedding = ?, spare_embedding_model = ?, spare_embedding_dimension = ?, "
                "spare_embedding = ? WHERE pk = ? AND fact_hash = ?",
                (
                    fact.fact_hash,
                    fact.content,
                    fact.review_note,
                    fact.superseded_by,
                    fact.staged_at,
                    fact.ingested_at,
                    *vector_columns(fact.embedding),
                    *vector_columns(fact.spare_embedding),
                    pk,
                    fact_hash,
                ),
            ).rowcount
            if changed != 1:
                return None
            if moved:
                conn.execute(
                    "UPDATE fact_runs SET fact_hash = ? WHERE pk = ? AND fact_hash = ?",
                    (fact.fact_hash, pk, fact_hash),
                )
            row = conn.execute(
                f"{_SELECT} WHERE f.pk = ? AND f.fact_hash = ?", (pk, fact.fact_hash)
            ).fetchone()
        return self._as_fact(row)

    def delete(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Delete one fact and its run log; True if it existed."""
        pk = partition_key(tenant_id, domain)
        with self._db.write() as conn:
            conn.execute("DELETE FROM fact_runs WHERE pk = ? AND fact_hash = ?", (pk, fact_hash))
            changed = conn.execute(
                "DELETE FROM facts WHERE pk = ? AND fact_hash = ?", (pk, fact_hash)
            ).rowcount
        return changed == 1

    def sightings(self, tenant_id: str) -> Iterator[Sighting]:
        """Every logged sighting of the tenant's facts, in key order."""
        low, high = tenant_key_range(tenant_id)
        rows = self._db.fetchall(
            "SELECT f.domain, r.fact_hash, r.run_id FROM fact_runs r JOIN facts f "
            "ON f.pk = r.pk AND f.fact_hash = r.fact_hash "
            "WHERE r.pk >= ? AND r.pk < ? AND r.tenant_id = ? ORDER BY r.pk, r.fact_hash, r.rowid",
            (low, high, tenant_id),
        )
        return iter([Sighting(r["domain"], r["fact_hash"], r["run_id"]) for r in rows])

    def unsee(self, tenant_id: str, domain: str, fact_hash: str, run_id: str) -> Fact | None:
        """Take the run's sighting back in one write transaction; the fact after."""
        pk = partition_key(tenant_id, domain)
        with self._db.write() as conn:
            logged = conn.execute(
                "SELECT counted FROM fact_runs WHERE pk = ? AND fact_hash = ? AND run_id = ?",
                (pk, fact_hash, run_id),
            ).fetchone()
            if logged is None:
                return None
            conn.execute(
                "DELETE FROM fact_runs WHERE pk = ? AND fact_hash = ? AND run_id = ?",
                (pk, fact_hash, run_id),
            )
            if logged["counted"] is None or logged["counted"]:
                conn.execute(
                    "UPDATE facts SET confirmations = MAX(confirmations - 1, 0) "
                    "WHERE pk = ? AND fact_hash = ?",
                    (pk, fact_hash),
                )
            row = conn.execute(
                f"{_SELECT} WHERE f.pk = ? AND f.fact_hash = ?", (pk, fact_hash)
            ).fetchone()
        return None if row is None else self._as_fact(row)

    def count_by_status(self, *, tenant_id: str | None = None) -> dict[str, int]:
        """Facts by status, of the tenant or of every tenant (one GROUP BY)."""
        sql = "SELECT status, COUNT(*) AS n FROM facts"
        params: list[object] = []
        if tenant_id is not None:
            sql += " WHERE pk >= ? AND pk < ? AND tenant_id = ?"
            params += [*tenant_key_range(tenant_id), tenant_id]
        rows = self._db.fetchall(sql + " GROUP BY status", params)
        return {str(row["status"]): int(row["n"]) for row in rows}

    def export(self, tenant_id: str) -> Iterator[Fact]:
        """Yield every fact of the tenant in key order."""
        rows = self._db.tenant_rows(_SELECT, table="f", sort_key="fact_hash", tenant_id=tenant_id)
        return (self._as_fact(r) for r in rows)

    def forget(self, tenant_id: str) -> int:
        """Delete every fact of the tenant and its run logs; the number of facts deleted."""
        low, high = tenant_key_range(tenant_id)
        where = "WHERE pk >= ? AND pk < ? AND tenant_id = ?"
        with self._db.write() as conn:
            conn.execute(f"DELETE FROM fact_runs {where}", (low, high, tenant_id))
            return conn.execute(f"DELETE FROM facts {where}", (low, high, tenant_id)).rowcount


def _insert_if_absent(conn: sqlite3.Connection, pk: str, o: FactObservation) -> bool:
    """Create the fact from its first sighting, which counts: nothing was counted before it."""
    model, dimension, data = vector_columns(o.embedding)
    cursor = conn.execute(
        "INSERT INTO facts (pk, fact_hash, tenant_id, domain, content, status, confidence, "
        "first_seen, last_seen, embedding_model, embedding_dimension, embedding, "
        "confirmations, counted_by) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (pk, fact_hash) DO NOTHING",
        (
            pk,
            o.fact_hash,
            o.tenant_id,
            o.domain,
            o.content,
            FactStatus.PENDING.value,
            o.confidence,
            o.seen_at,
            o.seen_at,
            model,
            dimension,
            data,
            1,
            json.dumps({o.agent_id: o.seen_at}),
        ),
    )
    return cursor.rowcount == 1


def _count_if_independent(
    conn: sqlite3.Connection, pk: str, o: FactObservation, independence: Independence
) -> bool:
    """Count a new run's sighting as a confirmation if ``independence`` says it is one;
    whether it did.
    """
    (counted_by,) = conn.execute(
        "SELECT counted_by FROM facts WHERE pk = ? AND fact_hash = ?", (pk, o.fact_hash)
    ).fetchone()
    after = independence.counted(json.loads(counted_by), o.agent_id, o.seen_at)
    if after is not None:
        conn.execute(
            "UPDATE facts SET confirmations = confirmations + 1, counted_by = ? "
            "WHERE pk = ? AND fact_hash = ?",
            (json.dumps(after), pk, o.fact_hash),
        )
    return after is not None


def _add_run(conn: sqlite3.Connection, pk: str, o: FactObservation, *, counted: bool) -> bool:
    cursor = conn.execute(
        "INSERT INTO fact_runs (pk, fact_hash, run_id, tenant_id, counted) VALUES (?, ?, ?, ?, ?) "
        "ON CONFLICT DO NOTHING",
        (pk, o.fact_hash, o.run_id, o.tenant_id, int(counted)),
    )
    return cursor.rowcount == 1


def _fact(row: sqlite3.Row) -> Fact:
    return Fact(
        tenant_id=row["tenant_id"],
        domain=row["domain"],
        fact_hash=row["fact_hash"],
        content=row["content"],
        status=FactStatus(row["status"]),
        confidence=row["confidence"],
        run_ids=frozenset(json.loads(row["run_ids"])),
        first_seen=row["first_seen"],
        last_seen=row["last_seen"],
        confirmed_at=row["confirmed_at"],
        staged_at=row["staged_at"],
        ingested_at=row["ingested_at"],
        embedding=vector_from(row),
        review_note=row["review_note"],
        spare_embedding=vector_from(row, "spare_embedding"),
        sightings=int(row["sightings"]),
        confirmations=int(row["confirmations"]),
        counted_by=tuple(sorted(json.loads(row["counted_by"]).items())),
        asserted_by=row["asserted_by"],
        superseded_by=row["superseded_by"],
    )
