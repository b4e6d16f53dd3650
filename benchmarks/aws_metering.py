"""Billable units of the AWS path, counted while it runs offline (moto and the model fakes).

:class:`Meter` sees every AWS API call a function makes through botocore (the recording
wrapper sits on ``BaseClient._make_api_call``, below every adapter and above moto and the
fakes' ``before-call`` answers), and every Lambda invocation it is told of (wall time, time
inside AWS calls, log bytes and the metrics written as EMF). :func:`units_of` turns a call
into what AWS bills for it, by the rules of each service's pricing and developer guides:

- DynamoDB on demand: a write costs one write request unit per KB of the larger of the item
  before and after, two in a transaction, plus the same for each global secondary index the
  item is (or was) projected into; a read one read unit per 4 KB, half eventually consistent,
  two in a transaction; a Query or Scan sums the items read before rounding
  (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html,
  https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations).
- Comprehend: a unit is 100 characters, at least 3 per request
  (https://aws.amazon.com/comprehend/pricing/).
- S3: PUT, COPY, POST and LIST are tier-1 requests, GET and HEAD tier-2, DELETE is free
  (https://aws.amazon.com/s3/pricing/).
- Bedrock: Titan counts input tokens; the cost model takes 4.7 characters a token (the
  embedding adapter's own sizing figure for English).
"""

from __future__ import annotations

import json
import math
import re
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

from botocore.client import BaseClient
from botocore.exceptions import ClientError

from agent_memory.adapters.aws.dynamodb_codec import item_size

# Characters a Titan or chat-model token stands for, in the cost model (English text).
CHARS_PER_TOKEN = 4.7
KB = 1024
READ_UNIT_BYTES = 4 * KB
WRITE_UNIT_BYTES = KB
# CloudWatch Logs counts each event's message plus 26 bytes
# (https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutLogEvents.html).
LOG_EVENT_OVERHEAD = 26

_WRITES = {"PutItem", "UpdateItem", "DeleteItem"}


@dataclass
class ApiCall:
    """One AWS API call: who made it, what was asked and answered, and how long it took."""

    service: str
    operation: str
    params: dict[str, Any]
    function: str | None
    seconds: float
    response: dict[str, Any] | None = None
    error: str | None = None
    # DynamoDB units, worked out when the call was made (the items before and after it).
    read_units: float = 0.0
    write_units: float = 0.0
    # The thread that made it: calls of a worker pool overlap in time.
    thread: int = 0


@dataclass
class Invocation:
    """One Lambda invocation: wall time, the part of it spent in AWS calls, its logs."""

    function: str
    seconds: float
    seconds_in_calls: float
    log_bytes: int
    log_events: int
    metrics: frozenset[str]
    calls: list[ApiCall] = field(default_factory=list)
    thread: int = 0


class _Logs:
    """stdout, counting what each invocation writes (Lambda ships a function's stdout to its
    log group, one event per line; Powertools writes JSON lines and EMF metrics there).
    """

    def __init__(self, real: Any) -> None:
        self.real = real
        self.active: list[str] | None = None

    def write(self, text: str) -> int:
        if self.active is not None:
            self.active.append(text)
            return len(text)
        return int(self.real.write(text))

    def flush(self) -> None:
        self.real.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)


LOGS = _Logs(sys.stdout)


def capture_logs() -> None:
    """Route stdout through the meter: call before Powertools' Logger is first imported, since
    its handler keeps the stream it found.
    """
    sys.stdout = LOGS


