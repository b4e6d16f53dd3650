"""The MCP server as a host runs it: ``agent-memory mcp`` in a process of its own, reached by
the MCP SDK's own client over stdio or Streamable HTTP.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp_types import CallToolResult, TextResourceContents

import agent_memory

T = TypeVar("T")
# The tree under test (not an installed copy) and the repository root (for tests.*).
SOURCE = str(Path(agent_memory.__file__).resolve().parents[1])
READY = "agent-memory MCP server on "


def server_env() -> dict[str, str]:
    """The server process's environment: this tree's code, offline models, no LLM."""
    path = os.pathsep.join(p for p in (SOURCE, os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}


def mcp_args(store: Path, tenant: str, agent: str, *options: str) -> list[str]:
    """``python -m agent_memory.cli``'s arguments for a server of ``tenant``/``agent``."""
    return [
        "-m",
        "agent_memory.cli",
        "--store",
        str(store),
        "mcp",
        "--tenant",
        tenant,
        "--agent",
        agent,
        *options,
    ]


def stdio_server(store: Path, tenant: str = "acme", agent: str = "reviewer") -> Any:
    """What the stdio client spawns: the server over stdin/stdout."""
    return StdioServerParameters(
        command=sys.executable, args=mcp_args(store, tenant, agent), env=server_env()
    )


@dataclass
class HttpServer:
    """A server process on a free loopback port, and what it wrote on stderr."""

    process: subprocess.Popen[str]
    url: str
    stderr: list[str] = field(default_factory=list)


@contextmanager
def http_server(
    store: Path, tenant: str = "acme", agent: str = "reviewer", *options: str
) -> Iterator[HttpServer]:
    """``agent-memory mcp --http --port 0``, running until the block ends (then SIGTERM)."""
    process = subprocess.Popen(
        [sys.executable, *mcp_args(store, tenant, agent, "--http", "--port", "0", *options)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **server_env()},
    )
    assert process.stderr is not None
    lines: list[str] = []
    url = None
    for line in process.stderr:
        lines.append(line)
        if line.startswith(READY):
            url = line[len(READY) :].strip()
            break
    if url is None:
        process.wait()
        raise AssertionError(f"the server did not start: {''.join(lines)}")
    # Keep reading stderr so that the server never blocks on a full pipe.
    drain = threading.Thread(target=lambda: lines.extend(process.stderr or ()), daemon=True)
    drain.start()
    server = HttpServer(process, url, lines)
    try:
        yield server
    finally:
        process.terminate()
        process.wait(timeout=60)
        drain.join(timeout=10)


def session(server: Any, scenario: Callable[[Client], Awaitable[T]]) -> T:
    """Run ``scenario`` in one client session with ``server`` (a URL or stdio parameters)."""

    async def run() -> T:
        async with Client(server) as client:
            return await scenario(client)

    return anyio.run(run)


def text_of(result: CallToolResult) -> str:
    """The text of a tool result's first content block."""
    block = result.content[0]
    assert block.type == "text"
    return block.text


async def read_text(client: Client, uri: str) -> str:
    """The text of a resource."""
    contents = (await client.read_resource(uri)).contents
    assert isinstance(contents[0], TextResourceContents)
    return contents[0].text


# Polls of a run's status before giving up (a bound on a hang, not a timed assertion).
MAX_POLLS = 2_400


async def consolidated(client: Client, run_id: str) -> dict[str, Any]:
    """The run's status once it is no longer pending (the server consolidates in order)."""
    for _ in range(MAX_POLLS):
        status: dict[str, Any] = json.loads(await read_text(client, f"memory://runs/{run_id}"))
        if status["status"] != "PENDING":
            return status
        await anyio.sleep(0.05)
    raise AssertionError(f"run {run_id} still pending")
