"""FactStore contract, a person's repairs: ``retract`` takes a fact out of every serving and
review listing for good (agents' sightings still count and never bring it back), and
``assert_fact`` stores a person's fact CONFIRMED, new or over one agents saw."""

from __future__ import annotations

import itertools
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agent_memory.core.model.models import Fact, FactStatus
from agent_memory.core.model.policies import HOUR
from agent_memory.core.ports import FactStore
from tests.contract.builders import NOW, VECTOR, observation

_TENANTS = itertools.count()


def asserted(**overrides: object) -> Fact:
    base = Fact(
        tenant_id="acme",
        domain="billing",
        fact_hash="h-9",
        content="Invoices are issued on the second business day",
        status=FactStatus.CONFIRMED,
        confidence=1.0,
        run_ids=frozenset(),
        first_seen=NOW,
        last_seen=NOW,
        confirmed_at=NOW,
        embedding=VECTOR,
        asserted_by="alice",
    )
    return replace(base, **overrides)  # type: ignore[arg-type]


def test_retract_takes_a_served_fact_off_the_fast_path_for_good(facts: FactStore) -> None:
    # Given a confirmed fact, staged and ingested
    facts.observe(observation())
    facts.confirm("acme", "billing", "h-1", now=NOW)
    facts.mark_staged("acme", "billing", "h-1", now=NOW)
    facts.mark_ingested("acme", "billing", "h-1", now=NOW + 1)
    # When a person retracts it, naming the fact that supersedes it
    assert facts.retract("acme", "billing", "h-1", now=NOW + 2, superseded_by="h-9") is True
    # Then it keeps its log but neither its text nor its vectors, RETRACTED, awaiting the
    # ingestion that drops its document
    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert (fact.status, fact.superseded_by, fact.content) == (FactStatus.RETRACTED, "h-9", "")
    assert (fact.embedding, fact.spare_embedding) == (None, None)
    assert (fact.staged_at, fact.ingested_at, fact.run_ids) == (NOW + 2, None, {"run-1"})
    assert facts.fast_path("acme", "billing") == []
    assert [f.fact_hash for f in facts.awaiting_ingestion(limit=10).items] == ["h-1"]
    # And once that ingestion is settled it awaits nothing
    facts.mark_ingested("acme", "billing", "h-1", now=NOW + 3)
    assert facts.awaiting_ingestion(limit=10).items == ()
    assert facts.fast_path("acme", "billing") == []


def test_retract_of_a_pending_or_contested_fact_leaves_decay_and_review(facts: FactStore) -> None:
    facts.observe(observation(fact_hash="h-1"))
    facts.observe(observation(fact_hash="h-2"))
    facts.contest("acme", "billing", "h-2", now=NOW, reason="contradicts h-0")

    assert facts.retract("acme", "billing", "h-1", now=NOW) is True
    assert facts.retract("acme", "billing", "h-2", now=NOW) is True

    assert facts.pending_seen_before(NOW + 10 * HOUR, limit=10).items == ()
    assert facts.contested("acme") == []
    assert facts.confirm("acme", "billing", "h-1", now=NOW) is False
    assert facts.contest("acme", "billing", "h-1", now=NOW, reason="x") is False


def test_retract_twice_or_of_a_missing_fact_changes_nothing(facts: FactStore) -> None:
    facts.observe(observation())
    assert facts.retract("acme", "billing", "h-1", now=NOW) is True

    assert facts.retract("acme", "billing", "h-1", now=NOW + 5) is False
    assert facts.retract("acme", "billing", "h-404", now=NOW) is False

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None and fact.staged_at == NOW
    assert facts.get("acme", "billing", "h-404") is None


