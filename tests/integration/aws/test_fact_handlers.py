"""A tenant's facts seen and repaired on moto: the ``episodes`` Lambda lists them (``"action":
"facts"``), the ``procedure_review`` Lambda retracts, corrects and asserts them; each call
through the tenant role, checked against the stack's grants by the session's call recorder.
"""

from __future__ import annotations

import time
from typing import Any

import boto3
import pytest

from agent_memory.core.model.errors import NotFound
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows import consolidation
from tests.integration.aws import test_handlers
from tests.integration.aws.test_episodes_handler import episodes
from tests.integration.aws.test_handlers import (
    BUCKET,
    Aws,
    Context,
    consolidate_runs,
    expect_retrieve,
    handler,
)
from tests.support.memory import run_event

aws = test_handlers.aws
FACT = "Liability caps below 1x fees are a red flag"
BETTER = "Liability caps below 2x fees are a red flag"
OWN = "Uncapped indemnities need legal sign-off"


def seen(aws: Aws, run_id: str, content: str, tenant: str = "acme") -> None:
    event: dict[str, Any] = run_event(run_id, tenant_id=tenant)
    event["artifacts"]["facts"] = [{"content": content, "confidence": 0.9}]
    consolidation.consolidate(event, aws.ports(tenant))


def test_facts_lists_the_tenants_facts_page_by_page(aws: Aws) -> None:
    # Given three facts of acme, and one of globex
    for n in range(3):
        seen(aws, f"r{n}", f"Fact number {n} holds")
    seen(aws, "g1", FACT, tenant="globex")
    # When the function lists acme's facts two at a time, and its confirmed ones
    first = episodes(action="facts", tenant_id="acme", limit=2)
    second = episodes(action="facts", tenant_id="acme", limit=2, cursor=first["cursor"])
    confirmed = episodes(action="facts", tenant_id="acme", status="CONFIRMED")
    # Then every fact of acme comes once, each pending with its one run
    listed = first["facts"] + second["facts"]
    assert sorted(f["fact_hash"] for f in listed) == sorted(
        fact_hash(f"Fact number {n} holds") for n in range(3)
    )
    assert second["cursor"] is None
    assert {(f["status"], f["sightings"]) for f in listed} == {("PENDING", 1)}
    assert confirmed == {"facts": [], "cursor": None}


def review(**request: Any) -> dict[str, Any]:
    reply: dict[str, Any] = handler("procedure_review")(request, Context())
    return reply


def kb_hit(fact_hash_: str, text: str) -> dict[str, Any]:
    """Bedrock's result for a fact document the index still holds."""
    metadata = {"tenant_id": "acme", "domain": "contracts", "fact_hash": fact_hash_}
    return {"content": {"type": "TEXT", "text": text}, "score": 0.9, "metadata": metadata}


def bootstrap(aws: Aws, results: list[dict[str, Any]]) -> dict[str, str]:
    """The facts the next bootstrap serves, by hash, with where each came from."""
    expect_retrieve(aws, "acme", "contracts", results)
    reply = handler("bootstrap")(
        {"tenant_id": "acme", "agent_id": "reviewer", "task": FACT, "domain": "contracts"},
        Context(),
    )
    return {f["fact_hash"]: f["source"] for f in reply["facts"]}


def documents(tenant: str = "acme") -> list[str]:
    listed = boto3.client("s3").list_objects_v2(Bucket=BUCKET, Prefix=f"tenants/{tenant}/")
    return sorted(o["Key"] for o in listed.get("Contents", []))


def test_retract_serves_the_fact_nowhere_though_the_kb_index_still_holds_it(aws: Aws) -> None:
    # Given a fact three runs confirmed, its document staged and (say) ingested
    consolidate_runs(aws, "r1", "r2", "r3")
    ports = aws.ports()
    ports.facts.mark_ingested("acme", "contracts", fact_hash(FACT), now=time.time())
    assert bootstrap(aws, [kb_hit(fact_hash(FACT), FACT)]) == {fact_hash(FACT): "knowledge_base"}
    # When an operator retracts it through the review function
    reply = review(
        action="retract", tenant_id="acme", domain="contracts", fact_hash=fact_hash(FACT),
        reviewer="ana", reason="superseded policy",
    )  # fmt: skip
    # Then it is RETRACTED, its document deleted, and it awaits the ingestion that drops it
    assert (reply["fact"]["status"], reply["fact"]["kb_document"]) == ("RETRACTED", "staged")
    assert documents() == []
    assert [f.fact_hash for f in ports.facts.awaiting_ingestion(limit=10).items] == [
        fact_hash(FACT)
    ]
    # And the next bootstrap serves it neither from the index (which still holds it) nor the
    # fast path; the history keeps the decision
    assert bootstrap(aws, [kb_hit(fact_hash(FACT), FACT)]) == {}
    [decision] = ports.decisions.history("acme", limit=10).items
    assert (decision.action, decision.record_id) == ("retract", f"contracts/{fact_hash(FACT)}")


def test_correct_and_assert_are_served_at_once_and_staged_for_the_kb(aws: Aws) -> None:
    # Given a confirmed fact
    consolidate_runs(aws, "r1", "r2", "r3")
    # When an operator corrects it, then asserts another
    corrected = review(
        action="correct", tenant_id="acme", domain="contracts", fact_hash=fact_hash(FACT),
        content=BETTER, reviewer="ana",
    )["fact"]  # fmt: skip
    asserted = review(
        action="assert", tenant_id="acme", domain="contracts", content=OWN, reviewer="ana"
    )["fact"]
    # Then both are confirmed in the operator's name, served from the fast path, their
    # documents written; the old fact's document is gone
    for record, text in ((corrected, BETTER), (asserted, OWN)):
        assert (record["status"], record["asserted_by"]) == ("CONFIRMED", "ana")
        assert (record["fact_hash"], record["kb_document"]) == (fact_hash(text), "staged")
    assert bootstrap(aws, []) == {fact_hash(BETTER): "fast_path"}
    fast = aws.ports().facts.fast_path("acme", "contracts")
    assert sorted(f.fact_hash for f in fast) == sorted([fact_hash(BETTER), fact_hash(OWN)])
    assert documents() == sorted(
        f"tenants/acme/domains/contracts/{fact_hash(t)}.txt{suffix}"
        for t in (BETTER, OWN)
        for suffix in ("", ".metadata.json")
    )


def test_a_repair_of_another_tenants_fact_reaches_nothing(aws: Aws) -> None:
    consolidate_runs(aws, "r1", "r2", "r3")

    with pytest.raises(NotFound):
        review(
            action="retract", tenant_id="globex", domain="contracts",
            fact_hash=fact_hash(FACT), reviewer="ana",
        )  # fmt: skip

    fact = aws.ports().facts.get("acme", "contracts", fact_hash(FACT))
    assert fact is not None and fact.status.value == "CONFIRMED"
