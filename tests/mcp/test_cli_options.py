"""``agent-memory mcp``'s options: refused in one line before any memory is opened."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from agent_memory.cli import commands_mcp
from agent_memory.cli.main import _parser, main
from agent_memory.integrations import mcp
from tests.e2e.test_cli_help import loaded_after


def test_the_parser_defaults_are_the_servers() -> None:
    # The parser states them without importing the MCP server; they must not drift.
    assert (commands_mcp.DEFAULT_HOST, commands_mcp.DEFAULT_PORT) == (
        mcp.DEFAULT_HOST,
        mcp.DEFAULT_PORT,
    )
    assert mcp.DEFAULT_HOST == "127.0.0.1"


def test_help_loads_no_mcp_sdk() -> None:
    # When the command's help is printed in a fresh interpreter
    code, modules = loaded_after("mcp", "--help")
    # Then neither the MCP SDK nor the server was imported
    assert code == 0
    assert not {m for m in modules if m == "mcp" or m.startswith(("mcp.", "agent_memory.sdk"))}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--tenant", "acme corp", "--agent", "reviewer"], "--tenant: 'acme corp' is not a"),
        (["--tenant", "acme", "--agent", "rev/1"], "--agent: 'rev/1' is not a valid agent id"),
        (["--tenant", "acme", "--agent", "reviewer", "--scope", "team"], "--team: required"),
        (
            ["--tenant", "acme", "--agent", "reviewer", "--scope", "team", "--team", "a,b c"],
            "--team: 'b c' is not a valid agent id",
        ),
        (
            ["--tenant", "acme", "--agent", "reviewer", "--team", "a"],
            "--team: given with scope 'agent'",
        ),
        (["--tenant", "acme", "--agent", "reviewer", "--port", "9000"], "go with --http"),
        (
            ["--tenant", "acme", "--agent", "reviewer", "--aws-stack", "AgentMemory"],
            "--store and --aws-stack name two different memories",
        ),
        (
            ["--tenant", "acme", "--agent", "reviewer", "--http", "--port", "70000"],
            "--port must be from 0 to 65535",
        ),
    ],
)
def test_a_bad_option_is_refused_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    store = tmp_path / "store"
    # When the server is started with a bad option
    code = main(["--store", str(store), "mcp", *options])
    # Then it exits 2 with one line naming it, and no store was created
    err = capsys.readouterr().err
    assert code == 2
    assert message in err and err.count("\n") == 1
    assert not store.exists()


def test_a_port_in_use_is_refused_before_the_memory_opens(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Given a port another process listens on
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = str(taken.getsockname()[1])
        store = tmp_path / "store"
        # When the server is asked to listen there
        argv = ["--store", str(store), "mcp", "--tenant", "acme", "--agent", "reviewer"]
        code = main([*argv, "--http", "--port", port])
    # Then it says so, and opened no memory
    assert code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in capsys.readouterr().err
    assert not store.exists()


def test_the_documented_host_config_starts_this_server() -> None:
    # Given the copy-paste host configuration of docs/mcp.md
    text = (Path(__file__).parents[2] / "docs" / "mcp.md").read_text()
    block = text.split("```json\n", 1)[1].split("```", 1)[0]
    server = json.loads(block)["mcpServers"]["agent-memory"]
    # When its arguments are parsed as the command's
    args = _parser().parse_args(server["args"])
    # Then they start the MCP server of one tenant and agent, on stdio
    assert server["command"].endswith("/agent-memory")
    assert (args.command, args.tenant, args.agent, args.http) == ("mcp", "acme", "assistant", False)
    assert args.serve is commands_mcp.serve
