"""Procedural memory in memory: procedures keyed by (tenant#task_type, procedure_id)."""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from agent_memory.adapters.store_keys import check_limit, decode_cursor, encode_cursor, page_of
from agent_memory.core.model.errors import Conflict, InvalidInput
from agent_memory.core.model.keys import check_tenant, partition_key
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, Procedure, ProcedureStatus, Review
from agent_memory.core.ports import FeedbackCount, Page, RunTrace
from tests.support.in_memory.database import MemoryDatabase, ProcedureRow, ProcedureTable


class MemoryProcedureStore:
    """``ProcedureStore`` over a :class:`MemoryDatabase`, behaving as the SQLite one does.

    ``procedure_id`` is unique across tenants: proposing an id that another tenant or task type
    holds raises ``Conflict`` rather than touching that record. Feedback is deduplicated by a
    (procedure_id, run_id) and a (procedure_id, receipt_id) record written under the same lock
    as the counters.
    """

    def __init__(self, db: MemoryDatabase) -> None:
        self._db = db
        self._table = db.procedures

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
        with self._db.lock:
            existing = self._table.rows.get(p.procedure_id)
            if existing is not None:
                if existing.pk != pk:
                    raise Conflict(f"procedure {p.procedure_id} belongs to another key")
                existing.sources.setdefault(run_id, None)
                return False
            stored = replace(p, steps=tuple(p.steps), status=ProcedureStatus(p.status), proposals=0)
            sources = dict.fromkeys(sorted({*p.source_run_ids, run_id}))
            self._table.rows[p.procedure_id] = ProcedureRow(pk, stored, sources)
        return True

    def get(self, procedure_id: str, *, tenant_id: str | None = None) -> Procedure | None:
        """The procedure with this id (only if it is ``tenant_id``'s, when given)."""
        if tenant_id is not None:
            check_tenant(tenant_id)
        with self._db.lock:
            row = self._table.rows.get(procedure_id)
            if row is None or (tenant_id is not None and row.procedure.tenant_id != tenant_id):
                return None
            return _procedure(row)

    def for_task_type(self, tenant_id: str, task_type: str) -> list[Procedure]:
        """Every procedure of the tenant's task type, whatever its status, by id."""
        pk = partition_key(tenant_id, task_type)
        return self._select(lambda row: row.pk == pk)

    def list(
        self,
        *,
        tenant_id: str | None = None,
        status: ProcedureStatus | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Procedure]:
        """Procedures filtered by tenant and status, one page in procedure_id order."""
        check_limit(limit)
        if tenant_id is not None:
            check_tenant(tenant_id)
        after = decode_cursor("procedures", cursor, (str,))[0] if cursor is not None else None
        with self._db.lock:
            ordered = sorted(
                (
                    row
                    for procedure_id, row in self._table.rows.items()
                    if (tenant_id is None or row.procedure.tenant_id == tenant_id)
                    and (status is None or row.procedure.status == status)
                    and (after is None or procedure_id > after)
                ),
                key=_procedure_id,
            )
            page, more = page_of(ordered, limit)
            items = tuple(_procedure(row) for row in page)
        next_cursor = encode_cursor("procedures", (items[-1].procedure_id,)) if more else None
        return Page(items, next_cursor)

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
        """Changed under the lock (None if not in ``allowed_from``, not at ``revision`` when
        given, or not the tenant's).
        """
        allowed = {ProcedureStatus(s) for s in allowed_from}
        if not allowed:
            return None
        check_tenant(tenant_id)
        with self._db.lock:
            row = self._owned(procedure_id, tenant_id)
            if row is None or row.procedure.status not in allowed:
                return None
            if revision is not None and row.procedure.revision != revision:
                return None
            changed = replace(row.procedure, status=ProcedureStatus(status), updated_at=now)
            if review is not None:
                changed = replace(
                    changed, reviewer=review.reviewer, reviewed_at=now, review_note=review.note
                )
            row.procedure = changed
            return _procedure(row)

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
        """Replaced under the lock (None if not the tenant's, not in ``allowed_from`` or past
        ``revision``).
        """
        allowed = {ProcedureStatus(s) for s in allowed_from}
        check_tenant(tenant_id)
        with self._db.lock:
            row = self._owned(procedure_id, tenant_id)
            if row is None or row.procedure.status not in allowed:
                return None
            if row.procedure.revision != revision:
                return None
            row.procedure = replace(
                row.procedure,
                title=title,
                steps=tuple(steps),
                revision=revision + 1,
                edited_by=edited_by,
                edited_at=now,
                updated_at=now,
            )
            return _procedure(row)

    def reword(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        review_note: str | None,
    ) -> Procedure | None:
        """Replaced under the lock (None if not the tenant's)."""
        check_tenant(tenant_id)
        with self._db.lock:
            row = self._owned(procedure_id, tenant_id)
            if row is None:
                return None
            row.procedure = replace(
                row.procedure, title=title, steps=tuple(steps), review_note=review_note
            )
            return _procedure(row)

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
        check_tenant(tenant_id)
        with self._db.lock:
            row = self._owned(procedure_id, tenant_id)
            if row is None:
                return FeedbackCount.NO_PROCEDURE
            if (procedure_id, run_id) in self._table.feedback:
                return FeedbackCount.RUN_COUNTED
            if (procedure_id, receipt_id) in self._table.receipts:
                return FeedbackCount.RECEIPT_USED
            self._table.feedback[procedure_id, run_id] = succeeded
            self._table.receipts[procedure_id, receipt_id] = run_id
            p = row.procedure
            row.procedure = replace(
                p,
                times_applied=p.times_applied + 1,
                times_succeeded=p.times_succeeded + int(succeeded),
                last_applied_at=now,
            )
        return FeedbackCount.COUNTED

    def export(self, tenant_id: str) -> Iterator[Procedure]:
        """Every procedure of the tenant in key order (read at once: the caller may write)."""
        check_tenant(tenant_id)
        with self._db.lock:
            rows = sorted(
                (row for row in self._table.rows.values() if row.procedure.tenant_id == tenant_id),
                key=lambda row: (row.pk, row.procedure.procedure_id),
            )
            return iter([_procedure(row) for row in rows])

    def forget(self, tenant_id: str) -> int:
        """Delete every procedure of the tenant with its sources and feedback records."""
        check_tenant(tenant_id)
        with self._db.lock:
            owned = {
                procedure_id
                for procedure_id, row in self._table.rows.items()
                if row.procedure.tenant_id == tenant_id
            }
            for procedure_id in owned:
                del self._table.rows[procedure_id]
            _drop_records(self._table, owned)
        return len(owned)

    def run_traces(self, tenant_id: str) -> Iterator[RunTrace]:
        """Every run the tenant's procedures logged, by procedure and run."""
        check_tenant(tenant_id)
        with self._db.lock:
            owned = {
                pid for pid, row in self._table.rows.items() if row.procedure.tenant_id == tenant_id
            }
            sources = {(pid, run) for pid in owned for run in self._table.rows[pid].sources}
            feedback = {key for key in self._table.feedback if key[0] in owned}
        return iter(
            [
                RunTrace(pid, run, (pid, run) in sources, (pid, run) in feedback)
                for pid, run in sorted(sources | feedback)
            ]
        )

    def untrace(self, procedure_id: str, *, tenant_id: str, run_id: str) -> Procedure | None:
        """Take the run back from the procedure under the lock; the procedure after."""
        check_tenant(tenant_id)
        with self._db.lock:
            row = self._owned(procedure_id, tenant_id)
            if row is None:
                return None
            row.sources.pop(run_id, None)
            succeeded = self._table.feedback.pop((procedure_id, run_id), None)
            if succeeded is not None:
                receipts = self._table.receipts
                for key in [
                    k for k, run in receipts.items() if k[0] == procedure_id and run == run_id
                ]:
                    del receipts[key]
                p = row.procedure
                row.procedure = replace(
                    p,
                    times_applied=max(p.times_applied - 1, 0),
                    times_succeeded=max(p.times_succeeded - int(succeeded), 0),
                )
            return _procedure(row)

    def delete(self, procedure_id: str, *, tenant_id: str) -> bool:
        """Delete the tenant's procedure with its logs; True if it existed."""
        check_tenant(tenant_id)
        with self._db.lock:
            if self._owned(procedure_id, tenant_id) is None:
                return False
            del self._table.rows[procedure_id]
            _drop_records(self._table, {procedure_id})
        return True

    def _owned(self, procedure_id: str, tenant_id: str) -> ProcedureRow | None:
        """The procedure's record if it is the tenant's (the lock is held)."""
        row = self._table.rows.get(procedure_id)
        return row if row is not None and row.procedure.tenant_id == tenant_id else None

    def _select(self, keep: Callable[[ProcedureRow], bool]) -> builtins.list[Procedure]:
        """Every procedure ``keep`` keeps, by id."""
        with self._db.lock:
            rows = sorted(
                (row for row in self._table.rows.values() if keep(row)), key=_procedure_id
            )
            return [_procedure(row) for row in rows]


def _drop_records(table: ProcedureTable, owned: set[str]) -> None:
    """Drop the feedback and receipt records of the ``owned`` procedures (the lock is held)."""
    for records in (table.feedback, table.receipts):
        for key in [k for k in records if k[0] in owned]:
            del records[key]


def _procedure_id(row: ProcedureRow) -> str:
    return row.procedure.procedure_id


def _procedure(row: ProcedureRow) -> Procedure:
    """The procedure as read: its first sources named, all of them counted."""
    return replace(
        row.procedure,
        source_run_ids=frozenset(list(row.sources)[:SOURCE_RUN_IDS_KEPT]),
        proposals=len(row.sources),
    )
