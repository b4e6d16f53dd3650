"""Procedural memory in DynamoDB: items keyed (``{tenant}#{task_type}``, procedure_id).

A procedure's ``source_run_ids`` names its first
:data:`~agent_memory.core.model.models.SOURCE_RUN_IDS_KEPT` proposing runs and ``proposals`` counts
every distinct one, so a procedure every run proposes keeps a bounded item (3,200 run ids of
128 characters would pass DynamoDB's 400 KB). Each later run is remembered by a small marker
item, ``{tenant}#{task_type}#runs#{id}`` / ``{run_id}``, put in the same transaction that
counts it: a redelivered run finds its marker and never counts twice. Markers carry none of a
procedure's index attributes (their tenant index key is ``{tenant}#runs``), so only
``forget`` reads them.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence

from agent_memory.adapters.aws.dynamodb_codec import (
    ConditionFailed,
    DynamoDbClient,
    Item,
    get_float,
    get_int,
    get_opt_float,
    get_opt_s,
    get_s,
    get_set,
    get_strings,
    n,
    put_optional,
    s,
    ss,
    strings,
    translated,
)
from agent_memory.adapters.aws.dynamodb_paging import Listing, delete_all, read_all, read_page
from agent_memory.adapters.aws.dynamodb_schema import (
    PROCEDURE_ID_INDEX,
    PROCEDURES,
    SHARDS,
    STATUS_INDEX,
    STATUS_SHARD,
    TENANT_INDEX,
    TENANT_KEY,
    shard_key,
    shard_of,
)
from agent_memory.core.model.errors import Conflict, InvalidInput, TransientError
from agent_memory.core.model.keys import (
    KEY_SEPARATOR,
    check_component,
    partition_key,
    tenant_prefix,
)
from agent_memory.core.model.models import SOURCE_RUN_IDS_KEPT, Procedure, ProcedureStatus, Review
from agent_memory.core.ports import FeedbackCount, Page, RunTrace

_FEEDBACK = "feedback"
# Markers of the serving receipts counted, beside the runs': a receipt counts once.
_RECEIPTS = "receipts"
_CHECK_FAILED = "ConditionalCheckFailed"
# Markers of the proposing runs counted past the log: their partition and tenant key say so.
_RUNS = "runs"
_PROPOSE_ATTEMPTS = 20
_STATUS = {"#status": "status"}


class DynamoDbProcedureStore:
    """``ProcedureStore`` over the procedures table (:data:`~.dynamodb_schema.PROCEDURES`).

    ``procedure_id`` is unique across tenants and task types: ``propose`` looks the id up in
    ``procedure-id-index`` and raises ``Conflict`` if another key holds it. The index is
    eventually consistent, so two tenants proposing one id in the same instant could both
    succeed; the core derives ids from a hash of tenant, task type and steps, so only a caller
    choosing ids itself could get there. Feedback is counted by one ``TransactWriteItems``: a
    per-(procedure, run) and a per-(procedure, receipt) marker, each put only if absent, and
    the ``ADD`` to the counters.
    """

    def __init__(self, client: DynamoDbClient, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def propose(self, procedure: Procedure, run_id: str) -> bool:
        """Store a PENDING proposal unless its id exists (then only count ``run_id`` among its
        sources, once); True if this call created it.
        """
        p = procedure
        _check_sources(p, run_id)
        pk = partition_key(p.tenant_id, p.task_type)
        # Checked within the tenant only: a tenant-scoped caller cannot (and must not) see other
        # tenants' keys; ids embed a hash of the tenant, so they do not collide across tenants.
        if any(other != pk for other in self._locate(p.procedure_id, p.tenant_id)):
            raise Conflict(f"procedure {p.procedure_id} belongs to another task type")
        for attempt in range(_PROPOSE_ATTEMPTS):
            current = self._read(pk, p.procedure_id)
            try:
                if current is None:
                    with translated():
                        self._client.put_item(
                            TableName=self._table,
                            Item=_item(p, run_id),
                            ConditionExpression="attribute_not_exists(pk)",
                        )
                    return True
                logged = get_set(current, "source_run_ids")
                if run_id not in logged:
                    self._count_source(p, run_id, len(logged))
                return False
            except ConditionFailed:
                # It appeared, vanished or gained a source since it was read: read it again.
                time.sleep(random.uniform(0, min(0.001 * 2**attempt, 0.05)))
        raise TransientError(f"procedure {p.procedure_id} changed under every attempt to propose")

    def _count_source(self, p: Procedure, run_id: str, logged: int) -> None:
        """Count a run not in the log of ``logged`` ids: named in the log while it has room,
        else by a marker put with the count. ``ConditionFailed`` if the procedure changed since
        it was read; nothing if the run's marker exists (it was counted before).
        """
        values: Item = {":one": n(1)}
        counter = "SET proposals = proposals + :one"
        pk = partition_key(p.tenant_id, p.task_type)
        key = _key(pk, p.procedure_id)
        if logged < SOURCE_RUN_IDS_KEPT:
            # Concurrent proposals may all add themselves while the log has room; one that
            # filled it in between, or the same run's, makes this one read again.
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key=key,
                    UpdateExpression=f"{counter} ADD source_run_ids :run",
                    # A log emptied by forgetting its runs is no attribute at all.
                    ConditionExpression=(
                        "attribute_exists(pk) AND (attribute_not_exists(source_run_ids) OR "
                        "(NOT contains(source_run_ids, :id) AND size(source_run_ids) < :kept))"
                    ),
                    ExpressionAttributeValues=values
                    | {":run": ss([run_id]), ":id": s(run_id), ":kept": n(SOURCE_RUN_IDS_KEPT)},
                )
            return
        marker: Item = {
            "pk": s(f"{pk}{KEY_SEPARATOR}{_RUNS}{KEY_SEPARATOR}{p.procedure_id}"),
            "sk": s(run_id),
            TENANT_KEY: s(f"{tenant_prefix(p.tenant_id)}{_RUNS}"),
        }
        update = {
            "TableName": self._table,
            "Key": key,
            "UpdateExpression": counter,
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeValues": values,
        }
        try:
            self._count_once([marker], update)
        except ConditionFailed as failed:
            if failed.reasons[:1] != (_CHECK_FAILED,):
                raise

    def get(self, procedure_id: str, *, tenant_id: str | None = None) -> Procedure | None:
        """Found through the tenant's id index partition, or every tenant's without one."""
        for pk in self._locate(procedure_id, tenant_id):
            item = self._read(pk, procedure_id)
            if item is not None:
                return _procedure(item)
        return None

    def for_task_type(self, tenant_id: str, task_type: str) -> list[Procedure]:
        """Every procedure of the tenant's task type, whatever its status, by id."""
        listing = Listing(
            design=PROCEDURES,
            table_name=self._table,
            kind="procedures.task_type",
            partitions=(partition_key(tenant_id, task_type),),
        )
        return [_procedure(item) for item in read_all(self._client, listing)]

    def list(
        self,
        *,
        tenant_id: str | None = None,
        status: ProcedureStatus | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Procedure]:
        """Procedures filtered by tenant and status, one page.

        With a tenant: its ``tenant-index`` partition (status as a filter). Without: the shards
        of ``status-index`` for the status asked, or for every status.
        """
        kind = f"procedures.list {tenant_id!r} {status!r}"
        if tenant_id is not None:
            listing = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind=kind,
                partitions=(tenant_prefix(tenant_id),),
                index=PROCEDURES.index(TENANT_INDEX),
                filter="#status = :status" if status is not None else None,
                names=_STATUS if status is not None else {},
                values={":status": s(ProcedureStatus(status).value)} if status is not None else {},
            )
        else:
            statuses = [ProcedureStatus(status)] if status is not None else list(ProcedureStatus)
            listing = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind=kind,
                partitions=tuple(shard_key(st, i) for st in statuses for i in range(SHARDS)),
                index=PROCEDURES.index(STATUS_INDEX),
            )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(_procedure(i) for i in page.items), page.cursor)

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
        """One conditional UpdateItem (None if the procedure is not in ``allowed_from``, not at
        ``revision`` when given, or not the tenant's); a review without a note removes the
        last one's.
        """
        allowed = [ProcedureStatus(a) for a in dict.fromkeys(allowed_from)]
        pk = self._owned(procedure_id, tenant_id)
        if not allowed or pk is None:
            return None
        target = ProcedureStatus(status)
        sets = ["#status = :status", "updated_at = :now", f"{STATUS_SHARD} = :shard"]
        values: Item = {
            ":status": s(target.value),
            ":now": n(now),
            ":shard": s(shard_key(target, shard_of(pk, procedure_id))),
        }
        removes: list[str] = []
        if review is not None:
            sets += ["reviewer = :reviewer", "reviewed_at = :now"]
            values[":reviewer"] = s(review.reviewer)
            if review.note is not None:
                sets.append("review_note = :note")
                values[":note"] = s(review.note)
            else:
                removes.append("review_note")
        marks = [f":from{i}" for i in range(len(allowed))]
        values |= {mark: s(a.value) for mark, a in zip(marks, allowed, strict=True)}
        expression = "SET " + ", ".join(sets) + (" REMOVE " + ", ".join(removes) if removes else "")
        condition = f"attribute_exists(pk) AND #status IN ({', '.join(marks)})"
        if revision is not None:
            # An item written before edits existed has no revision: it is at revision 0.
            values[":revision"] = n(revision)
            seen = "revision = :revision"
            if revision == 0:
                seen = f"(attribute_not_exists(revision) OR {seen})"
            condition += f" AND {seen}"
        try:
            with translated():
                response = self._client.update_item(
                    TableName=self._table,
                    Key=_key(pk, procedure_id),
                    UpdateExpression=expression,
                    ConditionExpression=condition,
                    ExpressionAttributeNames=_STATUS,
                    ExpressionAttributeValues=values,
                    ReturnValues="ALL_NEW",
                )
        except ConditionFailed:
            return None
        return _procedure(response["Attributes"])

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
        """One conditional UpdateItem (None if the procedure is not the tenant's, not in
        ``allowed_from`` or past ``revision``; an item written before edits existed has none,
        and is at revision 0).
        """
        allowed = [ProcedureStatus(a) for a in dict.fromkeys(allowed_from)]
        pk = self._owned(procedure_id, tenant_id)
        if not allowed or pk is None:
            return None
        marks = [f":from{i}" for i in range(len(allowed))]
        values: Item = {
            ":title": s(title),
            ":steps": strings(tuple(steps)),
            ":by": s(edited_by),
            ":now": n(now),
            ":seen": n(revision),
            ":next": n(revision + 1),
        }
        values |= {mark: s(a.value) for mark, a in zip(marks, allowed, strict=True)}
        seen = "revision = :seen"
        if revision == 0:
            seen = f"(attribute_not_exists(revision) OR {seen})"
        try:
            with translated():
                response = self._client.update_item(
                    TableName=self._table,
                    Key=_key(pk, procedure_id),
                    UpdateExpression=(
                        "SET title = :title, steps = :steps, revision = :next, "
                        "edited_by = :by, edited_at = :now, updated_at = :now"
                    ),
                    ConditionExpression=(
                        f"attribute_exists(pk) AND {seen} AND #status IN ({', '.join(marks)})"
                    ),
                    ExpressionAttributeNames=_STATUS,
                    ExpressionAttributeValues=values,
                    ReturnValues="ALL_NEW",
                )
        except ConditionFailed:
            return None
        return _procedure(response["Attributes"])

    def reword(
        self,
        procedure_id: str,
        *,
        tenant_id: str,
        title: str,
        steps: Sequence[str],
        review_note: str | None,
    ) -> Procedure | None:
        """One conditional UpdateItem of the texts (None if the procedure is not the
        tenant's).
        """
        pk = self._owned(procedure_id, tenant_id)
        if pk is None:
            return None
        values: Item = {":title": s(title), ":steps": strings(tuple(steps))}
        expression = "SET title = :title, steps = :steps"
        if review_note is None:
            expression += " REMOVE review_note"
        else:
            expression += ", review_note = :note"
            values[":note"] = s(review_note)
        try:
            with translated():
                response = self._client.update_item(
                    TableName=self._table,
                    Key=_key(pk, procedure_id),
                    UpdateExpression=expression,
                    ConditionExpression="attribute_exists(pk)",
                    ExpressionAttributeValues=values,
                    ReturnValues="ALL_NEW",
                )
        except ConditionFailed:
            return None
        return _procedure(response["Attributes"])

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
        """Atomically count one application (and success) per run and per receipt; anything
        but ``COUNTED`` changes nothing.
        """
        check_component("receipt_id", receipt_id)
        pk = self._owned(procedure_id, tenant_id)
        if pk is None:
            return FeedbackCount.NO_PROCEDURE
        run_marker: Item = {
            "pk": s(f"{pk}{KEY_SEPARATOR}{_FEEDBACK}{KEY_SEPARATOR}{procedure_id}"),
            "sk": s(run_id),
            TENANT_KEY: s(f"{tenant_prefix(tenant_id)}{_FEEDBACK}"),
            "succeeded": {"BOOL": succeeded},
            "recorded_at": n(now),
        }
        receipt_marker: Item = {
            "pk": s(f"{pk}{KEY_SEPARATOR}{_RECEIPTS}{KEY_SEPARATOR}{procedure_id}"),
            "sk": s(receipt_id),
            TENANT_KEY: s(f"{tenant_prefix(tenant_id)}{_RECEIPTS}"),
            "run_id": s(run_id),
            "recorded_at": n(now),
        }
        counters = {
            "TableName": self._table,
            "Key": _key(pk, procedure_id),
            "UpdateExpression": (
                "ADD times_applied :one, times_succeeded :won SET last_applied_at = :now"
            ),
            "ConditionExpression": "attribute_exists(pk)",
            "ExpressionAttributeValues": {":one": n(1), ":won": n(int(succeeded)), ":now": n(now)},
        }
        try:
            self._count_once([run_marker, receipt_marker], counters)
        except ConditionFailed as failed:
            # One reason per action, in order: the run's marker, the receipt's, the counters.
            reasons = (*failed.reasons, "", "", "")
            if reasons[0] == _CHECK_FAILED:
                return FeedbackCount.RUN_COUNTED
            if reasons[1] == _CHECK_FAILED:
                return FeedbackCount.RECEIPT_USED
            return FeedbackCount.NO_PROCEDURE
        return FeedbackCount.COUNTED

    def _count_once(self, markers: Sequence[Item], update: Item) -> None:
        """Put ``markers`` and apply ``update`` in one transaction: a marker already there (or
        a missing record) fails the whole with ``ConditionFailed``.
        """
        with translated():
            self._client.transact_write_items(
                TransactItems=[
                    *(
                        {
                            "Put": {
                                "TableName": self._table,
                                "Item": marker,
                                "ConditionExpression": "attribute_not_exists(pk)",
                            }
                        }
                        for marker in markers
                    ),
                    {"Update": update},
                ]
            )

    def run_traces(self, tenant_id: str) -> Iterator[RunTrace]:
        """Every run the tenant's procedures logged: each one's source log, then the markers of
        sources past it and of counted feedback.
        """
        prefix = tenant_prefix(tenant_id)
        traces: dict[tuple[str, str], tuple[bool, bool]] = {}
        for item in read_all(self._client, self._tenant_listing(prefix)):
            for run_id in get_set(item, "source_run_ids"):
                traces[get_s(item, "sk"), run_id] = (True, False)
        for kind in (_RUNS, _FEEDBACK):
            for marker in read_all(self._client, self._tenant_listing(f"{prefix}{kind}")):
                procedure_id = get_s(marker, "pk").rsplit(KEY_SEPARATOR, 1)[1]
                key = (procedure_id, get_s(marker, "sk"))
                source, feedback = traces.get(key, (False, False))
                traces[key] = (source or kind == _RUNS, feedback or kind == _FEEDBACK)
        for (procedure_id, run_id), (source, feedback) in sorted(traces.items()):
            yield RunTrace(procedure_id, run_id, source, feedback)

    def untrace(self, procedure_id: str, *, tenant_id: str, run_id: str) -> Procedure | None:
        """Take the run back: out of the source log (or its marker deleted with the count),
        then its feedback marker deleted with the counters and its receipt markers released.
        """
        pk = self._owned(procedure_id, tenant_id)
        if pk is None:
            return None
        key = _key(pk, procedure_id)
        try:
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key=key,
                    UpdateExpression="SET proposals = proposals - :one DELETE source_run_ids :run",
                    ConditionExpression="contains(source_run_ids, :id)",
                    ExpressionAttributeValues={
                        ":one": n(1),
                        ":run": ss([run_id]),
                        ":id": s(run_id),
                    },
                )
        except ConditionFailed:
            self._uncount(_run_marker_key(pk, _RUNS, procedure_id, run_id), key, None)
        marker_key = _run_marker_key(pk, _FEEDBACK, procedure_id, run_id)
        with translated():
            feedback = self._client.get_item(
                TableName=self._table, Key=marker_key, ConsistentRead=True
            ).get("Item")
        if feedback is not None:
            self._uncount(marker_key, key, bool(feedback["succeeded"]["BOOL"]))
            receipts = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind="procedures.receipts",
                partitions=(f"{pk}{KEY_SEPARATOR}{_RECEIPTS}{KEY_SEPARATOR}{procedure_id}",),
                filter="run_id = :run",
                values={":run": s(run_id)},
            )
            for receipt in read_all(self._client, receipts):
                with translated():
                    self._client.delete_item(
                        TableName=self._table, Key={"pk": receipt["pk"], "sk": receipt["sk"]}
                    )
        after = self._read(pk, procedure_id)
        return None if after is None else _procedure(after)

    def _uncount(self, marker_key: Item, key: Item, succeeded: bool | None) -> None:
        """Delete a marker and, in the same transaction, the count it stood for: a source
        (``succeeded`` None) or an application; nothing if the marker is gone.
        """
        if succeeded is None:
            update, values = "SET proposals = proposals - :one", {":one": n(1)}
        else:
            update = "ADD times_applied :less, times_succeeded :lost"
            values = {":less": n(-1), ":lost": n(-int(succeeded))}
        try:
            with translated():
                self._client.transact_write_items(
                    TransactItems=[
                        {
                            "Delete": {
                                "TableName": self._table,
                                "Key": marker_key,
                                "ConditionExpression": "attribute_exists(pk)",
                            }
                        },
                        {
                            "Update": {
                                "TableName": self._table,
                                "Key": key,
                                "UpdateExpression": update,
                                "ConditionExpression": "attribute_exists(pk)",
                                "ExpressionAttributeValues": values,
                            }
                        },
                    ]
                )
        except ConditionFailed:
            return

    def delete(self, procedure_id: str, *, tenant_id: str) -> bool:
        """Delete the tenant's procedure, then its run, feedback and receipt markers."""
        pk = self._owned(procedure_id, tenant_id)
        if pk is None:
            return False
        with translated():
            self._client.delete_item(TableName=self._table, Key=_key(pk, procedure_id))
        for kind in (_RUNS, _FEEDBACK, _RECEIPTS):
            markers = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind=f"procedures.{kind}",
                partitions=(f"{pk}{KEY_SEPARATOR}{kind}{KEY_SEPARATOR}{procedure_id}",),
            )
            delete_all(self._client, markers)
        return True

    def export(self, tenant_id: str) -> Iterator[Procedure]:
        """Every procedure of the tenant (its ``tenant-index`` partition)."""
        listing = self._tenant_listing(tenant_prefix(tenant_id))
        return (_procedure(item) for item in read_all(self._client, listing))

    def forget(self, tenant_id: str) -> int:
        """Delete every procedure of the tenant, its feedback, receipt and run markers;
        procedures deleted.
        """
        prefix = tenant_prefix(tenant_id)
        deleted = delete_all(self._client, self._tenant_listing(prefix))
        for markers in (_FEEDBACK, _RECEIPTS, _RUNS):
            delete_all(self._client, self._tenant_listing(f"{prefix}{markers}"))
        return deleted

    def _tenant_listing(self, tenant_key: str) -> Listing:
        return Listing(
            design=PROCEDURES,
            table_name=self._table,
            kind="procedures.tenant",
            partitions=(tenant_key,),
            index=PROCEDURES.index(TENANT_INDEX),
        )

    def _locate(self, procedure_id: str, tenant_id: str | None = None) -> tuple[str, ...]:
        """Partition keys holding ``procedure_id`` (normally at most one).

        With a tenant, only the tenant's own index partition is read, which a session narrowed
        by ``dynamodb:LeadingKeys`` may query; without one, the id index of every tenant.
        """
        if tenant_id is None:
            listing = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind="procedures.id",
                partitions=(procedure_id,),
                index=PROCEDURES.index(PROCEDURE_ID_INDEX),
            )
        else:
            check_component("tenant_id", tenant_id)
            listing = Listing(
                design=PROCEDURES,
                table_name=self._table,
                kind="procedures.tenant_id",
                partitions=(tenant_prefix(tenant_id),),
                index=PROCEDURES.index(TENANT_INDEX),
                range_condition="#rk = :id",
                values={":id": s(procedure_id)},
            )
        return tuple(get_s(item, "pk") for item in read_all(self._client, listing))

    def _owned(self, procedure_id: str, tenant_id: str) -> str | None:
        pks = self._locate(procedure_id, tenant_id)
        return pks[0] if pks else None

    def _read(self, pk: str, procedure_id: str) -> Item | None:
        with translated():
            response = self._client.get_item(
                TableName=self._table, Key=_key(pk, procedure_id), ConsistentRead=True
            )
        item: Item | None = response.get("Item")
        return item


