"""agent-memory as an MCP server (``pip install 'agent-memory[mcp]'``): see :mod:`.server`."""

try:
    import mcp.server  # noqa: F401  (the extra, checked before the modules that use it)
except ImportError as error:
    raise ImportError(
        "agent_memory.integrations.mcp needs the MCP SDK: pip install 'agent-memory[mcp]'",
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
