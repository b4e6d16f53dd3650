"""DynamoDB item sizes as DynamoDB bills them, for comparing embedding encodings.

Rules from "DynamoDB item sizes and formats" (Amazon DynamoDB Developer Guide,
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

import math
from collections.abc import Sequence
from decimal import Decimal

LIST_OVERHEAD = 3
ELEMENT_OVERHEAD = 1


def significant_digits(value: Decimal) -> int:
    """Significant digits of a number with leading and trailing zeroes trimmed (0 has one)."""
    if value.is_zero():
        return 1
    digits = value.as_tuple().digits
    text = "".join(str(d) for d in digits).strip("0")
    return max(1, len(text))


def number_size(value: Decimal, name: str = "") -> int:
    """Bytes of a number attribute (or, with no name, of a number inside a list)."""
    return len(name.encode()) + math.ceil(significant_digits(value) / 2) + 1


def binary_size(value: bytes, name: str = "") -> int:
    """Bytes of a binary attribute."""
    return len(name.encode()) + len(value)


def string_size(value: str, name: str = "") -> int:
    """Bytes of a string attribute."""
    return len(name.encode()) + len(value.encode())


def number_list_size(values: Sequence[Decimal], name: str = "") -> int:
    """Bytes of a List attribute of numbers, as the reference stores an embedding."""
    return (
        len(name.encode())
        + LIST_OVERHEAD
        + sum(ELEMENT_OVERHEAD + number_size(value) for value in values)
    )
