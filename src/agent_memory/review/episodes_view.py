"""The browser's episodes: an agent's episodes page by page with its "Forget every run of this
agent" form, a search of them, one episode with every field as stored (hidden characters shown by
name, as ``episodes show`` prints them) and its "Forget this run" form, and the receipt of a run
(or an agent's runs) forgotten.
"""

from __future__ import annotations

from collections.abc import Sequence

from agent_memory.core.api.episode_record import EpisodePage, EpisodeRecord
from agent_memory.core.api.episode_search import EpisodeSearch
from agent_memory.core.workflows.forgetting import RunsForgotten
from agent_memory.review.layout import (
    ActionForm,
    e,
    fields_list,
    link,
    pager,
    row,
    section,
    table,
    when,
)

EPISODES_PATH = "/episodes"
SEARCH_PATH = "/episodes/search"
EPISODE_PATH = "/episode"
RECEIPT_PATH = "/forgotten"
FORGET_PATH = "/forget"
# Its own path: a run's form sent without its run never forgets every run of the agent.
FORGET_AGENT_PATH = "/forget/agent"


def search_form(agents: Sequence[str], agent: str | None, query: str = "") -> str:
    """Pick an agent, and search its episodes (a GET: nothing changes)."""
    if not agents:
        return '<p class="empty">No agent of this tenant has an unexpired episode.</p>'
    options = "".join(
        f'<option value="{e(a)}"{" selected" if a == agent else ""}>{e(a)}</option>' for a in agents
    )
    listed = " · ".join(link(EPISODES_PATH, a, agent=a) for a in agents)
    return (
        f'<p class="meta">Agents: {listed}</p>'
        f'<form class="search" method="get" action="{SEARCH_PATH}">'
        f'<label>Agent <select name="agent">{options}</select></label>'
        f'<input type="search" name="q" maxlength="2000" value="{e(query)}" '
        'placeholder="search this agent\'s episodes" required>'
        '<button type="submit">Search</button></form>'
    )


def episodes_list(agent: str, page: EpisodePage, csrf_token: str, tenant_id: str) -> str:
    """One page of the agent's episodes, newest first, each linked to its page, then the form
    forgetting every run of the agent.
    """
    rows = [
        row(
            link(EPISODE_PATH, episode["run_id"], agent=agent, run=episode["run_id"]),
            e(when(episode["created_at"])),
            e(episode["outcome"]),
            e(episode["task_summary"]),
            run_id=episode["run_id"],
        )
        for episode in page["episodes"]
    ]
    listing = table(("Run", "Stored", "Outcome", "Summary"), rows, "This agent has no episodes.")
    heading = f"<h2>Episodes of <b>{e(agent)}</b>, newest first</h2>"
    forget = ActionForm(
        name="forget-agent",
        action=FORGET_AGENT_PATH,
        button="Forget every run of this agent",
        confirm=f"Forget every run of {agent} everywhere it counted: all its episodes, its "
        "sightings of facts, its proposals and feedback on procedures; its open flags closed "
        "(the history keeps who and why)",
        hidden=(("agent_id", agent),),
    )
    return (
        heading
        + listing
        + pager(EPISODES_PATH, page["cursor"], agent=agent)
        + section("Forget every run of this agent", forget.html(csrf_token, tenant_id))
    )


def search_results(agent: str, query: str, found: EpisodeSearch) -> str:
    """The episodes and units that best match ``query``, best first."""
    episodes = [
        row(
            link(EPISODE_PATH, hit["run_id"], agent=hit["agent_id"], run=hit["run_id"]),
            e(hit["agent_id"]),
            e(f"{hit['similarity']:.2f}"),
            e(hit["task_summary"]),
            run_id=hit["run_id"],
        )
        for hit in found["episodes"]
    ]
    units = [
        row(e(u["run_id"]), e(u["kind"]), e(f"{u['similarity']:.2f}"), e(u["text"]))
        for u in found["units"]
    ]
    return (
        f"<h2>Episodes of <b>{e(agent)}</b> matching “{e(query)}”</h2>"
        + table(("Run", "Agent", "Similarity", "Summary"), episodes, "No episode matches.")
        + "<h2>Messages and findings</h2>"
        + table(("Run", "Kind", "Similarity", "Text"), units, "No message or finding matches.")
    )


def episode_page(episode: EpisodeRecord, csrf_token: str, tenant_id: str) -> str:
    """Every field of the episode as stored, then its "Forget this run" form."""
    listed = [
        ("Findings", episode["key_findings"]),
        ("Tools", episode["tools_used"]),
        ("Patterns", episode["reusable_patterns"]),
    ]
    fields = [
        ("Run", e(episode["run_id"])),
        ("Agent", e(episode["agent_id"])),
        ("Outcome", e(episode["outcome"])),
        ("Stored", e(when(episode["created_at"]))),
        ("Kept until", e(when(episode["expires_at"]))),
        ("Task", e(episode["task"])),
        ("Summary", e(episode["task_summary"])),
        ("Task type", e(episode["task_type"] or "—")),
        ("Domain", e(episode["domain"] or "—")),
        ("Approach", e(episode["approach_used"] or "—")),
        *((label, _items(values)) for label, values in listed),
    ]
    forget = ActionForm(
        name="forget",
        action=FORGET_PATH,
        button="Forget this run",
        confirm="Forget this run everywhere it counted: its episode, its sightings of facts, "
        "its proposals and feedback on procedures (the history keeps who and why)",
        hidden=(("agent_id", episode["agent_id"]), ("run_id", episode["run_id"])),
    )
    return (
        f'<article class="record episode" data-run-id="{e(episode["run_id"])}">'
        f"{fields_list(fields)}</article>"
        + section("Forget this run", forget.html(csrf_token, tenant_id))
    )


def receipt_page(receipt: RunsForgotten) -> str:
    """What forgetting a run took back, store by store."""
    if not receipt.found:
        return '<p class="empty">Nothing of that run was left to forget.</p>'
    fields = [
        ("Agent", e(receipt.agent_id)),
        ("Runs", e(", ".join(receipt.runs))),
        ("When", e(when(receipt.at))),
        ("Episodes deleted", e(receipt.episodes)),
        ("Ledger records deleted", e(receipt.ledger_records)),
        ("Sightings of facts taken back", e(receipt.sightings)),
        ("Facts no longer served (pending again)", _items(receipt.facts_withdrawn)),
        ("Facts deleted", _items(receipt.facts_deleted)),
        ("Proposals of procedures taken back", e(receipt.proposals)),
        ("Feedback on procedures taken back", e(receipt.feedback)),
        ("Procedures deleted", _items(receipt.procedures_deleted)),
        ("Knowledge-base documents deleted", e(receipt.kb_documents)),
        ("Flags closed", e(receipt.flags)),
        ("Knowledge-base index", e(receipt.kb_index)),
        ("History entry", e(receipt.decision_id or "—")),
    ]
    return f'<article class="record receipt">{fields_list(fields)}</article>'


def _items(values: Sequence[str]) -> str:
    if not values:
        return "—"
    return "<ul>" + "".join(f"<li>{e(v)}</li>" for v in values) + "</ul>"
