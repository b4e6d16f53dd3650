"""Cursors and page sizes of the SQLite and in-memory stores, beside the key scheme they key
records by (``core/model/keys.py``: ``{tenant_id}#{part}``, a part holding the separator
refused); cursors are opaque keyset positions (the last record of a page).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import Any, TypeVar

from agent_memory.core.model.errors import InvalidInput

T = TypeVar("T")


def check_limit(limit: int) -> None:
    """Refuse a page size below one."""
    if limit < 1:
        raise InvalidInput("limit", "must be at least 1")


def encode_cursor(kind: str, position: Sequence[str | float]) -> str:
    """An opaque cursor naming the last record of a page of the ``kind`` listing."""
    raw = json.dumps([kind, *position], allow_nan=False).encode()
    return base64.urlsafe_b64encode(raw).decode("ascii")


def decode_cursor(kind: str, cursor: str, types: Sequence[type]) -> tuple[Any, ...]:
    """The position in ``cursor``; ``InvalidInput`` if it is not a cursor of ``kind``."""
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
    return tuple(decoded[1:])


def _has_type(value: object, expected: type) -> bool:
    if expected is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    return isinstance(value, expected)


def page_of(ordered: Sequence[T], limit: int) -> tuple[Sequence[T], bool]:
    """The first ``limit`` records of ``ordered``, and whether more follow."""
    return ordered[:limit], len(ordered) > limit
