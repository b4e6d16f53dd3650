"""The MCP server reads a tool's arguments within bounds: arguments nested past 64 levels are
refused naming the argument, with nothing recorded; a request nested deeper than the transport
reads (its parser stops near 200 levels) is answered with an error under its id, not dropped.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mcp.client import Client
from mcp_types import INVALID_PARAMS, PARSE_ERROR

from agent_memory.core.api.json_input import MAX_DEPTH
from agent_memory.integrations.mcp import build_server, identity_of
from agent_memory.integrations.mcp.unreadable import request_id
from tests.mcp.servers import mcp_args, server_env, text_of
from tests.sdk.conftest import make_local
from tests.support.hostile import TOO_DEEP, nested
from tests.support.ledger import ledger_contents

# The event (1), messages (2), the message (3), tool_calls (4) and the call (5) hold the args.
ROOM = MAX_DEPTH - 5


def recorded_with_args(args: Any) -> dict[str, Any]:
    return {
        "task": "Review the Northwind MSA",
        "messages": [
            {"role": "human", "content": "Review the Northwind MSA"},
            {"role": "ai", "content": None, "tool_calls": [{"id": "c", "name": "f", "args": args}]},
        ],
    }


@settings(max_examples=15, deadline=None)
@given(
    levels=st.sampled_from([ROOM + 1, ROOM + 2, 100, 150]),
    shape=st.lists(st.booleans(), min_size=1),
)
def test_arguments_nested_too_deep_are_refused_naming_them_and_nothing_is_recorded(
    tmp_path_factory: pytest.TempPathFactory, levels: int, shape: list[bool]
) -> None:
    # Given a server over a local memory, and a run whose tool call's arguments are nested past
    # the levels an event has left for them (the dict at their top is one)
    local = make_local(tmp_path_factory.mktemp("store"))
    server = build_server(local.client, identity_of("acme", "reviewer"))
    arguments = recorded_with_args({"q": nested(levels - 1, shape)})

    # When a host records the run
    async def scenario() -> Any:
        async with Client(server) as client:
            return await client.call_tool("record_run", arguments)

    result = anyio.run(scenario)
    local.client.close()
    # Then the tool refuses it naming the argument (before: accepted and recorded)
    assert result.is_error
    assert text_of(result).startswith(
        "Error executing tool record_run: invalid argument messages[1].tool_calls[0].args.q"
    )
    assert TOO_DEEP in text_of(result)
    assert ledger_contents(local.ports()) == []
    assert list(local.ports().episodes.list_all(now=time.time(), limit=10).items) == []


def deep_call(request_id: int, levels: int) -> str:
    """A record_run request whose arguments are ``levels`` objects deep, as JSON text."""
    args = '{"a": ' * (levels - 1) + "{}" + "}" * (levels - 1)
    return (
        f'{{"jsonrpc": "2.0", "id": {request_id}, "method": "tools/call", "params": '
        f'{{"name": "record_run", "arguments": {{"task": "Review", "messages": [{{"role": "ai", '
        f'"content": "x", "tool_calls": [{{"id": "c", "name": "f", "args": {args}}}]}}]}}}}}}'
    )


def answers_until(process: subprocess.Popen[str], *, last: int) -> dict[Any, Any]:
    """The replies on the server's stdout, by id, until the one to ``last`` (at most 120 s)."""
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    stdout = process.stdout
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    replies: dict[Any, Any] = {}
    while last not in replies:
        reply = json.loads(lines.get(timeout=120))
        replies[reply.get("id")] = reply
    return replies


def test_a_request_deeper_than_the_transport_reads_is_answered_not_dropped(
    tmp_path: Path,
) -> None:
    # Given a stdio server sent a handshake, then requests nested 300 and 10,000 levels deep
    # (past the MCP SDK's parser) and one that is not JSON, then a request it can read
    lines = [
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": {"name": "test", "version": "1"},
                },
            }
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        deep_call(2, 300),
        deep_call(3, 10_000),
        '{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"arguments": [tru]}}',
        json.dumps({"jsonrpc": "2.0", "id": 4, "method": "tools/list"}),
    ]
    # When it has answered the last one (each is answered in the order it was read)
    process = subprocess.Popen(
        [sys.executable, *mcp_args(tmp_path / "store", "acme", "reviewer")],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **server_env()},
    )
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write("".join(line + "\n" for line in lines))
    process.stdin.flush()
    replies = answers_until(process, last=4)
    process.stdin.close()
    assert process.wait(timeout=120) == 0
    # Then every request was answered (before: the deep ones never were, and a host waited)
    assert sorted(replies) == [1, 2, 3, 4, 5]
    for deep in (2, 3):
        assert replies[deep]["error"]["code"] == INVALID_PARAMS
        assert f"at most {MAX_DEPTH} levels deep" in replies[deep]["error"]["message"]
    assert replies[5]["error"]["code"] == PARSE_ERROR
    assert "result" in replies[4]


ids = st.one_of(st.integers(-(2**31), 2**31), st.text(max_size=10))


@settings(max_examples=200, deadline=None)
@given(
    found=ids,
    depth=st.integers(0, 5_000),
    order=st.permutations(["jsonrpc", "id", "method", "params"]),
    space=st.sampled_from(["", " ", "\n\t "]),
)
def test_the_id_of_a_request_is_found_whatever_its_depth_and_key_order(
    found: int | str, depth: int, order: list[str], space: str
) -> None:
    # Given a request whose params are nested ``depth`` lists deep, its keys in any order
    parts = {
        "jsonrpc": '"2.0"',
        "id": json.dumps(found),
        "method": '"tools/call"',
        "params": '{"x": ' + "[" * depth + '"]}[{\\""' + "]" * depth + "}",
    }
    line = "{" + f",{space}".join(f'"{k}":{space}{parts[k]}' for k in order) + "}"
    # Then its id is found without parsing the params
    assert request_id(line) == found


@pytest.mark.parametrize(
    "line",
    [
        '{"jsonrpc": "2.0", "method": "notifications/initialized"}',
        '{"jsonrpc": "2.0", "id": 1, "result": {}}',
        '[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]',
        '{"jsonrpc": "2.0", "id": [1], "method": "ping"}',
        '{"jsonrpc": "2.0", "id": 1, "method": "ping"',
        "not json",
    ],
)
def test_no_id_is_made_up_for_what_is_not_a_request(line: str) -> None:
    assert request_id(line) is None
