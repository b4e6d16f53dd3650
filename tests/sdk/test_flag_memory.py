"""``MemoryClient.flag_memory``: an agent flags what it was served, locally and on a deployed
stack (moto, the bootstrap function's in-process handler, a warm runtime); its next read lacks
the item, another agent's still has it, and a person's dismissal serves it again.
"""

from __future__ import annotations

from typing import Any

import pytest

from agent_memory.app import Application
from agent_memory.app.messages import CloseFlag, History
from agent_memory.cli.commands_mcp import _identity, _memory
from agent_memory.cli.main import _parser
from agent_memory.core.model.flags import MAX_OPEN_FLAGS_PER_AGENT
from agent_memory.core.workflows import consolidation
from agent_memory.sdk import ConflictError, InvalidInputError, MemoryClient
from tests.mcp import test_aws_stack
from tests.mcp.test_aws_stack import REGION, STACK, Stack
from tests.sdk.conftest import LocalMemory, run_event
from tests.support.memory import run_event as support_event

# The moto-backed stack of the MCP tests (its bootstrap function runs in this process).
stack = test_aws_stack.stack
TASK = "Review the Northwind MSA liability cap"


def runs_served(client: MemoryClient, agent: str, **scope: Any) -> list[str]:
    reply = client.bootstrap("acme", agent, TASK, **scope)
    return [f"{e['agent_id']}/{e['run_id']}" for e in reply["episodes"]]


def test_a_flagged_episode_is_not_served_to_its_agent_but_to_others(local: LocalMemory) -> None:
    # Given two runs of the reviewer, both served to it
    for run_id in ("run-1", "run-2"):
        local.client.finish_run(run_event(run_id)).wait(timeout=30)
    assert set(runs_served(local.client, "reviewer")) == {"reviewer/run-1", "reviewer/run-2"}
    # When the reviewer flags run-1's episode
    flagged = local.client.flag_memory("acme", "reviewer", "episode", "run-1", "Wrong cap")
    # Then its next bootstrap and search lack it, and another agent reading the tenant has it
    assert runs_served(local.client, "reviewer") == ["reviewer/run-2"]
    found = local.client.search("acme", "reviewer", TASK)
    assert [e["run_id"] for e in found["episodes"]] == ["run-2"]
    assert "reviewer/run-1" in runs_served(local.client, "drafter", scope="tenant")
    # When a person dismisses the flag (the CLI's application over the same store)
    app = Application(local.ports())
    app.handle(CloseFlag("acme", flagged["flag_id"], "legal-lead", "It is right"))
    # Then the reviewer is served it again, and the history holds both decisions
    assert set(runs_served(local.client, "reviewer")) == {"reviewer/run-1", "reviewer/run-2"}
    decisions = local.client.history("acme")["decisions"]
    assert [(d["action"], d["actor"]) for d in decisions] == [
        ("dismiss", "legal-lead"),
        ("flag", "agent:reviewer"),
    ]


def test_flagging_twice_is_one_flag_and_a_bad_flag_names_its_field(local: LocalMemory) -> None:
    first = local.client.flag_memory("acme", "reviewer", "fact", "abc", "Outdated", run_id="r9")
    again = local.client.flag_memory("acme", "reviewer", "fact", "abc", "Still outdated")
    assert again == first and first["run_id"] == "r9"
    for arguments, field in (
        (("memo", "abc", "why"), "kind"),
        (("fact", "a b", "why"), "record_id"),
        (("fact", "abc", "x" * 2_001), "reason"),
    ):
        with pytest.raises(InvalidInputError) as refused:
            local.client.flag_memory("acme", "reviewer", *arguments)  # type: ignore[arg-type]
        assert refused.value.field == field


def test_an_agent_past_the_cap_is_refused_as_a_conflict(local: LocalMemory) -> None:
    for n in range(MAX_OPEN_FLAGS_PER_AGENT):
        local.client.flag_memory("acme", "reviewer", "fact", f"h{n}", "Outdated")
    with pytest.raises(ConflictError, match="a person closes some"):
        local.client.flag_memory("acme", "reviewer", "fact", "one-more", "Outdated")


def test_on_a_stack_the_flag_goes_through_the_bootstrap_function_and_acts_at_once(
    stack: Stack,
) -> None:
    # Given two runs of acme's reviewer consolidated on the stack, and the agent's client (as
    # the MCP server builds it from the stack's name), its first bootstrap warming the runtime
    for run_id in ("run-1", "run-2"):
        consolidation.consolidate(support_event(run_id), stack.runtime.ports("acme"))
    args = _parser().parse_args(
        ["--aws-stack", STACK, "--region", REGION, "mcp", "--tenant", "acme", "--agent", "reviewer"]
    )
    client = _memory(args)
    assert _identity(args).agent_id == "reviewer" and client.mode == "aws"
    assert set(runs_served(client, "reviewer")) == {"reviewer/run-1", "reviewer/run-2"}
    # When the reviewer flags run-1's episode through the stack
    flagged = client.flag_memory("acme", "reviewer", "episode", "run-1", "Wrong cap")
    # Then its very next bootstrap on the same warm runtime lacks it; another agent's has it
    assert runs_served(client, "reviewer") == ["reviewer/run-2"]
    assert "reviewer/run-1" in runs_served(client, "drafter", scope="tenant")
    # When an operator dismisses it (the CLI's application on the stack)
    app = stack.runtime.application("acme")
    app.handle(CloseFlag("acme", flagged["flag_id"], "ops", "It is right"))
    # Then the reviewer is served it again, and the history holds both decisions
    assert set(runs_served(client, "reviewer")) == {"reviewer/run-1", "reviewer/run-2"}
    decisions = app.handle(History("acme"))["decisions"]
    assert [(d["action"], d["actor"]) for d in decisions] == [
        ("dismiss", "ops"),
        ("flag", "agent:reviewer"),
    ]
    client.close()
