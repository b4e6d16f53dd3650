"""One agent's episodes, one at a time: read one back by its run, list them, forget one run.

What bootstrap and search rank, these name: a surface that keeps records of its own in
episodic memory (the LangGraph store) reads them back by run id, lists an agent's newest, and
replaces one by forgetting its run and reporting it again. Every read keeps to the tenant named.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agent_memory.core.api.episode_record import episode_record
from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.model.identifiers import checked_id
from agent_memory.core.model.models import Episode
from agent_memory.core.ports import MemoryPorts, Page
from agent_memory.core.workflows.bootstrap import reply_bytes

ACTIONS = ("get", "list", "forget", "agents")
FIELDS = frozenset({"action", "tenant_id", "agent_id", "run_id", "limit", "cursor"})

# The most episodes one page of a listing holds.
MAX_PAGE = 100


def get_episode(ports: MemoryPorts, tenant_id: str, agent_id: str, run_id: str) -> Episode | None:
    """The agent's episode of ``run_id``, or None if it has none (or it expired)."""
    return ports.episodes.get(tenant_id, agent_id, run_id, now=ports.clock())


def list_episodes(
    ports: MemoryPorts,
    tenant_id: str,
    agent_id: str,
    *,
    limit: int = MAX_PAGE,
    cursor: str | None = None,
) -> Page[Episode]:
    """One page of the agent's unexpired episodes, newest first (at most ``limit``)."""
    _check_limit(limit)
    return ports.episodes.recent(tenant_id, agent_id, now=ports.clock(), limit=limit, cursor=cursor)


def _check_limit(limit: object) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
        raise InvalidInput("limit", f"must be a whole number from 1 to {MAX_PAGE}")
    return limit


def forget_run(ports: MemoryPorts, tenant_id: str, agent_id: str, run_id: str) -> bool:
    """Forget one run of the agent: its episode and its consolidation records, so the run id
    may be reported again and is consolidated afresh; True if it had an episode.

    What the run taught the tenant stays: facts it observed (counted once per run, so a run
    reported again under the same id does not count twice) and procedures it proposed.
    """
    ledger = ports.run_ledger
    record = ledger.run(tenant_id, agent_id, run_id, now=ports.clock())
    if record is not None:
        ledger.delete(record.key)
    ledger.delete(ledger.failure_key(tenant_id, agent_id, run_id))
    return ports.episodes.delete(tenant_id, agent_id, run_id)


def tenant_agents(ports: MemoryPorts, tenant_id: str) -> list[str]:
    """The agents of the tenant with unexpired episodes, sorted.

    One read of the tenant's agents, then one page of one episode per agent: the store's
    listing may still name an agent whose episodes were all deleted or expired.
    """
    now = ports.clock()
    store = ports.episodes
    return [
        agent
        for agent in store.agents(tenant_id)
        if store.recent(tenant_id, agent, now=now, limit=1).items
    ]


@dataclass(frozen=True, slots=True)
class EpisodeRequest:
    """One checked request of :func:`run_episode_request` (``agent_id`` is None for
    ``agents``, ``run_id`` for ``agents`` and ``list``).
    """

    action: str
    tenant_id: str
    agent_id: str | None = None
    run_id: str | None = None
    limit: int = MAX_PAGE
    cursor: str | None = None


def parse_episode_request(request: object) -> EpisodeRequest:
    """A request as JSON (``{"action": "get"|"list"|"forget"|"agents", "tenant_id",
    "agent_id", "run_id", "limit", "cursor"}``), checked: ``InvalidInput`` names a bad field.

    What a surface checks before sending one, and what the one running it checks again.
    """
    if not isinstance(request, dict):
        raise InvalidInput("request", "must be a JSON object")
    unknown = sorted(str(k) for k in request.keys() - FIELDS)
    if unknown:
        raise InvalidInput(unknown[0], "is not a field of an episode request")
    action = request.get("action")
    if action not in ACTIONS:
        raise InvalidInput("action", f"must be one of {', '.join(ACTIONS)}")
    tenant_id = checked_id(_text(request, "tenant_id"), "tenant_id", "tenant id")
    if action == "agents":
        return EpisodeRequest(action, tenant_id)
    agent_id = checked_id(_text(request, "agent_id"), "agent_id", "agent id")
    if action == "list":
        limit = _check_limit(request.get("limit", MAX_PAGE))
        cursor = request.get("cursor")
        if cursor is not None and not isinstance(cursor, str):
            raise InvalidInput("cursor", "must be a string")
        return EpisodeRequest(action, tenant_id, agent_id, limit=limit, cursor=cursor)
    run_id = checked_id(_text(request, "run_id"), "run_id", "run id")
    return EpisodeRequest(action, tenant_id, agent_id, run_id)


def run_episode_request(
    request: dict[str, Any] | EpisodeRequest, ports: MemoryPorts
) -> dict[str, Any]:
    """One of the operations above, within the request's tenant (what every surface sends,
    as JSON or parsed by :func:`parse_episode_request`); ``InvalidInput`` names a bad field.
    """
    r = request if isinstance(request, EpisodeRequest) else parse_episode_request(request)
    if r.action == "agents":
        return {"agents": tenant_agents(ports, r.tenant_id)}
    assert r.agent_id is not None
    if r.action == "list":
        return _page_within(ports, r.tenant_id, r.agent_id, r.limit, r.cursor)
    assert r.run_id is not None
    if r.action == "forget":
        return {"forgotten": forget_run(ports, r.tenant_id, r.agent_id, r.run_id)}
    found = get_episode(ports, r.tenant_id, r.agent_id, r.run_id)
    return {"episode": None if found is None else episode_record(found)}


def _text(request: dict[str, Any], field: str) -> str:
    value = request.get(field)
    if not isinstance(value, str):
        raise InvalidInput(field, "is required (a string)")
    return value


def _page_within(
    ports: MemoryPorts, tenant_id: str, agent_id: str, limit: int, cursor: str | None
) -> dict[str, Any]:
    """A page of at most ``limit`` episodes whose JSON fits the deployment's reply budget
    (``max_reply_bytes``: Lambda refuses a synchronous response over 6 MB, and 100 episodes
    at the contract's maxima reach far past it): as many of the page's first episodes as fit,
    at least one, read again as a page of that many (for its cursor) when fewer fit.
    """
    page = list_episodes(ports, tenant_id, agent_id, limit=limit, cursor=cursor)
    budget = ports.policies.max_reply_bytes - reply_bytes({"episodes": [], "cursor": cursor})
    fit, used = 0, 0
    for episode in page.items:
        used += reply_bytes(episode_record(episode)) + 2  # its comma and space in the list
        if fit and used > budget:
            break
        fit += 1
    if fit < len(page.items):
        page = list_episodes(ports, tenant_id, agent_id, limit=fit, cursor=cursor)
    return {"episodes": [episode_record(e) for e in page.items], "cursor": page.cursor}
