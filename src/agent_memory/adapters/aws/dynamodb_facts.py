"""Semantic facts in DynamoDB: one item per (``{tenant}#{domain}``, fact_hash), run ids as a set.

The set names the first :data:`~agent_memory.core.model.models.RUN_IDS_KEPT` runs that saw a fact,
and
``sightings`` counts every distinct run, so a common fact's item stays bounded (10,000 run ids
of up to 128 characters would pass DynamoDB's 400 KB item). Each later run is remembered by a
small marker item, ``{tenant}#{domain}#runs`` / ``{fact_hash}#{run_id}``, written in one
transaction with its count: a redelivered run finds its marker and never counts twice, and a
crash leaves both or neither. Markers carry none of a fact's index or listing attributes
(their tenant index key is ``{tenant}#runs``), so only ``delete`` and ``forget`` ever read them.
``confirmations`` counts the independent sightings and the map ``counted_by`` holds, per agent,
when its last one counted (at most :data:`~agent_memory.core.model.models.AGENTS_KEPT` agents).
"""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Iterator
from dataclasses import replace

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
    get_vector,
    n,
    put_vector,
    s,
    ss,
    translated,
    vector_update,
)
from agent_memory.adapters.aws.dynamodb_paging import (
    Listing,
    count_values,
    delete_all,
    read_all,
    read_page,
    scan_counts,
    scan_page,
)
from agent_memory.adapters.aws.dynamodb_schema import (
    AWAITING_INDEX,
    AWAITING_SHARD,
    FACTS,
    FAST_PATH_INDEX,
    FAST_PATH_KEY,
    PENDING_INDEX,
    PENDING_SHARD,
    SHARDS,
    TENANT_INDEX,
    TENANT_KEY,
    shard_key,
    shard_of,
)
from agent_memory.core.model.errors import TransientError
from agent_memory.core.model.keys import KEY_SEPARATOR, partition_key, tenant_prefix
from agent_memory.core.model.models import RUN_IDS_KEPT, Fact, FactObservation, FactStatus
from agent_memory.core.model.policies import Independence
from agent_memory.core.ports import Page, Sighting

_PENDING = FactStatus.PENDING.value
_CONFIRMED = FactStatus.CONFIRMED.value
_AWAITING = "AWAITING"
_OBSERVE_ATTEMPTS = 100
_STATUS = {"#status": "status"}
_SPARE = "spare_embedding"
_VECTOR_ATTRIBUTES = tuple(
    f"{name}{suffix}" for name in ("embedding", _SPARE) for suffix in ("", "_model", "_dimension")
)
# What a rekey sets again from the fact it is given (texts, staging, the keyed indexes).
_REKEYED_ATTRIBUTES = (
    "review_note",
    "superseded_by",
    "staged_at",
    "ingested_at",
    PENDING_SHARD,
    AWAITING_SHARD,
    FAST_PATH_KEY,
)
# Markers moved in the rekey's own transaction (two writes each, beside its two of 100).
_MARKERS_INLINE = 49
# Markers of the runs counted past the log: their partition and tenant index key end so.
_RUNS = "runs"
_COUNTED = "counted"
_UNSEE_ATTEMPTS = 20


