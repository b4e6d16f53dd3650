"""Encoding shared by the DynamoDB stores: keys, attribute values, cursors, error mapping.

Attribute values are built by hand for the low-level client, so every type is explicit: numbers
travel as ``N`` strings made from ``Decimal(repr(x))`` (floats round-trip exactly), embeddings as
``B``, run ids as ``SS``, ordered string lists as ``L`` of ``S``. :func:`item_size` measures an
item as DynamoDB does, so a store can keep each item under the 400 KB limit by design.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from decimal import Decimal
from typing import Any, Protocol

from agent_memory.core.model.errors import InvalidInput, TransientError
from agent_memory.core.model.models import StoredVector

Item = dict[str, Any]
"""One item in DynamoDB's wire format: ``{name: {"S": ...}}``."""


_RETRYABLE = frozenset(
    {
        "ProvisionedThroughputExceededException",
        "ThrottlingException",
        "RequestLimitExceeded",
        "InternalServerError",
        "ServiceUnavailable",
        "TransactionConflict",
        "TransactionConflictException",
        "TransactionInProgressException",
        "ThrottlingError",
        "ProvisionedThroughputExceeded",
    }
)
# botocore raises these (not ClientError) once its own retries are spent; matched by name so
# this module needs no botocore import.
_RETRYABLE_TRANSPORT = frozenset(
    {"ReadTimeoutError", "ConnectTimeoutError", "EndpointConnectionError", "ConnectionClosedError"}
)


class DynamoDbClient(Protocol):
    """The slice of ``boto3.client("dynamodb")`` the stores use."""

    def get_item(self, **kwargs: Any) -> dict[str, Any]:
        """GetItem."""
        ...

    def put_item(self, **kwargs: Any) -> dict[str, Any]:
        """PutItem."""
        ...

    def update_item(self, **kwargs: Any) -> dict[str, Any]:
        """UpdateItem."""
        ...

    def delete_item(self, **kwargs: Any) -> dict[str, Any]:
        """DeleteItem."""
        ...

    def query(self, **kwargs: Any) -> dict[str, Any]:
        """Query."""
        ...

    def scan(self, **kwargs: Any) -> dict[str, Any]:
        """Scan."""
        ...

    def batch_get_item(self, **kwargs: Any) -> dict[str, Any]:
        """BatchGetItem."""
        ...

    def batch_write_item(self, **kwargs: Any) -> dict[str, Any]:
        """BatchWriteItem."""
        ...

    def transact_write_items(self, **kwargs: Any) -> dict[str, Any]:
        """TransactWriteItems."""
        ...


# --- keys -------------------------------------------------------------------------------------


def check_limit(limit: int) -> None:
    """Refuse a page size below one."""
    if limit < 1:
        raise InvalidInput("limit", "must be at least 1")


# --- attribute values -------------------------------------------------------------------------


def s(value: str) -> dict[str, str]:
    """A string attribute."""
    return {"S": value}


def n(value: float | int) -> dict[str, str]:
    """A number attribute; floats go through ``Decimal(repr(x))`` so they round-trip exactly."""
    if isinstance(value, bool):
        raise TypeError("a bool is not a number attribute")
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidInput("number", "DynamoDB stores only finite numbers")
        return {"N": str(Decimal(repr(value)))}
    return {"N": str(int(value))}


def b(value: bytes) -> dict[str, bytes]:
    """A binary attribute."""
    return {"B": bytes(value)}


def ss(values: Iterable[str]) -> dict[str, list[str]]:
    """A non-empty string set attribute."""
    members = sorted(set(values))
    if not members:
        raise ValueError("a string set cannot be empty")
    return {"SS": members}


def strings(values: Sequence[str]) -> dict[str, list[dict[str, str]]]:
    """An ordered list of strings (duplicates and empty strings kept)."""
    return {"L": [s(v) for v in values]}


def put_optional(item: Item, name: str, value: str | float | None) -> None:
    """Set ``name`` in ``item`` when ``value`` is not None (absent attributes stay absent)."""
    if value is None:
        return
    item[name] = s(value) if isinstance(value, str) else n(value)


def put_vector(item: Item, vector: StoredVector | None, name: str = "embedding") -> None:
    """Store an embedding as Binary ``name`` with ``{name}_model`` and ``{name}_dimension``."""
    if vector is None:
        return
    item[name] = b(vector.data)
    item[f"{name}_model"] = s(vector.model_id)
    item[f"{name}_dimension"] = n(vector.dimension)


def get_s(item: Item, name: str) -> str:
    """A string attribute's value."""
    value: str = item[name]["S"]
    return value


