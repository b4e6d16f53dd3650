"""Export and forget receipts, and forget on a knowledge base that cannot erase at once."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from agent_memory.adapters.local.kb.lock import ingestion_lock
from agent_memory.adapters.local.knowledge_base import LocalKnowledgeBase
from agent_memory.core.model.models import DocumentState, IngestionJob, KbDocument, KbHit
from agent_memory.core.ports import FloatArray
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import RETRIES, run_ingestion
from agent_memory.core.workflows.tenants import (
    DAY,
    ErasingKnowledgeBase,
    Retention,
    TenantExport,
    forget_tenant,
)
from agent_memory.wiring.local import KB_FOLDER
from tests.support.memory import Memory, make_memory, run_event

AGENTS = ("reviewer", "drafter", "auditor")


class ManagedKnowledgeBase:
    """The local KB seen only through the port, as Bedrock is (it cannot erase at once), whose
    jobs can be held running.
    """

    def __init__(self, inner: LocalKnowledgeBase) -> None:
        self.inner = inner
        self.held = False

    def put_document(self, document: KbDocument) -> None:
        self.inner.put_document(document)

    def delete_document(self, key: str) -> None:
        self.inner.delete_document(key)

    def document_keys(self, tenant_id: str) -> list[str]:
        return self.inner.document_keys(tenant_id)

    def start_ingestion(self, *, now: float) -> IngestionJob:
        if self.held:
            return IngestionJob("held-job", "IN_PROGRESS", now)
        return self.inner.start_ingestion(now=now)

    def ingestion_job(self, job_id: str) -> IngestionJob:
        if job_id == "held-job":
            return IngestionJob(job_id, "IN_PROGRESS", 0.0)
        return self.inner.ingestion_job(job_id)

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        return self.inner.document_states(keys)

    def retrieve(
        self,
        text: str,
        *,
        tenant_id: str,
        domain: str | None,
        limit: int,
        query_vector: FloatArray | None = None,
        query_model_id: str | None = None,
    ) -> list[KbHit]:
        return self.inner.retrieve(text, tenant_id=tenant_id, domain=domain, limit=limit)


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def learn(memory: Memory, tenant: str) -> None:
    """Three agents' runs a day apart: the fact is confirmed and its document staged."""
    for number, agent in enumerate(AGENTS):
        consolidate(run_event(f"run-{number}", tenant_id=tenant, agent_id=agent), memory.ports)
        memory.clock.advance(DAY)


def ingest(memory: Memory) -> None:
    p = memory.ports
    run_ingestion(p.facts, p.knowledge_base, p.checkpoints, now=p.clock())


def managed(memory: Memory) -> ManagedKnowledgeBase:
    kb = ManagedKnowledgeBase(memory.ports.knowledge_base)  # type: ignore[arg-type]
    memory.ports = replace(memory.ports, knowledge_base=kb)
    assert not isinstance(kb, ErasingKnowledgeBase)
    return kb


def test_the_export_receipt_counts_each_kind_and_hashes_the_lines(memory: Memory) -> None:
    # Given a tenant with every kind of record
    learn(memory, "acme")
    learn(memory, "globex")
    # When it is exported
    export = TenantExport(memory.ports, "acme")
    lines = list(export)
    # Then the receipt counts what the lines hold, kind by kind, and hashes them as written
    kinds = [json.loads(line)["kind"] for line in lines]
    receipt = export.receipt
    assert (receipt.tenant_id, receipt.at) == ("acme", memory.clock())
    assert (receipt.episodes, receipt.facts, receipt.procedures) == (
        kinds.count("episode"),
        kinds.count("fact"),
        kinds.count("procedure"),
    )
    assert (receipt.kb_documents, receipt.ledger_records) == (
        kinds.count("kb_document"),
        kinds.count("ledger"),
    )
    assert receipt.episodes == 3 and receipt.kb_documents == 1 and receipt.ledger_records > 0
    written = "".join(line + "\n" for line in lines).encode()
    assert receipt.sha256 == hashlib.sha256(written).hexdigest()
    assert receipt.as_json()["at"] == "2026-09-27T14:13:20Z"


def test_an_export_read_partly_has_no_receipt(memory: Memory) -> None:
    learn(memory, "acme")
    export = TenantExport(memory.ports, "acme")
    next(iter(export))
    with pytest.raises(RuntimeError):
        export.receipt  # noqa: B018


