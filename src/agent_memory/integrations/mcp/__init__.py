"""agent-memory as an MCP server (its ``mcp`` extra): see :mod:`.server`."""

try:
    import mcp.server  # noqa: F401  (the extra, checked before the modules that use it)
except ImportError as error:
    from agent_memory.adapters.install import install_command

    raise ImportError(
        f"agent_memory.integrations.mcp needs the MCP SDK: {install_command('mcp')}",
        name=error.name,
    ) from error

from agent_memory.integrations.mcp.server import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    HTTP_PATH,
    MemoryMCPServer,
    bind,
    build_server,
    serve_http,
    serve_stdio,
)
from agent_memory.integrations.mcp.state import ServerIdentity, identity_of

__all__ = [
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "HTTP_PATH",
    "MemoryMCPServer",
    "ServerIdentity",
    "bind",
    "build_server",
    "identity_of",
    "serve_http",
    "serve_stdio",
]
