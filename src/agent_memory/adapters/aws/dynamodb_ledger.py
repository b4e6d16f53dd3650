"""The ledger table in DynamoDB: small JSON records by key, TTL on expires_at, hidden once expired.

The run ledger, the job checkpoints and the model registry are kept in it
(:func:`~agent_memory.adapters.ledger_records.ledger_ports`).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from agent_memory.adapters.aws.dynamodb_codec import (
    ConditionFailed,
    DynamoDbClient,
    Item,
    check_limit,
    get_opt_float,
    get_s,
    n,
    s,
    translated,
)
from agent_memory.adapters.aws.dynamodb_paging import Listing, read_all
from agent_memory.adapters.aws.dynamodb_schema import KEY_HEAD, LEDGER, PREFIX_INDEX
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.keys import KEY_SEPARATOR


class DynamoDbLedger:
    """A ``LedgerTable`` over the ledger table (:data:`~.dynamodb_schema.LEDGER`).

    The partition key is the record's key unchanged: tenant-owned keys start with
    ``{tenant_id}#`` (``{tenant}#run#{run_id}``, ``{tenant}#failed#{run_id}``), which is
    what ``dynamodb:LeadingKeys`` needs, while service keys such as ``_kb-ingestion#current``
    stay readable by name. Each key's head (up to its first ``#``) feeds ``prefix-index``, so a
    prefix containing ``#`` (every tenant prefix) is one key condition; other prefixes need a
    Scan. Values are stored as JSON text, so they come back exactly as JSON would.
    """

    def __init__(self, client: DynamoDbClient, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def get(self, key: str, *, now: float) -> dict[str, Any] | None:
        """The record, or None if absent or expired (``expires_at <= now``)."""
        with translated():
            response = self._client.get_item(
                TableName=self._table, Key={"key": s(key)}, ConsistentRead=True
            )
        item = response.get("Item")
        if item is None:
            return None
        expires_at = get_opt_float(item, "expires_at")
        if expires_at is not None and expires_at <= now:
            return None
        return _value(item)

    def add(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> bool:
        """Write unless an unexpired record exists; True if this call wrote it."""
        try:
            with translated():
                self._client.put_item(
                    TableName=self._table,
                    Item=_item(key, value, expires_at),
                    ConditionExpression=(
                        "attribute_not_exists(#key) "
                        "OR (attribute_exists(expires_at) AND expires_at <= :now)"
                    ),
                    ExpressionAttributeNames={"#key": "key"},
                    ExpressionAttributeValues={":now": n(now)},
                )
        except ConditionFailed:
            return False
        return True

    def put(self, key: str, value: dict[str, Any], *, now: float, expires_at: float | None) -> None:
        """Write, replacing any record."""
        del now
        with translated():
            self._client.put_item(TableName=self._table, Item=_item(key, value, expires_at))

    def replace(self, key: str, value: dict[str, Any]) -> bool:
        """A conditional update of the value alone (the expiry stays); False if none is there."""
        text = _item(key, value, None)["value"]
        try:
            with translated():
                self._client.update_item(
                    TableName=self._table,
                    Key={"key": s(key)},
                    UpdateExpression="SET #value = :value",
                    ConditionExpression="attribute_exists(#key)",
                    ExpressionAttributeNames={"#key": "key", "#value": "value"},
                    ExpressionAttributeValues={":value": text},
                )
        except ConditionFailed:
            return False
        return True

    def delete(self, key: str) -> None:
        """Remove the record if present."""
        with translated():
            self._client.delete_item(TableName=self._table, Key={"key": s(key)})

    def scan(self, prefix: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every record whose key starts with ``prefix``, expired included (no clock here).

        A prefix containing ``#`` is a query of ``prefix-index``; any other prefix (``""``
        included) is a paginated Scan of the table. Either may be deleted from while iterating.
        """
        items = self._query(prefix) if KEY_SEPARATOR in prefix else self._scan(prefix)
        for item in items:
            yield get_s(item, "key"), _value(item)

    def latest(
        self, prefix: str, *, limit: int, before: str | None = None
    ) -> list[tuple[str, dict[str, Any]]]:
        """The last ``limit`` records under ``prefix`` (below ``before``), last key first: a
        backward Query of ``prefix-index`` (eventually consistent, as a global index is).
        """
        check_limit(limit)
        if KEY_SEPARATOR not in prefix:
            raise InvalidInput("prefix", "must hold a separator (one key head)")
        # One condition on the sort key: BETWEEN is inclusive, so ``before`` itself is dropped.
        condition = "#rk BETWEEN :prefix AND :before" if before else "begins_with(#rk, :prefix)"
        values = {":prefix": s(prefix), **({":before": s(before)} if before else {})}
        listing = Listing(
            design=LEDGER,
            table_name=self._table,
            kind="ledger.latest",
            partitions=(_head(prefix),),
            index=LEDGER.index(PREFIX_INDEX),
            range_condition=condition,
            values=values,
            forward=False,
        )
        found: list[tuple[str, dict[str, Any]]] = []
        for item in read_all(self._client, listing):
            key = get_s(item, "key")
            if key == before:
                continue
            found.append((key, _value(item)))
            if len(found) == limit:
                break
        return found

    def purge_expired(self, now: float, *, limit: int) -> int:
        """Return 0: DynamoDB's TTL deletes expired records (reads already hide them)."""
        del now
        check_limit(limit)
        return 0

    def _query(self, prefix: str) -> Iterator[Item]:
        listing = Listing(
            design=LEDGER,
            table_name=self._table,
            kind="ledger.prefix",
            partitions=(_head(prefix),),
            index=LEDGER.index(PREFIX_INDEX),
            range_condition="begins_with(#rk, :prefix)",
            values={":prefix": s(prefix)},
        )
        return read_all(self._client, listing)

    def _scan(self, prefix: str) -> Iterator[Item]:
        request: dict[str, Any] = {"TableName": self._table, "ConsistentRead": True}
        if prefix:
            request |= {
                "FilterExpression": "begins_with(#key, :prefix)",
                "ExpressionAttributeNames": {"#key": "key"},
                "ExpressionAttributeValues": {":prefix": s(prefix)},
            }
        while True:
            with translated():
                response = self._client.scan(**request)
            yield from response["Items"]
            start = response.get("LastEvaluatedKey")
            if start is None:
                return
            request["ExclusiveStartKey"] = start


def _head(key: str) -> str:
    """The key up to and including its first separator."""
    return key[: key.index(KEY_SEPARATOR) + 1]


def _item(key: str, value: dict[str, Any], expires_at: float | None) -> Item:
    try:
        # Text as UTF-8, never \u-escaped: escapes would triple a 4-byte character and push a
        # 256 KiB run record past DynamoDB's 400 KB item (tests/limits/test_dynamodb_limits.py).
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput("value", f"not storable as JSON: {exc}") from exc
    item: Item = {"key": s(key), "value": s(text)}
    if KEY_SEPARATOR in key:
        item[KEY_HEAD] = s(_head(key))
    if expires_at is not None:
        item["expires_at"] = n(expires_at)
    return item


def _value(item: Item) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(get_s(item, "value"))
    return value
