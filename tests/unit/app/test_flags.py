"""Agents flag, people decide (app/handlers/flags.py, core/workflows/flags.py): a flag is kept
and recorded, takes effect for its agent at the next read while other agents are still served
the item, and a person's dismissal serves it again; on both store kinds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import (
    Bootstrap,
    CloseFlag,
    DecideProcedure,
    FlagMemory,
    History,
    ListFlags,
    SearchEpisodes,
)
from agent_memory.core.api.bootstrap_reply import BootstrapReply
from agent_memory.core.api.flag_page import FlagRecord
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound
from agent_memory.core.model.flags import MAX_OPEN_FLAGS_PER_AGENT
from agent_memory.core.model.requests import BootstrapRequest
from agent_memory.core.model.scope import TENANT_SCOPE
from agent_memory.core.workflows.consolidation import consolidate
from tests.support.memory import Memory, make_memory, proposed_procedure, run_event

TASK = "Review the vendor MSA liability cap"


@pytest.fixture(params=["sqlite", "memory"])
def memory(request: pytest.FixtureRequest, tmp_path: Path) -> Memory:
    # Given three agents' runs on the MSA: each an episode, the fact confirmed, the procedure
    # proposed by them and validated by a person
    memory = make_memory(tmp_path, stores=request.param)
    states = [
        consolidate(run_event(run, agent_id=agent), memory.ports)
        for agent, run in (("reviewer", "r1"), ("drafter", "r2"), ("checker", "r3"))
    ]
    procedure = proposed_procedure(states[0])
    Application(memory.ports).handle(DecideProcedure(procedure, True, "legal-lead"))
    memory.clock.advance(60)
    return memory


def app(memory: Memory) -> Application:
    return Application(memory.ports)


def read(memory: Memory, agent: str = "reviewer") -> BootstrapReply:
    request = BootstrapRequest(
        "acme", agent, TASK, task_type="contract_review", domain="contracts", scope=TENANT_SCOPE
    )
    return app(memory).handle(Bootstrap(request))


def served(reply: BootstrapReply) -> dict[str, set[str]]:
    procedure = reply["procedure"]
    return {
        "episode": {f"{e['agent_id']}/{e['run_id']}" for e in reply["episodes"]},
        "fact": {f["fact_hash"] for f in reply["facts"]},
        "procedure": set() if procedure is None else {procedure["procedure_id"]},
    }


def flag(
    memory: Memory, kind: str, record: str, agent: str = "reviewer", reason: str = "wrong"
) -> FlagRecord:
    return app(memory).handle(FlagMemory("acme", agent, kind, record, reason))


def test_each_served_kind_flagged_stops_being_served_to_that_agent_only(memory: Memory) -> None:
    before = served(read(memory))
    [fact] = before["fact"]
    [procedure] = before["procedure"]
    assert "drafter/r2" in before["episode"]
    # When the reviewer flags the drafter's episode, the fact and the procedure it was served
    for kind, record in (("episode", "drafter/r2"), ("fact", fact), ("procedure", procedure)):
        flag(memory, kind, record)
    # Then its next read lacks all three
    after = served(read(memory))
    assert "drafter/r2" not in after["episode"] and "reviewer/r1" in after["episode"]
    assert after["fact"] == set() and after["procedure"] == set()
    # ... while another agent is still served each, until a person decides
    assert served(read(memory, "checker")) == before


def test_a_flagged_episode_is_left_out_of_the_agents_search_too(memory: Memory) -> None:
    flag(memory, "episode", "r1")
    found = app(memory).handle(SearchEpisodes("acme", "reviewer", TASK, scope=TENANT_SCOPE))
    runs = {e["run_id"] for e in found["episodes"]}
    assert "r1" not in runs and {"r2", "r3"} <= runs


def test_a_dismissed_flag_serves_the_item_again_and_the_history_holds_both(
    memory: Memory,
) -> None:
    # Given the reviewer's flag on its own episode (a bare run id names its own)
    flagged = flag(memory, "episode", "r1", reason="The cap is 1x, not 0.5x")
    assert flagged["flag_id"] == "reviewer:episode:reviewer/r1"
    assert "reviewer/r1" not in served(read(memory))["episode"]
    # When a person dismisses it, later
    memory.clock.advance(60)
    closed = app(memory).handle(CloseFlag("acme", flagged["flag_id"], "legal-lead", "It is 0.5x"))
    # Then the flag is closed, the episode is served to the reviewer again
    assert closed == flagged
    assert app(memory).handle(ListFlags("acme"))["flags"] == []
    assert "reviewer/r1" in served(read(memory))["episode"]
    # ... and the history lists the flag and the dismissal, newest first
    decisions = app(memory).handle(History("acme"))["decisions"]
    assert [(d["action"], d["kind"], d["record_id"], d["actor"]) for d in decisions[:2]] == [
        ("dismiss", "episode", "reviewer/r1", "legal-lead"),
        ("flag", "episode", "reviewer/r1", "agent:reviewer"),
    ]
    assert decisions[1]["reason"] == "The cap is 1x, not 0.5x"
    assert decisions[0]["reason"] == "dismissed the flag of agent:reviewer: It is 0.5x"


def test_a_flag_closed_as_acted_on_is_recorded_as_resolved(memory: Memory) -> None:
    flagged = flag(memory, "episode", "r1")
    memory.clock.advance(60)
    app(memory).handle(CloseFlag("acme", flagged["flag_id"], "legal-lead", "forgot it", "acted"))
    [latest, *_] = app(memory).handle(History("acme"))["decisions"]
    assert (latest["action"], latest["reason"]) == (
        "resolve",
        "acted on the flag of agent:reviewer: forgot it",
    )


def test_closing_a_flag_that_is_not_open_is_refused(memory: Memory) -> None:
    with pytest.raises(NotFound):
        app(memory).handle(CloseFlag("acme", "reviewer:fact:abc", "legal-lead", "no"))
    with pytest.raises(InvalidInput) as refused:
        app(memory).handle(CloseFlag("acme", "not a flag", "legal-lead", "no"))
    assert refused.value.field == "flag_id"


def test_flagging_an_item_twice_makes_one_open_flag_and_one_decision(memory: Memory) -> None:
    first = flag(memory, "fact", "abc", reason="first")
    again = flag(memory, "fact", "abc", reason="second")
    assert again == first
    assert [f["flag_id"] for f in app(memory).handle(ListFlags("acme"))["flags"]] == [
        "reviewer:fact:abc"
    ]
    actions = [d["action"] for d in app(memory).handle(History("acme"))["decisions"]]
    assert actions.count("flag") == 1


def test_the_reason_is_kept_scrubbed(tmp_path: Path) -> None:
    # Given a memory whose detector knows a name, and a reason naming that person
    memory = make_memory(tmp_path)
    memory.pii.names = ("Jane Doe",)
    flagged = flag(memory, "fact", "abc", reason="Jane Doe said the cap changed")
    # Then neither the flag nor the history holds the name
    [decision] = app(memory).handle(History("acme"))["decisions"]
    assert "Jane" not in json.dumps([flagged, decision])
    assert flagged["reason"] == decision["reason"]


@pytest.mark.parametrize(
    ("kind", "record", "reason", "field"),
    [
        ("memo", "abc", "wrong", "kind"),
        ("fact", "a/b", "wrong", "record_id"),
        ("episode", "a/b/c", "wrong", "record_id"),
        ("procedure", "x" * 129, "wrong", "record_id"),
        ("fact", "abc", " ", "reason"),
        ("fact", "abc", "x" * 2_001, "reason"),
    ],
)
def test_a_bad_flag_is_refused_naming_its_field(
    memory: Memory, kind: str, record: str, reason: str, field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        flag(memory, kind, record, reason=reason)
    assert refused.value.field == field
    assert app(memory).handle(ListFlags("acme"))["flags"] == []


def test_an_agent_at_the_cap_is_refused_and_others_are_not(memory: Memory) -> None:
    # Given the reviewer holding the most open flags an agent may
    for n in range(MAX_OPEN_FLAGS_PER_AGENT):
        flag(memory, "fact", f"hash{n}")
    # When it flags one more item, then it is refused with why
    with pytest.raises(Conflict, match=f"{MAX_OPEN_FLAGS_PER_AGENT} open flags"):
        flag(memory, "fact", "one-more")
    # ... flagging a held item again still answers its flag, and another agent may flag
    assert flag(memory, "fact", "hash0")["flag_id"] == "reviewer:fact:hash0"
    assert flag(memory, "fact", "one-more", agent="drafter")["agent_id"] == "drafter"
    # ... and once a person closes one, the reviewer may flag again
    app(memory).handle(CloseFlag("acme", "reviewer:fact:hash0", "legal-lead", "fine"))
    assert flag(memory, "fact", "one-more")["record_id"] == "one-more"
