"""Shared helpers of the local PII detector's per-type tests."""

from __future__ import annotations

from agent_memory.adapters.local.pii import LocalPiiDetector


def found(detector: LocalPiiDetector, text: str) -> list[tuple[str, str]]:
    """(type, text) of every entity the detector reports, in text order."""
    return [(e.type, text[e.begin : e.end]) for e in detector.detect(text)]


def covered(detector: LocalPiiDetector, text: str, value: str) -> bool:
    """True if every character of ``value`` (first occurrence) is inside a reported entity."""
    start = text.index(value)
    spans = [(e.begin, e.end) for e in detector.detect(text)]
    return all(any(b <= i < e for b, e in spans) for i in range(start, start + len(value)))
