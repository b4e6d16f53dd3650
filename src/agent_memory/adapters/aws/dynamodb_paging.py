"""Paged reads over DynamoDB: queries across shards, exact cursors, batched reads and deletes.

DynamoDB's ``Limit`` counts items evaluated, not returned, so a page is filled by querying until
``limit + 1`` items passed the filters (the extra one proves another page exists, so the last
page's cursor is None even when it is exactly full). The cursor is the key of the page's last
item, not DynamoDB's ``LastEvaluatedKey``: the next page starts right after that item, whether or
not it still exists, so no item is returned twice or skipped when items are deleted between
pages.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from agent_memory.adapters.aws.dynamodb_codec import (
    DynamoDbClient,
    Item,
    check_limit,
    decode_cursor,
    encode_cursor,
    get_s,
    key_of,
    s,
    translated,
)
from agent_memory.adapters.aws.dynamodb_schema import Index, TableDesign
from agent_memory.core.model.errors import InvalidInput, TransientError
from agent_memory.core.ports import Page

_BATCH_GET = 100
_BATCH_WRITE = 25
_BATCH_ATTEMPTS = 8
# Segments of a counting Scan, read in parallel: a nightly count of a large table stays short.
_SCAN_SEGMENTS = 4
# Keys collected before deleting them: bounds memory while forgetting a large tenant.
_DELETE_CHUNK = 100


@dataclass(frozen=True, slots=True)
class Listing:
    """A query over one or more partitions (segments) of a table or index, read in order.

    ``range_condition`` and ``filter`` may use ``#rk`` for the sort key of the table or index
    queried, plus the ``names`` and ``values`` given. With ``hydrate``, each item found (in a
    keys-only index) is read back from the table by key, consistently; ``keep`` then re-checks
    it, since an index may lag its table.
    """

    design: TableDesign
    table_name: str
    kind: str
    partitions: tuple[str, ...]
    index: Index | None = None
    range_condition: str | None = None
    filter: str | None = None
    names: Mapping[str, str] = field(default_factory=dict)
    values: Mapping[str, Any] = field(default_factory=dict)
    forward: bool = True
    hydrate: bool = False
    keep: Callable[[Item], bool] | None = None

    @property
    def position_names(self) -> tuple[str, ...]:
        """Attributes naming an item's place in the listing: index keys, then table keys."""
        names = self.index.key_names if self.index is not None else ()
        return tuple(dict.fromkeys((*names, *self.design.key_names)))

    @property
    def partition_name(self) -> str:
        """The partition key attribute of the table or index queried."""
        keys = self.index if self.index is not None else self.design
        return keys.partition_key.name

    @property
    def sort_name(self) -> str | None:
        """The sort key attribute of the table or index queried, if it has one."""
        keys = self.index if self.index is not None else self.design
        return keys.sort_key.name if keys.sort_key is not None else None

    def request(self, segment: int) -> dict[str, Any]:
        """The Query request of one segment (without ``Limit`` and ``ExclusiveStartKey``)."""
        names = {"#pk": self.partition_name, **self.names}
        sort_name = self.sort_name
        if sort_name is not None and (
            "#rk" in (self.range_condition or "") or "#rk" in (self.filter or "")
        ):
            names["#rk"] = sort_name
        condition = "#pk = :pk"
        if self.range_condition:
            condition += f" AND {self.range_condition}"
        request: dict[str, Any] = {
            "TableName": self.table_name,
            "KeyConditionExpression": condition,
            "ExpressionAttributeNames": names,
            "ExpressionAttributeValues": {":pk": s(self.partitions[segment]), **self.values},
            "ScanIndexForward": self.forward,
        }
        if self.index is not None:
            request["IndexName"] = self.index.name
        else:
            request["ConsistentRead"] = True
        if self.filter:
            request["FilterExpression"] = self.filter
        return request