class Meter:
    """Records API calls and invocations while :meth:`recording` is active."""

    def __init__(self) -> None:
        self.calls: list[ApiCall] = []
        self.invocations: list[Invocation] = []
        self._function: str | None = None
        self._local = threading.local()
        self._lock = threading.Lock()
        self._tables: dict[str, dict[str, Any]] = {}
        self._original: Any = None

    @contextmanager
    def recording(self) -> Iterator[Meter]:
        """Wrap botocore so every call is recorded (a call made inside another, by a fake
        answering it, is the service's own work and is not).
        """
        original = BaseClient._make_api_call
        self._original = original
        meter = self

        def recorded(client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
            if getattr(meter._local, "depth", 0):
                return original(client, operation, params)
            return meter._record(client, operation, params)

        with mock.patch.object(BaseClient, "_make_api_call", recorded):
            yield self

    def _record(self, client: BaseClient, operation: str, params: dict[str, Any]) -> Any:
        service = client.meta.service_model.service_name
        call = ApiCall(
            service, operation, dict(params), self._function, 0.0, thread=threading.get_ident()
        )
        self._local.depth = 1
        try:
            before = (
                self._dynamodb_before(client, operation, params) if service == "dynamodb" else None
            )
            started = time.perf_counter()
            try:
                response = self._original(client, operation, params)
            except ClientError as error:
                call.error = str(error.response.get("Error", {}).get("Code"))
                raise
            finally:
                call.seconds = time.perf_counter() - started
                if service == "dynamodb":
                    self._dynamodb_units(client, call, before)
                with self._lock:
                    self.calls.append(call)
            call.response = response if isinstance(response, dict) else None
            if service == "dynamodb" and isinstance(response, dict):
                call.read_units = self._read_units(client, operation, params, response)
            return response
        finally:
            self._local.depth = 0

    # --- Lambda ------------------------------------------------------------------------------

    def invoke(self, function: str, run: Any) -> Any:
        """Run ``run()`` as one invocation of ``function``: timed, its calls and logs kept."""
        first_call = len(self.calls)
        self._function = function
        written: list[str] = []
        LOGS.active = written
        # moto's Step Functions invokes the handler inside its own (unrecorded) Lambda call:
        # the handler's calls are the function's, so they are recorded.
        depth = getattr(self._local, "depth", 0)
        self._local.depth = 0
        started = time.perf_counter()
        try:
            return run()
        finally:
            seconds = time.perf_counter() - started
            self._local.depth = depth
            LOGS.active = None
            self._function = None
            calls = [c for c in self.calls[first_call:] if c.function == function]
            lines = [line for line in "".join(written).splitlines() if line.strip()]
            self.invocations.append(
                Invocation(
                    function=function,
                    seconds=seconds,
                    seconds_in_calls=sum(c.seconds for c in calls),
                    log_bytes=sum(len(line.encode()) for line in lines),
                    log_events=len(lines),
                    metrics=frozenset(_emf_metrics(lines)),
                    calls=calls,
                    thread=threading.get_ident(),
                )
            )

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Calls made meanwhile (the benchmark's own inspection) are not recorded."""
        self._local.depth = 1
        try:
            yield
        finally:
            self._local.depth = 0

    def mark(self) -> tuple[int, int]:
        """Where the records are now, to take what a scenario added with :meth:`since`."""
        return len(self.calls), len(self.invocations)

    def since(self, mark: tuple[int, int]) -> tuple[list[ApiCall], list[Invocation]]:
        """Calls and invocations recorded after ``mark``."""
        return self.calls[mark[0] :], self.invocations[mark[1] :]

    # --- DynamoDB ----------------------------------------------------------------------------

    def _read_units(
        self, client: BaseClient, operation: str, params: dict[str, Any], response: dict[str, Any]
    ) -> float:
        """Read units as DynamoDB bills them: by the size of the items read, whole (a
        projection returns less but reads them all), before any filter, and for an index by
        what the index holds.
        """
        factor = 1.0 if params.get("ConsistentRead") else 0.5
        if operation == "GetItem":
            size = item_size(self._item(client, params["TableName"], params["Key"]))
            return factor * max(1, math.ceil(size / READ_UNIT_BYTES))
        if operation in ("Query", "Scan"):
            size = sum(item_size(item) for item in self._items_read(client, operation, params))
            return factor * max(1, math.ceil(size / READ_UNIT_BYTES))
        if operation == "BatchGetItem":
            units = 0.0
            for table, request in params["RequestItems"].items():
                consistent = 1.0 if request.get("ConsistentRead") else 0.5
                for key in request["Keys"]:
                    item = self._item(client, table, key)
                    if item:
                        units += consistent * max(1, math.ceil(item_size(item) / READ_UNIT_BYTES))
            return units
        if operation == "TransactGetItems":
            units = 0.0
            for entry in params["TransactItems"]:
                get = entry["Get"]
                item = self._item(client, get["TableName"], get["Key"])
                units += 2.0 * max(1, math.ceil(item_size(item) / READ_UNIT_BYTES))
            return units
        return 0.0

    def _items_read(
        self, client: BaseClient, operation: str, params: dict[str, Any]
    ) -> list[dict[str, Any]]:
        """The items a Query or Scan read: the same request without its projection or filter
        (its ``Limit`` counts items read, before the filter), each as its index holds it.
        """
        kept = (
            "TableName",
            "IndexName",
            "KeyConditionExpression",
            "ExclusiveStartKey",
            "Limit",
            "Segment",
            "TotalSegments",
            "ConsistentRead",
            "ScanIndexForward",
        )
        request = {k: v for k, v in params.items() if k in kept}
        expression = str(params.get("KeyConditionExpression", ""))
        for placeholders in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
            used = {
                k: v
                for k, v in params.get(placeholders, {}).items()
                if re.search(re.escape(k) + r"(?![A-Za-z0-9_])", expression)
            }
            if used:
                request[placeholders] = used
        items = list(self._original(client, operation, request).get("Items", []))
        if "IndexName" not in params:
            return items
        table = self._table(client, params["TableName"])
        [index] = [
            i
            for i in table.get("GlobalSecondaryIndexes", [])
            + table.get("LocalSecondaryIndexes", [])
            if i["IndexName"] == params["IndexName"]
        ]
        return [projected(index, table, item) for item in items]

    def _table(self, client: BaseClient, name: str) -> dict[str, Any]:
        if name not in self._tables:
            self._tables[name] = self._original(client, "DescribeTable", {"TableName": name})[
                "Table"
            ]
        return self._tables[name]

    def _item(self, client: BaseClient, table: str, key: Mapping[str, Any]) -> dict[str, Any]:
        found = self._original(
            client, "GetItem", {"TableName": table, "Key": dict(key), "ConsistentRead": True}
        )
        return dict(found.get("Item") or {})

    def _writes_of(
        self, operation: str, params: dict[str, Any]
    ) -> list[tuple[str, dict[str, Any], dict[str, Any] | None, int]]:
        """(table, key, item put or None, units multiplier) of each item a write touches."""
        if operation in _WRITES:
            table = params["TableName"]
            return [(table, params.get("Key") or {}, params.get("Item"), 1)]
        writes: list[tuple[str, dict[str, Any], dict[str, Any] | None, int]] = []
        if operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((_, body),) = entry.items()
                writes.append((body["TableName"], body.get("Key") or {}, body.get("Item"), 2))
        elif operation == "BatchWriteItem":
            for table, requests in params["RequestItems"].items():
                for request in requests:
                    if "PutRequest" in request:
                        writes.append((table, {}, request["PutRequest"]["Item"], 1))
                    else:
                        writes.append((table, request["DeleteRequest"]["Key"], None, 1))
        return writes

    def _key_of(self, client: BaseClient, table: str, item: Mapping[str, Any]) -> dict[str, Any]:
        names = [k["AttributeName"] for k in self._table(client, table)["KeySchema"]]
        return {n: item[n] for n in names if n in item}

    def _dynamodb_before(
        self, client: BaseClient, operation: str, params: dict[str, Any]
    ) -> list[tuple[str, dict[str, Any], dict[str, Any], int]] | None:
        writes = self._writes_of(operation, params)
        if not writes:
            return None
        before = []
        for table, key, item, factor in writes:
            key = key or self._key_of(client, table, item or {})
            before.append((table, key, self._item(client, table, key), factor))
        return before

    def _dynamodb_units(
        self,
        client: BaseClient,
        call: ApiCall,
        before: list[tuple[str, dict[str, Any], dict[str, Any], int]] | None,
    ) -> None:
        if not before:
            return
        units = 0.0
        for table, key, old, factor in before:
            new = self._item(client, table, key)
            if call.error is not None:
                # A refused conditional write still costs a unit per KB of the item.
                units += factor * max(1, math.ceil(item_size(old) / WRITE_UNIT_BYTES))
                continue
            units += factor * _write_units(old, new)
            for index in self._table(client, table).get("GlobalSecondaryIndexes", []):
                units += factor * _index_write_units(index, self._table(client, table), old, new)
        call.write_units = units


def _write_units(old: Mapping[str, Any], new: Mapping[str, Any]) -> int:
    return max(1, math.ceil(max(item_size(old), item_size(new)) / WRITE_UNIT_BYTES))


def projected(
    index: Mapping[str, Any], table: Mapping[str, Any], item: Mapping[str, Any]
) -> dict[str, Any]:
    """The item as ``index`` holds it (empty if its index key is missing: not in the index)."""
    keys = [k["AttributeName"] for k in index["KeySchema"]]
    if not item or any(k not in item for k in keys):
        return {}
    projection = index.get("Projection", {})
    kind = projection.get("ProjectionType", "ALL")
    if kind == "ALL":
        return dict(item)
    names = set(keys) | {k["AttributeName"] for k in table["KeySchema"]}
    if kind == "INCLUDE":
        names |= set(projection.get("NonKeyAttributes", []))
    return {n: v for n, v in item.items() if n in names}


def _index_write_units(
    index: Mapping[str, Any],
    table: Mapping[str, Any],
    old: Mapping[str, Any],
    new: Mapping[str, Any],
) -> int:
    """Units an index write costs: a put, a delete, both (its key changed) or an update."""
    was, now = projected(index, table, old), projected(index, table, new)
    if not was and not now:
        return 0
    if was == now:
        return 0
    keys = [k["AttributeName"] for k in index["KeySchema"]]
    if was and now and all(was[k] == now[k] for k in keys):
        return _write_units(was, now)
    return (_write_units({}, was) if was else 0) + (_write_units({}, now) if now else 0)


def _emf_metrics(lines: list[str]) -> Iterator[str]:
    """Each metric an EMF line defines, as namespace/name/dimension=value,...: CloudWatch
    bills each distinct combination as one custom metric.
    """
    for line in lines:
        if '"_aws"' not in line:
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        for directive in record.get("_aws", {}).get("CloudWatchMetrics", []):
            for dimensions in directive.get("Dimensions", [[]]):
                labels = ",".join(f"{d}={record.get(d)}" for d in dimensions)
                for metric in directive.get("Metrics", []):
                    yield f"{directive.get('Namespace')}/{metric['Name']}/{labels}"


# --- units of a call ---------------------------------------------------------------------------


def tokens(text: str) -> int:
    """Tokens the cost model counts for ``text``."""
    return math.ceil(len(text) / CHARS_PER_TOKEN) if text else 0


def units_of(call: ApiCall) -> dict[str, float]:
    """What ``call`` is billed for, by price key (``benchmarks/aws_prices.py``)."""
    units: defaultdict[str, float] = defaultdict(float)
    p, op = call.params, call.operation
    if call.service == "dynamodb":
        units["dynamodb.read_units"] += call.read_units
        units["dynamodb.write_units"] += call.write_units
    elif call.service == "comprehend" and op == "DetectPiiEntities":
        units["comprehend.pii_units"] += max(3, math.ceil(len(p.get("Text", "")) / 100))
    elif call.service == "s3":
        if op in ("PutObject", "CopyObject", "ListObjectsV2", "ListObjects", "PostObject"):
            units["s3.tier1_requests"] += 1
        elif op in ("GetObject", "HeadObject"):
            units["s3.tier2_requests"] += 1
    elif call.service == "bedrock-runtime" and op == "InvokeModel":
        body = json.loads(p.get("body") or "{}")
        units["bedrock.titan_embed_v2"] += tokens(str(body.get("inputText", "")))
    elif call.service == "bedrock-agent-runtime" and op == "Retrieve":
        units["bedrock.titan_embed_v2"] += tokens(p.get("retrievalQuery", {}).get("text", ""))
        units["s3vectors.query_requests"] += 1
    elif call.service == "bedrock-agent-runtime" and op == "Rerank":
        units["bedrock.cohere_rerank"] += 1
    elif call.service == "secretsmanager":
        units["secrets.requests"] += 1
    elif call.service == "sqs":
        units["sqs.requests"] += 1
    return units