class DynamoDbFactStore:
    """``FactStore`` over the facts table (:data:`~.dynamodb_schema.FACTS`).

    ``observe`` keeps the highest confidence and the latest ``last_seen`` and judges a new run's
    independence, which no update expression can compute, so it reads the fact and writes back
    conditioned on the version token it read (optimistic concurrency; the run id itself is
    ``ADD``ed to a string set).
    Sparse attributes place a fact in the indexes that list it: ``pending_shard`` while PENDING,
    ``awaiting_shard`` while staged and not ingested, ``fast_path_key`` while it may be served
    from the fast path (confirmed or staged, not ingested; reads re-check the exact rule).
    Facts are read in ``active_model``'s space when given (:meth:`Fact.in_space`).
    """

    def __init__(
        self, client: DynamoDbClient, table_name: str, *, active_model: str | None = None
    ) -> None:
        self._client = client
        self._table = table_name
        self._model = active_model

    def _as_fact(self, item: Item) -> Fact:
        fact = _fact(item)
        return fact if self._model is None else fact.in_space(self._model)

    def observe(
        self, observation: FactObservation, independence: Independence = Independence()
    ) -> Fact:
        """Atomically record that a run saw the fact (creating it PENDING); the fact after."""
        o = observation
        key = _key(o.tenant_id, o.domain, o.fact_hash)
        # A run past the log whose marker is already there was counted before.
        marked = False
        for attempt in range(_OBSERVE_ATTEMPTS):
            current = self._read(key)
            try:
                if current is None:
                    return self._create(o)
                logged = get_set(current, "run_ids")
                new_run = not marked and o.run_id not in logged
                update = _sighting(current, o, new_run=new_run, independence=independence)
                if update is None:
                    return self._as_fact(current)
                if new_run and len(logged) >= RUN_IDS_KEPT:
                    marker = _marker(o, counted=_counts(update))
                    self._count_once(marker, {"TableName": self._table, "Key": key, **update})
                    after = self._read(key)
                    if after is None:
                        continue  # deleted meanwhile: this run starts a fresh fact
                    return self._as_fact(after)
                with translated():
                    response = self._client.update_item(
                        TableName=self._table, Key=key, ReturnValues="ALL_NEW", **update
                    )
                return self._as_fact(response["Attributes"])
            except ConditionFailed as failed:
                if failed.reasons[:1] == ("ConditionalCheckFailed",):
                    marked = True  # record it as a known run, at once
                    continue
                # Another writer changed the fact since it was read: read it again.
                time.sleep(random.uniform(0, min(0.001 * 2**attempt, 0.05)))
        raise TransientError("fact changed under every attempt to record a sighting")

    def _count_once(self, marker: Item, update: Item) -> None:
        """Put the marker of a run the full log cannot name and count the run, in one
        transaction: a marker already there fails it with ``ConditionalCheckFailed`` first.
        """
        with translated():
            self._client.transact_write_items(
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self._table,
                            "Item": marker,
                            "ConditionExpression": "attribute_not_exists(pk)",
                        }
                    },
                    {"Update": update},
                ]
            )

    def get(self, tenant_id: str, domain: str, fact_hash: str) -> Fact | None:
        """One strongly consistent GetItem by key."""
        item = self._read(_key(tenant_id, domain, fact_hash))
        return self._as_fact(item) if item is not None else None

    def confirm(
        self,
        tenant_id: str,
        domain: str,
        fact_hash: str,
        *,
        now: float,
        from_status: FactStatus = FactStatus.PENDING,
    ) -> bool:
        """Move a fact from ``from_status`` to CONFIRMED; True only for the call that did."""
        return self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET #status = :confirmed, confirmed_at = :now, {FAST_PATH_KEY} = :fast "
            f"REMOVE {PENDING_SHARD}",
            condition="#status = :from",
            names=_STATUS,
            values={
                ":confirmed": s(_CONFIRMED),
                ":from": s(from_status.value),
                ":now": n(now),
                ":fast": s(tenant_prefix(tenant_id)),
            },
        )

    def contest(
        self, tenant_id: str, domain: str, fact_hash: str, *, now: float, reason: str
    ) -> bool:
        """Hold a PENDING fact back for review; it leaves the decay index (a human decides)."""
        return self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET #status = :contested, review_note = :reason REMOVE {PENDING_SHARD}",
            condition="#status = :pending",
            names=_STATUS,
            values={
                ":contested": s(FactStatus.CONTESTED.value),
                ":pending": s(_PENDING),
                ":reason": s(reason),
            },
        )

    def withdraw(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Move a CONFIRMED fact back to PENDING: it leaves the fast-path and awaiting indexes
        and enters the decay index again.
        """
        pk = partition_key(tenant_id, domain)
        return self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET #status = :pending, {PENDING_SHARD} = :shard "
            f"REMOVE confirmed_at, staged_at, ingested_at, {AWAITING_SHARD}, {FAST_PATH_KEY}",
            condition="#status = :confirmed",
            names=_STATUS,
            values={
                ":pending": s(_PENDING),
                ":confirmed": s(_CONFIRMED),
                ":shard": s(shard_key(_PENDING, shard_of(pk, fact_hash))),
            },
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
        """Move a fact of another status to RETRACTED: it leaves the fast-path and the decay
        indexes, and joins awaiting-index until the job that drops its document is settled.
        """
        pk = partition_key(tenant_id, domain)
        # The text and the vectors made of it go: the hash is what keeps later sightings
        # from promoting it again.
        sets = (
            f"#status = :retracted, staged_at = :now, {AWAITING_SHARD} = :awaiting, "
            "content = :erased"
        )
        removes = ", ".join(("ingested_at", FAST_PATH_KEY, PENDING_SHARD, *_VECTOR_ATTRIBUTES))
        values = {
            ":retracted": s(FactStatus.RETRACTED.value),
            ":now": n(now),
            ":awaiting": s(shard_key(_AWAITING, shard_of(pk, fact_hash))),
            ":erased": s(""),
        }
        if superseded_by is None:
            removes += ", superseded_by"
        else:
            sets += ", superseded_by = :superseded_by"
            values[":superseded_by"] = s(superseded_by)
        return self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET {sets} REMOVE {removes}",
            condition="attribute_exists(pk) AND #status <> :retracted",
            names=_STATUS,
            values=values,
        )

    def assert_fact(self, fact: Fact) -> Fact:
        """Put the person's fact CONFIRMED if absent, else confirm the stored one in its name
        (it joins the fast-path index and leaves the others until it is staged again).
        """
        key = _key(fact.tenant_id, fact.domain, fact.fact_hash)
        for _ in range(_OBSERVE_ATTEMPTS):
            try:
                with translated():
                    self._client.put_item(
                        TableName=self._table,
                        Item=_asserted_item(fact),
                        ConditionExpression="attribute_not_exists(pk)",
                    )
            except ConditionFailed:
                # A retracted fact's text and vector were erased: the person's word restores them.
                restored, vector = "", Item()
                if fact.embedding is not None:
                    put_vector(vector, fact.embedding)
                    restored = ", " + ", ".join(
                        f"{name} = if_not_exists({name}, :{name})" for name in vector
                    )
                confirmed = self._update(
                    key,
                    "SET #status = :confirmed, asserted_by = :by, confirmed_at = :at, "
                    f"{FAST_PATH_KEY} = :fast{restored} "
                    "REMOVE superseded_by, staged_at, ingested_at, "
                    f"{AWAITING_SHARD}, {PENDING_SHARD}",
                    condition="attribute_exists(pk)",
                    names=_STATUS,
                    values={
                        ":confirmed": s(_CONFIRMED),
                        ":by": s(fact.asserted_by or ""),
                        ":at": n(fact.confirmed_at or fact.last_seen),
                        ":fast": s(tenant_prefix(fact.tenant_id)),
                        **{f":{name}": value for name, value in vector.items()},
                    },
                )
                if not confirmed:
                    continue  # deleted since the put failed: put it again
                self._update(
                    key,
                    "SET content = :content",
                    condition="content = :erased",
                    values={":content": s(fact.content), ":erased": s("")},
                )
            after = self._read(key)
            if after is not None:
                return self._as_fact(after)
        raise TransientError("fact changed under every attempt to assert it")

    def contested(self, tenant_id: str) -> list[Fact]:
        """The tenant's CONTESTED facts, read through the tenant index."""
        listing = replace(
            self._tenant_listing(tenant_id, hydrate=True),
            keep=lambda item: get_s(item, "status") == FactStatus.CONTESTED.value,
        )
        return [self._as_fact(item) for item in read_all(self._client, listing)]

    def of_tenant(
        self,
        tenant_id: str,
        *,
        status: FactStatus | None = None,
        domain: str | None = None,
        limit: int = 100,
        cursor: str | None = None,
    ) -> Page[Fact]:
        """One page of the tenant's facts: a domain's from its partition (consistent, in hash
        order), every domain's through ``tenant-index`` (in the index's order), each read back
        by key; the status is checked on the item read.
        """

        def of_status(item: Item) -> bool:
            return status is None or get_s(item, "status") == status.value

        if domain is not None:
            listing = Listing(
                design=FACTS,
                table_name=self._table,
                kind="facts.of_domain",
                partitions=(partition_key(tenant_id, domain),),
                keep=of_status,
            )
        else:
            listing = replace(self._tenant_listing(tenant_id, hydrate=True), keep=of_status)
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_fact(i) for i in page.items), page.cursor)

    def mark_staged(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the fact's KB document was (re)written: it awaits ingestion again.

        A missing fact is left missing.
        """
        pk = partition_key(tenant_id, domain)
        self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET staged_at = :now, {AWAITING_SHARD} = :awaiting, {FAST_PATH_KEY} = :fast "
            "REMOVE ingested_at",
            condition="attribute_exists(pk)",
            values={
                ":now": n(now),
                ":awaiting": s(shard_key(_AWAITING, shard_of(pk, fact_hash))),
                ":fast": s(tenant_prefix(tenant_id)),
            },
        )

    def awaiting_ingestion(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Staged facts of every tenant not yet ingested (``awaiting-index``, shard by shard)."""
        listing = Listing(
            design=FACTS,
            table_name=self._table,
            kind="facts.awaiting_ingestion",
            partitions=tuple(shard_key(_AWAITING, i) for i in range(SHARDS)),
            index=FACTS.index(AWAITING_INDEX),
            filter="attribute_not_exists(ingested_at)",
        )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_fact(i) for i in page.items), page.cursor)

    def mark_ingested(self, tenant_id: str, domain: str, fact_hash: str, *, now: float) -> None:
        """Record that the KB now serves the fact; a missing fact is left missing."""
        self._update(
            _key(tenant_id, domain, fact_hash),
            f"SET ingested_at = :now REMOVE {AWAITING_SHARD}, {FAST_PATH_KEY}",
            condition="attribute_exists(pk)",
            values={":now": n(now)},
        )

    def fast_path(self, tenant_id: str, domain: str | None) -> list[Fact]:
        """CONFIRMED facts the KB does not serve yet (every domain of the tenant if None)."""
        values = {":confirmed": s(_CONFIRMED)}
        if domain is not None:
            values[":domain_pk"] = s(partition_key(tenant_id, domain))
        listing = Listing(
            design=FACTS,
            table_name=self._table,
            kind="facts.fast_path",
            partitions=(tenant_prefix(tenant_id),),
            index=FACTS.index(FAST_PATH_INDEX),
            range_condition="#rk = :domain_pk" if domain is not None else None,
            filter="#status = :confirmed AND attribute_not_exists(ingested_at)",
            names=_STATUS,
            values=values,
        )
        facts = [self._as_fact(item) for item in read_all(self._client, listing)]
        return sorted(facts, key=lambda f: (f.domain, f.fact_hash))

    def pending_seen_before(
        self, cutoff: float, *, limit: int, cursor: str | None = None
    ) -> Page[Fact]:
        """PENDING facts of every tenant last seen before ``cutoff``, stalest first per shard."""

        def still_pending(item: Item) -> bool:
            return get_s(item, "status") == _PENDING and get_float(item, "last_seen") < cutoff

        listing = Listing(
            design=FACTS,
            table_name=self._table,
            kind="facts.pending_seen_before",
            partitions=tuple(shard_key(_PENDING, i) for i in range(SHARDS)),
            index=FACTS.index(PENDING_INDEX),
            range_condition="#rk < :cutoff",
            values={":cutoff": n(cutoff)},
            hydrate=True,
            keep=still_pending,
        )
        page = read_page(self._client, listing, limit=limit, cursor=cursor)
        return Page(tuple(self._as_fact(i) for i in page.items), page.cursor)

    def list_all(self, *, limit: int, cursor: str | None = None) -> Page[Fact]:
        """Facts of every tenant and status: a consistent Scan of the table, page by page."""
        page = scan_page(
            self._client,
            design=FACTS,
            table_name=self._table,
            kind="facts.list_all",
            limit=limit,
            cursor=cursor,
            # Run markers carry no status.
            filter="attribute_exists(#status)",
            names=_STATUS,
        )
        return Page(tuple(self._as_fact(i) for i in page.items), page.cursor)

    def set_vectors(self, fact: Fact) -> bool:
        """Replace the fact's vectors (both slots) if it exists with the same content.

        The version token moves too, so a sighting recorded meanwhile reads the fact again.
        """
        attributes: Item = {}
        put_vector(attributes, fact.embedding)
        put_vector(attributes, fact.spare_embedding, _SPARE)
        update = vector_update(
            {name: attributes.get(name) for name in _VECTOR_ATTRIBUTES}
            | {"version": s(uuid.uuid4().hex)}
        )
        update["ExpressionAttributeNames"]["#content"] = "content"
        update["ExpressionAttributeValues"][":content"] = s(fact.content)
        try:
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key=_key(fact.tenant_id, fact.domain, fact.fact_hash),
                    ConditionExpression="attribute_exists(pk) AND #content = :content",
                    **update,
                )
        except ConditionFailed:
            return False
        return True

    def rekey(self, tenant_id: str, domain: str, fact_hash: str, fact: Fact) -> Fact | None:
        """Read, then one transaction: the new item put where none is, the old one deleted
        if still the version read, and the markers of runs counted past the log moved with
        it (ones past a transaction's size follow in their own writes: they hold no text).
        """
        old_key = _key(tenant_id, domain, fact_hash)
        moved = fact.fact_hash != fact_hash
        for _ in range(_OBSERVE_ATTEMPTS):
            current = self._read(old_key)
            if current is None:
                return None
            item = _rekeyed(current, fact)
            read = {
                "ConditionExpression": "version = :read",
                "ExpressionAttributeValues": {":read": current["version"]},
            }
            markers = self._markers(tenant_id, domain, fact_hash) if moved else []
            inline, later = markers[:_MARKERS_INLINE], markers[_MARKERS_INLINE:]
            try:
                with translated():
                    if not moved:
                        self._client.put_item(TableName=self._table, Item=item, **read)
                    else:
                        self._client.transact_write_items(
                            TransactItems=[
                                {
                                    "Put": {
                                        "TableName": self._table,
                                        "Item": item,
                                        "ConditionExpression": "attribute_not_exists(pk)",
                                    }
                                },
                                {"Delete": {"TableName": self._table, "Key": old_key, **read}},
                                *_marker_moves(self._table, inline, fact.fact_hash),
                            ]
                        )
            except ConditionFailed:
                if moved and self._read(_key(tenant_id, domain, fact.fact_hash)) is not None:
                    return None
                continue  # changed since it was read: read it again
            for marker in later:
                moves = _marker_moves(self._table, [marker], fact.fact_hash)
                with translated():
                    self._client.transact_write_items(TransactItems=moves)
            return self._as_fact(item)
        raise TransientError("fact changed under every attempt to rekey it")

    def _markers(self, tenant_id: str, domain: str, fact_hash: str) -> list[Item]:
        """The markers of the runs counted past the fact's log, whole."""
        request: Item = {
            "TableName": self._table,
            "KeyConditionExpression": "#pk = :pk AND begins_with(#rk, :run)",
            "ExpressionAttributeNames": {"#pk": "pk", "#rk": "fact_hash"},
            "ExpressionAttributeValues": {
                ":pk": s(_runs_partition(tenant_id, domain)),
                ":run": s(f"{fact_hash}{KEY_SEPARATOR}"),
            },
            "ConsistentRead": True,
        }
        found: list[Item] = []
        while True:
            with translated():
                response = self._client.query(**request)
            found += response["Items"]
            if "LastEvaluatedKey" not in response:
                return found
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def delete(self, tenant_id: str, domain: str, fact_hash: str) -> bool:
        """Delete one fact and its run log (markers included); True if it existed."""
        try:
            with translated():
                self._client.delete_item(
                    TableName=self._table,
                    Key=_key(tenant_id, domain, fact_hash),
                    ConditionExpression="attribute_exists(pk)",
                )
        except ConditionFailed:
            existed = False
        else:
            existed = True
        # After the fact: a marker left by a crash in between only keeps a run from counting
        # twice for a fact of the same text seen again.
        request: Item = {
            "TableName": self._table,
            "KeyConditionExpression": "#pk = :pk AND begins_with(#rk, :run)",
            "ProjectionExpression": "#pk, #rk",
            "ExpressionAttributeNames": {"#pk": "pk", "#rk": "fact_hash"},
            "ExpressionAttributeValues": {
                ":pk": s(_runs_partition(tenant_id, domain)),
                ":run": s(f"{fact_hash}{KEY_SEPARATOR}"),
            },
            "ConsistentRead": True,
        }
        while True:
            with translated():
                response = self._client.query(**request)
            for marker in response["Items"]:
                with translated():
                    self._client.delete_item(TableName=self._table, Key=marker)
            if "LastEvaluatedKey" not in response:
                return existed
            request["ExclusiveStartKey"] = response["LastEvaluatedKey"]

    def sightings(self, tenant_id: str) -> Iterator[Sighting]:
        """Every logged sighting of the tenant's facts: each fact's log, then the markers of
        the runs counted past it.
        """
        for item in read_all(self._client, self._tenant_listing(tenant_id, hydrate=True)):
            domain, fact_hash = get_s(item, "domain"), get_s(item, "fact_hash")
            for run_id in sorted(get_set(item, "run_ids")):
                yield Sighting(domain, fact_hash, run_id)
        prefix = tenant_prefix(tenant_id)
        markers = self._tenant_listing(tenant_id, hydrate=False, suffix=_RUNS)
        for marker in read_all(self._client, markers):
            partition = get_s(marker, "pk")
            domain = partition[len(prefix) : -len(f"{KEY_SEPARATOR}{_RUNS}")]
            fact_hash, run_id = get_s(marker, "fact_hash").split(KEY_SEPARATOR, 1)
            yield Sighting(domain, fact_hash, run_id)

    def unsee(self, tenant_id: str, domain: str, fact_hash: str, run_id: str) -> Fact | None:
        """Take the run's sighting back: out of the log, conditioned on the version read, or
        its marker deleted in one transaction with the counts; the fact after.
        """
        key = _key(tenant_id, domain, fact_hash)
        marker_key = _marker_key(tenant_id, domain, fact_hash, run_id)
        for attempt in range(_UNSEE_ATTEMPTS):
            current = self._read(key)
            if current is None:
                return None
            logged = run_id in get_set(current, "run_ids")
            marker = None if logged else self._read(marker_key)
            if not logged and marker is None:
                return None
            counted = (
                run_id not in get_set(current, "uncounted_runs")
                if logged
                else (marker or {}).get(_COUNTED, {"BOOL": True})["BOOL"]
            )
            values: Item = {
                ":one": n(1),
                ":confirmations": n(max(_confirmations(current) - int(counted), 0)),
                ":next": s(uuid.uuid4().hex),
                ":read": current["version"],
            }
            expression = (
                "SET sightings = sightings - :one, confirmations = :confirmations, version = :next"
            )
            if logged:
                expression += " DELETE run_ids :run, uncounted_runs :run"
                values[":run"] = ss([run_id])
            update: Item = {
                "TableName": self._table,
                "Key": key,
                "UpdateExpression": expression,
                "ConditionExpression": "version = :read",
                "ExpressionAttributeValues": values,
            }
            try:
                with translated():
                    if logged:
                        self._client.update_item(**update)
                    else:
                        self._client.transact_write_items(
                            TransactItems=[
                                {
                                    "Delete": {
                                        "TableName": self._table,
                                        "Key": marker_key,
                                        "ConditionExpression": "attribute_exists(pk)",
                                    }
                                },
                                {"Update": update},
                            ]
                        )
            except ConditionFailed:
                # The fact changed (or the marker went) since it was read: read both again.
                time.sleep(random.uniform(0, min(0.001 * 2**attempt, 0.05)))
                continue
            after = self._read(key)
            return None if after is None else self._as_fact(after)
        raise TransientError("fact changed under every attempt to take a sighting back")

    def count_by_status(self, *, tenant_id: str | None = None) -> dict[str, int]:
        """Facts by status: the tenant's through ``tenant-index`` (read by key), every tenant's
        by a parallel Scan that projects the status.
        """
        if tenant_id is None:
            return scan_counts(
                self._client, self._table, "status", filter="attribute_exists(#value)"
            )
        items = read_all(self._client, self._tenant_listing(tenant_id, hydrate=True))
        return count_values(items, "status")

    def export(self, tenant_id: str) -> Iterator[Fact]:
        """Every fact of the tenant (``tenant-index``, each read back by key)."""
        listing = self._tenant_listing(tenant_id, hydrate=True)
        return (self._as_fact(item) for item in read_all(self._client, listing))

    def forget(self, tenant_id: str) -> int:
        """Delete every fact of the tenant and its markers; the number of facts deleted."""
        deleted = delete_all(self._client, self._tenant_listing(tenant_id, hydrate=False))
        delete_all(self._client, self._tenant_listing(tenant_id, hydrate=False, suffix=_RUNS))
        return deleted

    def _tenant_listing(self, tenant_id: str, *, hydrate: bool, suffix: str = "") -> Listing:
        return Listing(
            design=FACTS,
            table_name=self._table,
            kind="facts.tenant",
            partitions=(f"{tenant_prefix(tenant_id)}{suffix}",),
            index=FACTS.index(TENANT_INDEX),
            hydrate=hydrate,
        )

    def _read(self, key: Item) -> Item | None:
        with translated():
            response = self._client.get_item(TableName=self._table, Key=key, ConsistentRead=True)
        item: Item | None = response.get("Item")
        return item

    def _create(self, o: FactObservation) -> Fact:
        item = _new_item(o)
        with translated():
            self._client.put_item(
                TableName=self._table, Item=item, ConditionExpression="attribute_not_exists(pk)"
            )
        return self._as_fact(item)

    def _update(
        self,
        key: Item,
        expression: str,
        *,
        condition: str,
        values: Item,
        names: dict[str, str] | None = None,
    ) -> bool:
        """Apply a conditional update; False if the condition (or the item) was missing."""
        request: Item = {
            "TableName": self._table,
            "Key": key,
            "UpdateExpression": expression,
            "ConditionExpression": condition,
            "ExpressionAttributeValues": values,
        }
        if names:
            request["ExpressionAttributeNames"] = names
        try:
            with translated():
                self._client.update_item(**request)
        except ConditionFailed:
            return False
        return True