def read_page(
    client: DynamoDbClient, listing: Listing, *, limit: int, cursor: str | None
) -> Page[Item]:
    """One page of at most ``limit`` items, continuing from ``cursor``."""
    check_limit(limit)
    segment, start = 0, None
    if cursor is not None:
        segment, start = decode_cursor(
            cursor,
            kind=listing.kind,
            segments=len(listing.partitions),
            names=listing.position_names,
        )
        if start[listing.partition_name] != s(listing.partitions[segment]):
            raise InvalidInput("cursor", "not a cursor of this listing")
    found: list[tuple[int, Item, Item]] = []
    while segment < len(listing.partitions) and len(found) <= limit:
        request = listing.request(segment) | {"Limit": limit + 1 - len(found)}
        if start is not None:
            request["ExclusiveStartKey"] = start
        with translated():
            response = client.query(**request)
        found += [(segment, *pair) for pair in _kept(client, listing, response["Items"])]
        start = response.get("LastEvaluatedKey")
        if start is None:
            segment += 1
    items = [item for _, _, item in found[:limit]]
    if len(found) <= limit:
        return Page(tuple(items))
    last_segment, last, _ = found[limit - 1]
    position = key_of(last, listing.position_names)
    return Page(tuple(items), encode_cursor(listing.kind, last_segment, position))


def scan_page(
    client: DynamoDbClient,
    *,
    design: TableDesign,
    table_name: str,
    kind: str,
    limit: int,
    cursor: str | None,
    filter: str | None = None,
    names: Mapping[str, str] | None = None,
    values: Mapping[str, Any] | None = None,
) -> Page[Item]:
    """One page of at most ``limit`` items of a whole-table Scan, continuing from ``cursor``.

    For store-wide jobs (every tenant), never a request path. Like :func:`read_page`, the
    cursor is the key of the page's last item, so deletions between pages skip nothing.
    """
    check_limit(limit)
    start: Item | None = None
    if cursor is not None:
        _, start = decode_cursor(cursor, kind=kind, segments=1, names=design.key_names)
    request: dict[str, Any] = {"TableName": table_name, "ConsistentRead": True}
    if filter:
        request["FilterExpression"] = filter
    if names:
        request["ExpressionAttributeNames"] = dict(names)
    if values:
        request["ExpressionAttributeValues"] = dict(values)
    found: list[Item] = []
    while len(found) <= limit:
        page_request = request | {"Limit": limit + 1 - len(found)}
        if start is not None:
            page_request["ExclusiveStartKey"] = start
        with translated():
            response = client.scan(**page_request)
        found += response["Items"]
        start = response.get("LastEvaluatedKey")
        if start is None:
            break
    if len(found) <= limit:
        return Page(tuple(found))
    position = key_of(found[limit - 1], design.key_names)
    return Page(tuple(found[:limit]), encode_cursor(kind, 0, position))


def read_all(client: DynamoDbClient, listing: Listing) -> Iterator[Item]:
    """Every item of the listing, page after page (the caller may delete as it goes)."""
    for segment in range(len(listing.partitions)):
        request = listing.request(segment)
        while True:
            with translated():
                response = client.query(**request)
            for _, item in _kept(client, listing, response["Items"]):
                yield item
            start = response.get("LastEvaluatedKey")
            if start is None:
                break
            request["ExclusiveStartKey"] = start


def count_values(items: Iterable[Item], attribute: str) -> dict[str, int]:
    """How many of ``items`` hold each value of the string ``attribute`` (absent: not counted)."""
    return dict(Counter(get_s(item, attribute) for item in items if attribute in item))


