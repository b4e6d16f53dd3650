"""A tenant's facts as a person sees and repairs them: listed page by page, each with its
confirmations; retracted, corrected, or asserted by a person (``core/workflows/fact_repair.py``).
"""

from __future__ import annotations

from agent_memory.app.messages import AssertFact, CorrectFact, ListFacts, RetractFact
from agent_memory.app.ports import StorePorts
from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.fact_record import FactPage, FactRecord, fact_record
from agent_memory.core.model.models import Fact
from agent_memory.core.ports import MemoryPorts, Page
from agent_memory.core.workflows import fact_repair
from agent_memory.core.workflows.fact_repair import Signed


def list_facts(message: ListFacts, ports: StorePorts) -> FactPage:
    """A page of at most ``limit`` facts whose JSON fits the deployment's reply budget
    (``max_reply_bytes``; a fact names up to a hundred runs and a hundred agents): as many of
    the page's first facts as fit, at least one, read again as a page of that many (for its
    cursor) when fewer fit.
    """
    independence = ports.policies.semantic.independence
    page = _page(message, ports, message.limit)
    budget = ports.policies.max_reply_bytes - reply_bytes({"facts": [], "cursor": message.cursor})
    fit, used = 0, 0
    for fact in page.items:
        used += reply_bytes(fact_record(fact, independence)) + 2  # its comma and space
        if fit and used > budget:
            break
        fit += 1
    if fit < len(page.items):
        page = _page(message, ports, fit)
    return {"facts": [fact_record(f, independence) for f in page.items], "cursor": page.cursor}


def _page(message: ListFacts, ports: StorePorts, limit: int) -> Page[Fact]:
    m = message
    return ports.facts.of_tenant(
        m.tenant_id, status=m.status, domain=m.domain, limit=limit, cursor=m.cursor
    )


def retract_fact(message: RetractFact, ports: MemoryPorts) -> FactRecord:
    """The fact retracted by a person, recorded in the history."""
    m = message
    retracted = fact_repair.retract(
        ports, m.tenant_id, m.domain, m.fact_hash, Signed(m.actor, m.reason)
    )
    return fact_record(retracted, ports.policies.semantic.independence)


def correct_fact(message: CorrectFact, ports: MemoryPorts) -> FactRecord:
    """The person's correction in the fact's place, recorded in the history."""
    m = message
    by = Signed(m.actor, m.reason)
    new = fact_repair.correct(ports, m.tenant_id, m.domain, m.fact_hash, m.content, by)
    return fact_record(new, ports.policies.semantic.independence)


def assert_fact(message: AssertFact, ports: MemoryPorts) -> FactRecord:
    """The person's fact, confirmed in their name, recorded in the history."""
    m = message
    by = Signed(m.actor, m.reason)
    stored = fact_repair.assert_fact(ports, m.tenant_id, m.domain, m.content, by)
    return fact_record(stored, ports.policies.semantic.independence)
