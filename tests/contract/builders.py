"""Records for contract tests: valid defaults, overridden per test."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from agent_memory.core.model.models import (
    Episode,
    FactObservation,
    Procedure,
    ProcedureStatus,
    StoredVector,
)
from agent_memory.core.ports import Page

T = TypeVar("T")
R = TypeVar("R")

NOW = 1_750_000_000.0
DAY = 86_400.0
# Floats whose decimal form is long: a store that rounds them does not round-trip.
AWKWARD_TIME = 1_750_000_000.123_456_7
AWKWARD_CONFIDENCE = 0.1 + 0.2

VECTOR = StoredVector(model_id="test-hashing-256", dimension=4, data=bytes(range(256)) * 2)


def episode(**overrides: Any) -> Episode:
    base = Episode(
        tenant_id="acme",
        agent_id="agent-1",
        run_id="run-1",
        task="Summarise the quarterly report",
        task_summary="Summarised the report",
        outcome="COMPLETED",
        created_at=NOW - DAY,
        expires_at=NOW + 90 * DAY,
    )
    return replace(base, **overrides)


def observation(**overrides: Any) -> FactObservation:
    base = FactObservation(
        tenant_id="acme",
        domain="billing",
        fact_hash="h-1",
        content="Invoices are issued on the first business day",
        confidence=0.8,
        run_id="run-1",
        seen_at=NOW,
        agent_id="agent-1",
    )
    return replace(base, **overrides)


def procedure(**overrides: Any) -> Procedure:
    base = Procedure(
        tenant_id="acme",
        task_type="report",
        procedure_id="proc-1",
        title="Write the report",
        steps=("Gather the figures", "Draft", "Review"),
        status=ProcedureStatus.PENDING,
        created_at=NOW,
        updated_at=NOW,
    )
    return replace(base, **overrides)


def all_pages(fetch: Callable[[str | None], Page[T]]) -> list[Page[T]]:
    """Follow cursors from the first page to the one whose cursor is None."""
    pages = [fetch(None)]
    while pages[-1].cursor is not None:
        pages.append(fetch(pages[-1].cursor))
        assert len(pages) < 1_000, "cursor never ended"
    return pages


def in_threads(work: Callable[[T], R], items: Iterable[T], workers: int = 8) -> list[R]:
    """Run ``work`` over ``items`` from a thread pool, as concurrent callers would."""
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(work, items))