def _key(pk: str, procedure_id: str) -> Item:
    return {"pk": s(pk), "sk": s(procedure_id)}


def _run_marker_key(pk: str, kind: str, procedure_id: str, run_id: str) -> Item:
    return {"pk": s(f"{pk}{KEY_SEPARATOR}{kind}{KEY_SEPARATOR}{procedure_id}"), "sk": s(run_id)}


def _check_sources(p: Procedure, run_id: str) -> None:
    """A proposal names at most SOURCE_RUN_IDS_KEPT sources: past those, runs are only counted."""
    if len({*p.source_run_ids, run_id}) > SOURCE_RUN_IDS_KEPT:
        raise InvalidInput("source_run_ids", f"a proposal names at most {SOURCE_RUN_IDS_KEPT} runs")


def _item(p: Procedure, run_id: str) -> Item:
    pk = partition_key(p.tenant_id, p.task_type)
    status = ProcedureStatus(p.status)
    sources = {*p.source_run_ids, run_id}
    item: Item = {
        "pk": s(pk),
        "sk": s(p.procedure_id),
        "procedure_id": s(p.procedure_id),
        TENANT_KEY: s(tenant_prefix(p.tenant_id)),
        "tenant_id": s(p.tenant_id),
        "task_type": s(p.task_type),
        "title": s(p.title),
        "steps": strings(p.steps),
        "status": s(status.value),
        STATUS_SHARD: s(shard_key(status, shard_of(pk, p.procedure_id))),
        "created_at": n(p.created_at),
        "updated_at": n(p.updated_at),
        "source_run_ids": ss(sources),
        "proposals": n(len(sources)),
        "times_applied": n(p.times_applied),
        "times_succeeded": n(p.times_succeeded),
    }
    put_optional(item, "last_applied_at", p.last_applied_at)
    put_optional(item, "reviewer", p.reviewer)
    put_optional(item, "reviewed_at", p.reviewed_at)
    put_optional(item, "review_note", p.review_note)
    if p.revision:
        item["revision"] = n(p.revision)
    put_optional(item, "edited_by", p.edited_by)
    put_optional(item, "edited_at", p.edited_at)
    return item


def _procedure(item: Item) -> Procedure:
    return Procedure(
        tenant_id=get_s(item, "tenant_id"),
        task_type=get_s(item, "task_type"),
        procedure_id=get_s(item, "procedure_id"),
        title=get_s(item, "title"),
        steps=get_strings(item, "steps"),
        status=ProcedureStatus(get_s(item, "status")),
        created_at=get_float(item, "created_at"),
        updated_at=get_float(item, "updated_at"),
        source_run_ids=get_set(item, "source_run_ids"),
        times_applied=get_int(item, "times_applied"),
        times_succeeded=get_int(item, "times_succeeded"),
        last_applied_at=get_opt_float(item, "last_applied_at"),
        reviewer=get_opt_s(item, "reviewer"),
        reviewed_at=get_opt_float(item, "reviewed_at"),
        review_note=get_opt_s(item, "review_note"),
        proposals=get_int(item, "proposals"),
        revision=get_int(item, "revision") if "revision" in item else 0,
        edited_by=get_opt_s(item, "edited_by"),
        edited_at=get_opt_float(item, "edited_at"),
    )
