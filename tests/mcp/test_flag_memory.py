"""The MCP tools an agent holds: ``flag_memory`` through a real MCP client session (the SDK's
client, in-process transport), and no tool that deletes or rewrites the tenant's memory, so a
prompt-injected agent cannot wipe it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp.client import Client

from agent_memory.app import Application
from agent_memory.app.messages import CloseFlag
from agent_memory.integrations.mcp import build_server, identity_of
from tests.mcp.servers import text_of
from tests.sdk.conftest import LocalMemory, make_local, run_event

TASK = "Review the Northwind MSA liability cap"
# Every tool an agent is given, and what it does to the tenant's memory: it reads, or it adds
# (a run, a procedure's result, a flag), never more. A new tool must be placed here.
AGENT_TOOLS = {
    "memory_context": "reads",
    "search_memory": "reads",
    "get_fact": "reads",
    "list_pending_procedures": "reads",
    "record_run": "adds a run",
    "report_procedure_result": "adds a procedure's result",
    "flag_memory": "adds a flag",
}
# Words a tool deleting or rewriting memory would be named by.
REMOVING = re.compile(
    r"forget|delete|remove|erase|wipe|purge|clear|drop|retract|retire|redact|edit|rewrite"
    r"|replace|update|correct|approve|reject|resolve|dismiss|decide"
)


@pytest.fixture
def local(tmp_path: Path) -> Iterator[LocalMemory]:
    memory = make_local(tmp_path / "store")
    yield memory
    memory.client.close()


def tools_of(local: LocalMemory, agent: str = "reviewer") -> list[Any]:
    server = build_server(local.client, identity_of("acme", agent))

    async def listing() -> list[Any]:
        async with Client(server) as client:
            return (await client.list_tools()).tools

    return anyio.run(listing)


def test_no_agent_tool_deletes_or_rewrites_the_tenants_memory(local: LocalMemory) -> None:
    # When a host lists the tools an agent is given
    tools = tools_of(local)
    # Then each is one of the known ones, which read or add
    assert {tool.name for tool in tools} == set(AGENT_TOOLS)
    for tool in tools:
        # ... none named for removing or rewriting, nor described as doing it
        assert not REMOVING.search(tool.name), tool.name
        # ... and each says so to the host: read-only, or not destructive
        hints = tool.annotations
        assert hints is not None, tool.name
        assert hints.read_only_hint or hints.destructive_hint is False, tool.name
        assert (hints.read_only_hint is True) == (AGENT_TOOLS[tool.name] == "reads"), tool.name


def test_calling_every_agent_tool_leaves_what_memory_held(local: LocalMemory) -> None:
    # Given a run of the reviewer remembered: its episode, its fact logged, its procedure
    local.client.finish_run(run_event("run-1")).wait(timeout=30)
    episode = local.client.get_episode("acme", "reviewer", "run-1")
    [procedure] = local.client.list_procedures("acme")
    server = build_server(local.client, identity_of("acme", "reviewer"))
    # When an agent calls every tool, each with arguments it accepts
    calls: dict[str, dict[str, Any]] = {
        "memory_context": {"task": TASK, "task_type": "contract_review"},
        "search_memory": {"query": TASK},
        "get_fact": {"fact_hash": "abc", "domain": "contracts"},
        "list_pending_procedures": {},
        "record_run": {"task": TASK, "run_id": "run-2"},
        "report_procedure_result": {
            "procedure_id": procedure["procedure_id"],
            "succeeded": False,
            "task": TASK,
            "run_id": "run-3",
        },
        "flag_memory": {"kind": "episode", "record_id": "run-1", "reason": "Forget all of it"},
    }
    assert set(calls) == set(AGENT_TOOLS)

    async def scenario() -> list[Any]:
        async with Client(server) as client:
            return [await client.call_tool(name, args) for name, args in calls.items()]

    results = anyio.run(scenario)
    local.client.close()
    assert not any(r.is_error for r in results), [text_of(r) for r in results if r.is_error]
    # Then what memory held is still there as it was: the flag hides, it removes nothing
    again = make_local(local.store)
    assert again.client.get_episode("acme", "reviewer", "run-1") == episode
    kept = again.client.get_procedure("acme", procedure["procedure_id"])
    assert (kept["procedure_id"], kept["steps"]) == (procedure["procedure_id"], procedure["steps"])
    again.client.close()


def test_a_flag_through_an_mcp_session_hides_the_item_from_that_agent_only(
    tmp_path: Path,
) -> None:
    # Given the reviewer's two runs remembered, and the reviewer's and the drafter's servers
    # (the drafter's reading the whole tenant)
    local = make_local(tmp_path / "store")
    for run_id in ("run-1", "run-2"):
        local.client.finish_run(run_event(run_id)).wait(timeout=30)
    reviewer = build_server(local.client, identity_of("acme", "reviewer"))
    drafter = build_server(local.client, identity_of("acme", "drafter", "tenant"))

    async def context_runs(server: Any) -> list[str]:
        async with Client(server) as client:
            result = await client.call_tool("memory_context", {"task": TASK})
            assert not result.is_error, text_of(result)
            return [e["run_id"] for e in result.structured_content["episodes"]]

    async def flag() -> Any:
        async with Client(reviewer) as client:
            before = await context_runs(reviewer)
            flagged = await client.call_tool(
                "flag_memory",
                {"kind": "episode", "record_id": "run-1", "reason": "The cap is 2x, not 0.5x"},
            )
            return before, flagged

    # When the reviewer's agent flags run-1's episode, which memory_context served it
    before, flagged = anyio.run(flag)
    assert set(before) == {"run-1", "run-2"}
    assert not flagged.is_error, text_of(flagged)
    assert flagged.structured_content == {
        "flag_id": "reviewer:episode:reviewer/run-1",
        "kind": "episode",
        "record_id": "reviewer/run-1",
        "reason": "The cap is 2x, not 0.5x",
        "status": "OPEN",
    }
    # Then the reviewer's next context lacks it, and the drafter's still has it
    assert anyio.run(context_runs, reviewer) == ["run-2"]
    assert "run-1" in anyio.run(context_runs, drafter)
    # When a person dismisses the flag, then the reviewer is served it again
    Application(local.ports()).handle(
        CloseFlag("acme", "reviewer:episode:reviewer/run-1", "legal-lead", "It is 0.5x")
    )
    assert set(anyio.run(context_runs, reviewer)) == {"run-1", "run-2"}
    history = local.client.history("acme")["decisions"]
    assert [d["action"] for d in history] == ["dismiss", "flag"]
    local.client.close()


def test_a_bad_flag_is_refused_naming_the_argument(local: LocalMemory) -> None:
    server = build_server(local.client, identity_of("acme", "reviewer"))

    async def scenario() -> Any:
        async with Client(server) as client:
            return await client.call_tool(
                "flag_memory", {"kind": "memo", "record_id": "run-1", "reason": "x"}
            )

    result = anyio.run(scenario)
    assert result.is_error and "kind" in text_of(result)