def _rekeyed(current: Item, fact: Fact) -> Item:
    """``current`` under ``fact``'s key, with its texts, vectors and staging times; the index
    attributes the key and the staging decide follow them.
    """
    pk = get_s(current, "pk")
    item = {
        name: value
        for name, value in current.items()
        if name not in (*_VECTOR_ATTRIBUTES, *_REKEYED_ATTRIBUTES)
    }
    item |= {"fact_hash": s(fact.fact_hash), "content": s(fact.content)}
    item["version"] = s(uuid.uuid4().hex)
    for name in ("review_note", "superseded_by"):
        value = getattr(fact, name)
        if value is not None:
            item[name] = s(value)
    for name in ("staged_at", "ingested_at"):
        value = getattr(fact, name)
        if value is not None:
            item[name] = n(value)
    put_vector(item, fact.embedding)
    put_vector(item, fact.spare_embedding, _SPARE)
    if PENDING_SHARD in current:
        item[PENDING_SHARD] = s(shard_key(_PENDING, shard_of(pk, fact.fact_hash)))
    if fact.staged_at is not None and fact.ingested_at is None:
        item[AWAITING_SHARD] = s(shard_key(_AWAITING, shard_of(pk, fact.fact_hash)))
    if get_s(current, "status") == _CONFIRMED and fact.ingested_at is None:
        item[FAST_PATH_KEY] = s(tenant_prefix(get_s(current, "tenant_id")))
    return item


