"""FactStore contract: distinct-run confirmation log, independent confirmations counted
atomically, one-time confirmation, ingestion state."""

from __future__ import annotations

from dataclasses import replace

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import AGENTS_KEPT, RUN_IDS_KEPT, Fact, FactStatus
from agent_memory.core.model.policies import HOUR, Independence
from agent_memory.core.ports import FactStore
from tests.contract.builders import (
    AWKWARD_CONFIDENCE,
    AWKWARD_TIME,
    DAY,
    NOW,
    VECTOR,
    all_pages,
    in_threads,
    observation,
)


def _staged(facts: FactStore, fact_hash: str, *, tenant_id: str = "acme") -> None:
    facts.observe(observation(tenant_id=tenant_id, fact_hash=fact_hash))
    facts.mark_staged(tenant_id, "billing", fact_hash, now=NOW)


def test_store_satisfies_the_port(facts: FactStore) -> None:
    assert isinstance(facts, FactStore)


def test_first_observation_creates_a_pending_fact(facts: FactStore) -> None:
    fact = facts.observe(observation(seen_at=NOW))

    assert fact == Fact(
        tenant_id="acme",
        domain="billing",
        fact_hash="h-1",
        content="Invoices are issued on the first business day",
        status=FactStatus.PENDING,
        confidence=0.8,
        run_ids=frozenset({"run-1"}),
        first_seen=NOW,
        last_seen=NOW,
        sightings=1,
        confirmations=1,
        counted_by=(("agent-1", NOW),),
    )


def test_every_field_round_trips_exactly(facts: FactStore) -> None:
    returned = facts.observe(
        observation(
            content="Zahlungsziel: 30 Tage — «net 30» 📅\nsecond line",
            confidence=AWKWARD_CONFIDENCE,
            seen_at=AWKWARD_TIME,
            embedding=VECTOR,
        )
    )
    facts.confirm("acme", "billing", "h-1", now=AWKWARD_TIME + 1)
    facts.mark_staged("acme", "billing", "h-1", now=AWKWARD_TIME + 2)
    facts.mark_ingested("acme", "billing", "h-1", now=AWKWARD_TIME + 3)

    stored = facts.get("acme", "billing", "h-1")

    assert returned.embedding == VECTOR
    assert returned.confidence == AWKWARD_CONFIDENCE
    assert stored == Fact(
        tenant_id="acme",
        domain="billing",
        fact_hash="h-1",
        content="Zahlungsziel: 30 Tage — «net 30» 📅\nsecond line",
        status=FactStatus.CONFIRMED,
        confidence=AWKWARD_CONFIDENCE,
        run_ids=frozenset({"run-1"}),
        first_seen=AWKWARD_TIME,
        last_seen=AWKWARD_TIME,
        confirmed_at=AWKWARD_TIME + 1,
        staged_at=AWKWARD_TIME + 2,
        ingested_at=AWKWARD_TIME + 3,
        embedding=VECTOR,
        sightings=1,
        confirmations=1,
        counted_by=(("agent-1", AWKWARD_TIME),),
    )


def test_observe_returns_what_get_then_reads(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))

    returned = facts.observe(observation(run_id="run-2", seen_at=NOW + 1))

    assert facts.get("acme", "billing", "h-1") == returned


def test_another_run_adds_its_run_id(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))

    fact = facts.observe(observation(run_id="run-2"))

    assert fact.run_ids == {"run-1", "run-2"}


def test_redelivered_run_does_not_count_twice(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))

    fact = facts.observe(observation(run_id="run-1", seen_at=NOW + 1))

    assert fact.run_ids == {"run-1"}


def test_redelivered_run_changes_nothing_but_last_seen(facts: FactStore) -> None:
    first = facts.observe(observation(run_id="run-1", confidence=0.7, seen_at=NOW))

    again = facts.observe(
        observation(run_id="run-1", confidence=0.95, seen_at=NOW + DAY, embedding=VECTOR)
    )

    assert again.last_seen == NOW + DAY
    assert again == replace(first, last_seen=NOW + DAY)