def scan_counts(
    client: DynamoDbClient,
    table_name: str,
    attribute: str,
    *,
    filter: str,
    values: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
    segments: int = _SCAN_SEGMENTS,
) -> dict[str, int]:
    """How many items of the whole table pass ``filter`` with each value of ``attribute``.

    A parallel Scan that projects ``attribute`` only; it still reads (and is billed for) every
    item, so it serves nightly gauges, never a request path. ``filter`` may use ``#value`` for
    ``attribute`` plus the ``names`` and ``values`` given.
    """

    def count_segment(segment: int) -> Counter[str]:
        request: dict[str, Any] = {
            "TableName": table_name,
            "Segment": segment,
            "TotalSegments": segments,
            "ProjectionExpression": "#value",
            "FilterExpression": filter,
            "ExpressionAttributeNames": {"#value": attribute, **(names or {})},
        }
        if values:
            request["ExpressionAttributeValues"] = dict(values)
        counts: Counter[str] = Counter()
        while True:
            with translated():
                response = client.scan(**request)
            counts.update(count_values(response["Items"], attribute))
            start = response.get("LastEvaluatedKey")
            if start is None:
                return counts
            request["ExclusiveStartKey"] = start

    with ThreadPoolExecutor(max_workers=segments) as pool:
        total: Counter[str] = sum(pool.map(count_segment, range(segments)), Counter())
    return dict(total)


def delete_all(client: DynamoDbClient, listing: Listing) -> int:
    """Delete every item the listing finds, by table key; how many it found."""
    deleted, keys = 0, []
    for item in read_all(client, listing):
        keys.append(key_of(item, listing.design.key_names))
        if len(keys) == _DELETE_CHUNK:
            batch_delete(client, listing.table_name, keys)
            deleted, keys = deleted + len(keys), []
    batch_delete(client, listing.table_name, keys)
    return deleted + len(keys)


def _kept(client: DynamoDbClient, listing: Listing, found: list[Item]) -> list[tuple[Item, Item]]:
    """Pairs (index item, full item) of the items that pass ``keep``."""
    if listing.hydrate:
        keys = [key_of(i, listing.design.key_names) for i in found]
        full = batch_get(client, listing.table_name, listing.design.key_names, keys)
        pairs = [(i, f) for i, f in zip(found, full, strict=True) if f is not None]
    else:
        pairs = [(i, i) for i in found]
    if listing.keep is None:
        return pairs
    return [(i, f) for i, f in pairs if listing.keep(f)]


def batch_get(
    client: DynamoDbClient, table_name: str, key_names: Sequence[str], keys: Sequence[Item]
) -> list[Item | None]:
    """The items with these keys, in the same order (None where an item no longer exists)."""
    found: dict[tuple[str, ...], Item] = {}
    for start in range(0, len(keys), _BATCH_GET):
        pending: Sequence[Item] = keys[start : start + _BATCH_GET]
        for attempt in range(_BATCH_ATTEMPTS):
            with translated():
                response = client.batch_get_item(
                    RequestItems={table_name: {"Keys": list(pending), "ConsistentRead": True}}
                )
            for item in response.get("Responses", {}).get(table_name, []):
                found[_identity(item, key_names)] = item
            pending = response.get("UnprocessedKeys", {}).get(table_name, {}).get("Keys", [])
            if not pending:
                break
            _back_off(attempt)
        else:
            raise TransientError("DynamoDB left keys unprocessed after retries")
    return [found.get(_identity(key, key_names)) for key in keys]


def batch_delete(client: DynamoDbClient, table_name: str, keys: Sequence[Item]) -> None:
    """Delete the items with these keys (missing ones are fine), 25 per request."""
    for start in range(0, len(keys), _BATCH_WRITE):
        pending: list[Any] = [
            {"DeleteRequest": {"Key": k}} for k in keys[start : start + _BATCH_WRITE]
        ]
        for attempt in range(_BATCH_ATTEMPTS):
            with translated():
                response = client.batch_write_item(RequestItems={table_name: pending})
            pending = response.get("UnprocessedItems", {}).get(table_name, [])
            if not pending:
                break
            _back_off(attempt)
        else:
            raise TransientError("DynamoDB left deletes unprocessed after retries")


def _identity(item: Mapping[str, Any], key_names: Sequence[str]) -> tuple[str, ...]:
    return tuple(str(item[name]) for name in key_names)


def _back_off(attempt: int) -> None:
    # Unprocessed items mean throttling: wait before asking again, as the SDK would.
    time.sleep(min(0.05 * 2**attempt, 2.0))