def _marker_moves(table: str, markers: list[Item], fact_hash: str) -> list[Item]:
    """Transaction items moving each run marker to ``fact_hash``'s (two per marker)."""
    moves: list[Item] = []
    for marker in markers:
        run_id = get_s(marker, "fact_hash").split(KEY_SEPARATOR, 1)[1]
        moved = marker | {"fact_hash": s(f"{fact_hash}{KEY_SEPARATOR}{run_id}")}
        key = {"pk": marker["pk"], "fact_hash": marker["fact_hash"]}
        moves += [
            {"Put": {"TableName": table, "Item": moved}},
            {"Delete": {"TableName": table, "Key": key}},
        ]
    return moves


def _key(tenant_id: str, domain: str, fact_hash: str) -> Item:
    return {"pk": s(partition_key(tenant_id, domain)), "fact_hash": s(fact_hash)}


def _marker(o: FactObservation, *, counted: bool) -> Item:
    """The marker of a run counted past the log; one whose sighting was no confirmation says so
    (a marker without ``counted`` counted).
    """
    item = _marker_key(o.tenant_id, o.domain, o.fact_hash, o.run_id)
    item[TENANT_KEY] = s(f"{tenant_prefix(o.tenant_id)}{_RUNS}")
    if not counted:
        item[_COUNTED] = {"BOOL": False}
    return item


