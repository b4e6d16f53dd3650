"""Single episodes (core/workflows/episodes.py): read one back by its run, list an agent's,
forget one run so its id can be reported afresh, the tenant's agents; on both store kinds.
"""

from pathlib import Path

import pytest

from agent_memory.core.model.errors import InvalidInput
from agent_memory.core.workflows.consolidation import consolidate, summary
from agent_memory.core.workflows.episodes import (
    forget_run,
    get_episode,
    list_episodes,
    run_episode_request,
    tenant_agents,
)
from tests.support.memory import Memory, make_memory, run_event


@pytest.fixture(params=["sqlite", "memory"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores=request.param)


def test_an_episode_is_read_back_by_its_run(memory: Memory) -> None:
    # Given a consolidated run
    consolidate(run_event("r1"), memory.ports)
    # Then its episode is read back by (tenant, agent, run), and no other tenant or agent has it
    episode = get_episode(memory.ports, "acme", "reviewer", "r1")
    assert episode is not None and episode.run_id == "r1"
    assert get_episode(memory.ports, "globex", "reviewer", "r1") is None
    assert get_episode(memory.ports, "acme", "drafter", "r1") is None


def test_a_forgotten_run_is_consolidated_afresh_when_reported_again(memory: Memory) -> None:
    # Given run r1 consolidated with one task
    consolidate(run_event("r1", task="Review the Northwind MSA"), memory.ports)
    # When it is forgotten and reported again with another task
    assert forget_run(memory.ports, "acme", "reviewer", "r1") is True
    assert get_episode(memory.ports, "acme", "reviewer", "r1") is None
    again = summary(consolidate(run_event("r1", task="Review the Tailspin MSA"), memory.ports))
    # Then it is written anew, with the new task (not answered from the old run's record)
    assert again["episode"] == "written" and again["extracted_by"] == "event"
    episode = get_episode(memory.ports, "acme", "reviewer", "r1")
    assert episode is not None and episode.task == "Review the Tailspin MSA"


def test_without_forgetting_a_second_report_changes_nothing(memory: Memory) -> None:
    # Given run r1 consolidated (the control case of the test above)
    consolidate(run_event("r1", task="Review the Northwind MSA"), memory.ports)
    # When it is reported again without being forgotten
    again = summary(consolidate(run_event("r1", task="Review the Tailspin MSA"), memory.ports))
    # Then the first report is the one kept
    assert again["episode"] == "already present"
    episode = get_episode(memory.ports, "acme", "reviewer", "r1")
    assert episode is not None and episode.task == "Review the Northwind MSA"


def test_forgetting_keeps_to_the_tenant_and_the_agent(memory: Memory) -> None:
    # Given the same run id for two agents and two tenants
    for tenant, agent in [("acme", "reviewer"), ("acme", "drafter"), ("globex", "reviewer")]:
        consolidate(run_event("r1", tenant_id=tenant, agent_id=agent), memory.ports)
    # When one of them is forgotten
    assert forget_run(memory.ports, "acme", "reviewer", "r1") is True
    # Then only that one is gone; forgetting it again finds nothing
    assert get_episode(memory.ports, "acme", "drafter", "r1") is not None
    assert get_episode(memory.ports, "globex", "reviewer", "r1") is not None
    assert forget_run(memory.ports, "acme", "reviewer", "r1") is False


def test_an_agents_episodes_are_listed_newest_first_by_page(memory: Memory) -> None:
    # Given three runs of the reviewer, one of the drafter
    # (in the reverse of their ids' order, so newest first is not the ids' order)
    for n in (2, 1, 0):
        consolidate(run_event(f"r{n}"), memory.ports)
        memory.clock.advance(60)
    consolidate(run_event("d1", agent_id="drafter"), memory.ports)
    # When listed two at a time
    first = list_episodes(memory.ports, "acme", "reviewer", limit=2)
    second = list_episodes(memory.ports, "acme", "reviewer", limit=2, cursor=first.cursor)
    # Then the reviewer's come back newest first, and the listing ends
    assert [e.run_id for e in first.items + second.items] == ["r0", "r1", "r2"]
    assert second.cursor is None
    assert tenant_agents(memory.ports, "acme") == ["drafter", "reviewer"]
    assert tenant_agents(memory.ports, "globex") == []


def test_requests_are_checked_field_by_field(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    # Then a well-formed request answers in JSON
    got = run_episode_request(
        {"action": "get", "tenant_id": "acme", "agent_id": "reviewer", "run_id": "r1"},
        memory.ports,
    )
    assert got["episode"]["run_id"] == "r1" and got["episode"]["agent_id"] == "reviewer"
    # And a bad one names its field
    for request, field in [
        ({"action": "drop", "tenant_id": "acme"}, "action"),
        ({"action": "get", "tenant_id": "acme#x", "agent_id": "a", "run_id": "r"}, "tenant_id"),
        ({"action": "get", "tenant_id": "acme", "agent_id": "a"}, "run_id"),
        ({"action": "list", "tenant_id": "acme", "agent_id": "a", "limit": 0}, "limit"),
        ({"action": "list", "tenant_id": "acme", "agent_id": "a", "limit": 101}, "limit"),
    ]:
        with pytest.raises(InvalidInput) as refused:
            run_episode_request(request, memory.ports)
        assert refused.value.field == field
