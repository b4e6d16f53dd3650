"""The README's copy-paste MCP host configuration, started the way a host starts it."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from tests.mcp.servers import consolidated, server_env, session, text_of
from tests.mcp.test_http_server import FINDING, NORTHWIND, TASK

pytestmark = pytest.mark.slow

README = Path(__file__).parents[2] / "README.md"
# The README's example paths, which a user replaces with theirs.
EXAMPLE_COMMAND = "/home/you/agent-memory/.venv/bin/agent-memory"
EXAMPLE_STORE = "/home/you/.agent-memory"


def readme_server() -> dict[str, Any]:
    """The ``agent-memory`` entry of the README's ``mcpServers`` block."""
    blocks = [b.split("```", 1)[0] for b in README.read_text().split("```json\n")[1:]]
    (config,) = [json.loads(b) for b in blocks if '"mcpServers"' in b]
    server: dict[str, Any] = config["mcpServers"]["agent-memory"]
    return server


def test_a_host_configured_from_the_readme_gets_context_and_records_runs(tmp_path: Path) -> None:
    # Given the README's host configuration with this machine's paths put in, as a user does
    server = readme_server()
    assert server["command"] == EXAMPLE_COMMAND and EXAMPLE_STORE in server["args"]
    command = shutil.which("agent-memory", path=str(Path(sys.executable).parent))
    assert command is not None, "the agent-memory command is installed beside this Python"
    args = [str(tmp_path / "store") if a == EXAMPLE_STORE else a for a in server["args"]]
    host = StdioServerParameters(command=command, args=args, env=server_env())

    # When the host records a finished run, then asks for the context of a similar task
    async def scenario(client: Client) -> tuple[Any, Any]:
        recorded = await client.call_tool("record_run", NORTHWIND)
        await consolidated(client, NORTHWIND["run_id"])
        return recorded, await client.call_tool("memory_context", {"task": TASK})

    recorded, context = session(host, scenario)

    # Then the run was accepted and the context carries what it learned
    assert not recorded.is_error
    assert not context.is_error and FINDING in text_of(context)
