"""MemoryClient's single-episode operations: get, list, forget a store item (never a run), the
tenant's agents.
"""

from __future__ import annotations

import pytest

from agent_memory.sdk import ForbiddenError, InvalidInputError
from tests.sdk.conftest import LocalMemory, run_event
from tests.support.memory import store_item_event


def test_a_finished_run_is_read_and_listed_and_an_item_forgotten(local: LocalMemory) -> None:
    client = local.client
    # Given two consolidated runs of the reviewer
    client.finish_run(run_event("run-1")).wait()
    client.finish_run(run_event("run-2", task="Review the Tailspin MSA")).wait()
    # Then one is read back whole, both are listed, and the tenant has that agent
    episode = client.get_episode("acme", "reviewer", "run-2")
    assert episode is not None
    assert (episode["agent_id"], episode["task"]) == ("reviewer", "Review the Tailspin MSA")
    assert episode["key_findings"] == ["Clause 7.3 caps liability at 0.5x annual fees"]
    page = client.list_episodes("acme", "reviewer", limit=1)
    rest = client.list_episodes("acme", "reviewer", cursor=page["cursor"])
    assert {e["run_id"] for e in page["episodes"] + rest["episodes"]} == {"run-1", "run-2"}
    assert rest["cursor"] is None
    assert client.list_agents("acme") == ["reviewer"]
    assert client.list_agents("globex") == []
    # When the agent asks to forget one of its runs, it is refused: a person forgets runs
    with pytest.raises(ForbiddenError) as refused:
        client.forget_run("acme", "reviewer", "run-2")
    assert refused.value.field == "run_id"
    assert client.get_episode("acme", "reviewer", "run-2") is not None
    # When an item its store keeps is forgotten
    client.finish_run(store_item_event("item-1", "Prefers dark mode")).wait()
    assert client.forget_run("acme", "reviewer", "item-1") is True
    # Then it is gone, and the same id is consolidated afresh when reported again
    assert client.get_episode("acme", "reviewer", "item-1") is None
    again = client.finish_run(store_item_event("item-1", "Prefers light mode")).wait()
    assert again["episode"] == "written"
    rewritten = client.get_episode("acme", "reviewer", "item-1")
    assert rewritten is not None and "light mode" in rewritten["task"]


def test_bad_identifiers_are_refused_naming_the_field(local: LocalMemory) -> None:
    with pytest.raises(InvalidInputError) as refused:
        local.client.get_episode("acme", "reviewer", "run 1")
    assert refused.value.field == "run_id"
    with pytest.raises(InvalidInputError) as refused:
        local.client.list_episodes("acme/x", "reviewer")
    assert refused.value.field == "tenant_id"
    with pytest.raises(InvalidInputError) as refused:
        local.client.list_episodes("acme", "reviewer", limit=500)
    assert refused.value.field == "limit"
