"""Encoding shared by the SQLite stores: tenant key ranges, string tuples, vectors (keys and
cursors: ``adapters/store_keys.py``).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence

from agent_memory.core.model.keys import KEY_SEPARATOR, check_component
from agent_memory.core.model.models import StoredVector

# The character right after the separator: keys of tenant t are exactly those in [t#, t$).
_AFTER_SEPARATOR = chr(ord(KEY_SEPARATOR) + 1)


def tenant_key_range(tenant_id: str) -> tuple[str, str]:
    """Bound ``[low, high)`` every partition key of the tenant, and no other tenant's."""
    check_component("tenant_id", tenant_id)
    return f"{tenant_id}{KEY_SEPARATOR}", f"{tenant_id}{_AFTER_SEPARATOR}"


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
    # The bytes are the core's to read (core/retrieval/vectors.py checks their length): a store
    # gives back what it was given.
    return StoredVector(
        model_id=row[f"{column}_model"],
        dimension=int(row[f"{column}_dimension"]),
        data=bytes(row[column]),
    )
