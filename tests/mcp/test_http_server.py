"""``agent-memory mcp --http``: every tool, resource and the prompt through the MCP SDK's own
Streamable HTTP client, against servers of two tenants sharing one store (real models).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.shared.exceptions import MCPError

from agent_memory.core.tiers.semantic import fact_hash
from tests.mcp.servers import (
    HttpServer,
    consolidated,
    http_server,
    mcp_args,
    read_text,
    server_env,
    session,
    text_of,
)

pytestmark = pytest.mark.slow

TOOLS = {
    "memory_context",
    "search_memory",
    "record_run",
    "report_procedure_result",
    "list_pending_procedures",
    "get_fact",
    "flag_memory",
}
TASK = "Review the Tailspin MSA liability cap"
FINDING = "Clause 7.3 caps liability at 0.5x annual fees"
NORTHWIND: dict[str, Any] = {
    "run_id": "run-northwind",
    "task": "Review the Northwind MSA liability cap",
    "task_type": "contract_review",
    "domain": "contract_law",
    "outcome": "COMPLETED",
    "artifacts": {
        "task_summary": "Reviewed the Northwind MSA liability cap",
        "key_findings": [FINDING],
        "procedure": {
            "title": "MSA liability review",
            "steps": ["Read the limitation of liability clause", "Compare the cap to the fees"],
        },
    },
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp") / "store"


@pytest.fixture(scope="module")
def acme(store: Path) -> Iterator[HttpServer]:
    with http_server(store, "acme", "reviewer") as server:
        yield server


@pytest.fixture(scope="module")
def globex(store: Path, acme: HttpServer) -> Iterator[HttpServer]:
    with http_server(store, "globex", "reviewer") as server:
        yield server


@pytest.fixture(scope="module")
def northwind(acme: HttpServer) -> dict[str, Any]:
    """The Northwind run, recorded through acme's server and consolidated: its summary."""

    async def record(client: Client) -> tuple[dict[str, Any], dict[str, Any]]:
        result = await client.call_tool("record_run", NORTHWIND)
        assert not result.is_error, text_of(result)
        assert result.structured_content is not None
        return result.structured_content, await consolidated(client, NORTHWIND["run_id"])

    recorded, summary = session(acme.url, record)
    assert recorded == {"run_id": "run-northwind", "status": "ACCEPTED"}
    return summary


def properties(schema: dict[str, Any]) -> dict[str, Any]:
    return dict(schema.get("properties", {}))


def test_the_tools_are_listed_with_schemas_a_model_can_read(acme: HttpServer) -> None:
    # When a host lists the tools
    async def listing(client: Client) -> list[Any]:
        return (await client.list_tools()).tools

    tools = {tool.name: tool for tool in session(acme.url, listing)}
    # Then the memory tools are there, and none that approves or rejects a procedure
    assert set(tools) == TOOLS
    for tool in tools.values():
        assert tool.description
        # Every argument is described, and none names a tenant or an agent
        for name, schema in properties(tool.input_schema).items():
            assert schema.get("description"), f"{tool.name}.{name}"
        text = json.dumps(tool.input_schema)
        assert "tenant" not in text and "agent_id" not in text, tool.name
    assert tools["memory_context"].input_schema["required"] == ["task"]
    limit = properties(tools["search_memory"].input_schema)["limit"]
    assert (limit["minimum"], limit["maximum"]) == (1, 50)
    outcome = properties(tools["record_run"].input_schema)["outcome"]
    assert outcome["enum"] == ["COMPLETED", "PARTIAL", "FAILED"]
    # The run's parts are described by the RunFinished contract itself
    artifacts = json.dumps(properties(tools["record_run"].input_schema)["artifacts"])
    assert "key_findings" in artifacts and "$ref" not in artifacts
    assert tools["memory_context"].annotations is not None
    assert tools["memory_context"].annotations.read_only_hint is True


