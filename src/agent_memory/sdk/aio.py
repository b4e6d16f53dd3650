"""``AsyncMemoryClient``: :class:`MemoryClient` for asyncio code.

Blocking work (the embedded core, boto3 calls) runs in worker threads, so the event loop never
waits on it. Example::

    import asyncio

    from agent_memory.sdk import AsyncMemoryClient

    async def main() -> None:
        async with AsyncMemoryClient.local() as memory:
            reply = await memory.bootstrap("acme", "reviewer", "Review the Tailspin MSA")
            handle = await memory.finish_run(
                tenant_id="acme", agent_id="reviewer", run_id="run-0002",
                task="Review the Tailspin MSA",
            )
            print((await handle.wait())["status"])  # CONSOLIDATED

    asyncio.run(main())
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

from agent_memory.core.model.models import ProcedureStatus
from agent_memory.core.model.requests import Surface
from agent_memory.core.model.scope import ScopeKind
from agent_memory.sdk.client import MemoryClient, Mode
from agent_memory.sdk.handles import AsyncRunHandle
from agent_memory.sdk.types import BootstrapReply, ProcedureView, SearchReply


class AsyncMemoryClient:
    """The methods of :class:`MemoryClient` as coroutines; ``sync`` is the wrapped client."""

    def __init__(self, client: MemoryClient) -> None:
        self.sync = client

    @property
    def mode(self) -> Mode:
        """``local`` or ``aws``."""
        return self.sync.mode

    @classmethod
    def local(cls, path: str | Path | None = None, **options: Any) -> AsyncMemoryClient:
        """See :meth:`MemoryClient.local`."""
        return cls(MemoryClient.local(path, **options))

    @classmethod
    def aws(cls, **options: Any) -> AsyncMemoryClient:
        """See :meth:`MemoryClient.aws`."""
        return cls(MemoryClient.aws(**options))

    @classmethod
    def aws_from_stack(cls, stack_name: str = "AgentMemory", **options: Any) -> AsyncMemoryClient:
        """See :meth:`MemoryClient.aws_from_stack`."""
        return cls(MemoryClient.aws_from_stack(stack_name, **options))

    @classmethod
    def aws_from_env(
        cls, environ: Mapping[str, str] | None = None, **options: Any
    ) -> AsyncMemoryClient:
        """See :meth:`MemoryClient.aws_from_env`."""
        return cls(MemoryClient.aws_from_env(environ, **options))

    async def bootstrap(
        self,
        tenant_id: str,
        agent_id: str,
        task: str,
        *,
        task_type: str | None = None,
        domain: str | None = None,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        surface: Surface = "sdk",
    ) -> BootstrapReply:
        """See :meth:`MemoryClient.bootstrap`."""
        return await asyncio.to_thread(
            self.sync.bootstrap,
            tenant_id,
            agent_id,
            task,
            task_type=task_type,
            domain=domain,
            scope=scope,
            team=team,
            surface=surface,
        )

    async def search(
        self,
        tenant_id: str,
        agent_id: str,
        query: str,
        *,
        domain: str | None = None,
        scope: ScopeKind = "agent",
        team: Sequence[str] | None = None,
        limit: int | None = None,
    ) -> SearchReply:
        """See :meth:`MemoryClient.search`."""
        return await asyncio.to_thread(
            self.sync.search,
            tenant_id,
            agent_id,
            query,
            domain=domain,
            scope=scope,
            team=team,
            limit=limit,
        )

    async def finish_run(
        self, event: Mapping[str, Any] | None = None, /, **fields: Any
    ) -> AsyncRunHandle:
        """See :meth:`MemoryClient.finish_run`; ``await handle.wait()`` for the result."""
        handle = await asyncio.to_thread(self.sync.finish_run, event, **fields)
        return AsyncRunHandle(handle)

    async def record_procedure_result(
        self,
        tenant_id: str,
        agent_id: str,
        run_id: str,
        procedure_id: str,
        succeeded: bool,
        *,
        task: str,
        task_type: str | None = None,
        domain: str | None = None,
        outcome: Literal["COMPLETED", "PARTIAL", "FAILED"] | None = None,
        receipt: str | None = None,
    ) -> AsyncRunHandle:
        """See :meth:`MemoryClient.record_procedure_result`."""
        handle = await asyncio.to_thread(
            self.sync.record_procedure_result,
            tenant_id,
            agent_id,
            run_id,
            procedure_id,
            succeeded,
            task=task,
            task_type=task_type,
            domain=domain,
            outcome=outcome,
            receipt=receipt,
        )
        return AsyncRunHandle(handle)

    async def list_procedures(
        self, tenant_id: str, *, status: ProcedureStatus | str | None = None
    ) -> list[ProcedureView]:
        """See :meth:`MemoryClient.list_procedures`."""
        return await asyncio.to_thread(self.sync.list_procedures, tenant_id, status=status)

    async def get_procedure(self, tenant_id: str, procedure_id: str) -> ProcedureView:
        """See :meth:`MemoryClient.get_procedure`."""
        return await asyncio.to_thread(self.sync.get_procedure, tenant_id, procedure_id)

    async def approve_procedure(
        self, tenant_id: str, procedure_id: str, *, reviewer: str
    ) -> ProcedureView:
        """See :meth:`MemoryClient.approve_procedure`."""
        return await asyncio.to_thread(
            self.sync.approve_procedure, tenant_id, procedure_id, reviewer=reviewer
        )

    async def reject_procedure(
        self, tenant_id: str, procedure_id: str, *, reviewer: str, reason: str
    ) -> ProcedureView:
        """See :meth:`MemoryClient.reject_procedure`."""
        return await asyncio.to_thread(
            self.sync.reject_procedure, tenant_id, procedure_id, reviewer=reviewer, reason=reason
        )

    async def aclose(self, *, wait: bool = True) -> None:
        """See :meth:`MemoryClient.close` (waits in a thread, not on the loop)."""
        await asyncio.to_thread(self.sync.close, wait=wait)

    def close(self, *, wait: bool = True) -> None:
        """See :meth:`MemoryClient.close`."""
        self.sync.close(wait=wait)

    async def __aenter__(self) -> AsyncMemoryClient:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        await self.aclose()

    def __repr__(self) -> str:
        return f"AsyncMemoryClient(mode={self.mode!r})"
