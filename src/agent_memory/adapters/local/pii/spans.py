"""Overlap resolution: the recognisers' candidates become disjoint spans."""

from __future__ import annotations

import bisect
from collections.abc import Iterable

from agent_memory.core.ports import PiiEntity

_SEPARATORS = ",;:"
# Ties in length go to the type whose pattern is the more specific.
_PRIORITY = {
    "EMAIL": 7,
    "SSN": 6,
    "CREDIT_DEBIT_NUMBER": 6,
    "IP_ADDRESS": 5,
    "PHONE": 4,
    "ADDRESS": 3,
    "NAME": 2,
}


def merge_same_type(candidates: Iterable[PiiEntity]) -> list[PiiEntity]:
    """Union overlapping spans of one type ("Smith" and "Smith, John" become one)."""
    by_type: dict[str, list[PiiEntity]] = {}
    for entity in candidates:
        by_type.setdefault(entity.type, []).append(entity)
    merged: list[PiiEntity] = []
    for kind, entities in by_type.items():
        entities.sort(key=lambda e: (e.begin, -e.end))
        current = entities[0]
        for entity in entities[1:]:
            if entity.begin < current.end:
                current = PiiEntity(
                    kind,
                    current.begin,
                    max(current.end, entity.end),
                    max(current.score, entity.score),
                )
            else:
                merged.append(current)
                current = entity
        merged.append(current)
    return merged


def resolve(candidates: Iterable[PiiEntity], text: str) -> list[PiiEntity]:
    """Disjoint spans in text order; longer (then more specific) candidates win, and the part
    of a losing candidate outside every winner is kept, so no detected character goes bare.
    """
    ranked = sorted(
        (e for e in merge_same_type(candidates) if e.end > e.begin),
        key=lambda e: (-(e.end - e.begin), -_PRIORITY.get(e.type, 0), e.begin),
    )
    starts: list[int] = []  # begins of taken spans, sorted; ends[i] belongs to starts[i]
    ends: list[int] = []
    taken: list[PiiEntity] = []
    for entity in ranked:
        for begin, end in _uncovered(entity.begin, entity.end, starts, ends):
            if (begin, end) != (entity.begin, entity.end):
                begin, end = _strip(text, begin, end)
            if end > begin:
                at = bisect.bisect_left(starts, begin)
                starts.insert(at, begin)
                ends.insert(at, end)
                taken.append(PiiEntity(entity.type, begin, end, entity.score))
    return sorted(taken, key=lambda e: e.begin)


def _uncovered(begin: int, end: int, starts: list[int], ends: list[int]) -> list[tuple[int, int]]:
    """The parts of [begin, end) outside the taken spans (which are disjoint and sorted)."""
    at = bisect.bisect_right(starts, begin) - 1
    if at < 0 or ends[at] <= begin:
        at += 1
    pieces: list[tuple[int, int]] = []
    cursor = begin
    while at < len(starts) and starts[at] < end:
        if starts[at] > cursor:
            pieces.append((cursor, starts[at]))
        cursor = max(cursor, ends[at])
        at += 1
    if cursor < end:
        pieces.append((cursor, end))
    return pieces


def _strip(text: str, begin: int, end: int) -> tuple[int, int]:
    """Drop the spaces and separators a leftover piece starts or ends with."""
    while begin < end and (text[begin].isspace() or text[begin] in _SEPARATORS):
        begin += 1
    while end > begin and (text[end - 1].isspace() or text[end - 1] in _SEPARATORS):
        end -= 1
    return begin, end