def test_observe_keeps_the_highest_confidence(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", confidence=0.9))

    fact = facts.observe(observation(run_id="run-2", confidence=0.75))

    assert fact.confidence == 0.9


def test_observe_raises_confidence_for_a_more_confident_run(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", confidence=0.75))

    fact = facts.observe(observation(run_id="run-2", confidence=0.9))

    assert fact.confidence == 0.9


def test_an_older_sighting_does_not_move_last_seen_back(facts: FactStore) -> None:
    # Given a sighting delivered late, after a newer one was recorded
    facts.observe(observation(run_id="run-2", seen_at=NOW))

    fact = facts.observe(observation(run_id="run-1", seen_at=NOW - DAY))

    assert fact.last_seen == NOW
    assert fact.first_seen == NOW
    assert fact.run_ids == {"run-1", "run-2"}


def test_observe_keeps_the_first_wording_of_the_fact(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", content="Invoices go out on day one"))

    fact = facts.observe(observation(run_id="run-2", content="invoices go out on day one."))

    assert fact.content == "Invoices go out on day one"


def test_a_later_run_supplies_a_missing_embedding(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", embedding=None))

    fact = facts.observe(observation(run_id="run-2", embedding=VECTOR))

    assert fact.embedding == VECTOR


def test_concurrent_observes_count_each_distinct_run_exactly_once(facts: FactStore) -> None:
    # Given 20 runs each delivered three times, observed from a thread pool at once
    deliveries = [f"run-{i}" for i in range(20)] * 3

    in_threads(lambda run_id: facts.observe(observation(run_id=run_id)), deliveries, workers=12)

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert fact.run_ids == {f"run-{i}" for i in range(20)}


def test_concurrent_observes_each_see_their_own_run_recorded(facts: FactStore) -> None:
    results = in_threads(
        lambda i: facts.observe(observation(run_id=f"run-{i}")), range(24), workers=12
    )

    assert all(f"run-{i}" in fact.run_ids for i, fact in enumerate(results))
    assert sorted(len(fact.run_ids) for fact in results) == list(range(1, 25))


def test_the_same_hash_in_another_domain_or_tenant_is_another_fact(facts: FactStore) -> None:
    facts.observe(observation(tenant_id="acme", domain="billing", run_id="run-1"))
    facts.observe(observation(tenant_id="acme", domain="support", run_id="run-2"))
    facts.observe(observation(tenant_id="acme2", domain="billing", run_id="run-3"))

    fact = facts.get("acme", "billing", "h-1")

    assert fact is not None
    assert fact.run_ids == {"run-1"}


def test_get_of_a_missing_fact_returns_none(facts: FactStore) -> None:
    assert facts.get("acme", "billing", "nope") is None


def test_confirm_moves_a_pending_fact_to_confirmed(facts: FactStore) -> None:
    facts.observe(observation())

    assert facts.confirm("acme", "billing", "h-1", now=NOW + 5) is True

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert (fact.status, fact.confirmed_at) == (FactStatus.CONFIRMED, NOW + 5)


def test_confirm_of_a_confirmed_fact_returns_false_and_keeps_confirmed_at(
    facts: FactStore,
) -> None:
    facts.observe(observation())
    facts.confirm("acme", "billing", "h-1", now=NOW + 5)

    assert facts.confirm("acme", "billing", "h-1", now=NOW + 9) is False

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert fact.confirmed_at == NOW + 5


def test_concurrent_confirms_succeed_exactly_once(facts: FactStore) -> None:
    facts.observe(observation())

    results = in_threads(lambda i: facts.confirm("acme", "billing", "h-1", now=NOW + i), range(16))

    assert results.count(True) == 1


def test_confirm_of_a_missing_fact_returns_false_and_creates_nothing(facts: FactStore) -> None:
    assert facts.confirm("acme", "billing", "h-1", now=NOW) is False
    assert facts.get("acme", "billing", "h-1") is None


def test_a_new_sighting_of_a_confirmed_fact_keeps_it_confirmed(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))
    facts.confirm("acme", "billing", "h-1", now=NOW)

    fact = facts.observe(observation(run_id="run-2"))

    assert fact.status is FactStatus.CONFIRMED


def test_awaiting_ingestion_lists_staged_facts_of_every_tenant(facts: FactStore) -> None:
    _staged(facts, "h-1", tenant_id="acme")
    _staged(facts, "h-2", tenant_id="globex")
    facts.observe(observation(fact_hash="not-staged"))

    page = facts.awaiting_ingestion(limit=10)

    assert sorted((f.tenant_id, f.fact_hash) for f in page.items) == [
        ("acme", "h-1"),
        ("globex", "h-2"),
    ]
    assert page.cursor is None


def test_an_ingested_fact_no_longer_awaits_ingestion(facts: FactStore) -> None:
    _staged(facts, "h-1")

    facts.mark_ingested("acme", "billing", "h-1", now=NOW + 1)

    assert facts.awaiting_ingestion(limit=10).items == ()


def test_a_restaged_fact_awaits_ingestion_again(facts: FactStore) -> None:
    # Given a fact whose document was ingested, then rewritten
    _staged(facts, "h-1")
    facts.mark_ingested("acme", "billing", "h-1", now=NOW + 1)

    facts.mark_staged("acme", "billing", "h-1", now=NOW + 2)

    page = facts.awaiting_ingestion(limit=10)
    assert [(f.fact_hash, f.staged_at, f.ingested_at) for f in page.items] == [
        ("h-1", NOW + 2, None)
    ]


def test_marking_a_missing_fact_creates_nothing(facts: FactStore) -> None:
    facts.mark_staged("acme", "billing", "h-1", now=NOW)
    facts.mark_ingested("acme", "billing", "h-1", now=NOW)

    assert facts.get("acme", "billing", "h-1") is None
    assert facts.awaiting_ingestion(limit=10).items == ()


def test_awaiting_ingestion_pages_while_facts_are_marked_ingested(facts: FactStore) -> None:
    for i in range(7):
        _staged(facts, f"h-{i}", tenant_id=f"t{i % 2}")
    seen: list[str] = []
    cursor: str | None = None
    while True:
        page = facts.awaiting_ingestion(limit=3, cursor=cursor)
        for f in page.items:
            facts.mark_ingested(f.tenant_id, f.domain, f.fact_hash, now=NOW)
            seen.append(f.fact_hash)
        if page.cursor is None:
            break
        cursor = page.cursor

    assert sorted(seen) == [f"h-{i}" for i in range(7)]


def test_awaiting_ingestion_pages_end_with_cursor_none(facts: FactStore) -> None:
    for i in range(4):
        _staged(facts, f"h-{i}")

    pages = all_pages(lambda c: facts.awaiting_ingestion(limit=2, cursor=c))

    assert [len(p.items) for p in pages] == [2, 2]


def test_fast_path_lists_confirmed_facts_not_yet_ingested(facts: FactStore) -> None:
    for fact_hash in ("confirmed", "ingested", "pending"):
        facts.observe(observation(fact_hash=fact_hash))
    facts.confirm("acme", "billing", "confirmed", now=NOW)
    facts.confirm("acme", "billing", "ingested", now=NOW)
    facts.mark_ingested("acme", "billing", "ingested", now=NOW)

    listed = facts.fast_path("acme", "billing")

    assert [f.fact_hash for f in listed] == ["confirmed"]


def test_fast_path_with_a_domain_lists_only_that_domain(facts: FactStore) -> None:
    for domain in ("billing", "support"):
        facts.observe(observation(domain=domain))
        facts.confirm("acme", domain, "h-1", now=NOW)

    assert [f.domain for f in facts.fast_path("acme", "billing")] == ["billing"]


def test_fast_path_without_a_domain_lists_every_domain_of_the_tenant_only(
    facts: FactStore,
) -> None:
    for tenant, domain in [("acme", "billing"), ("acme", "support"), ("acme2", "billing")]:
        facts.observe(observation(tenant_id=tenant, domain=domain))
        facts.confirm(tenant, domain, "h-1", now=NOW)

    listed = facts.fast_path("acme", None)

    assert sorted((f.tenant_id, f.domain) for f in listed) == [
        ("acme", "billing"),
        ("acme", "support"),
    ]


def test_pending_seen_before_lists_pending_facts_last_seen_strictly_before_cutoff(
    facts: FactStore,
) -> None:
    cutoff = NOW - 30 * DAY
    facts.observe(observation(fact_hash="stale", seen_at=cutoff - 1))
    facts.observe(observation(fact_hash="at-cutoff", seen_at=cutoff))
    facts.observe(observation(fact_hash="fresh", seen_at=cutoff + 1))
    facts.observe(observation(fact_hash="stale-confirmed", seen_at=cutoff - 1))
    facts.confirm("acme", "billing", "stale-confirmed", now=NOW)

    page = facts.pending_seen_before(cutoff, limit=10)

    assert [f.fact_hash for f in page.items] == ["stale"]


def test_a_fresh_sighting_takes_a_fact_out_of_pending_seen_before(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1", seen_at=NOW - 40 * DAY))

    facts.observe(observation(run_id="run-2", seen_at=NOW))

    assert facts.pending_seen_before(NOW - 30 * DAY, limit=10).items == ()


def test_pending_seen_before_pages_while_each_page_is_deleted(facts: FactStore) -> None:
    for i in range(7):
        facts.observe(observation(tenant_id=f"t{i % 3}", fact_hash=f"h-{i}", seen_at=NOW - i))
    deleted: list[str] = []
    cursor: str | None = None
    while True:
        page = facts.pending_seen_before(NOW + 1, limit=2, cursor=cursor)
        for f in page.items:
            assert facts.delete(f.tenant_id, f.domain, f.fact_hash)
            deleted.append(f.fact_hash)
        if page.cursor is None:
            break
        cursor = page.cursor

    assert sorted(deleted) == [f"h-{i}" for i in range(7)]


def test_delete_returns_true_for_an_existing_fact(facts: FactStore) -> None:
    facts.observe(observation())

    assert facts.delete("acme", "billing", "h-1") is True
    assert facts.get("acme", "billing", "h-1") is None


def test_delete_returns_false_for_a_missing_fact(facts: FactStore) -> None:
    assert facts.delete("acme", "billing", "h-1") is False


def test_a_deleted_fact_observed_again_starts_a_fresh_log(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))
    facts.observe(observation(run_id="run-2"))
    facts.delete("acme", "billing", "h-1")

    fact = facts.observe(observation(run_id="run-3", seen_at=NOW + 1))

    assert fact.run_ids == {"run-3"}
    assert fact.first_seen == NOW + 1


def test_export_yields_every_fact_of_the_tenant_only(facts: FactStore) -> None:
    mine = [
        facts.observe(observation(domain="billing")),
        facts.observe(observation(domain="support", fact_hash="h-2")),
    ]
    facts.observe(observation(tenant_id="acme2"))

    exported = list(facts.export("acme"))

    assert sorted(exported, key=lambda f: f.fact_hash) == mine


def test_forget_deletes_every_fact_of_the_tenant_and_counts_them(facts: FactStore) -> None:
    facts.observe(observation(domain="billing"))
    facts.observe(observation(domain="support"))

    assert facts.forget("acme") == 2
    assert list(facts.export("acme")) == []


def test_forget_leaves_lookalike_tenants_untouched(facts: FactStore) -> None:
    lookalikes = ["acme2", "acm", "acme-x", "ACME"]
    for tenant in ["acme", *lookalikes]:
        facts.observe(observation(tenant_id=tenant))

    facts.forget("acme")

    for tenant in lookalikes:
        assert facts.get(tenant, "billing", "h-1") is not None, tenant


def test_a_forgotten_fact_observed_again_counts_from_one_run(facts: FactStore) -> None:
    facts.observe(observation(run_id="run-1"))
    facts.forget("acme")

    fact = facts.observe(observation(run_id="run-2"))

    assert fact.run_ids == {"run-2"}


def test_a_domain_containing_the_separator_is_refused(facts: FactStore) -> None:
    with pytest.raises(InvalidInput):
        facts.observe(observation(domain="billing#x"))


def test_a_malformed_cursor_is_refused(facts: FactStore) -> None:
    with pytest.raises(InvalidInput):
        facts.pending_seen_before(NOW, limit=2, cursor="bm90IGEgY3Vyc29y")


def test_contest_holds_a_pending_fact_back_with_its_reason(facts: FactStore) -> None:
    facts.observe(observation())
    assert facts.contest("acme", "billing", "h-1", now=NOW, reason="contradicts h-0") is True
    [held] = facts.contested("acme")
    assert held.status is FactStatus.CONTESTED and held.review_note == "contradicts h-0"
    assert facts.fast_path("acme", "billing") == []


def test_contest_only_applies_to_pending_facts(facts: FactStore) -> None:
    facts.observe(observation())
    facts.confirm("acme", "billing", "h-1", now=NOW)
    assert facts.contest("acme", "billing", "h-1", now=NOW, reason="x") is False
    assert facts.contested("acme") == []


def test_a_contested_fact_is_confirmed_only_from_contested(facts: FactStore) -> None:
    facts.observe(observation())
    facts.contest("acme", "billing", "h-1", now=NOW, reason="x")
    assert facts.confirm("acme", "billing", "h-1", now=NOW) is False
    assert (
        facts.confirm("acme", "billing", "h-1", now=NOW, from_status=FactStatus.CONTESTED) is True
    )
    assert [f.fact_hash for f in facts.fast_path("acme", "billing")] == ["h-1"]


def test_contested_lists_only_the_tenants_own(facts: FactStore) -> None:
    facts.observe(observation())
    facts.observe(observation(tenant_id="acme2"))
    facts.contest("acme2", "billing", "h-1", now=NOW, reason="x")
    assert facts.contested("acme") == []
    assert [f.tenant_id for f in facts.contested("acme2")] == ["acme2"]


def test_count_by_status_counts_facts_of_every_tenant_by_status(facts: FactStore) -> None:
    # Given a pending, a confirmed and a contested fact of acme, and a pending one of acme2
    for fact_hash in ("h-1", "h-2", "h-3"):
        facts.observe(observation(fact_hash=fact_hash))
    facts.confirm("acme", "billing", "h-2", now=NOW)
    facts.contest("acme", "billing", "h-3", now=NOW, reason="contradicts h-2")
    facts.observe(observation(tenant_id="acme2"))

    # When they are counted across tenants
    counts = facts.count_by_status()

    # Then every status is counted once per fact
    assert {k: v for k, v in counts.items() if v} == {
        FactStatus.PENDING: 2,
        FactStatus.CONFIRMED: 1,
        FactStatus.CONTESTED: 1,
    }


def test_count_by_status_of_a_tenant_ignores_lookalike_tenants(facts: FactStore) -> None:
    facts.observe(observation())
    facts.confirm("acme", "billing", "h-1", now=NOW)
    for tenant in ("acme2", "acm", "ACME"):
        facts.observe(observation(tenant_id=tenant))

    counts = facts.count_by_status(tenant_id="acme")

    assert {k: v for k, v in counts.items() if v} == {FactStatus.CONFIRMED: 1}


def test_count_by_status_of_an_empty_store_counts_nothing(facts: FactStore) -> None:
    assert sum(facts.count_by_status().values()) == 0
    assert sum(facts.count_by_status(tenant_id="acme").values()) == 0


# --- a common fact: more runs than its log names ---------------------------------------------


def _run(number: int) -> str:
    return f"run-{number:05d}"


def test_runs_past_the_log_are_counted_once_each_and_the_log_stays_bounded(
    facts: FactStore,
) -> None:
    # Given a fact seen by more distinct runs than its log names, each run delivered twice
    # (a redelivery right away, and again after later runs)
    total = RUN_IDS_KEPT + 30
    for number in range(total):
        facts.observe(observation(run_id=_run(number), seen_at=NOW + number))
        facts.observe(observation(run_id=_run(number), seen_at=NOW + number))
        if number >= 10:
            facts.observe(observation(run_id=_run(number - 10), seen_at=NOW + number))
    # When it is read
    fact = facts.get("acme", "billing", "h-1")
    # Then every distinct run counted exactly once, and the log names the first runs only
    assert fact is not None
    assert fact.sightings == fact.runs == total
    assert fact.run_ids == frozenset(_run(i) for i in range(RUN_IDS_KEPT))
    assert fact.last_seen == NOW + total - 1
    # And a run past the log delivered once more changes nothing but last_seen
    again = facts.observe(observation(run_id=_run(total - 1), seen_at=NOW + total))
    assert again == replace(fact, last_seen=NOW + total)


def test_a_run_past_the_log_raises_the_confidence_and_a_redelivery_does_not(
    facts: FactStore,
) -> None:
    # Given a fact whose log is full
    for number in range(RUN_IDS_KEPT):
        facts.observe(observation(run_id=_run(number), confidence=0.7))
    # When a new run sees it more confidently, and is delivered again
    first = facts.observe(observation(run_id="late", confidence=0.9))
    second = facts.observe(observation(run_id="late", confidence=0.95))
    # Then the new run counts and raises the confidence; its redelivery does neither
    assert (first.sightings, first.confidence) == (RUN_IDS_KEPT + 1, 0.9)
    assert (second.sightings, second.confidence) == (RUN_IDS_KEPT + 1, 0.9)


def test_concurrent_runs_past_the_log_count_exactly_once(facts: FactStore) -> None:
    # Given a fact whose log is full
    for number in range(RUN_IDS_KEPT):
        facts.observe(observation(run_id=_run(number)))
    # When new runs, each delivered twice, are observed at once
    late = [f"late-{i}" for i in range(8)] * 2
    in_threads(lambda run_id: facts.observe(observation(run_id=run_id)), late)
    # Then each distinct run counted once
    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None and fact.sightings == RUN_IDS_KEPT + 8


@pytest.mark.parametrize("removal", ["delete", "forget"])
def test_a_removed_common_fact_seen_again_by_an_old_run_counts_from_one(
    facts: FactStore, removal: str
) -> None:
    # Given a fact seen past its log, then deleted (or its tenant forgotten)
    for number in range(RUN_IDS_KEPT + 3):
        facts.observe(observation(run_id=_run(number)))
    if removal == "delete":
        assert facts.delete("acme", "billing", "h-1") is True
    else:
        assert facts.forget("acme") == 1
    # When a run counted past the log sees the fact again
    fact = facts.observe(observation(run_id=_run(RUN_IDS_KEPT + 1)))
    # Then the fact starts a fresh log: nothing of the removed one is left to count against
    assert (fact.sightings, fact.confirmations) == (1, 1)
    assert fact.run_ids == frozenset({_run(RUN_IDS_KEPT + 1)})
    assert [f.fact_hash for f in facts.export("acme")] == ["h-1"]
    assert facts.count_by_status() == {"PENDING": 1}


# --- independent confirmations -----------------------------------------------------------------
# The rule itself (``Independence``) is unit-tested in tests/unit/core/test_semantic_rules.py;
# here: each store applies it atomically with the sighting, and keeps what it needs bounded.

HOURLY = Independence(same_agent_gap=HOUR)


def _sight(facts: FactStore, run_id: str, agent_id: str, at: float) -> Fact:
    return facts.observe(observation(run_id=run_id, agent_id=agent_id, seen_at=at), HOURLY)


def test_an_agents_burst_of_runs_counts_as_one_confirmation(facts: FactStore) -> None:
    # Given one agent's three runs seeing the fact three seconds apart
    for number in range(3):
        fact = _sight(facts, f"run-{number}", "agent-1", NOW + 3 * number)
    # Then each run is a sighting, but only the first counted as a confirmation
    assert (fact.sightings, fact.confirmations) == (3, 1)
    assert fact.counted_by == (("agent-1", NOW),)


def test_an_agents_run_counts_again_once_the_gap_has_passed(facts: FactStore) -> None:
    _sight(facts, "run-1", "agent-1", NOW)
    # When the agent sees it again just inside the gap, then at the gap
    inside = _sight(facts, "run-2", "agent-1", NOW + HOUR - 1)
    at_gap = _sight(facts, "run-3", "agent-1", NOW + HOUR)
    # Then only the run a full gap after the counted one counts, and moves the agent's time
    assert (inside.confirmations, at_gap.confirmations) == (1, 2)
    assert at_gap.counted_by == (("agent-1", NOW + HOUR),)


def test_runs_of_other_agents_count_at_once(facts: FactStore) -> None:
    for number, agent in enumerate(("agent-1", "agent-2", "agent-3")):
        fact = _sight(facts, f"run-{number}", agent, NOW + number)

    assert (fact.confirmations, fact.agents) == (3, 3)
    assert fact.counted_by == (("agent-1", NOW), ("agent-2", NOW + 1), ("agent-3", NOW + 2))


def test_a_redelivered_run_counts_nothing_even_after_the_gap(facts: FactStore) -> None:
    first = _sight(facts, "run-1", "agent-1", NOW)

    again = _sight(facts, "run-1", "agent-1", NOW + 2 * HOUR)

    assert again == replace(first, last_seen=NOW + 2 * HOUR)


def test_a_gap_across_agents_counts_a_burst_of_agent_names_once(facts: FactStore) -> None:
    # Given a rule that trusts no agent id: one counted confirmation an hour, whoever sends it
    rule = Independence(same_agent_gap=HOUR, any_agent_gap=HOUR)
    # When three runs claiming three agents see the fact within seconds, and a fourth an hour on
    for number, agent in enumerate(("a", "b", "c")):
        burst = facts.observe(
            observation(run_id=f"r{number}", agent_id=agent, seen_at=NOW + number), rule
        )
    later = facts.observe(observation(run_id="r9", agent_id="d", seen_at=NOW + HOUR), rule)
    # Then the burst counted once, whatever agents it named, and the later run counted
    assert (burst.sightings, burst.confirmations) == (3, 1)
    assert (later.confirmations, later.counted_by) == (2, (("a", NOW), ("d", NOW + HOUR)))


def test_a_sighting_before_the_agents_last_counted_one_within_the_gap_does_not_count(
    facts: FactStore,
) -> None:
    # Given an agent counted at NOW, then a run consolidated by a machine whose clock is behind
    _sight(facts, "run-1", "agent-1", NOW)

    fact = _sight(facts, "run-2", "agent-1", NOW - 10)

    assert fact.confirmations == 1 and fact.counted_by == (("agent-1", NOW),)


def test_concurrent_runs_of_one_agent_count_one_confirmation(facts: FactStore) -> None:
    # Given 16 runs of one agent, each delivered twice, recorded from a thread pool at once
    deliveries = [f"run-{i}" for i in range(16)] * 2

    in_threads(lambda run_id: _sight(facts, run_id, "agent-1", NOW), deliveries, workers=12)

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert (fact.sightings, fact.confirmations, fact.agents) == (16, 1, 1)


def test_concurrent_runs_of_distinct_agents_each_count_once(facts: FactStore) -> None:
    # Given 16 agents' runs, each delivered twice, recorded from a thread pool at once
    deliveries = [(f"run-{i}", f"agent-{i}") for i in range(16)] * 2

    in_threads(lambda d: _sight(facts, d[0], d[1], NOW), deliveries, workers=12)

    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert (fact.sightings, fact.confirmations, fact.agents) == (16, 16, 16)


def test_the_agents_remembered_are_those_that_counted_last(facts: FactStore) -> None:
    # Given more agents counted than a fact remembers, one second apart
    total = AGENTS_KEPT + 5
    for number in range(total):
        fact = _sight(facts, f"run-{number}", f"agent-{number:03d}", NOW + number)
    # Then every one counted, and the fact names the AGENTS_KEPT latest with their times
    assert (fact.confirmations, fact.agents) == (total, AGENTS_KEPT)
    assert fact.counted_by == tuple((f"agent-{i:03d}", NOW + i) for i in range(5, total))


def test_runs_past_the_log_count_as_confirmations_by_the_same_rule(facts: FactStore) -> None:
    # Given a fact whose log is full of one agent's burst
    for number in range(RUN_IDS_KEPT):
        _sight(facts, _run(number), "agent-1", NOW + number)
    # When the agent sees it again past the gap, that run is redelivered, and it bursts again
    later = _sight(facts, "late-1", "agent-1", NOW + 2 * HOUR)
    again = _sight(facts, "late-1", "agent-1", NOW + 4 * HOUR)
    burst = _sight(facts, "late-2", "agent-1", NOW + 2 * HOUR + 1)
    # Then the run past the gap counted once, and neither its redelivery nor the burst did
    assert (later.sightings, later.confirmations) == (RUN_IDS_KEPT + 1, 2)
    assert (again.sightings, again.confirmations) == (RUN_IDS_KEPT + 1, 2)
    assert (burst.sightings, burst.confirmations) == (RUN_IDS_KEPT + 2, 2)


def test_concurrent_runs_past_the_log_of_distinct_agents_each_count_once(
    facts: FactStore,
) -> None:
    # Given a fact whose log is full of one agent's burst
    for number in range(RUN_IDS_KEPT):
        _sight(facts, _run(number), "agent-0", NOW)
    # When eight other agents' runs, each delivered twice, are recorded at once
    late = [(f"late-{i}", f"agent-{i + 1}") for i in range(8)] * 2
    in_threads(lambda d: _sight(facts, d[0], d[1], NOW + 1), late)
    # Then each counted one sighting and one confirmation
    fact = facts.get("acme", "billing", "h-1")
    assert fact is not None
    assert (fact.sightings, fact.confirmations, fact.agents) == (RUN_IDS_KEPT + 8, 9, 9)
