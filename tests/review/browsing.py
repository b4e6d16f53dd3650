"""Memory to browse: two agents of tenant acme and one of globex, each with an episode, and the
fact they saw.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent_memory.app import Application
from agent_memory.app.messages import ListFacts
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, run_event

ACME_FACT = "Liability caps below 1x fees are a red flag"
GLOBEX_FACT = "Globex pays its suppliers in 90 days"


@dataclass(frozen=True)
class Browsed:
    """What :func:`seed` stored: acme's fact and globex's, by hash (domain ``contracts``)."""

    acme_fact: str
    globex_fact: str


def seed(memory: Memory) -> Browsed:
    """acme's reviewer (run-1) and checker (run-2) saw one fact; globex's buyer (run-9) another."""
    consolidate(run_event("run-1"), memory.ports)
    memory.clock.advance(60)
    consolidate(run_event("run-2", agent_id="checker"), memory.ports)
    globex = run_event("run-9", tenant_id="globex", agent_id="buyer", task="Pay Globex")
    seen = [{"content": GLOBEX_FACT, "confidence": 0.9}]
    globex["artifacts"] = {**globex["artifacts"], "facts": seen}
    consolidate(globex, memory.ports)
    return Browsed(fact_hash(memory, "acme"), fact_hash(memory, "globex"))


def fact_hash(memory: Memory, tenant_id: str) -> str:
    """The hash of the tenant's one fact."""
    [fact] = Application(memory.ports).handle(ListFacts(tenant_id))["facts"]
    return fact["fact_hash"]
