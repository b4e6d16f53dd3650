"""The Python SDK: one client over the embedded memory and a deployed AWS stack.

Example (local mode, in a scratch store created on first use)::

    import tempfile

    from agent_memory.sdk import MemoryClient

    with MemoryClient.local(tempfile.mkdtemp()) as memory:
        handle = memory.finish_run(
            tenant_id="acme", agent_id="reviewer", run_id="run-0001",
            task="Review the Northwind MSA for liability risk.", outcome="COMPLETED",
            artifacts={"key_findings": ["Clause 7.3 caps liability at 0.5x annual fees"]},
        )
        handle.wait()
        reply = memory.bootstrap("acme", "reviewer", "Review the Tailspin MSA liability cap")
        print(reply["context"])  # [MEMORY CONTEXT ...] with the Northwind run

On AWS, ``MemoryClient.aws_from_stack()`` (or ``aws(...)``, ``aws_from_env()``) gives the same
interface over the deployed bus and functions. See ``docs/sdk.md``.
"""

from agent_memory.sdk.aio import AsyncMemoryClient
from agent_memory.sdk.aws import RetryPolicy
from agent_memory.sdk.client import MemoryClient
from agent_memory.sdk.errors import (
    ClientClosedError,
    ConfigurationError,
    ConflictError,
    ConsolidationError,
    EventTooLargeError,
    ForbiddenError,
    InvalidInputError,
    MemoryClientError,
    MissingCredentialsError,
    MissingExtraError,
    MissingRegionError,
    NotFoundError,
    NotSetUpError,
    PublishError,
    RemoteFunctionError,
    StoreUnavailableError,
)
from agent_memory.sdk.handles import AsyncRunHandle, RunHandle
from agent_memory.sdk.types import (
    BootstrapReply,
    EpisodeView,
    FactView,
    ProcedureView,
    RunResult,
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
