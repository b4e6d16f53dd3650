import json
from pathlib import Path

import pytest

from agent_memory.core.bootstrap import BootstrapRequest, bootstrap
from agent_memory.core.consolidation import consolidate
from agent_memory.core.errors import IngestionBusy
from agent_memory.core.ingestion import run_ingestion
from agent_memory.core.models import IngestionJob
from agent_memory.core.tenants import export_tenant, forget_tenant
from tests.support.memory import Memory, make_memory, run_event


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path)


def confirm(memory: Memory, tenant: str = "acme") -> None:
    for run_id in ("r1", "r2", "r3"):
        consolidate(run_event(run_id, tenant_id=tenant), memory.ports)
    memory.clock.advance(1)


def ingest(memory: Memory):  # type: ignore[no-untyped-def]
    p = memory.ports
    return run_ingestion(p.facts, p.knowledge_base, p.ledger, now=memory.clock())


def test_nothing_staged_means_no_job(memory: Memory) -> None:
    assert ingest(memory).status == "idle"


def test_one_job_ingests_every_staged_fact(memory: Memory) -> None:
    confirm(memory, "acme")
    confirm(memory, "globex")
    report = ingest(memory)
    assert (report.status, report.facts_ingested, report.facts_waiting) == ("complete", 2, 0)
    assert ingest(memory).status == "idle"


class BusyKnowledgeBase:
    """Wraps a KB whose ingestion is held by someone else, or still running."""

    def __init__(self, inner: object, *, running: bool) -> None:
        self.inner, self.running, self.started = inner, running, 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def start_ingestion(self, *, now: float) -> IngestionJob:
        self.started += 1
        if not self.running:
            raise IngestionBusy("a job is running")
        return IngestionJob("job-1", "IN_PROGRESS", now)

    def ingestion_job(self, job_id: str) -> IngestionJob:
        return IngestionJob(job_id, "IN_PROGRESS", 0.0)


def test_a_busy_knowledge_base_means_try_next_window(memory: Memory) -> None:
    confirm(memory)
    kb = BusyKnowledgeBase(memory.ports.knowledge_base, running=False)
    report = run_ingestion(
        memory.ports.facts,
        kb,
        memory.ports.ledger,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    assert (report.status, report.facts_waiting) == ("busy", 1)


def test_a_running_job_is_polled_not_restarted(memory: Memory) -> None:
    confirm(memory)
    kb = BusyKnowledgeBase(memory.ports.knowledge_base, running=True)
    first = run_ingestion(
        memory.ports.facts,
        kb,
        memory.ports.ledger,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    second = run_ingestion(
        memory.ports.facts,
        kb,
        memory.ports.ledger,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    assert (first.status, second.status, kb.started) == ("in_progress", "busy", 1)


def test_export_holds_every_record_of_the_tenant_only(memory: Memory) -> None:
    confirm(memory, "acme")
    confirm(memory, "globex")
    kinds: dict[str, int] = {}
    for line in export_tenant(memory.ports, "acme"):
        kinds[line["kind"]] = kinds.get(line["kind"], 0) + 1
        assert "globex" not in json.dumps(line)
    assert kinds == {"episode": 3, "fact": 1, "procedure": 1, "kb_document": 1, "ledger": 3}


def test_forget_removes_one_tenant_everywhere_and_spares_the_other(memory: Memory) -> None:
    # Given two tenants with ingested facts
    confirm(memory, "acme")
    confirm(memory, "globex")
    ingest(memory)
    # When acme is forgotten
    report = forget_tenant(memory.ports, "acme")
    # Then nothing of acme remains, not even in the KB index, and globex is intact
    assert report.episodes == 3 and report.kb_documents == 1
    assert list(export_tenant(memory.ports, "acme")) == []
    task = "Review the vendor MSA liability cap"
    acme = bootstrap(BootstrapRequest("acme", "reviewer", task, domain="contracts"), memory.ports)
    assert acme["facts"] == [] and acme["episodes"] == []
    hits = memory.ports.knowledge_base.retrieve(task, tenant_id="acme", domain=None, limit=5)
    assert hits == []
    globex = bootstrap(
        BootstrapRequest("globex", "reviewer", task, domain="contracts"), memory.ports
    )
    assert len(globex["facts"]) == 1 and len(globex["episodes"]) == 3