def _marker_key(tenant_id: str, domain: str, fact_hash: str, run_id: str) -> Item:
    return {
        "pk": s(_runs_partition(tenant_id, domain)),
        "fact_hash": s(f"{fact_hash}{KEY_SEPARATOR}{run_id}"),
    }


def _counts(update: Item) -> bool:
    """Whether the update :func:`_sighting` made counts the run as a confirmation."""
    return ":counted_by" in update["ExpressionAttributeValues"]


def _new_item(o: FactObservation) -> Item:
    pk = partition_key(o.tenant_id, o.domain)
    item: Item = {
        "pk": s(pk),
        "fact_hash": s(o.fact_hash),
        TENANT_KEY: s(tenant_prefix(o.tenant_id)),
        "tenant_id": s(o.tenant_id),
        "domain": s(o.domain),
        "content": s(o.content),
        "status": s(_PENDING),
        "confidence": n(o.confidence),
        "run_ids": ss([o.run_id]),
        "sightings": n(1),
        # Nothing was counted before the first sighting: it counts.
        "confirmations": n(1),
        "counted_by": _agent_map({o.agent_id: o.seen_at}),
        "first_seen": n(o.seen_at),
        "last_seen": n(o.seen_at),
        "version": s(uuid.uuid4().hex),
        PENDING_SHARD: s(shard_key(_PENDING, shard_of(pk, o.fact_hash))),
    }
    put_vector(item, o.embedding)
    return item


