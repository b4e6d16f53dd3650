"""A tool's arguments refused with every problem named, and a misspelt argument name answered
with the argument it meant.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client

from agent_memory.integrations.mcp import build_server, identity_of
from tests.mcp.servers import text_of
from tests.sdk.conftest import make_local


def _call(store: Path, tool: str, arguments: dict[str, Any]) -> Any:
    local = make_local(store)
    server = build_server(local.client, identity_of("acme", "reviewer"))

    async def scenario() -> Any:
        async with Client(server) as client:
            return await client.call_tool(tool, arguments)

    try:
        return anyio.run(scenario)
    finally:
        local.client.close()


def test_a_misspelt_argument_names_the_one_it_meant(tmp_path: Path) -> None:
    # Given a host that sends "tsk" for memory_context's task
    # When it calls the tool
    result = _call(tmp_path / "store", "memory_context", {"tsk": "Review the Northwind MSA"})
    # Then the error names the typo and the argument it meant, and not "task is required" too
    assert result.is_error
    text = text_of(result)
    assert "invalid argument tsk: unknown field; did you mean task?" in text, text
    assert "task: is required" not in text


def test_every_refused_event_field_is_named(tmp_path: Path) -> None:
    # Given a run with a misspelt artifacts field and a bad fact
    arguments = {
        "task": "Review the Northwind MSA",
        "artifacts": {"task_sumary": "x", "facts": [{"content": "c", "confidence": 3}]},
    }
    # When the host records it
    result = _call(tmp_path / "store", "record_run", arguments)
    # Then both problems are named by their paths, the typo with its field
    text = text_of(result)
    assert result.is_error
    assert "artifacts.task_sumary: unknown field; did you mean task_summary?" in text, text
    assert "artifacts.facts[0].confidence" in text, text
