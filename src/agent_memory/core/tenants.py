"""Whole-tenant operations: export every record (audit, data-subject access) and forget them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from agent_memory.core.ingestion import request_ingestion, run_ingestion
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.records import to_json


def ledger_prefixes(tenant_id: str) -> tuple[str, ...]:
    """Ledger key prefixes that hold the tenant's records."""
    return (f"{tenant_id}#",)


def export_tenant(ports: MemoryPorts, tenant_id: str) -> Iterator[dict[str, Any]]:
    """Every stored record of the tenant, each as ``{"kind": ..., "record": ...}``."""
    for episode in ports.episodes.export(tenant_id):
        yield {"kind": "episode", "record": to_json(episode)}
    for fact in ports.facts.export(tenant_id):
        yield {"kind": "fact", "record": to_json(fact)}
    for procedure in ports.procedures.export(tenant_id):
        yield {"kind": "procedure", "record": to_json(procedure)}
    for key in ports.knowledge_base.document_keys(tenant_id):
        yield {"kind": "kb_document", "record": {"key": key}}
    for prefix in ledger_prefixes(tenant_id):
        for key, value in ports.ledger.scan(prefix):
            yield {"kind": "ledger", "record": {"key": key, "value": value}}


@dataclass(frozen=True, slots=True)
class ForgetReport:
    """How many records of each kind were deleted."""

    episodes: int
    facts: int
    procedures: int
    kb_documents: int
    ledger_records: int


def forget_tenant(ports: MemoryPorts, tenant_id: str) -> ForgetReport:
    """Delete every record of the tenant, in every store, and nothing of any other tenant.

    KB documents are deleted from the bucket and an ingestion is started so the index drops
    them; if one is already running, the next window does it (and until then retrieval still
    filters on the tenant, whose facts are gone from the fast path).
    """
    keys = ports.knowledge_base.document_keys(tenant_id)
    for key in keys:
        ports.knowledge_base.delete_document(key)
    if keys:
        request_ingestion(ports.ledger, now=ports.clock())
    ledger_keys = [k for p in ledger_prefixes(tenant_id) for k, _ in ports.ledger.scan(p)]
    for key in ledger_keys:
        ports.ledger.delete(key)
    report = ForgetReport(
        episodes=ports.episodes.forget(tenant_id),
        facts=ports.facts.forget(tenant_id),
        procedures=ports.procedures.forget(tenant_id),
        kb_documents=len(keys),
        ledger_records=len(ledger_keys),
    )
    if keys:
        run_ingestion(ports.facts, ports.knowledge_base, ports.ledger, now=ports.clock())
    ports.episode_index.clear(tenant_id)
    return report


def json_lines(records: Iterator[dict[str, Any]]) -> Iterator[str]:
    """Records as JSON lines."""
    for record in records:
        yield json.dumps(record, sort_keys=True, ensure_ascii=False)
