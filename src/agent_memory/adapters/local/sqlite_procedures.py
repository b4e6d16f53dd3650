"""Procedural memory in SQLite: procedures keyed by (tenant#task_type, procedure_id)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator, Sequence

from agent_memory.adapters.local.sqlite_codec import (
    decode_strings,
    encode_strings,
    tenant_key_range,
)
from agent_memory.adapters.local.sqlite_db import SqliteDatabase
from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.model.keys import partition_key
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, Procedure, ProcedureStatus, Review
from agent_memory.core.ports import FeedbackCount, Page, RunTrace

# A procedure names its first SOURCE_RUN_IDS_KEPT proposing runs (in the order they were recorded)
# and counts them all, as the DynamoDB adapter does; the child table itself keeps every run, so
# a redelivered run is recognised however many came after it.
_SELECT = (
    "SELECT p.*, (SELECT json_group_array(k.run_id) FROM (SELECT s.run_id "
    "FROM procedure_sources s WHERE s.procedure_id = p.procedure_id ORDER BY s.rowid "
    f"LIMIT {SOURCE_RUN_IDS_KEPT}) k) AS source_run_ids, (SELECT COUNT(*) FROM procedure_sources s "
    "WHERE s.procedure_id = p.procedure_id) AS proposals FROM procedures p"
)


class SqliteProcedureStore:
    """``ProcedureStore`` over a :class:`SqliteDatabase`.

    ``procedure_id`` is globally unique: proposing an id that another tenant or task type
    already holds raises ``Conflict`` rather than touching that record. Feedback is deduplicated
    by a (procedure_id, run_id) and a (procedure_id, receipt_id) record written in the same
    transaction as the counters.
    """

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db

    def _as_procedure(self, row: sqlite3.Row) -> Procedure:
        return self._db.decoded("procedure", _procedure, row)

    def propose(self, procedure: Procedure, run_id: str) -> bool:
        """Store the proposal as given unless its id exists; True if this call created it.

        When the id exists under the same key, only ``run_id`` is counted among its sources,
        once. A proposal names at most SOURCE_RUN_IDS_KEPT sources (``InvalidInput``).
        """
        p = procedure
        if len({*p.source_run_ids, run_id}) > SOURCE_RUN_IDS_KEPT:
            raise InvalidInput(
                "source_run_ids", f"a proposal names at most {SOURCE_RUN_IDS_KEPT} runs"
            )
        pk = partition_key(p.tenant_id, p.task_type)
        with self._db.write() as conn:
            existing = conn.execute(
                "SELECT pk FROM procedures WHERE procedure_id = ?", (p.procedure_id,)
            ).fetchone()
            if existing is not None and existing["pk"] != pk:
                raise Conflict(f"procedure {p.procedure_id} belongs to another key")
            if existing is None:
                conn.execute(
                    "INSERT INTO procedures (pk, procedure_id, tenant_id, task_type, title, "
                    "steps, status, created_at, updated_at, times_applied, times_succeeded, "
                    "last_applied_at, reviewer, reviewed_at, review_note, revision, edited_by, "
                    "edited_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        pk,
                        p.procedure_id,
                        p.tenant_id,
                        p.task_type,
                        p.title,
                        encode_strings(p.steps),
                        p.status,
                        p.created_at,
                        p.updated_at,
                        p.times_applied,
                        p.times_succeeded,
                        p.last_applied_at,
                        p.reviewer,
                        p.reviewed_at,
                        p.review_note,
                        p.revision,
                        p.edited_by,
                        p.edited_at,
                    ),
                )
            sources = {run_id} if existing is not None else {*p.source_run_ids, run_id}
            conn.executemany(
                "INSERT INTO procedure_sources (procedure_id, run_id, tenant_id) "
                "VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [(p.procedure_id, source, p.tenant_id) for source in sorted(sources)],
            )
        return existing is None

    def get(self, procedure_id: str, *, tenant_id: str | None = None) -> Procedure | None:
        """Return the procedure with this id (only if it is ``tenant_id``'s, when given)."""
        if tenant_id is None:
            row = self._db.fetchone(f"{_SELECT} WHERE p.procedure_id = ?", (procedure_id,))
        else:
            low, high = tenant_key_range(tenant_id)
            row = self._db.fetchone(
                f"{_SELECT} WHERE p.procedure_id = ? AND p.pk >= ? AND p.pk < ? "
                "AND p.tenant_id = ?",
                (procedure_id, low, high, tenant_id),
            )
        return self._as_procedure(row) if row is not None else None

    def for_task_type(self, tenant_id: str, task_type: str) -> list[Procedure]:
        """List every procedure of the tenant's task type, whatever its status, by id."""
        rows = self._db.fetchall(
            f"{_SELECT} WHERE p.pk = ? ORDER BY p.procedure_id",
            (partition_key(tenant_id, task_type),),
        )
        return [self._as_procedure(r) for r in rows]

    def list(
        self,
        *,
        tenant_id: str | None = None,
        status: ProcedureStatus | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Procedure]:
        """List procedures filtered by tenant and status, one page in procedure_id order."""
        check_limit(limit)
        conditions: list[str] = []
        params: list[object] = []
        if tenant_id is not None:
            low, high = tenant_key_range(tenant_id)
            conditions.append("p.pk >= ? AND p.pk < ? AND p.tenant_id = ?")
            params += [low, high, tenant_id]
        if status is not None:
            conditions.append("p.status = ?")
            params.append(status)
        if cursor is not None:
            conditions.append("p.procedure_id > ?")
            params += decode_cursor("procedures", cursor, (str,))
        where = f" WHERE {' AND '.join(conditions)}" if conditions else ""
        rows, more = page_of(
            self._db.fetchall(
                f"{_SELECT}{where} ORDER BY p.procedure_id LIMIT ?", [*params, limit + 1]
            ),
            limit,
        )
        next_cursor = encode_cursor("procedures", (rows[-1]["procedure_id"],)) if more else None
        return Page(tuple(self._as_procedure(r) for r in rows), next_cursor)

    def set_status(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        status: ProcedureStatus,
        allowed_from: Sequence[ProcedureStatus],
        now: float,
        review: Review | None = None,
        revision: int | None = None,
    ) -> Procedure | None:
        """One conditional UPDATE (None if the procedure is not in ``allowed_from``, not at
        ``revision`` when given, or not the tenant's).
        """
        allowed = [ProcedureStatus(s) for s in allowed_from]
        if not allowed:
            return None
        low, high = tenant_key_range(tenant_id)
        reviewed = ", reviewer = ?, reviewed_at = ?, review_note = ?" if review else ""
        review_params: list[object] = [review.reviewer, now, review.note] if review else []
        marks = ", ".join("?" for _ in allowed)
        with self._db.write() as conn:
            changed = conn.execute(
                f"UPDATE procedures SET status = ?, updated_at = ?{reviewed} "
                f"WHERE procedure_id = ? AND pk >= ? AND pk < ? AND tenant_id = ? "
                f"AND status IN ({marks}) AND (? IS NULL OR revision = ?)",
                [
                    status,
                    now,
                    *review_params,
                    procedure_id,
                    low,
                    high,
                    tenant_id,
                    *allowed,
                    revision,
                    revision,
                ],
            ).rowcount
            if changed != 1:
                return None
            row = conn.execute(f"{_SELECT} WHERE p.procedure_id = ?", (procedure_id,)).fetchone()
        return self._as_procedure(row)

    def replace_steps(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        edited_by: str,
        revision: int,
        allowed_from: Sequence[ProcedureStatus],
        now: float,
    ) -> Procedure | None:
        """One conditional UPDATE (None if the procedure is not the tenant's, not in
        ``allowed_from`` or past ``revision``).
        """
        allowed = [ProcedureStatus(s) for s in allowed_from]
        if not allowed:
            return None
        low, high = tenant_key_range(tenant_id)
        marks = ", ".join("?" for _ in allowed)
        with self._db.write() as conn:
            changed = conn.execute(
                "UPDATE procedures SET title = ?, steps = ?, revision = revision + 1, "
                "edited_by = ?, edited_at = ?, updated_at = ? "
                "WHERE procedure_id = ? AND pk >= ? AND pk < ? AND tenant_id = ? "
                f"AND revision = ? AND status IN ({marks})",
                [
                    title,
                    encode_strings(tuple(steps)),
                    edited_by,
                    now,
                    now,
                    procedure_id,
                    low,
                    high,
                    tenant_id,
                    revision,
                    *allowed,
                ],
            ).rowcount
            if changed != 1:
                return None
            row = conn.execute(f"{_SELECT} WHERE p.procedure_id = ?", (procedure_id,)).fetchone()
        return self._as_procedure(row)

    def reword(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        review_note: str | None,
    ) -> Procedure | None:
        """One UPDATE of the texts, in a transaction that folds the log back."""
        low, high = tenant_key_range(tenant_id)
        with self._db.write(erases=True) as conn:
            changed = conn.execute(
                "UPDATE procedures SET title = ?, steps = ?, review_note = ? "
                "WHERE procedure_id = ? AND pk >= ? AND pk < ? AND tenant_id = ?",
                (
                    title,
                    encode_strings(tuple(steps)),
                    review_note,
                    procedure_id,
                    low,
                    high,
                    tenant_id,
                ),
            ).rowcount
            if changed != 1:
                return None
            row = conn.execute(f"{_SELECT} WHERE p.procedure_id = ?", (procedure_id,)).fetchone()
        return self._as_procedure(row)

    def record_feedback(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        run_id: str,
        receipt_id: str,
        succeeded: bool,
        now: float,
    ) -> FeedbackCount:
        """Count one application (and success) per run and per receipt, atomically with both
        dedup records; anything but ``COUNTED`` changes nothing.
        """
        low, high = tenant_key_range(tenant_id)
        with self._db.write() as conn:
            exists = conn.execute(
                "SELECT 1 FROM procedures WHERE procedure_id = ? AND pk >= ? AND pk < ? "
                "AND tenant_id = ?",
                (procedure_id, low, high, tenant_id),
            ).fetchone()
            if exists is None:
                return FeedbackCount.NO_PROCEDURE
            run_counted = conn.execute(
                "SELECT 1 FROM procedure_feedback WHERE procedure_id = ? AND run_id = ?",
                (procedure_id, run_id),
            ).fetchone()
            if run_counted is not None:
                return FeedbackCount.RUN_COUNTED
            receipt_used = conn.execute(
                "SELECT 1 FROM procedure_receipts WHERE procedure_id = ? AND receipt_id = ?",
                (procedure_id, receipt_id),
            ).fetchone()
            if receipt_used is not None:
                return FeedbackCount.RECEIPT_USED
            # The write lock is held since the transaction began: no one counted in between.
            conn.execute(
                "INSERT INTO procedure_feedback (procedure_id, run_id, tenant_id, succeeded, "
                "recorded_at) VALUES (?, ?, ?, ?, ?)",
                (procedure_id, run_id, tenant_id, int(succeeded), now),
            )
            conn.execute(
                "INSERT INTO procedure_receipts (procedure_id, receipt_id, tenant_id, run_id, "
                "recorded_at) VALUES (?, ?, ?, ?, ?)",
                (procedure_id, receipt_id, tenant_id, run_id, now),
            )
            conn.execute(
                "UPDATE procedures SET times_applied = times_applied + 1, "
                "times_succeeded = times_succeeded + ?, last_applied_at = ? "
                "WHERE procedure_id = ?",
                (int(succeeded), now, procedure_id),
            )
        return FeedbackCount.COUNTED

    def run_traces(self, tenant_id: str) -> Iterator[RunTrace]:
        """Every run the tenant's procedures logged, by procedure and run."""
        low, high = tenant_key_range(tenant_id)
        owned = "SELECT procedure_id FROM procedures WHERE pk >= ? AND pk < ? AND tenant_id = ?"
        rows = self._db.fetchall(
            "SELECT procedure_id, run_id, MAX(source) AS source, MAX(feedback) AS feedback FROM ("
            "SELECT procedure_id, run_id, 1 AS source, 0 AS feedback FROM procedure_sources "
            f"WHERE procedure_id IN ({owned}) UNION ALL "
            "SELECT procedure_id, run_id, 0, 1 FROM procedure_feedback "
            f"WHERE procedure_id IN ({owned})) GROUP BY procedure_id, run_id "
            "ORDER BY procedure_id, run_id",
            (low, high, tenant_id, low, high, tenant_id),
        )
        return iter(
            [
                RunTrace(r["procedure_id"], r["run_id"], bool(r["source"]), bool(r["feedback"]))
                for r in rows
            ]
        )

    def untrace(self, procedure_id: str, *, tenant_id: str, run_id: str) -> Procedure | None:
        """Take the run back from the procedure in one write transaction."""
        low, high = tenant_key_range(tenant_id)
        where = "WHERE p.procedure_id = ? AND p.pk >= ? AND p.pk < ? AND p.tenant_id = ?"
        with self._db.write() as conn:
            if (
                conn.execute(
                    f"SELECT 1 FROM procedures p {where}", (procedure_id, low, high, tenant_id)
                ).fetchone()
                is None
            ):
                return None
            conn.execute(
                "DELETE FROM procedure_sources WHERE procedure_id = ? AND run_id = ?",
                (procedure_id, run_id),
            )
            feedback = conn.execute(
                "DELETE FROM procedure_feedback WHERE procedure_id = ? AND run_id = ? "
                "RETURNING succeeded",
                (procedure_id, run_id),
            ).fetchone()
            if feedback is not None:
                conn.execute(
                    "DELETE FROM procedure_receipts WHERE procedure_id = ? AND run_id = ?",
                    (procedure_id, run_id),
                )
                conn.execute(
                    "UPDATE procedures SET times_applied = MAX(times_applied - 1, 0), "
                    "times_succeeded = MAX(times_succeeded - ?, 0) WHERE procedure_id = ?",
                    (int(feedback["succeeded"]), procedure_id),
                )
            row = conn.execute(
                f"{_SELECT} {where}", (procedure_id, low, high, tenant_id)
            ).fetchone()
        return self._as_procedure(row)

    def delete(self, procedure_id: str, *, tenant_id: str) -> bool:
        """Delete the tenant's procedure with its sources, feedback and receipt records."""
        low, high = tenant_key_range(tenant_id)
        with self._db.write() as conn:
            changed = conn.execute(
                "DELETE FROM procedures WHERE procedure_id = ? AND pk >= ? AND pk < ? "
                "AND tenant_id = ?",
                (procedure_id, low, high, tenant_id),
            ).rowcount
            if changed:
                for table in ("procedure_sources", "procedure_feedback", "procedure_receipts"):
                    conn.execute(f"DELETE FROM {table} WHERE procedure_id = ?", (procedure_id,))
        return changed == 1

    def export(self, tenant_id: str) -> Iterator[Procedure]:
        """Yield every procedure of the tenant in key order."""
        rows = self._db.tenant_rows(
            _SELECT, table="p", sort_key="procedure_id", tenant_id=tenant_id
        )
        return (self._as_procedure(r) for r in rows)

    def forget(self, tenant_id: str) -> int:
        """Delete every procedure of the tenant with its sources and feedback records."""
        low, high = tenant_key_range(tenant_id)
        with self._db.write() as conn:
            owned = "SELECT procedure_id FROM procedures WHERE pk >= ? AND pk < ? AND tenant_id = ?"
            for table in ("procedure_sources", "procedure_feedback", "procedure_receipts"):
                conn.execute(
                    f"DELETE FROM {table} WHERE procedure_id IN ({owned})", (low, high, tenant_id)
                )
            return conn.execute(
                "DELETE FROM procedures WHERE pk >= ? AND pk < ? AND tenant_id = ?",
                (low, high, tenant_id),
            ).rowcount


def _procedure(row: sqlite3.Row) -> Procedure:
    return Procedure(
        tenant_id=row["tenant_id"],
        task_type=row["task_type"],
        procedure_id=row["procedure_id"],
        title=row["title"],
        steps=decode_strings(row["steps"]),
        status=ProcedureStatus(row["status"]),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        source_run_ids=frozenset(json.loads(row["source_run_ids"])),
        times_applied=row["times_applied"],
        times_succeeded=row["times_succeeded"],
        last_applied_at=row["last_applied_at"],
        reviewer=row["reviewer"],
        reviewed_at=row["reviewed_at"],
        review_note=row["review_note"],
        proposals=int(row["proposals"]),
        revision=row["revision"],
        edited_by=row["edited_by"],
        edited_at=row["edited_at"],
    )
