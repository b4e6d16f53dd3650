"""How a consolidation says what it did not keep: one line per kind of thing, exact about which.

Every limit on the write path either keeps the data, refuses the event naming the field, or
adds a line here to the consolidation's ``not_kept`` (the summary every surface prints).
"""

from __future__ import annotations

from collections.abc import Iterable


def spans(indices: Iterable[int]) -> str:
    """Sorted indices as ranges: ``1-700, 702, 705-709``."""
    ordered = sorted(set(indices))
    parts: list[str] = []
    start = previous = None
    for index in [*ordered, None]:
        if index is not None and previous is not None and index == previous + 1:
            previous = index
            continue
        if start is not None:
            parts.append(str(start) if start == previous else f"{start}-{previous}")
        start = previous = index
    return ", ".join(parts)


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` and ``noun``, pluralised: ``1 message``, ``3 messages``."""
    return f"{count:,} {noun if count == 1 else (plural or noun + 's')}"


def messages(indices: Iterable[int]) -> str:
    """``message 3`` or ``messages 1-700, 702``."""
    ordered = sorted(set(indices))
    return f"{'message' if len(ordered) == 1 else 'messages'} {spans(ordered)}"
