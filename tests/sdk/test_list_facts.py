"""A tenant's facts listed page by page (``ListFacts``): the same pages through the SDK's local
mode and its AWS mode (the episodes function, ``"action": "facts"``).
"""

from __future__ import annotations

import pytest

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.sdk import InvalidInputError
from tests.sdk.conftest import LocalMemory, StubbedAws
from tests.sdk.test_aws_episodes import expect
from tests.sdk.test_get_fact import FACT, HASH, confirmed_by_three_agents
from tests.support.memory import run_event

OTHER = "Indemnities without a cap are a red flag"


def test_the_tenants_facts_list_with_their_confirmations(local: LocalMemory) -> None:
    # Given a fact three agents confirmed, and one a single run saw
    confirmed_by_three_agents(local)
    event = run_event("run-other")
    event["artifacts"]["facts"] = [{"content": OTHER, "confidence": 0.9}]
    local.client.finish_run(event).wait()
    # When the tenant's facts are listed, all of them and the confirmed ones
    every = local.client.list_facts("acme")
    confirmed = local.client.list_facts("acme", status="CONFIRMED", domain="contracts")
    # Then both are listed, each as get_fact reads it, and the confirmed one alone when asked
    assert sorted(f["fact_hash"] for f in every["facts"]) == sorted([HASH, fact_hash(OTHER)])
    assert every["cursor"] is None
    assert confirmed["facts"] == [local.client.get_fact("acme", "contracts", HASH)]
    assert confirmed["facts"][0]["content"] == FACT
    assert local.client.list_facts("globex") == {"facts": [], "cursor": None}


def test_a_page_at_a_time_names_every_fact_once(local: LocalMemory) -> None:
    for n in range(3):
        event = run_event(f"run-{n}")
        event["artifacts"]["facts"] = [{"content": f"Fact number {n} holds", "confidence": 0.9}]
        local.client.finish_run(event).wait()

    first = local.client.list_facts("acme", limit=2)
    second = local.client.list_facts("acme", limit=2, cursor=first["cursor"])

    assert len(first["facts"]) == 2 and len(second["facts"]) == 1 and second["cursor"] is None
    hashes = [f["fact_hash"] for f in first["facts"] + second["facts"]]
    assert sorted(hashes) == sorted(fact_hash(f"Fact number {n} holds") for n in range(3))


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"status": "GONE"}, "status"),
        ({"domain": "bad domain"}, "domain"),
        ({"limit": 101}, "limit"),
        ({"cursor": 7}, "cursor"),
    ],
)
def test_a_bad_argument_is_refused_naming_its_field(
    local: LocalMemory, options: dict[str, object], field: str
) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.list_facts("acme", **options)  # type: ignore[arg-type]
    assert refused.value.field == field


def test_on_aws_the_episodes_function_answers(aws: StubbedAws) -> None:
    # Given the episodes function's reply to a listing of confirmed facts
    page = {"facts": [{"fact_hash": HASH, "content": FACT, "status": "CONFIRMED"}], "cursor": "c2"}
    request = {"action": "facts", "tenant_id": "acme", "limit": 10, "status": "CONFIRMED"}
    expect(aws, {**request, "domain": "contracts", "cursor": "c1"}, page)
    # Then the client sends that request once and answers with the function's page
    found = aws.client.list_facts(
        "acme", status="CONFIRMED", domain="contracts", limit=10, cursor="c1"
    )
    assert found == page
