"""A page of a tenant's history as plain JSON: what ``history`` answers on every surface."""

# No ``from __future__ import annotations`` here: TypedDict needs evaluated annotations.
from typing import TypedDict, cast

from agent_memory.core.model.decisions import Decision
from agent_memory.core.ports import Page


class DecisionRecord(TypedDict):
    """One decision: who (``actor``), when (``at``, seconds since the epoch), what
    (``action`` on the ``kind`` of record ``record_id``), why (``reason``), and for removed
    content its SHA-256 (``digest``), never the content.
    """

    decision_id: str
    at: float
    action: str
    kind: str
    record_id: str
    actor: str
    reason: str | None
    digest: str | None


class HistoryPage(TypedDict):
    """Decisions newest first; ``cursor`` is None on the last page."""

    decisions: list[DecisionRecord]
    cursor: str | None


def history_page(page: Page[Decision]) -> HistoryPage:
    """The page's JSON form."""
    return {"decisions": [decision_record(d) for d in page.items], "cursor": page.cursor}


def decision_record(decision: Decision) -> DecisionRecord:
    """The decision's JSON form: as it is stored."""
    return cast(DecisionRecord, decision.as_json())
