"""One agent's episodes, one at a time: read one back by its run, list them, forget one run.

What bootstrap ranks, these name: a surface that keeps records of its own in episodic memory
(the LangGraph store) reads them back by run id, lists an agent's newest, and replaces one by
forgetting its run and reporting it again. Every read keeps to the tenant named.
"""

from __future__ import annotations

from agent_memory.app.messages import ForgetRun, GetEpisode, ListAgents, ListEpisodes
from agent_memory.app.ports import EpisodePorts
from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord, episode_record
from agent_memory.core.model.errors import Forbidden
from agent_memory.core.model.models import Episode
from agent_memory.core.model.run_records import RunRecord
from agent_memory.core.model.store_items import is_store_item
from agent_memory.core.model.time_window import TimeWindow
from agent_memory.core.ports import Page


def get_episode(message: GetEpisode, ports: EpisodePorts) -> EpisodeRecord | None:
    """The agent's episode of the run, or None if it has none (or it expired)."""
    m = message
    found = ports.episodes.get(m.tenant_id, m.agent_id, m.run_id, now=ports.clock())
    return None if found is None else episode_record(found)


def list_episodes(message: ListEpisodes, ports: EpisodePorts) -> EpisodePage:
    """A page of at most ``limit`` episodes whose JSON fits the deployment's reply budget
    (``max_reply_bytes``: Lambda refuses a synchronous response over 6 MB, and 100 episodes
    at the contract's maxima reach far past it): as many of the page's first episodes as fit,
    at least one, read again as a page of that many (for its cursor) when fewer fit. A
    window ``[since, until)`` whose ``until`` is not after ``since`` is refused naming ``until``.
    """
    page = _page(message, ports, message.limit)
    budget = ports.policies.max_reply_bytes - reply_bytes(
        {"episodes": [], "cursor": message.cursor}
    )
    fit, used = 0, 0
    for episode in page.items:
        used += reply_bytes(episode_record(episode)) + 2  # its comma and space in the list
        if fit and used > budget:
            break
        fit += 1
    if fit < len(page.items):
        page = _page(message, ports, fit)
    return {"episodes": [episode_record(e) for e in page.items], "cursor": page.cursor}


def _page(message: ListEpisodes, ports: EpisodePorts, limit: int) -> Page[Episode]:
    m, window = message, TimeWindow(message.since, message.until)
    return ports.episodes.recent(
        m.tenant_id,
        m.agent_id,
        now=ports.clock(),
        limit=limit,
        cursor=m.cursor,
        since=window.since,
        until=window.until,
    )


def forget_run(message: ForgetRun, ports: EpisodePorts) -> bool:
    """Forget one item an agent's store keeps: its episode and its consolidation records, so
    the run id may be reported again and is consolidated afresh; True if it had an episode.

    Only store items (``core/model/store_items.py``): an agent replaces its own items, but no
    agent-facing call deletes a run's memory (``Forbidden``, nothing deleted); a person forgets
    a run everywhere it counted (``ForgetRuns``). What the item taught the tenant stays: facts
    it observed (counted once per run) and procedures it proposed.
    """
    m, ledger = message, ports.run_ledger
    now = ports.clock()
    record = ledger.run(m.tenant_id, m.agent_id, m.run_id, now=now)
    episode = ports.episodes.get(m.tenant_id, m.agent_id, m.run_id, now=now)
    task = (
        episode.task
        if episode is not None
        else (None if record is None else str(RunRecord.read(record.value).run_json()["task"]))
    )
    if task is not None and not is_store_item(task):
        raise Forbidden(
            "run_id",
            f"{m.run_id!r} is a run of agent {m.agent_id!r}, not an item its store keeps: no "
            "agent forgets a run; a person does, everywhere it counted (agent-memory forget "
            "--agent ... --run ...)",
        )
    if record is not None:
        ledger.delete(record.key)
    ledger.delete(ledger.failure_key(m.tenant_id, m.agent_id, m.run_id))
    return ports.episodes.delete(m.tenant_id, m.agent_id, m.run_id)


def list_agents(message: ListAgents, ports: EpisodePorts) -> list[str]:
    """The agents of the tenant with unexpired episodes, sorted.

    One read of the tenant's agents, then one page of one episode per agent: the store's
    listing may still name an agent whose episodes were all deleted or expired.
    """
    now, store, tenant_id = ports.clock(), ports.episodes, message.tenant_id
    return [
        agent
        for agent in store.agents(tenant_id)
        if store.recent(tenant_id, agent, now=now, limit=1).items
    ]
