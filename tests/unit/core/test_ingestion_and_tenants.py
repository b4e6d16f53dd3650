import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from agent_memory.core.model.errors import IngestionBusy
from agent_memory.core.model.keys import document_key
from agent_memory.core.model.models import DocumentState, Fact, IngestionJob, IngestionStatistics
from agent_memory.core.model.policies import HOUR
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.ports import Checkpoint
from agent_memory.core.workflows.bootstrap import bootstrap
from agent_memory.core.workflows.consolidation import consolidate
from agent_memory.core.workflows.ingestion import MAX_ATTEMPTS, run_ingestion
from agent_memory.core.workflows.tenants import export_tenant, forget_tenant
from tests.support.memory import Memory, make_memory, run_event


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def confirm(memory: Memory, tenant: str = "acme") -> None:
    # The agent's runs an hour apart: each counts as an independent confirmation of the fact
    for run_id in ("r1", "r2", "r3"):
        consolidate(run_event(run_id, tenant_id=tenant), memory.ports)
        memory.clock.advance(HOUR)


def ingest(memory: Memory):  # type: ignore[no-untyped-def]
    p = memory.ports
    return run_ingestion(p.facts, p.knowledge_base, p.checkpoints, now=memory.clock())


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
        memory.ports.checkpoints,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    assert (report.status, report.facts_waiting) == ("busy", 1)


