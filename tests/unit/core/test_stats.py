"""memory_stats on a real embedded memory: what each tier holds, per tenant or across tenants."""

from pathlib import Path

import pytest

from agent_memory.core.model.models import FactObservation
from agent_memory.core.model.policies import HOUR
from agent_memory.core.tiers import procedural
from agent_memory.core.workflows.consolidation import (
    StepFailed,
    consolidate,
    consolidate_or_record,
    replay,
)
from agent_memory.core.workflows.ingestion import run_ingestion
from agent_memory.core.workflows.stats import MemoryStats, gauge_names, memory_stats
from tests.support.memory import DAY, Memory, make_memory, run_event


@pytest.fixture
def memory(tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores="memory")


def stats(memory: Memory, tenant_id: str | None = None) -> MemoryStats:
    return memory_stats(memory.ports, now=memory.clock(), tenant_id=tenant_id)


def confirm_a_fact(memory: Memory, tenant: str = "acme") -> None:
    """Three COMPLETED runs an hour apart: three episodes, one confirmed fact (the agent's runs
    count as independent confirmations an hour apart), one proposed procedure."""
    for run_id in ("r1", "r2", "r3"):
        consolidate(run_event(run_id, tenant_id=tenant), memory.ports)
        memory.clock.advance(HOUR)


def ingest(memory: Memory) -> None:
    p = memory.ports
    run_ingestion(p.facts, p.knowledge_base, p.checkpoints, now=memory.clock())


def test_an_empty_memory_counts_zero_for_every_outcome_and_status(memory: Memory) -> None:
    found = stats(memory)

    assert found.episodes == {"COMPLETED": 0, "PARTIAL": 0, "FAILED": 0, "UNKNOWN": 0}
    assert found.facts == {"PENDING": 0, "CONFIRMED": 0, "CONTESTED": 0, "RETRACTED": 0}
    assert found.procedures == {
        "PENDING": 0,
        "VALIDATED": 0,
        "REJECTED": 0,
        "NEEDS_REVIEW": 0,
        "RETIRED": 0,
    }
    assert found.facts_awaiting_ingestion == 0
    assert found.procedures_on_trial == 0
    assert found.failed_runs == 0


def test_episodes_are_counted_by_outcome(memory: Memory) -> None:
    consolidate(run_event("ok-1"), memory.ports)
    consolidate(run_event("ok-2"), memory.ports)
    consolidate(run_event("bad", outcome="FAILED"), memory.ports)

    assert stats(memory).episodes == {"COMPLETED": 2, "PARTIAL": 0, "FAILED": 1, "UNKNOWN": 0}


def test_expired_episodes_are_no_longer_counted(memory: Memory) -> None:
    consolidate(run_event("old"), memory.ports)
    # When the episodic retention (90 days) has passed
    memory.clock.advance(91 * DAY)

    assert stats(memory).episodes["COMPLETED"] == 0


def test_a_confirmed_fact_awaits_ingestion_until_the_next_window(memory: Memory) -> None:
    # Given three runs seeing the same fact
    confirm_a_fact(memory)
    # Then it is confirmed and waits for the knowledge base
    before = stats(memory)
    assert before.facts["CONFIRMED"] == 1
    assert before.facts_awaiting_ingestion == 1
    # And once a window has ingested it, nothing waits
    memory.clock.advance(1)
    ingest(memory)
    assert stats(memory).facts_awaiting_ingestion == 0


def test_facts_are_counted_by_status(memory: Memory) -> None:
    # Given a pending fact seen once and one held back for review
    facts = memory.ports.facts
    for fact_hash in ("h-pending", "h-contested"):
        facts.observe(
            FactObservation(
                "acme", "contracts", fact_hash, "A fact", 0.9, "r1", memory.clock(), agent_id="a"
            )
        )
    facts.contest("acme", "contracts", "h-contested", now=memory.clock(), reason="contradicts")

    assert stats(memory).facts == {"PENDING": 1, "CONFIRMED": 0, "CONTESTED": 1, "RETRACTED": 0}


def test_procedures_are_counted_by_status_and_trial(memory: Memory) -> None:
    # Given a proposed procedure
    consolidate(run_event("r1"), memory.ports)
    assert stats(memory).procedures["PENDING"] == 1
    # When a reviewer approves it
    [proposed] = memory.ports.procedures.list().items
    procedural.review(
        memory.ports.procedures,
        proposed.procedure_id,
        approve=True,
        reviewer="legal-lead",
        now=memory.clock(),
    )
    # Then it is validated, and on trial until it has been used enough times
    after = stats(memory)
    assert (after.procedures["PENDING"], after.procedures["VALIDATED"]) == (0, 1)
    assert after.procedures_on_trial == 1


def test_a_failed_run_is_counted_until_it_is_replayed(memory: Memory) -> None:
    # Given a run whose PII scrubbing failed
    memory.pii.fail = True
    with pytest.raises(StepFailed):
        consolidate_or_record(run_event("r1"), memory.ports)
    assert stats(memory).failed_runs == 1
    assert stats(memory, "acme").failed_runs == 1
    # When it is replayed once the detector is back
    memory.pii.fail = False
    replay(memory.ports.run_ledger.failure_key("acme", "reviewer", "r1"), memory.ports)
    # Then nothing awaits replay
    assert stats(memory).failed_runs == 0


def test_a_tenant_sees_only_its_own_figures(memory: Memory) -> None:
    # Given acme with a confirmed fact and globex with one failed run
    confirm_a_fact(memory, "acme")
    consolidate(run_event("g1", tenant_id="globex", outcome="FAILED"), memory.ports)

    acme, globex, every = stats(memory, "acme"), stats(memory, "globex"), stats(memory)

    assert (acme.episodes["COMPLETED"], acme.episodes["FAILED"]) == (3, 0)
    assert (globex.episodes["COMPLETED"], globex.episodes["FAILED"]) == (0, 1)
    assert (acme.facts_awaiting_ingestion, globex.facts_awaiting_ingestion) == (1, 0)
    assert (acme.procedures["PENDING"], globex.procedures["PENDING"]) == (1, 0)
    assert every.episodes["COMPLETED"] + every.episodes["FAILED"] == 4
    assert (acme.tenant_id, every.tenant_id) == ("acme", None)


def test_many_procedures_are_counted_across_pages(memory: Memory) -> None:
    # Given more proposals than one listing page holds (100), one per task type
    for i in range(120):
        consolidate(run_event(f"r{i}", task_type=f"type-{i}"), memory.ports)

    assert stats(memory).procedures["PENDING"] == 120


def test_failed_runs_can_be_left_uncounted(memory: Memory) -> None:
    found = memory_stats(memory.ports, now=memory.clock(), count_failed_runs=False)

    assert found.failed_runs is None
    assert "FailedRunsAwaitingReplay" not in found.gauges()


def test_gauges_name_every_figure_once(memory: Memory) -> None:
    confirm_a_fact(memory)

    gauges = stats(memory).gauges()

    assert tuple(gauges) == gauge_names()
    assert gauges["StoredEpisodesCompleted"] == 3
    assert gauges["StoredFactsConfirmed"] == 1
    assert gauges["StoredFactsAwaitingIngestion"] == 1
    assert gauges["StoredProceduresPending"] == 1
    assert gauges["StoredProceduresNeedsReview"] == 0
    assert gauges["FailedRunsAwaitingReplay"] == 0