_STEP = st.sampled_from(["observe", "observe", "retract", "confirm", "stage", "ingest"])


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(_STEP, max_size=10))
def test_once_retracted_a_fact_stays_retracted_whatever_agents_do(
    facts: FactStore, steps: list[str]
) -> None:
    # Given a retracted fact
    tenant = f"t{next(_TENANTS)}"
    facts.observe(observation(tenant_id=tenant))
    facts.retract(tenant, "billing", "h-1", now=NOW)
    for number, step in enumerate(steps, 2):
        # When agents' runs see it again, and the machinery confirms, stages and ingests
        at = NOW + number * HOUR
        if step == "observe":
            facts.observe(
                observation(tenant_id=tenant, run_id=f"run-{number}", agent_id=f"agent-{number}")
            )
        elif step == "retract":
            facts.retract(tenant, "billing", "h-1", now=at)
        elif step == "confirm":
            facts.confirm(tenant, "billing", "h-1", now=at)
        elif step == "stage":
            facts.mark_staged(tenant, "billing", "h-1", now=at)
        else:
            facts.mark_ingested(tenant, "billing", "h-1", now=at)
        # Then it is still RETRACTED, never served, every new run counted
        fact = facts.get(tenant, "billing", "h-1")
        assert fact is not None and fact.status is FactStatus.RETRACTED
        assert facts.fast_path(tenant, "billing") == []
    fact = facts.get(tenant, "billing", "h-1")
    assert fact is not None and fact.sightings == 1 + steps.count("observe")


def test_assert_stores_a_new_fact_confirmed_on_the_fast_path(facts: FactStore) -> None:
    stored = facts.assert_fact(asserted())

    assert stored == asserted(sightings=0, confirmations=0)
    assert facts.get("acme", "billing", "h-9") == stored
    assert [f.fact_hash for f in facts.fast_path("acme", "billing")] == ["h-9"]
    assert facts.awaiting_ingestion(limit=10).items == ()


def test_assert_over_a_fact_agents_saw_keeps_its_wording_and_log(facts: FactStore) -> None:
    # Given a pending fact two runs saw
    facts.observe(observation(fact_hash="h-9", run_id="run-1"))
    facts.observe(observation(fact_hash="h-9", run_id="run-2", agent_id="agent-2"))
    # When a person asserts it
    stored = facts.assert_fact(asserted(content="other wording"))
    # Then it is confirmed in their name, with the agents' wording and counts
    assert (stored.status, stored.asserted_by, stored.confirmed_at) == (
        FactStatus.CONFIRMED,
        "alice",
        NOW,
    )
    assert stored.content == "Invoices are issued on the first business day"
    assert (stored.sightings, stored.confirmations) == (2, 2)
    assert stored.run_ids == {"run-1", "run-2"}
    assert facts.pending_seen_before(NOW + 10 * HOUR, limit=10).items == ()


def test_a_person_may_assert_a_retracted_fact_again(facts: FactStore) -> None:
    facts.observe(observation(fact_hash="h-9"))
    facts.confirm("acme", "billing", "h-9", now=NOW)
    facts.retract("acme", "billing", "h-9", now=NOW + 1, superseded_by="h-10")

    stored = facts.assert_fact(asserted(confirmed_at=NOW + 2))

    assert (stored.status, stored.superseded_by) == (FactStatus.CONFIRMED, None)
    assert (stored.staged_at, stored.ingested_at) == (None, None)
    assert [f.fact_hash for f in facts.fast_path("acme", "billing")] == ["h-9"]
    assert facts.awaiting_ingestion(limit=10).items == ()


def test_a_person_s_fact_seen_by_a_run_counts_that_run(facts: FactStore) -> None:
    facts.assert_fact(asserted())

    seen = facts.observe(observation(fact_hash="h-9", run_id="run-7"))

    assert (seen.status, seen.asserted_by) == (FactStatus.CONFIRMED, "alice")
    assert (seen.sightings, seen.confirmations, seen.run_ids) == (1, 1, {"run-7"})


def test_a_later_sighting_gives_a_retracted_fact_neither_its_text_nor_a_vector(
    facts: FactStore,
) -> None:
    # Given a retracted fact
    facts.observe(observation(embedding=VECTOR))
    facts.retract("acme", "billing", "h-1", now=NOW)
    # When another run sees the same text, with its vector
    after = facts.observe(observation(run_id="run-2", embedding=VECTOR))
    # Then the sighting is logged, and the fact stays without text or vector
    assert after.sightings == 2 and after.status is FactStatus.RETRACTED
    assert (after.content, after.embedding) == ("", None)


def test_a_person_asserting_a_retracted_fact_again_restores_its_text(facts: FactStore) -> None:
    facts.observe(observation(embedding=VECTOR))
    facts.retract("acme", "billing", "h-1", now=NOW)

    text = "Invoices are issued on the first business day"
    back = facts.assert_fact(asserted(fact_hash="h-1", content=text))

    assert back.status is FactStatus.CONFIRMED
    assert back.content == "Invoices are issued on the first business day"
    assert back.embedding == VECTOR
