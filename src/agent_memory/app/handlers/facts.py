"""A tenant's facts as a person sees and repairs them: listed page by page, each with its
confirmations.
"""

from __future__ import annotations

from agent_memory.app.messages import ListFacts
from agent_memory.app.ports import StorePorts
from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.fact_record import FactPage, fact_record
from agent_memory.core.model.models import Fact
from agent_memory.core.ports import Page


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