# A host sends tools/list into every conversation: its whole JSON stays under this.
MAX_TOOLS_LIST_CHARS = 8_000


def undescribed(schema: Any, where: str) -> list[str]:
    """The properties of ``schema``, at every level, that have no description (by path)."""
    if not isinstance(schema, dict):
        return []
    missing: list[str] = []
    for name, part in schema.get("properties", {}).items():
        if not part.get("description"):
            missing.append(f"{where}.{name}")
        missing += undescribed(part, f"{where}.{name}")
    missing += undescribed(schema.get("items"), f"{where}[]")
    return missing


def test_tools_list_is_short_and_describes_every_field(acme: HttpServer) -> None:
    # When a host lists the tools, in a bare request as it goes on the wire
    reply, _ = post(acme.url, {"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    listed = json.dumps(reply["result"], separators=(",", ":"), ensure_ascii=False)
    tools = reply["result"]["tools"]
    # Then the whole listing is short
    assert len(listed) < MAX_TOOLS_LIST_CHARS, len(listed)
    assert {tool["name"] for tool in tools} == TOOLS
    # And every property at every level is described, each description one plain paragraph
    for tool in tools:
        assert undescribed(tool["inputSchema"], tool["name"]) == []
        texts = re.findall(r'"description": "((?:[^"\\]|\\.)*)"', json.dumps(tool))
        for text in [tool["description"], *texts]:
            assert text and "\\n" not in text and "  " not in text, (tool["name"], text)
    # And the run's parts are hand-kept: messages as {role, content}, artifacts by field
    [record_run] = [tool for tool in tools if tool["name"] == "record_run"]
    parts = record_run["inputSchema"]["properties"]
    assert set(parts["messages"]["items"]["properties"]) == {"role", "content"}
    assert {"task_summary", "key_findings", "facts", "procedure"} <= set(
        parts["artifacts"]["properties"]
    )


@pytest.mark.parametrize(
    ("tool", "arguments", "field"),
    [
        ("memory_context", {}, "task"),
        ("memory_context", {"task": "   "}, "task"),
        ("memory_context", {"task": TASK, "task_type": "contract review"}, "task_type"),
        ("search_memory", {"query": "liability", "limit": 0}, "limit"),
        ("record_run", {"task": TASK, "outcome": "DONE"}, "outcome"),
        ("record_run", {"task": TASK, "run_id": "run 1"}, "run_id"),
        (
            "record_run",
            {"task": TASK, "artifacts": {"facts": [{"content": "x", "confidence": 2}]}},
            "artifacts.facts[0].confidence",
        ),
        ("record_run", {"task": TASK, "procedure_id": "proc-1"}, "procedure_succeeded"),
        (
            "record_run",
            {
                "task": TASK,
                "messages": [{"role": "human", "content": "x"}, {"role": "robot", "content": "x"}],
            },
            "messages[1].role",
        ),
        (
            "record_run",
            {"task": TASK, "artifacts": {"procedure": {"title": "t"}}},
            "artifacts.procedure.steps",
        ),
        ("report_procedure_result", {"procedure_id": "proc-1", "task": TASK}, "succeeded"),
    ],
)
def test_a_bad_argument_is_a_tool_error_naming_the_field(
    acme: HttpServer, tool: str, arguments: dict[str, Any], field: str
) -> None:
    # When a tool is called with an argument it refuses
    async def call(client: Client) -> Any:
        return await client.call_tool(tool, arguments)

    result = session(acme.url, call)
    # Then the result is a tool error naming the field and what to send instead
    assert result.is_error
    text = text_of(result)
    assert f"invalid argument {field}:" in text
    assert "; send " in text
    assert "Traceback" not in text and "pydantic" not in text


def test_a_recorded_run_comes_back_in_the_context_and_in_search(
    acme: HttpServer, northwind: dict[str, Any]
) -> None:
    # Given the Northwind run, recorded and consolidated
    assert northwind["status"] == "CONSOLIDATED" and northwind["episode"] == "written"

    # When a similar task starts, and memory is searched
    async def scenario(client: Client) -> tuple[Any, Any, str]:
        context = await client.call_tool("memory_context", {"task": TASK})
        found = await client.call_tool("search_memory", {"query": "liability cap", "limit": 3})
        return context, found, await read_text(client, "memory://context")

    context, found, current = session(acme.url, scenario)
    # Then the context names the finding, in a block with its guidance
    assert not context.is_error
    assert FINDING in text_of(context)
    assert context.structured_content["context_guidance"] in text_of(context)
    episode = context.structured_content["episodes"][0]
    assert (episode["run_id"], episode["agent_id"]) == ("run-northwind", "reviewer")
    # And the search finds the run, naming its author
    assert [(e["run_id"], e["agent_id"]) for e in found.structured_content["episodes"]] == [
        ("run-northwind", "reviewer")
    ]
    # And the current-context resource is the context just served
    assert current == text_of(context)


def test_a_task_context_resource_and_the_start_task_prompt(
    acme: HttpServer, northwind: dict[str, Any]
) -> None:
    # When a host reads a task's context and gets the start_task prompt
    async def scenario(client: Client) -> tuple[str, Any, Any, Any]:
        resource = await read_text(client, "memory://context/Review%20the%20Tailspin%20MSA")
        prompts = (await client.list_prompts()).prompts
        prompt = await client.get_prompt("start_task", {"task": TASK})
        templates = (await client.list_resource_templates()).resource_templates
        return resource, prompts, prompt, templates

    resource, prompts, prompt, templates = session(acme.url, scenario)
    # Then the resource holds the remembered finding
    assert FINDING in resource
    assert {t.uri_template for t in templates} == {
        "memory://context/{task}",
        "memory://procedures/{procedure_id}",
        "memory://runs/{run_id}",
    }
    # And the prompt gives the guidance, the memory block, then the task, in that order
    (start_task,) = [p for p in prompts if p.name == "start_task"]
    assert [(a.name, a.required) for a in start_task.arguments or []] == [
        ("task", True),
        ("task_type", False),
    ]
    texts = [m.content.text for m in prompt.messages if m.content.type == "text"]
    assert len(texts) == 3
    assert "[MEMORY CONTEXT" in texts[1] and FINDING in texts[1]
    assert texts[2].startswith(TASK)


def test_procedure_feedback_counts_once_approved_by_a_person(
    acme: HttpServer, store: Path, northwind: dict[str, Any]
) -> None:
    # Given the procedure the Northwind run proposed, pending review
    procedure_id = northwind["procedure_proposed"]

    async def pending(client: Client) -> Any:
        return await client.call_tool("list_pending_procedures", {})

    listed = session(acme.url, pending).structured_content["procedures"]
    assert [p["procedure_id"] for p in listed] == [procedure_id]
    # And a person approves it (outside the MCP server: no tool can)
    approve = [*mcp_args(store, "acme", "reviewer")[:4], "procedures", "approve", procedure_id]
    done = subprocess.run(
        [sys.executable, *approve, "--reviewer", "legal-lead"],
        capture_output=True,
        text=True,
        env={**os.environ, **server_env()},
        timeout=120,
    )
    assert done.returncode == 0, done.stderr

    # When two runs are served the procedure: one records its success with the run, the
    # other reports a failure on its own
    async def runs(client: Client) -> tuple[Any, Any, str, dict[str, Any]]:
        listed = {tool.name: tool for tool in (await client.list_tools()).tools}
        served = await client.call_tool(
            "memory_context", {"task": TASK, "task_type": "contract_review"}
        )
        first = await client.call_tool(
            "record_run",
            {
                "task": TASK,
                "run_id": "run-tailspin",
                "task_type": "contract_review",
                "procedure_id": procedure_id,
                "procedure_succeeded": True,
            },
        )
        await consolidated(client, "run-tailspin")
        await client.call_tool("memory_context", {"task": TASK, "task_type": "contract_review"})
        second = await client.call_tool(
            "report_procedure_result",
            {
                "procedure_id": procedure_id,
                "succeeded": False,
                "task": TASK,
                "run_id": "run-contoso",
                "task_type": "contract_review",
            },
        )
        reports.append(await consolidated(client, "run-contoso"))
        reports.append(
            await client.call_tool("memory_context", {"task": TASK, "task_type": "contract_review"})
        )
        return (
            served,
            (first, second),
            await read_text(client, f"memory://procedures/{procedure_id}"),
            listed,
        )

    reports: list[Any] = []
    served, recorded, procedure, tools = session(acme.url, runs)
    assert served.structured_content["procedure"]["procedure_id"] == procedure_id
    assert "receipt" not in served.structured_content["procedure"]
    # And the block speaks of this server's tools only: no event field, no receipt
    [line] = [x for x in text_of(served).splitlines() if f"(procedure_id: {procedure_id}; " in x]
    assert "report_procedure_result" in line and "record_run" in line
    assert "receipt" not in line and "procedure_feedback" not in line
    named = set(re.findall(r"[a-z]+(?:_[a-z]+)+", line))
    assert named <= TOOLS | set(properties(tools["record_run"].input_schema)), named
    assert [r.structured_content["status"] for r in recorded] == ["ACCEPTED", "ACCEPTED"]
    # Then both reports count (the client attached each serving's receipt)
    view = json.loads(procedure)
    assert (view["times_applied"], view["times_succeeded"]) == (2, 1)
    # And the reports wrote no episode: the next context for the task serves neither run
    reported, after = reports
    assert reported["episode"] == "not kept"
    assert reported["procedure_feedback"] is not None
    runs_served = {e["run_id"] for e in after.structured_content["episodes"]}
    assert runs_served.isdisjoint({"run-tailspin", "run-contoso"}), runs_served


def test_another_tenants_server_sees_nothing_of_the_first(
    globex: HttpServer, northwind: dict[str, Any]
) -> None:
    # Given acme's run and procedure in the store globex's server uses too
    procedure_id = northwind["procedure_proposed"]

    # When globex's server is asked for the same task, searched, and asked for the procedure
    # (the model even naming acme's tenant and agent in its arguments)
    asking = {"tenant_id": "acme", "agent_id": "reviewer"}

    async def scenario(client: Client) -> tuple[Any, Any, Any, str]:
        context = await client.call_tool("memory_context", {"task": TASK, **asking})
        found = await client.call_tool(
            "search_memory", {"query": "Northwind liability cap", **asking}
        )
        pending = await client.call_tool("list_pending_procedures", {})
        try:
            await read_text(client, f"memory://procedures/{procedure_id}")
        except MCPError as error:
            return context, found, pending, str(error)
        return context, found, pending, "read"

    context, found, pending, procedure = session(globex.url, scenario)
    # Then it sees nothing of acme's
    assert context.structured_content["context"] == ""
    assert context.structured_content["episodes"] == []
    assert FINDING not in text_of(context)
    assert found.structured_content == {"episodes": [], "facts": []}
    assert pending.structured_content == {"procedures": []}
    assert f"no procedure {procedure_id!r}" in procedure


def test_a_run_the_server_did_not_record_is_unknown(acme: HttpServer) -> None:
    async def scenario(client: Client) -> dict[str, Any]:
        return dict(json.loads(await read_text(client, "memory://runs/run-elsewhere")))

    assert session(acme.url, scenario) == {"run_id": "run-elsewhere", "status": "UNKNOWN"}


def post(url: str, message: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """One JSON-RPC request as a bare HTTP POST: its reply and the response's headers."""
    request = urllib.request.Request(
        url,
        data=json.dumps(message).encode(),
        headers={
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read()), {k.lower(): v for k, v in response.headers.items()}


def test_http_is_stateless_any_request_stands_alone(acme: HttpServer) -> None:
    # When a tool is called in a bare POST, with no handshake and no session before it
    reply, headers = post(
        acme.url,
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "search_memory", "arguments": {"query": "liability cap"}},
        },
    )
    # Then it is answered, and no session id is handed out to come back with
    assert reply["id"] == 7 and reply["result"]["isError"] is False
    assert "mcp-session-id" not in headers
    assert acme.url.startswith("http://127.0.0.1:")


def test_a_second_instance_on_the_store_answers_alike(
    store: Path, northwind: dict[str, Any]
) -> None:
    # Given another server process of the same tenant and agent on the same store
    with http_server(store, "acme", "reviewer") as other:
        # When it is asked for the context of the task
        async def scenario(client: Client) -> Any:
            return await client.call_tool("memory_context", {"task": TASK})

        context = session(other.url, scenario)
    # Then it serves the run the first instance recorded
    assert FINDING in text_of(context)


def test_a_stopped_http_server_consolidates_its_queued_runs_first(tmp_path: Path) -> None:
    store = tmp_path / "store"
    # Given a server that records a run and is stopped at once (SIGTERM), its run still queued
    with http_server(store, "acme", "reviewer") as first:

        async def record(client: Client) -> Any:
            await client.call_tool("memory_context", {"task": TASK})
            return await client.call_tool("record_run", NORTHWIND)

        recorded = session(first.url, record)
    assert recorded.structured_content["status"] == "ACCEPTED"
    assert first.process.returncode == 0, "".join(first.stderr)

    # When a server reading the agent's team (the agent included) is asked for the task
    with http_server(store, "acme", "reviewer", "--scope", "team", "--team", "writer") as second:

        async def context(client: Client) -> Any:
            return await client.call_tool("memory_context", {"task": TASK})

        served = session(second.url, context)
    # Then the run was consolidated before the first server exited
    assert FINDING in text_of(served)


@pytest.mark.parametrize("arguments", [{}, {"task": "   "}])
def test_the_prompt_without_a_task_is_refused_naming_it(
    acme: HttpServer, arguments: dict[str, str]
) -> None:
    # When the prompt is asked for with no task, or a blank one
    async def scenario(client: Client) -> str:
        try:
            await client.get_prompt("start_task", arguments)
        except MCPError as error:
            return error.error.message
        return "rendered"

    # Then the host is told which argument to give
    assert session(acme.url, scenario).startswith("invalid argument task:")


def test_a_fact_a_run_reported_is_read_with_its_confirmations(acme: HttpServer) -> None:
    # Given a run reporting a domain fact, recorded through the server and consolidated
    fact = "Liability caps below 1x annual fees are a red flag"
    run = {
        **NORTHWIND,
        "run_id": "run-fact",
        "artifacts": {**NORTHWIND["artifacts"], "facts": [{"content": fact, "confidence": 0.9}]},
    }

    # When the fact is asked for by its hash, and a hash the domain does not hold
    async def scenario(client: Client) -> tuple[Any, Any]:
        await client.call_tool("record_run", run)
        await consolidated(client, "run-fact")
        arguments = {"fact_hash": fact_hash(fact), "domain": "contract_law"}
        found = await client.call_tool("get_fact", arguments)
        missing = await client.call_tool("get_fact", {**arguments, "fact_hash": "f" * 32})
        return found, missing

    found, missing = session(acme.url, scenario)
    # Then the first is the pending fact one run saw, served from nowhere yet; the second none
    assert found.structured_content == {
        "found": True,
        "content": fact,
        "status": "PENDING",
        "confirmations": 1,
        "sightings": 1,
        "confirmed_by_agents": ["reviewer"],
        "served_from": None,
    }
    assert missing.structured_content["found"] is False