def get_opt_s(item: Item, name: str) -> str | None:
    """A string attribute's value, or None when absent."""
    return get_s(item, name) if name in item else None


def get_float(item: Item, name: str) -> float:
    """A number attribute as float (exact for numbers written by :func:`n`)."""
    return float(item[name]["N"])


def get_opt_float(item: Item, name: str) -> float | None:
    """A number attribute as float, or None when absent."""
    return get_float(item, name) if name in item else None


def get_int(item: Item, name: str) -> int:
    """A number attribute as int."""
    return int(Decimal(item[name]["N"]))


def get_strings(item: Item, name: str) -> tuple[str, ...]:
    """An ordered list of strings."""
    return tuple(v["S"] for v in item[name]["L"])


def get_set(item: Item, name: str) -> frozenset[str]:
    """A string set (empty when absent)."""
    return frozenset(item[name]["SS"]) if name in item else frozenset()


def get_vector(item: Item, name: str = "embedding") -> StoredVector | None:
    """The embedding stored by :func:`put_vector` as ``name``, if any."""
    if name not in item:
        return None
    return StoredVector(
        model_id=get_s(item, f"{name}_model"),
        dimension=get_int(item, f"{name}_dimension"),
        data=bytes(item[name]["B"]),
    )


def vector_update(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """An UpdateItem request part that sets each attribute given and removes each one None.

    Attribute names and values are passed as ``#vN``/``:vN`` placeholders; the result holds
    ``UpdateExpression``, ``ExpressionAttributeNames`` and ``ExpressionAttributeValues``.
    """
    names: dict[str, str] = {}
    values: Item = {}
    sets: list[str] = []
    removes: list[str] = []
    for number, (name, value) in enumerate(attributes.items()):
        names[f"#v{number}"] = name
        if value is None:
            removes.append(f"#v{number}")
        else:
            values[f":v{number}"] = value
            sets.append(f"#v{number} = :v{number}")
    expression = " ".join(
        part
        for part in (
            "SET " + ", ".join(sets) if sets else "",
            "REMOVE " + ", ".join(removes) if removes else "",
        )
        if part
    )
    return {
        "UpdateExpression": expression,
        "ExpressionAttributeNames": names,
        "ExpressionAttributeValues": values,
    }


def key_of(item: Mapping[str, Any], names: Sequence[str]) -> Item:
    """The attributes ``names`` of ``item``: a table key, or an index position."""
    return {name: item[name] for name in names}


# --- item size --------------------------------------------------------------------------------
# "DynamoDB item sizes and formats" (Amazon DynamoDB Developer Guide,
# https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html)
# and "Constraints in Amazon DynamoDB"
# (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Constraints.html);
# DynamoDB's KB is 1,024 bytes.

ITEM_LIMIT_BYTES = 400 * 1024
"""The largest item DynamoDB stores: attribute names and values together."""
TRANSACTION_LIMIT_BYTES = 4 * 1024 * 1024
"""The largest aggregate size of the items of one ``TransactWriteItems``."""
TRANSACTION_ACTIONS = 100
"""The most actions one ``TransactWriteItems`` may group."""

_CONTAINER_OVERHEAD = 3
_ELEMENT_OVERHEAD = 1


def significant_digits(value: Decimal) -> int:
    """Significant digits of a number with leading and trailing zeroes trimmed (0 has one)."""
    if value.is_zero():
        return 1
    text = "".join(str(d) for d in value.as_tuple().digits).strip("0")
    return max(1, len(text))


def number_size(value: Decimal, name: str = "") -> int:
    """Bytes of a number attribute (or, with no name, of a number inside a list)."""
    return len(name.encode()) + math.ceil(significant_digits(value) / 2) + 1


def binary_size(value: bytes, name: str = "") -> int:
    """Bytes of a binary attribute (raw bytes; base64 on the wire is not counted)."""
    return len(name.encode()) + len(value)


def string_size(value: str, name: str = "") -> int:
    """Bytes of a string attribute: UTF-8 bytes of the name and of the value."""
    return len(name.encode()) + len(value.encode())


def value_size(value: Mapping[str, Any]) -> int:
    """Bytes of one attribute value in wire format (without its name).

    Lists and maps cost 3 bytes plus 1 per element; the guide gives no rule for sets, so
    they are counted as lists, which can only over-estimate.
    """
    ((kind, data),) = value.items()
    if kind == "S":
        return string_size(data)
    if kind == "N":
        return number_size(Decimal(data))
    if kind == "B":
        return binary_size(data)
    if kind in ("NULL", "BOOL"):
        return 1
    if kind == "L":
        elements = [value_size(v) for v in data]
    elif kind == "M":
        elements = [len(k.encode()) + value_size(v) for k, v in data.items()]
    elif kind == "SS":
        elements = [string_size(v) for v in data]
    elif kind == "NS":
        elements = [number_size(Decimal(v)) for v in data]
    elif kind == "BS":
        elements = [binary_size(v) for v in data]
    else:
        raise ValueError(f"unknown attribute type {kind!r}")
    return _CONTAINER_OVERHEAD + sum(_ELEMENT_OVERHEAD + e for e in elements)


def item_size(item: Mapping[str, Any]) -> int:
    """Bytes of an item as DynamoDB counts them against :data:`ITEM_LIMIT_BYTES`."""
    return sum(len(name.encode()) + value_size(value) for name, value in item.items())


# --- cursors ----------------------------------------------------------------------------------


def encode_cursor(kind: str, segment: int, position: Mapping[str, Any]) -> str:
    """An opaque cursor: the listing kind, the segment (shard) and the last item's key."""
    raw = json.dumps({"k": kind, "s": segment, "p": position}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode("ascii")


def decode_cursor(
    cursor: str, *, kind: str, segments: int, names: Sequence[str]
) -> tuple[int, Item]:
    """The (segment, position) in ``cursor``; ``InvalidInput`` unless it is a ``kind`` cursor."""
    try:
        decoded = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise InvalidInput("cursor", "not a cursor of this listing") from exc
    if not isinstance(decoded, dict) or decoded.keys() != {"k", "s", "p"}:
        raise InvalidInput("cursor", "not a cursor of this listing")
    segment, position = decoded["s"], decoded["p"]
    if (
        decoded["k"] != kind
        or type(segment) is not int
        or not 0 <= segment < segments
        or not isinstance(position, dict)
        or sorted(position) != sorted(names)
        or not all(_is_scalar_key(v) for v in position.values())
    ):
        raise InvalidInput("cursor", "not a cursor of this listing")
    return segment, position


def _is_scalar_key(value: object) -> bool:
    if not isinstance(value, dict) or len(value) != 1:
        return False
    ((kind, text),) = value.items()
    if kind not in ("S", "N") or not isinstance(text, str):
        return False
    if kind == "N":
        try:
            return Decimal(text).is_finite()
        except ArithmeticError:
            return False
    return True


# --- errors -----------------------------------------------------------------------------------


def error_code(exc: BaseException) -> str | None:
    """The DynamoDB error code of a botocore ``ClientError`` (None for other exceptions)."""
    response = getattr(exc, "response", None)
    if not isinstance(response, dict):
        return None
    code = response.get("Error", {}).get("Code")
    return code if isinstance(code, str) else None


def cancellation_codes(exc: BaseException) -> list[str]:
    """Per-operation reason codes of a ``TransactionCanceledException`` ("None" = no reason)."""
    response = getattr(exc, "response", None)
    reasons = response.get("CancellationReasons", []) if isinstance(response, dict) else []
    return [str(r.get("Code", "None")) for r in reasons]


class ConditionFailed(Exception):
    """A condition expression (or a transaction's conditions) did not hold."""

    def __init__(self, reasons: Sequence[str] = ()) -> None:
        super().__init__(", ".join(reasons) or "condition failed")
        self.reasons = tuple(reasons)


@contextmanager
def translated() -> Iterator[None]:
    """Map DynamoDB errors onto the ports' errors.

    A failed condition becomes :class:`ConditionFailed` (stores answer False or None); throttling,
    server errors and transaction conflicts become ``TransientError`` (retry with backoff); a
    request DynamoDB refuses (an item over 400 KB, a cursor from elsewhere) becomes
    ``InvalidInput``. Anything else propagates unchanged.
    """
    try:
        yield
    except Exception as exc:
        code = error_code(exc)
        if code is None:
            if type(exc).__name__ in _RETRYABLE_TRANSPORT:
                raise TransientError(f"DynamoDB unreachable: {exc}") from exc
            raise
        if code == "ConditionalCheckFailedException":
            raise ConditionFailed() from exc
        if code == "TransactionCanceledException":
            reasons = cancellation_codes(exc)
            if any(r in _RETRYABLE for r in reasons):
                raise TransientError(f"transaction cancelled: {reasons}") from exc
            raise ConditionFailed(reasons) from exc
        if code in _RETRYABLE:
            raise TransientError(f"DynamoDB {code}") from exc
        if code == "ValidationException":
            raise InvalidInput("request", str(exc)) from exc
        raise