def test_the_local_forget_receipt_counts_every_store_and_the_index_it_rewrote(
    memory: Memory,
) -> None:
    # Given two tenants whose facts are ingested
    learn(memory, "acme")
    learn(memory, "globex")
    ingest(memory)
    # When acme is forgotten
    receipt = forget_tenant(memory.ports, "acme")
    # Then the receipt counts each store's deletions and the index rewritten at once
    assert (receipt.tenant_id, receipt.at) == ("acme", memory.clock())
    assert (receipt.episodes, receipt.facts, receipt.procedures) == (3, 1, 1)
    assert receipt.ledger_records > 0
    assert (receipt.kb_documents, receipt.files_removed, receipt.folders_removed) == (1, 2, 3)
    assert (receipt.kb_index, receipt.index_generations_rewritten) == ("erased", 1)
    assert receipt.ingestion_job is None and receipt.remains == ()


def test_the_forget_receipt_dates_what_the_deployment_keeps(memory: Memory) -> None:
    learn(memory, "acme")
    kept = (Retention("backups", "the deleted items", 35), Retention("logs", "ids", 30))
    receipt = forget_tenant(memory.ports, "acme", retained=kept)
    assert [r.as_json() for r in receipt.remains] == [
        {"where": "backups", "what": "the deleted items", "until": "2026-10-29T14:13:20Z"},
        {"where": "logs", "what": "ids", "until": "2026-10-24T14:13:20Z"},
    ]


def test_forget_on_a_kb_that_cannot_erase_starts_an_ingestion_and_receipts_it(
    memory: Memory,
) -> None:
    # Given a tenant's ingested fact in a KB reached only through the port (as Bedrock is)
    learn(memory, "acme")
    ingest(memory)
    managed(memory)
    # When it is forgotten
    receipt = forget_tenant(memory.ports, "acme")
    # Then its document was deleted and the ingestion started to drop it completed
    assert (receipt.kb_documents, receipt.kb_index) == (1, "ingestion complete")
    assert receipt.ingestion_job is not None and receipt.remains == ()


def test_forget_while_the_kbs_ingestion_runs_receipts_that_the_index_still_holds_them(
    memory: Memory,
) -> None:
    # Given a tenant's ingested fact, and a KB whose next job will still be running
    learn(memory, "acme")
    ingest(memory)
    managed(memory).held = True
    # When it is forgotten
    receipt = forget_tenant(memory.ports, "acme")
    # Then the receipt says the index holds its document until that job completes
    assert receipt.kb_index == "ingestion in_progress"
    [index] = receipt.remains
    assert (index.where, index.until) == ("knowledge-base index", None)
    assert "1 document(s)" in index.what and "until job held-job completes" in index.what


def test_forget_drops_the_tenants_documents_from_the_retry_record_while_a_job_runs(
    memory: Memory,
) -> None:
    # Given two tenants whose documents failed to ingest (so the retry record names both), and
    # a job now running that the next window only polls
    learn(memory, "acme")
    learn(memory, "globex")
    for sidecar in (memory.root / KB_FOLDER).rglob("*.metadata.json"):
        sidecar.write_text("{damaged")
    ingest(memory)
    kb = managed(memory)
    kb.held = True
    ingest(memory)
    retried = memory.ports.checkpoints.load(RETRIES, now=memory.clock())
    assert retried is not None and {k.split("/")[1] for k in retried["attempts"]} == {
        "acme",
        "globex",
    }
    # When acme is forgotten
    forget_tenant(memory.ports, "acme")
    # Then the record no longer names acme's document, and still names globex's
    retried = memory.ports.checkpoints.load(RETRIES, now=memory.clock())
    assert retried is not None and {k.split("/")[1] for k in retried["attempts"]} == {"globex"}


def test_forget_while_a_local_ingestion_holds_the_index_deletes_and_leaves_it_to_the_next(
    memory: Memory,
) -> None:
    # Given an ingested tenant, a local KB that waits 0.1 s for the index, and an ingestion
    # holding it
    learn(memory, "acme")
    ingest(memory)
    root = memory.root / KB_FOLDER
    kb = LocalKnowledgeBase(root, memory.embedder, erase_wait=0.1)
    memory.ports = replace(memory.ports, knowledge_base=kb)
    with ingestion_lock(root / "index" / "ingest.lock"):
        # When the tenant is forgotten
        receipt = forget_tenant(memory.ports, "acme")
    # Then its documents are gone, and the receipt says the index still holds them
    assert kb.document_keys("acme") == []
    assert (receipt.kb_documents, receipt.kb_index) == (1, "ingestion busy")
    assert [r.where for r in receipt.remains] == ["knowledge-base index"]
    assert "the next ingestion window" in receipt.remains[0].what
    # And the next window, which forget asked for, drops them: no file keeps the fact's text
    ingest(memory)
    content = run_event("x")["artifacts"]["facts"][0]["content"]
    assert not [p for p in root.rglob("*") if p.is_file() and content.encode() in p.read_bytes()]
