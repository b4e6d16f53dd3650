"""Encoding shared by the SQLite stores: tenant keys, page cursors, string tuples, vectors."""

from __future__ import annotations

import base64
import binascii
import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import StoredVector

KEY_SEPARATOR = "#"
# The character right after the separator: keys of tenant t are exactly those in [t#, t$).
_AFTER_SEPARATOR = chr(ord(KEY_SEPARATOR) + 1)


def partition_key(tenant_id: str, part: str) -> str:
    """Build the DynamoDB-style partition key ``{tenant_id}#{part}``.

    A component containing the separator is refused: tenant ``a#b`` with agent ``c`` would
    otherwise share a key with tenant ``a`` and agent ``b#c``.
    """
    _check_component("tenant_id", tenant_id)
    _check_component("key", part)
    return f"{tenant_id}{KEY_SEPARATOR}{part}"


def tenant_key_range(tenant_id: str) -> tuple[str, str]:
    """Bound ``[low, high)`` every partition key of the tenant, and no other tenant's."""
    _check_component("tenant_id", tenant_id)
    return f"{tenant_id}{KEY_SEPARATOR}", f"{tenant_id}{_AFTER_SEPARATOR}"


def _check_component(field: str, value: str) -> None:
    if KEY_SEPARATOR in value:
        raise InvalidInput(field, f"must not contain {KEY_SEPARATOR!r}")


def check_limit(limit: int) -> None:
    """Refuse a page size below one."""
    if limit < 1:
        raise InvalidInput("limit", "must be at least 1")


def encode_cursor(kind: str, position: Sequence[str | float]) -> str:
    """Encode an opaque cursor naming the last row of a page (keyset pagination)."""
    raw = json.dumps([kind, *position], allow_nan=False).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_cursor(kind: str, cursor: str, types: Sequence[type]) -> list[Any]:
    """Decode the position in ``cursor``; ``InvalidInput`` if it is not a ``kind`` cursor."""
    try:
        decoded = json.loads(base64.urlsafe_b64decode(cursor.encode("ascii")))
    except (ValueError, binascii.Error, UnicodeError) as exc:
        raise InvalidInput("cursor", "not a cursor of this listing") from exc
    if (
        not isinstance(decoded, list)
        or len(decoded) != len(types) + 1
        or decoded[0] != kind
        or not all(_has_type(v, t) for v, t in zip(decoded[1:], types, strict=True))
    ):
        raise InvalidInput("cursor", "not a cursor of this listing")
    return decoded[1:]


def _has_type(value: object, expected: type) -> bool:
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, expected)


def page_of(rows: list[sqlite3.Row], limit: int) -> tuple[list[sqlite3.Row], bool]:
    """Split a ``limit + 1`` fetch into the page and whether more rows follow."""
    return rows[:limit], len(rows) > limit


def encode_strings(values: Sequence[str]) -> str:
    """Encode strings as JSON text (ASCII-escaped, so any string round-trips)."""
    return json.dumps(list(values))


def decode_strings(text: str) -> tuple[str, ...]:
    """Decode the tuple :func:`encode_strings` stored."""
    return tuple(json.loads(text))


def vector_columns(vector: StoredVector | None) -> tuple[str | None, int | None, bytes | None]:
    """Split a vector into ``(embedding_model, embedding_dimension, embedding)`` values."""
    if vector is None:
        return None, None, None
    return vector.model_id, vector.dimension, vector.data


def vector_from(row: sqlite3.Row, column: str = "embedding") -> StoredVector | None:
    """Read the vector stored in a row's ``column`` (and its ``_model``, ``_dimension``)."""
    if row[column] is None:
        return None
    return StoredVector(
        model_id=row[f"{column}_model"],
        dimension=int(row[f"{column}_dimension"]),
        data=bytes(row[column]),
    )
