"""A listing of one agent's episodes within Lambda's response payload, at the product's maxima.

A synchronous invocation's response payload is at most 6 MB ("Lambda quotas",
https://docs.aws.amazon.com/lambda/latest/dg/gettingstarted-limits.html). The episodes
function answers ``list`` synchronously (the LangGraph store pages through it), and a page of
100 episodes whose texts are at the contract's longest, of 4-byte characters, is some 250 MB
as escaped JSON: the page must shrink to fit, and following its cursors must still list every
episode once.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agent_memory.app import Application
from agent_memory.app.wire import MAX_PAGE, episode_message, reply_json
from agent_memory.core.api.bootstrap_reply import reply_bytes
from agent_memory.core.api.contracts import MAX_ITEM_CHARS, MAX_LIST_ITEMS, MAX_TASK_CHARS
from agent_memory.core.model.models import Episode
from tests.limits.test_bootstrap_reply_limit import LAMBDA_RESPONSE_BYTES, wide
from tests.support.memory import Memory, make_memory


def widest_episode(number: int, now: float) -> Episode:
    """An episode with every text the listing returns at its longest, of 4-byte characters."""
    return Episode(
        tenant_id="acme",
        agent_id="reviewer",
        run_id=f"run-{number:03d}",
        task=wide(MAX_TASK_CHARS),
        task_summary=wide(MAX_ITEM_CHARS, f"episode {number}"),
        outcome="COMPLETED",
        created_at=now - number,
        expires_at=now + 86_400,
        key_findings=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
        approach_used=wide(MAX_TASK_CHARS),
        tools_used=tuple(f"tool-{i}" for i in range(MAX_LIST_ITEMS)),
        reusable_patterns=tuple(wide(MAX_ITEM_CHARS) for _ in range(MAX_LIST_ITEMS)),
    )


def listed_pages(memory: Memory) -> tuple[list[int], list[list[str]]]:
    """Every page of the reviewer's listing (asked for in full pages), as JSON sizes and ids."""
    request = {"action": "list", "tenant_id": "acme", "agent_id": "reviewer", "limit": MAX_PAGE}
    sizes, pages, cursor = [], [], None
    while True:
        message = episode_message({**request, "cursor": cursor})
        reply = reply_json(message, Application(memory.ports).handle(message))
        sizes.append(reply_bytes(reply))
        pages.append([e["run_id"] for e in reply["episodes"]])
        cursor = reply["cursor"]
        if cursor is None:
            return sizes, pages


def test_a_listing_of_the_widest_episodes_pages_within_the_lambda_limit(tmp_path: Path) -> None:
    # Given an agent with a full page of episodes at the contract's maxima
    memory = make_memory(tmp_path, stores="memory")
    for number in range(MAX_PAGE):
        memory.ports.episodes.add(widest_episode(number, memory.clock()))
    # When the listing is followed page by page
    sizes, pages = listed_pages(memory)
    # Then no page is over Lambda's 6 MB, one of several episodes is within the reply budget,
    # and every episode is listed once, newest first
    assert max(sizes) <= LAMBDA_RESPONSE_BYTES
    budget = memory.ports.policies.max_reply_bytes
    assert all(size <= budget for size, page in zip(sizes, pages, strict=True) if len(page) > 1)
    assert [run for page in pages for run in page] == [f"run-{n:03d}" for n in range(MAX_PAGE)]


def test_a_listing_of_small_episodes_is_not_cut_short(tmp_path: Path) -> None:
    # Given an agent with a full page of short episodes
    memory = make_memory(tmp_path, stores="memory")
    for number in range(MAX_PAGE):
        short = replace(widest_episode(number, memory.clock()), task="t", task_summary="s")
        memory.ports.episodes.add(
            replace(short, key_findings=(), approach_used="", reusable_patterns=())
        )
    # When it is listed
    _, pages = listed_pages(memory)
    # Then one page holds them all
    assert [len(page) for page in pages] == [MAX_PAGE]
