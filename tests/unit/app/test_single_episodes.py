"""Single episodes (app/handlers/episodes.py): read one back by its run, list an agent's,
forget one store item so its id can be reported afresh (never a run: no agent forgets one),
the tenant's agents; on both store kinds.
"""

from pathlib import Path

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import ForgetRun, GetEpisode, ListAgents, ListEpisodes
from agent_memory.app.wire import episode_message, reply_json
from agent_memory.core.api.episode_record import EpisodeRecord
from agent_memory.core.model.errors import Forbidden, InvalidInput
from agent_memory.core.workflows.consolidation import consolidate, summary
from tests.support.memory import Memory, make_memory, run_event, store_item_event


def get_episode(memory: Memory, *ids: str) -> EpisodeRecord | None:
    return Application(memory.ports).handle(GetEpisode(*ids))


def forget_run(memory: Memory, *ids: str) -> bool:
    return Application(memory.ports).handle(ForgetRun(*ids))


@pytest.fixture(params=["sqlite", "memory"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Memory:
    return make_memory(tmp_path, stores=request.param)


def test_an_episode_is_read_back_by_its_run(memory: Memory) -> None:
    # Given a consolidated run
    consolidate(run_event("r1"), memory.ports)
    # Then its episode is read back by (tenant, agent, run), and no other tenant or agent has it
    episode = get_episode(memory, "acme", "reviewer", "r1")
    assert episode is not None and episode["run_id"] == "r1"
    assert get_episode(memory, "globex", "reviewer", "r1") is None
    assert get_episode(memory, "acme", "drafter", "r1") is None


def test_a_forgotten_item_is_consolidated_afresh_when_reported_again(memory: Memory) -> None:
    # Given a store item r1 consolidated with one value
    consolidate(store_item_event("r1", "Northwind"), memory.ports)
    # When it is forgotten and reported again with another value
    assert forget_run(memory, "acme", "reviewer", "r1") is True
    assert get_episode(memory, "acme", "reviewer", "r1") is None
    again = summary(consolidate(store_item_event("r1", "Tailspin"), memory.ports))
    # Then it is written anew, with the new value (not answered from the old run's record)
    assert again["episode"] == "written" and again["extracted_by"] == "event"
    episode = get_episode(memory, "acme", "reviewer", "r1")
    assert episode is not None and "Tailspin" in episode["task"]


def test_no_agent_forgets_a_run_that_is_not_a_store_item(memory: Memory) -> None:
    # Given an ordinary run of the reviewer
    consolidate(run_event("r1"), memory.ports)
    # When the agent-facing forget is asked to delete it
    with pytest.raises(Forbidden) as refused:
        forget_run(memory, "acme", "reviewer", "r1")
    # Then it is refused naming the run, and the run's episode and record stay
    assert refused.value.field == "run_id" and "agent-memory forget" in refused.value.message
    assert get_episode(memory, "acme", "reviewer", "r1") is not None
    assert summary(consolidate(run_event("r1"), memory.ports))["episode"] == "already present"


def test_without_forgetting_a_second_report_changes_nothing(memory: Memory) -> None:
    # Given run r1 consolidated (the control case of the test above)
    consolidate(run_event("r1", task="Review the Northwind MSA"), memory.ports)
    # When it is reported again without being forgotten
    again = summary(consolidate(run_event("r1", task="Review the Tailspin MSA"), memory.ports))
    # Then the first report is the one kept, and the second is told nothing was written
    assert again["episode"] == "not written" and again["run_id_reused"] is True
    episode = get_episode(memory, "acme", "reviewer", "r1")
    assert episode is not None and episode["task"] == "Review the Northwind MSA"


def test_forgetting_keeps_to_the_tenant_and_the_agent(memory: Memory) -> None:
    # Given the same run id for two agents and two tenants
    for tenant, agent in [("acme", "reviewer"), ("acme", "drafter"), ("globex", "reviewer")]:
        consolidate(store_item_event("r1", tenant_id=tenant, agent_id=agent), memory.ports)
    # When one of them is forgotten
    assert forget_run(memory, "acme", "reviewer", "r1") is True
    # Then only that one is gone; forgetting it again finds nothing
    assert get_episode(memory, "acme", "drafter", "r1") is not None
    assert get_episode(memory, "globex", "reviewer", "r1") is not None
    assert forget_run(memory, "acme", "reviewer", "r1") is False


def test_an_agents_episodes_are_listed_newest_first_by_page(memory: Memory) -> None:
    # Given three runs of the reviewer, one of the drafter
    # (in the reverse of their ids' order, so newest first is not the ids' order)
    for n in (2, 1, 0):
        consolidate(run_event(f"r{n}"), memory.ports)
        memory.clock.advance(60)
    consolidate(run_event("d1", agent_id="drafter"), memory.ports)
    # When listed two at a time
    app = Application(memory.ports)
    first = app.handle(ListEpisodes("acme", "reviewer", limit=2))
    second = app.handle(ListEpisodes("acme", "reviewer", limit=2, cursor=first["cursor"]))
    # Then the reviewer's come back newest first, and the listing ends
    listed = first["episodes"] + second["episodes"]
    assert [e["run_id"] for e in listed] == ["r0", "r1", "r2"]
    assert second["cursor"] is None
    assert app.handle(ListAgents("acme")) == ["drafter", "reviewer"]
    assert app.handle(ListAgents("globex")) == []


def test_requests_are_checked_field_by_field(memory: Memory) -> None:
    consolidate(run_event("r1"), memory.ports)
    # Then a well-formed request answers in JSON
    request = {"action": "get", "tenant_id": "acme", "agent_id": "reviewer", "run_id": "r1"}
    message = episode_message(request)
    got = reply_json(message, Application(memory.ports).handle(message))
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
            episode_message(request)
        assert refused.value.field == field
