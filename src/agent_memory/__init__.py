"""agent-memory: four-tier memory for LLM agents, embedded or on AWS.

Everything an application uses is importable from here (the SDK's names, loaded on first
use, so ``import agent_memory`` alone loads nothing)::

    from agent_memory import MemoryClient

    with MemoryClient.local() as memory:
        reply = memory.bootstrap("acme", "reviewer", "Review the Tailspin MSA liability cap")
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agent_memory.sdk import (
        AsyncMemoryClient,
        AsyncRunHandle,
        BootstrapReply,
        ClientClosedError,
        ConfigurationError,
        ConflictError,
        ConsolidationError,
        EpisodeView,
        EventTooLargeError,
        FactView,
        ForbiddenError,
        InvalidInputError,
        MemoryClient,
        MemoryClientError,
        MissingCredentialsError,
        MissingExtraError,
        MissingRegionError,
        NotFoundError,
        NotSetUpError,
        ProcedureView,
        PublishError,
        RemoteFunctionError,
        RetryPolicy,
        RunHandle,
        RunResult,
        StoreUnavailableError,
    )

__all__ = [
    "AsyncMemoryClient",
    "AsyncRunHandle",
    "BootstrapReply",
    "ClientClosedError",
    "ConfigurationError",
    "ConflictError",
    "ConsolidationError",
    "EpisodeView",
    "EventTooLargeError",
    "FactView",
    "ForbiddenError",
    "InvalidInputError",
    "MemoryClient",
    "MemoryClientError",
    "MissingCredentialsError",
    "MissingExtraError",
    "MissingRegionError",
    "NotFoundError",
    "NotSetUpError",
    "ProcedureView",
    "PublishError",
    "RemoteFunctionError",
    "RetryPolicy",
    "RunHandle",
    "RunResult",
    "StoreUnavailableError",
]


def __getattr__(name: str) -> Any:
    """An SDK name, imported when first asked for (``from agent_memory import MemoryClient``)."""
    if name in __all__:
        return getattr(importlib.import_module("agent_memory.sdk"), name)
    raise AttributeError(f"module 'agent_memory' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