def _asserted_item(fact: Fact) -> Item:
    """A person's fact, never seen by a run: confirmed, on the fast path, nothing counted."""
    item: Item = {
        "pk": s(partition_key(fact.tenant_id, fact.domain)),
        "fact_hash": s(fact.fact_hash),
        TENANT_KEY: s(tenant_prefix(fact.tenant_id)),
        "tenant_id": s(fact.tenant_id),
        "domain": s(fact.domain),
        "content": s(fact.content),
        "status": s(_CONFIRMED),
        "confidence": n(fact.confidence),
        "sightings": n(0),
        "confirmations": n(0),
        "counted_by": _agent_map({}),
        "first_seen": n(fact.first_seen),
        "last_seen": n(fact.last_seen),
        "confirmed_at": n(fact.confirmed_at or fact.last_seen),
        "asserted_by": s(fact.asserted_by or ""),
        "version": s(uuid.uuid4().hex),
        FAST_PATH_KEY: s(tenant_prefix(fact.tenant_id)),
    }
    put_vector(item, fact.embedding)
    return item


def _sighting(
    current: Item, o: FactObservation, *, new_run: bool, independence: Independence
) -> Item | None:
    """The conditional update recording ``o`` on ``current``, or None if it changes nothing.

    A run already counted only moves ``last_seen`` forward (redelivery never counts twice); a
    new run is counted, as a confirmation too if ``independence`` says so, named in the log
    while it has room, may raise the confidence, and may supply a missing embedding.
    """
    sets: list[str] = []
    values: Item = {}
    if o.seen_at > get_float(current, "last_seen"):
        sets.append("last_seen = :seen")
        values[":seen"] = n(o.seen_at)
    if new_run and o.confidence > get_float(current, "confidence"):
        sets.append("confidence = :confidence")
        values[":confidence"] = n(o.confidence)
    # A retracted fact keeps no vector: its text was erased with it.
    retracted = get_s(current, "status") == FactStatus.RETRACTED.value
    if new_run and o.embedding is not None and "embedding" not in current and not retracted:
        sets += ["embedding = :e", "embedding_model = :em", "embedding_dimension = :ed"]
        vector: Item = {}
        put_vector(vector, o.embedding)
        values |= {
            ":e": vector["embedding"],
            ":em": vector["embedding_model"],
            ":ed": vector["embedding_dimension"],
        }
    if not sets and not new_run:
        return None
    run_ids = get_set(current, "run_ids")
    if new_run:
        sets.append("sightings = sightings + :one")
        values |= {":one": n(1)}
        counted_by = independence.counted(_counted_by(current), o.agent_id, o.seen_at)
        if counted_by is not None:
            sets += ["confirmations = :confirmations", "counted_by = :counted_by"]
            values[":confirmations"] = n(_confirmations(current) + 1)
            values[":counted_by"] = _agent_map(counted_by)
    sets.append("version = :next")
    values |= {":next": s(uuid.uuid4().hex), ":read": current["version"]}
    expression = "SET " + ", ".join(sets)
    if new_run and len(run_ids) < RUN_IDS_KEPT:
        # The log names the runs whose sighting was no confirmation too, so a forgotten run
        # takes back exactly what it added (a run not named there counted).
        counted = ":counted_by" in values
        expression += " ADD run_ids :run" if counted else " ADD run_ids :run, uncounted_runs :run"
        values[":run"] = ss([o.run_id])
    return {
        "UpdateExpression": expression,
        "ConditionExpression": "version = :read",
        "ExpressionAttributeValues": values,
    }


