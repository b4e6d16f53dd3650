"""FactStore contract, the tenant's listing (``of_tenant``): every fact of the tenant once, page
after page, of one status or one domain when asked, never another tenant's."""

from __future__ import annotations

from functools import partial

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.models import Fact, FactStatus
from agent_memory.core.ports import FactStore
from tests.contract.builders import NOW, all_pages, observation


def listed(facts: FactStore, tenant_id: str = "acme", **options: object) -> list[Fact]:
    fetch = partial(facts.of_tenant, tenant_id, **options)  # type: ignore[arg-type]
    return [f for page in all_pages(lambda c: fetch(cursor=c)) for f in page.items]


def keys(found: list[Fact]) -> list[tuple[str, str]]:
    return sorted((f.domain, f.fact_hash) for f in found)


def test_the_listing_names_every_fact_of_the_tenant_only(facts: FactStore) -> None:
    # Given facts of two domains of the tenant, and facts of lookalike tenants
    for domain, fact_hash in (("billing", "h-1"), ("billing", "h-2"), ("support", "h-1")):
        facts.observe(observation(domain=domain, fact_hash=fact_hash))
    for tenant in ("acme2", "acm", "ACME"):
        facts.observe(observation(tenant_id=tenant))
    # When the tenant's facts are listed
    found = listed(facts)
    # Then each of its facts is there once, as stored
    assert keys(found) == [("billing", "h-1"), ("billing", "h-2"), ("support", "h-1")]
    assert found[0] == facts.get("acme", found[0].domain, found[0].fact_hash)


def test_pages_of_one_name_every_fact_once_in_the_same_order_each_time(facts: FactStore) -> None:
    # Given seven facts of the tenant
    for n in range(7):
        facts.observe(observation(fact_hash=f"h-{n}", domain="billing" if n % 2 else "support"))
    # When they are listed two at a time, twice
    first = listed(facts, limit=2)
    again = listed(facts, limit=2)
    # Then every fact comes once, in an order that does not change
    assert len(first) == 7 and len(keys(first)) == len(set(keys(first)))
    assert [(f.domain, f.fact_hash) for f in first] == [(f.domain, f.fact_hash) for f in again]


def test_the_listing_keeps_to_one_status_when_asked(facts: FactStore) -> None:
    # Given a pending, a confirmed and a contested fact
    for fact_hash in ("h-1", "h-2", "h-3"):
        facts.observe(observation(fact_hash=fact_hash))
    facts.confirm("acme", "billing", "h-2", now=NOW)
    facts.contest("acme", "billing", "h-3", now=NOW, reason="contradicts h-2")
    # When each status is listed, a page at a time
    by_status = {s: listed(facts, status=s, limit=1) for s in FactStatus}
    # Then each lists its own facts only
    assert [f.fact_hash for f in by_status[FactStatus.PENDING]] == ["h-1"]
    assert [f.fact_hash for f in by_status[FactStatus.CONFIRMED]] == ["h-2"]
    assert [f.fact_hash for f in by_status[FactStatus.CONTESTED]] == ["h-3"]


def test_the_listing_keeps_to_one_domain_when_asked(facts: FactStore) -> None:
    facts.observe(observation(domain="billing", fact_hash="h-1"))
    facts.observe(observation(domain="billing", fact_hash="h-2"))
    facts.observe(observation(domain="support", fact_hash="h-3"))
    facts.observe(observation(domain="billing", tenant_id="acme2"))

    found = listed(facts, domain="billing", limit=1)

    assert keys(found) == [("billing", "h-1"), ("billing", "h-2")]


def test_a_tenant_without_facts_lists_an_empty_last_page(facts: FactStore) -> None:
    facts.observe(observation(tenant_id="acme2"))

    page = facts.of_tenant("acme", limit=5)

    assert (page.items, page.cursor) == ((), None)


def test_a_full_last_page_ends_with_cursor_none(facts: FactStore) -> None:
    facts.observe(observation(fact_hash="h-1"))
    facts.observe(observation(fact_hash="h-2"))

    page = facts.of_tenant("acme", limit=2)

    assert len(page.items) == 2 and page.cursor is None


def test_the_listing_refuses_a_malformed_cursor_a_bad_limit_and_a_bad_domain(
    facts: FactStore,
) -> None:
    with pytest.raises(InvalidInput):
        facts.of_tenant("acme", cursor="bm90IGEgY3Vyc29y")
    with pytest.raises(InvalidInput):
        facts.of_tenant("acme", limit=0)
    with pytest.raises(InvalidInput):
        facts.of_tenant("acme", domain="billing#x")