def test_a_running_job_is_polled_not_restarted(memory: Memory) -> None:
    confirm(memory)
    kb = BusyKnowledgeBase(memory.ports.knowledge_base, running=True)
    first = run_ingestion(
        memory.ports.facts,
        kb,
        memory.ports.checkpoints,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    second = run_ingestion(
        memory.ports.facts,
        kb,
        memory.ports.checkpoints,  # type: ignore[arg-type]
        now=memory.clock(),
    )
    assert (first.status, second.status, kb.started) == ("in_progress", "busy", 1)


def test_a_window_that_finds_the_job_running_still_reports_the_backlog(memory: Memory) -> None:
    # Given a job still running over one staged fact
    confirm(memory)
    kb = BusyKnowledgeBase(memory.ports.knowledge_base, running=True)
    run_with(memory, kb)
    # When the next window polls it
    report = run_with(memory, kb)
    # Then the backlog gauge (FactsAwaitingIngestion) is the real one, not zero
    assert (report.status, report.facts_waiting) == ("busy", 1)


def awaiting(memory: Memory) -> list[Fact]:
    return list(memory.ports.facts.awaiting_ingestion(limit=100).items)


def key_of(fact: Fact) -> str:
    return document_key(fact.tenant_id, fact.domain, fact.fact_hash)


class FailingKnowledgeBase:
    """The local KB, except that the documents of ``doomed`` tenants never get indexed: each
    job COMPLETEs reporting them failed (unnamed, as GetIngestionJob does) and the KB calls
    them FAILED when asked document by document.
    """

    def __init__(self, inner: object, doomed: set[str]) -> None:
        self.inner, self.doomed = inner, doomed
        self.started = 0
        self.rewritten: list[str] = []

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def start_ingestion(self, *, now: float) -> IngestionJob:
        self.started += 1
        job: IngestionJob = self.inner.start_ingestion(now=now)  # type: ignore[attr-defined]
        failed = sum(k.split("/")[1] in self.doomed for k in self._all_keys())
        return replace(job, statistics=IngestionStatistics(failed=failed))

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        states: dict[str, DocumentState] = self.inner.document_states(keys)  # type: ignore[attr-defined]
        return {k: "FAILED" if k.split("/")[1] in self.doomed else v for k, v in states.items()}

    def put_document(self, document: object) -> None:
        self.rewritten.append(document.key)  # type: ignore[attr-defined]
        self.inner.put_document(document)  # type: ignore[attr-defined]

    def _all_keys(self) -> list[str]:
        return [
            k
            for tenant in ("acme", "globex")
            for k in self.inner.document_keys(tenant)  # type: ignore[attr-defined]
        ]


def run_with(memory: Memory, kb: object):  # type: ignore[no-untyped-def]
    p = memory.ports
    return run_ingestion(p.facts, kb, p.checkpoints, now=memory.clock())  # type: ignore[arg-type]


def test_a_complete_job_with_failed_documents_ingests_only_the_indexed_ones(
    memory: Memory,
) -> None:
    # Given two staged facts, and a KB whose COMPLETE job fails globex's document: Bedrock
    # counts failed documents without naming them (numberOfDocumentsFailed,
    # https://docs.aws.amazon.com/bedrock/latest/APIReference/API_agent_IngestionJobStatistics.html)
    confirm(memory, "acme")
    confirm(memory, "globex")
    kb = FailingKnowledgeBase(memory.ports.knowledge_base, {"globex"})
    # When a window runs
    report = run_with(memory, kb)
    # Then only acme's fact left the fast path; globex's still waits on it, and its document
    # was written again for the next job to retry
    assert (report.status, report.facts_ingested, report.facts_waiting) == ("complete", 1, 1)
    assert report.documents_failed == 1 and report.facts_retried == 1
    assert [f.tenant_id for f in awaiting(memory)] == ["globex"]
    assert len(memory.ports.facts.fast_path("globex", None)) == 1
    assert memory.ports.facts.fast_path("acme", None) == []
    assert kb.rewritten == [key_of(awaiting(memory)[0])]


def test_a_document_that_keeps_failing_is_retried_a_bounded_number_of_times(
    memory: Memory,
) -> None:
    # Given a fact whose document never gets indexed
    confirm(memory, "globex")
    kb = FailingKnowledgeBase(memory.ports.knowledge_base, {"globex"})
    # When many windows run
    reports = []
    for _ in range(MAX_ATTEMPTS + 3):
        reports.append(run_with(memory, kb))
        memory.clock.advance(60)
    # Then its document is rewritten MAX_ATTEMPTS times, then the fact is counted stuck, no
    # job is started for it alone, and it never leaves the fast path
    assert len(kb.rewritten) == MAX_ATTEMPTS
    assert reports[-1].status == "idle" and reports[-1].facts_stuck == 1
    assert kb.started == MAX_ATTEMPTS + 1
    assert all(r.facts_ingested == 0 for r in reports)
    assert len(memory.ports.facts.fast_path("globex", None)) == 1


def test_a_stuck_fact_is_ingested_once_its_document_finally_is(memory: Memory) -> None:
    # Given a stuck fact (its document failed MAX_ATTEMPTS times)
    confirm(memory, "globex")
    kb = FailingKnowledgeBase(memory.ports.knowledge_base, {"globex"})
    for _ in range(MAX_ATTEMPTS + 1):
        run_with(memory, kb)
        memory.clock.advance(60)
    # When the cause is fixed and a later job (another fact's) indexes it
    kb.doomed.clear()
    confirm(memory, "acme")
    report = run_with(memory, kb)
    # Then both facts leave the fast path: the stuck one because the KB now says INDEXED,
    # although the job's statistics never vouched for a document it did not reprocess
    assert (report.facts_ingested, report.facts_waiting, report.facts_stuck) == (2, 0, 0)
    assert memory.ports.checkpoints.load(Checkpoint.INGESTION_RETRIES, now=memory.clock()) is None


def test_a_local_document_that_cannot_be_read_stays_on_the_fast_path_and_is_retried(
    memory: Memory,
) -> None:
    # Given a staged fact whose document on disk got damaged (its sidecar is not JSON)
    confirm(memory, "globex")
    [fact] = awaiting(memory)
    [sidecar] = memory.root.rglob(f"{fact.fact_hash}.txt.metadata.json")
    sidecar.write_text("{not json")
    # When a window runs
    first = run_ingestion(
        memory.ports.facts,
        memory.ports.knowledge_base,
        memory.ports.checkpoints,
        now=memory.clock(),
    )
    job = memory.ports.knowledge_base.ingestion_job(first.job_id or "")
    # Then the job COMPLETEs reporting that document failed, and the fact still waits
    assert job.status == "COMPLETE" and job.statistics.failed == 1
    assert job.failure_reasons == (f"{key_of(fact)}: sidecar is not valid JSON",)
    assert (first.facts_ingested, first.facts_waiting, first.facts_retried) == (0, 1, 1)
    # And the rewritten document is ingested two windows later (the first job after the
    # rewrite started before the fact was staged again), without being lost in between
    memory.clock.advance(60)
    second = ingest(memory)
    memory.clock.advance(60)
    third = ingest(memory)
    assert second.facts_ingested + third.facts_ingested == 1
    assert awaiting(memory) == []
    hits = memory.ports.knowledge_base.retrieve(
        fact.content, tenant_id="globex", domain=None, limit=5
    )
    assert [h.text for h in hits] == [fact.content]


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


class FailedJobKnowledgeBase:
    """The local KB, except that every job it starts ends FAILED (a Bedrock job can fail as a
    whole: GetIngestionJob's status FAILED with failureReasons)."""

    def __init__(self, inner: object) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def start_ingestion(self, *, now: float) -> IngestionJob:
        job: IngestionJob = self.inner.start_ingestion(now=now)  # type: ignore[attr-defined]
        return replace(job, status="FAILED")


def test_a_failed_job_is_named_in_the_report_and_its_facts_wait(memory: Memory) -> None:
    # Given a staged fact and a KB whose jobs fail as a whole
    confirm(memory, "acme")
    kb = FailedJobKnowledgeBase(memory.ports.knowledge_base)
    # When a window runs
    report = run_with(memory, kb)
    # Then the report names the failed job (the metric IngestionJobsFailed counts these) and
    # the fact still waits, served from the fast path
    assert report.status == "failed" and report.jobs_failed == (report.job_id,)
    assert report.facts_ingested == 0 and [f.tenant_id for f in awaiting(memory)] == ["acme"]


class SettleDiesOnceKnowledgeBase:
    """A KB as Bedrock behaves: the first job COMPLETEs with globex's document failed; a later
    job processes only added or modified documents, so it reports no failure for that unchanged
    one (kb-data-source-sync-ingest.html); asked document by document, the KB says FAILED. The
    first settle dies (the Lambda timed out while asking).
    """

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.jobs: dict[str, IngestionJob] = {}
        self.asked = 0

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    def start_ingestion(self, *, now: float) -> IngestionJob:
        job: IngestionJob = self.inner.start_ingestion(now=now)  # type: ignore[attr-defined]
        failed = 1 if not self.jobs else 0
        job = replace(job, statistics=IngestionStatistics(failed=failed))
        self.jobs[job.job_id] = job
        return job

    def ingestion_job(self, job_id: str) -> IngestionJob:
        return self.jobs[job_id]

    def document_states(self, keys: Sequence[str]) -> dict[str, DocumentState]:
        self.asked += 1
        if self.asked == 1:
            raise TimeoutError("the function timed out while settling the job")
        states: dict[str, DocumentState] = self.inner.document_states(keys)  # type: ignore[attr-defined]
        return {k: "FAILED" if k.split("/")[1] == "globex" else v for k, v in states.items()}


def test_a_settle_that_dies_is_redone_and_never_vouches_a_failed_document(
    memory: Memory,
) -> None:
    # Given acme's and globex's facts staged, and a COMPLETE job that failed globex's document
    confirm(memory, "acme")
    confirm(memory, "globex")
    kb = SettleDiesOnceKnowledgeBase(memory.ports.knowledge_base)
    # When the window that started it dies while settling it
    with pytest.raises(TimeoutError):
        run_with(memory, kb)
    # And two more windows run (the next job reports no failure: it does not reprocess the
    # unchanged document)
    for _ in range(2):
        memory.clock.advance(300)
        run_with(memory, kb)
    # Then the failed job was settled after all: acme's fact is ingested, globex's still waits
    # on the fast path (its document rewritten for a retry), never vouched by the later job
    assert [f.tenant_id for f in awaiting(memory)] == ["globex"]
    assert len(memory.ports.facts.fast_path("globex", None)) == 1
    assert memory.ports.facts.fast_path("acme", None) == []
