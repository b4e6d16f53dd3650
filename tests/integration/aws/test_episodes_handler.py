"""The ``episodes`` Lambda on moto: one agent's episodes read, listed and forgotten one run at a
time, and the tenant's agents, each within the request's tenant (and, under principal-tag
tenancy, only the proven caller's).

The handler tests' harness: moto's tables and the tenant role (every call narrowed to one
tenant's keys, and checked against the stack's grants by the session's call recorder).
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from agent_memory.core.model.errors import Forbidden, InvalidInput
from agent_memory.core.tiers.semantic import fact_hash
from agent_memory.core.workflows import consolidation
from tests.integration.aws import test_handlers, test_principal_tag_tenancy
from tests.integration.aws.test_handlers import Aws, Context, handler
from tests.integration.aws.test_principal_tag_tenancy import AUDIENCE, Callers
from tests.support.memory import run_event, store_item_event

aws = test_handlers.aws
callers = test_principal_tag_tenancy.callers


def episodes(**request: Any) -> dict[str, Any]:
    reply: dict[str, Any] = handler("episodes")(request, Context(function_name=AUDIENCE))
    return reply


def consolidate(aws: Aws, run_id: str, *, at: float | None = None, **overrides: Any) -> None:
    tenant = overrides.get("tenant_id", "acme")
    ports = aws.ports(tenant)
    if at is not None:
        ports = replace(ports, clock=lambda: at)
    event = run_event(run_id, **overrides)
    # No facts: a third run would promote one, asking the (stubbed) knowledge base first.
    del event["artifacts"]["facts"]
    consolidation.consolidate(event, ports)


def test_get_reads_the_agents_episode_of_a_run(aws: Aws) -> None:
    # Given a consolidated run of acme's reviewer
    consolidate(aws, "r1", task="Review the Contoso MSA")
    # When the function is asked for it, and for a run never reported
    found = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r1")
    missing = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r9")
    # Then the first is the stored episode, with its author; the second is none
    episode = found["episode"]
    assert (episode["run_id"], episode["agent_id"]) == ("r1", "reviewer")
    assert episode["task"] == "Review the Contoso MSA"
    assert missing == {"episode": None}


def test_list_pages_the_agents_episodes_newest_first(aws: Aws) -> None:
    # Given three runs of the reviewer an hour apart, and one of another agent
    now = time.time()
    for number, run_id in enumerate(("r1", "r2", "r3")):
        consolidate(aws, run_id, at=now - (2 - number) * 3600)
    consolidate(aws, "w1", agent_id="writer")
    # When they are listed two at a time
    first = episodes(action="list", tenant_id="acme", agent_id="reviewer", limit=2)
    second = episodes(
        action="list", tenant_id="acme", agent_id="reviewer", limit=2, cursor=first["cursor"]
    )
    # Then the newest come first, the cursor reaches the rest, and the last page says so
    assert [e["run_id"] for e in first["episodes"]] == ["r3", "r2"]
    assert [e["run_id"] for e in second["episodes"]] == ["r1"]
    assert second["cursor"] is None


def test_list_within_a_window_reads_only_the_runs_created_in_it(aws: Aws) -> None:
    # Given four runs of the reviewer a day apart
    now = time.time()
    made = {run_id: now - (3 - n) * 86_400 for n, run_id in enumerate(("r1", "r2", "r3", "r4"))}
    for run_id, at in made.items():
        consolidate(aws, run_id, at=at)
    who = {"action": "list", "tenant_id": "acme", "agent_id": "reviewer"}
    # When the window from r2's moment up to r4's is listed a page of one at a time
    window = {"since": made["r2"], "until": made["r4"]}
    first = episodes(**who, limit=1, **window)
    second = episodes(**who, limit=1, cursor=first["cursor"], **window)
    # Then r3 and r2 come back, newest first (since is in, until out), and the listing ends
    assert [e["run_id"] for e in first["episodes"] + second["episodes"]] == ["r3", "r2"]
    assert second["cursor"] is None


def test_agents_names_the_tenants_agents_only(aws: Aws) -> None:
    # Given runs of two acme agents and one of globex
    consolidate(aws, "r1")
    consolidate(aws, "w1", agent_id="writer")
    consolidate(aws, "g1", tenant_id="globex", agent_id="auditor")
    # When acme's agents are asked for
    reply = episodes(action="agents", tenant_id="acme")
    # Then they are acme's two, sorted
    assert reply == {"agents": ["reviewer", "writer"]}


def test_forget_removes_a_store_item_so_it_is_consolidated_afresh(aws: Aws) -> None:
    # Given an item a store keeps
    consolidate(aws, "r1", task=store_item_event("r1", "Contoso")["task"])
    # When it is forgotten (twice: the second finds nothing)
    forgotten = episodes(action="forget", tenant_id="acme", agent_id="reviewer", run_id="r1")
    again = episodes(action="forget", tenant_id="acme", agent_id="reviewer", run_id="r1")
    # Then its episode is gone
    assert (forgotten, again) == ({"forgotten": True}, {"forgotten": False})
    gone = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r1")
    assert gone == {"episode": None}
    # And the same run id, reported again, is written again with its new text
    consolidate(aws, "r1", task=store_item_event("r1", "Fabrikam")["task"])
    found = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r1")
    assert "Fabrikam" in found["episode"]["task"]


def test_no_agent_forgets_a_run_through_the_function(aws: Aws) -> None:
    # Given an ordinary run of the reviewer
    consolidate(aws, "r1", task="Review the Contoso MSA")
    # When an agent asks the function to forget it, it is refused naming the run
    with pytest.raises(Forbidden, match="run_id"):
        episodes(action="forget", tenant_id="acme", agent_id="reviewer", run_id="r1")
    # Then the run's episode stays
    kept = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r1")
    assert kept["episode"] is not None


def test_another_tenants_run_is_not_reachable(aws: Aws) -> None:
    # Given a run of acme's reviewer
    consolidate(aws, "r1")
    # When globex asks for the same agent and run, lists it and forgets it
    asked = {"tenant_id": "globex", "agent_id": "reviewer"}
    found = episodes(action="get", run_id="r1", **asked)
    listed = episodes(action="list", **asked)
    forgotten = episodes(action="forget", run_id="r1", **asked)
    # Then it finds nothing, and acme's episode is still there
    assert found == {"episode": None}
    assert listed == {"episodes": [], "cursor": None}
    assert forgotten == {"forgotten": False}
    kept = episodes(action="get", tenant_id="acme", agent_id="reviewer", run_id="r1")
    assert kept["episode"] is not None


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"action": "drop", "tenant_id": "acme"}, "action"),
        ({"action": "agents"}, "tenant_id"),
        (
            {"action": "get", "tenant_id": "acme/x", "agent_id": "reviewer", "run_id": "r1"},
            "tenant_id",
        ),
        ({"action": "get", "tenant_id": "acme", "run_id": "r1"}, "agent_id"),
        ({"action": "get", "tenant_id": "acme", "agent_id": "reviewer", "run_id": "r 1"}, "run_id"),
        ({"action": "list", "tenant_id": "acme", "agent_id": "reviewer", "limit": 500}, "limit"),
        ({"action": "list", "tenant_id": "acme", "agent_id": "reviewer", "cursor": 3}, "cursor"),
        ({"action": "list", "tenant_id": "acme", "agent_id": "reviewer", "since": "x"}, "since"),
        (
            {"action": "list", "tenant_id": "acme", "agent_id": "reviewer", "since": 5, "until": 5},
            "until",
        ),
        ({"action": "get", "tenant_id": "acme", "agent_id": "reviewer", "runid": "r1"}, "runid"),
    ],
)
def test_a_bad_request_is_refused_naming_the_field(
    aws: Aws, request_: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidInput) as refused:
        episodes(**request_)
    assert refused.value.field == field


def test_under_principal_tag_a_caller_reaches_its_own_tenant_only(
    aws: Aws, callers: Callers
) -> None:
    # Given a run of globex, and a caller whose role is tagged acme
    consolidate(aws, "g1", tenant_id="globex")
    proof = callers.proof_of("acme-agent", "acme")
    # When that caller asks for globex's run, or to forget it
    for action in ("get", "forget"):
        with pytest.raises(Forbidden, match="tenant_id"):
            episodes(
                action=action,
                tenant_id="globex",
                agent_id="reviewer",
                run_id="g1",
                caller_identity=proof,
            )
    # Then globex's episode is still there, and the caller lists its own tenant's agents
    found = aws.ports("globex").episodes.get("globex", "reviewer", "g1", now=time.time())
    assert found is not None
    assert episodes(action="agents", tenant_id="acme", caller_identity=proof) == {"agents": []}


def test_under_principal_tag_a_request_without_a_proof_is_refused(
    aws: Aws, callers: Callers
) -> None:
    with pytest.raises(Forbidden, match="caller_identity"):
        episodes(action="agents", tenant_id="acme")


def test_fact_reads_one_fact_of_the_tenant_with_its_confirmations(aws: Aws) -> None:
    # Given a run of acme's reviewer that reported a domain fact
    tenant = "acme"
    ports = aws.ports(tenant)
    consolidation.consolidate(run_event("r1"), ports)
    hash_ = fact_hash("Liability caps below 1x fees are a red flag")
    # When the function is asked for it, by acme and by another tenant
    found = episodes(action="fact", tenant_id=tenant, domain="contracts", fact_hash=hash_)
    other = episodes(action="fact", tenant_id="globex", domain="contracts", fact_hash=hash_)
    # Then acme's is the pending fact its one run saw; globex has none
    fact = found["fact"]
    assert (fact["status"], fact["sightings"], fact["confirmations"]) == ("PENDING", 1, 1)
    assert fact["served_from"] is None and list(fact["counted_by"]) == ["reviewer"]
    assert other == {"fact": None}
