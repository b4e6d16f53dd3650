"""``agent-memory mcp``: serve memory to an MCP host (stdio by default, or Streamable HTTP).

Example::

    agent-memory --store ./mem mcp --tenant acme --agent reviewer
    agent-memory mcp --tenant acme --agent reviewer --http --port 8000
    agent-memory --aws-stack AgentMemory mcp --tenant acme --agent reviewer
"""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_memory.integrations.mcp import ServerIdentity
    from agent_memory.sdk import MemoryClient

# argparse exports no public name for the subparsers' type.
SubParsers = argparse._SubParsersAction
# Literals here so that building the parser imports no MCP code (a test holds them equal).
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def register(
    commands: SubParsers[argparse.ArgumentParser],
    groups: Mapping[str, SubParsers[argparse.ArgumentParser]],
) -> None:
    """Add ``mcp`` to the ``agent-memory`` commands."""
    del groups
    mcp = commands.add_parser(
        "mcp",
        help="serve memory to an MCP host (stdio, or Streamable HTTP with --http)",
        description="Serve one tenant's memory, for one agent, over the Model Context Protocol: "
        "tools memory_context, search_memory, record_run, report_procedure_result and "
        "list_pending_procedures; resources memory://context, memory://context/{task}, "
        "memory://procedures/{id} and memory://runs/{id}; the prompt start_task. Tenant and "
        "agent come from these options only, never from a tool's arguments.",
    )
    mcp.add_argument("--tenant", required=True, help="the tenant id (fixed for the server)")
    mcp.add_argument("--agent", required=True, help="the agent id (fixed for the server)")
    mcp.add_argument(
        "--http",
        action="store_true",
        help="serve Streamable HTTP (stateless, at /mcp) instead of stdio",
    )
    mcp.add_argument(
        "--host", default=DEFAULT_HOST, help=f"with --http: the address (default {DEFAULT_HOST})"
    )
    mcp.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"with --http: the port (default {DEFAULT_PORT}; 0 picks a free one)",
    )
    mcp.add_argument(
        "--scope",
        choices=["agent", "team", "tenant"],
        default="agent",
        help="whose past runs the reads see: this agent's (default), the --team's, the tenant's",
    )
    mcp.add_argument(
        "--team", metavar="A,B", help="with --scope team: the other agents, comma-separated"
    )
    # Also after the command; unset here, they leave the ones given before it alone.
    mcp.add_argument(
        "--aws-stack",
        metavar="NAME",
        default=argparse.SUPPRESS,
        help="serve the memory of this deployed stack instead, with your AWS credentials",
    )
    mcp.add_argument("--region", default=argparse.SUPPRESS, help="the stack's AWS region")
    mcp.set_defaults(handler=None, serve=serve)


def serve(args: argparse.Namespace) -> int:
    """Run the server until the host disconnects (stdio) or a signal stops it (HTTP)."""
    from agent_memory.cli.shared import UsageError

    identity = _identity(args)
    if args.aws_stack and args.store:
        raise UsageError("--store and --aws-stack name two different memories: give one")
    if not args.http and (args.host != DEFAULT_HOST or args.port != DEFAULT_PORT):
        raise UsageError("--host and --port go with --http (stdio needs neither)")
    sock = _listen(args.host, args.port) if args.http else None
    from agent_memory.integrations.mcp import build_server, serve_http, serve_stdio

    # A host or a supervisor stops the server with SIGTERM: leave through the with below, as
    # on the end of stdin (uvicorn, stopping gracefully, raises the signal again once done).
    signal.signal(signal.SIGTERM, _stop)
    with _memory(args) as memory:  # closing it consolidates the runs still queued
        if not args.aws_stack:
            _warm(memory, identity)
        server = build_server(memory, identity)
        if sock is not None:
            serve_http(server, sock)
        else:
            serve_stdio(server)
    return 0


def _identity(args: argparse.Namespace) -> ServerIdentity:
    """The tenant, agent and scope, checked as every request will be (before anything opens)."""
    from agent_memory.app.wire import bootstrap_message
    from agent_memory.core.model.errors import InvalidInput
    from agent_memory.core.model.identifiers import checked_id
    from agent_memory.integrations.mcp import identity_of

    checked_id(args.tenant, "--tenant", "tenant id")
    checked_id(args.agent, "--agent", "valid agent id")
    team = [a.strip() for a in args.team.split(",")] if args.team else None
    for member in team or ():
        checked_id(member, "--team", "valid agent id")
    request: dict[str, Any] = {"tenant_id": args.tenant, "agent_id": args.agent, "task": "-"}
    if args.scope != "agent":
        request["scope"] = args.scope
    if team is not None:
        request["team"] = team
    fields = {"scope": "--scope", "team": "--team"}
    try:
        bootstrap_message(request)
    except InvalidInput as error:
        field = error.field.split(".", 1)[0].split("[", 1)[0]
        message = error.message.removeprefix("Value error, ")
        raise InvalidInput(fields.get(field, error.field), message) from None
    return identity_of(args.tenant, args.agent, args.scope, team)


def _listen(host: str, port: int) -> Any:
    from agent_memory.cli.shared import UsageError
    from agent_memory.integrations.mcp import bind

    if not 0 <= port <= 65535:
        raise UsageError(f"--port must be from 0 to 65535, not {port}")
    try:
        sock = bind(host, port)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    if not _loopback(host):
        print(
            f"agent-memory: warning: serving on {host}, beyond this machine, without "
            "authentication: put it behind an authenticating proxy",
            file=sys.stderr,
        )
    return sock


def _loopback(host: str) -> bool:
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def _memory(args: argparse.Namespace) -> MemoryClient:
    from agent_memory.sdk import MemoryClient

    if args.aws_stack:
        return MemoryClient.aws_from_stack(args.aws_stack, region=args.region)
    return MemoryClient.local(args.store)


def _warm(memory: MemoryClient, identity: ServerIdentity) -> None:
    """Load the local models in the background while the host connects: the first tool call
    is then answered at once, and a run recorded early is consolidated in the short grace a
    host gives a server it stops (the SDK's stdio client: 2 s before SIGTERM).
    """
    import threading

    def read() -> None:
        try:
            memory.search(identity.tenant_id, identity.agent_id, "warm up", **identity.read_scope())
        except Exception as error:  # the first tool call will report it, with its context
            print(f"agent-memory: warning: loading the memory failed: {error}", file=sys.stderr)

    threading.Thread(target=read, name="agent-memory-warm", daemon=True).start()


def _stop(signum: int, frame: object) -> None:
    # Being stopped is how a server ends: a success, once its queued runs are consolidated.
    raise SystemExit(0)
