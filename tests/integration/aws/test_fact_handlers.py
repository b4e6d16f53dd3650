"""A tenant's facts seen and repaired on moto: the ``episodes`` Lambda lists them (``"action":
"facts"``), the ``procedure_review`` Lambda retracts, corrects and asserts them; each call
through the tenant role, checked against the stack's grants by the session's call recorder.
"""

from __future__ import annotations

from typing import Any

from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows import consolidation
from tests.integration.aws import test_handlers
from tests.integration.aws.test_episodes_handler import episodes
from tests.integration.aws.test_handlers import Aws
from tests.support.memory import run_event

aws = test_handlers.aws
FACT = "Liability caps below 1x fees are a red flag"


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