def _agent_map(counted_by: dict[str, float]) -> Item:
    return {"M": {agent: n(at) for agent, at in counted_by.items()}}


def _counted_by(item: Item) -> dict[str, float]:
    return {agent: float(at["N"]) for agent, at in item.get("counted_by", {"M": {}})["M"].items()}


def _confirmations(item: Item) -> int:
    return get_int(item, "confirmations")


def _runs_partition(tenant_id: str, domain: str) -> str:
    """Partition of the run markers of a domain's facts (a domain never holds '#')."""
    return f"{partition_key(tenant_id, domain)}{KEY_SEPARATOR}{_RUNS}"


def _fact(item: Item) -> Fact:
    return Fact(
        tenant_id=get_s(item, "tenant_id"),
        domain=get_s(item, "domain"),
        fact_hash=get_s(item, "fact_hash"),
        content=get_s(item, "content"),
        status=FactStatus(get_s(item, "status")),
        confidence=get_float(item, "confidence"),
        run_ids=get_set(item, "run_ids"),
        first_seen=get_float(item, "first_seen"),
        last_seen=get_float(item, "last_seen"),
        confirmed_at=get_opt_float(item, "confirmed_at"),
        staged_at=get_opt_float(item, "staged_at"),
        ingested_at=get_opt_float(item, "ingested_at"),
        embedding=get_vector(item),
        review_note=get_opt_s(item, "review_note"),
        spare_embedding=get_vector(item, _SPARE),
        sightings=get_int(item, "sightings"),
        confirmations=_confirmations(item),
        counted_by=tuple(sorted(_counted_by(item).items())),
        asserted_by=get_opt_s(item, "asserted_by"),
        superseded_by=get_opt_s(item, "superseded_by"),
    )
