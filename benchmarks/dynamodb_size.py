"""DynamoDB item sizes as DynamoDB bills them, for comparing embedding encodings.

The sizing rules live in the adapter (:mod:`agent_memory.adapters.aws.dynamodb_codec`), which
keeps every item under the 400 KB limit with them; this module re-exports them and adds the
size of the reference design's embedding (a List of numbers). Rules from "DynamoDB item sizes
and formats" (Amazon DynamoDB Developer Guide,
https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):

- a string is (UTF-8 bytes of the attribute name) + (UTF-8 bytes of the value);
- a number is "(number of UTF-8-encoded bytes of attribute name) + (1 byte per two significant
  digits) + (1 byte)", with leading and trailing zeroes trimmed, at most 38 significant digits;
- a binary is (bytes of the name) + (raw bytes of the value; base64 is not counted);
- a List or Map is (bytes of the name) + sum(size of nested elements) + 3 bytes, and each List or
  Map element adds 1 byte of overhead (nested elements have no name).

Item-level storage overhead (100 bytes per item for indexing) is the same for every encoding
and left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from agent_memory.adapters.aws.dynamodb_codec import (
    binary_size,
    item_size,
    number_size,
    significant_digits,
    string_size,
)

__all__ = [
    "binary_size",
    "item_size",
    "number_list_size",
    "number_size",
    "significant_digits",
    "string_size",
]

LIST_OVERHEAD = 3
ELEMENT_OVERHEAD = 1


def number_list_size(values: Sequence[Decimal], name: str = "") -> int:
    """Bytes of a List attribute of numbers, as the reference stores an embedding."""
    return (
        len(name.encode())
        + LIST_OVERHEAD
        + sum(ELEMENT_OVERHEAD + number_size(value) for value in values)
    )
