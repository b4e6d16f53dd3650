"""Handles on finished runs: wait for the local consolidation, or read the bus's receipt."""

from __future__ import annotations

import asyncio
from concurrent.futures import Future

from agent_memory.sdk.types import RunResult


class RunHandle:
    """A run reported with ``finish_run``.

    Locally its consolidation runs in the background and :meth:`wait` returns its summary (or
    raises its failure, already recorded for replay). On AWS the event is on the bus when
    ``finish_run`` returns, and :meth:`wait` returns the receipt at once.
    """

    def __init__(self, tenant_id: str, run_id: str, future: Future[RunResult]) -> None:
        self.tenant_id = tenant_id
        self.run_id = run_id
        self._future = future

    @classmethod
    def completed(cls, result: RunResult) -> RunHandle:
        """A handle whose result is already known."""
        future: Future[RunResult] = Future()
        future.set_result(result)
        return cls(result["tenant_id"], result["run_id"], future)

    @property
    def event_id(self) -> str | None:
        """EventBridge's id for the event (AWS), or None (local)."""
        if not self._future.done() or self._future.exception() is not None:
            return None
        return self._future.result().get("event_id")

    def done(self) -> bool:
        """Whether the result (or failure) is known."""
        return self._future.done()

    def wait(self, timeout: float | None = None) -> RunResult:
        """The run's result; raises ``TimeoutError`` if not known within ``timeout`` seconds.

        A failed local consolidation raises :class:`ConsolidationError` (the run is recorded
        for replay).
        """
        return self._future.result(timeout)

    def __repr__(self) -> str:
        state = "done" if self.done() else "pending"
        return f"RunHandle(tenant_id={self.tenant_id!r}, run_id={self.run_id!r}, {state})"


class AsyncRunHandle:
    """:class:`RunHandle` for asyncio code: ``await handle.wait()``."""

    def __init__(self, handle: RunHandle) -> None:
        self.sync = handle
        self.tenant_id = handle.tenant_id
        self.run_id = handle.run_id

    @property
    def event_id(self) -> str | None:
        """EventBridge's id for the event (AWS), or None (local)."""
        return self.sync.event_id

    def done(self) -> bool:
        """Whether the result (or failure) is known."""
        return self.sync.done()

    async def wait(self, timeout: float | None = None) -> RunResult:
        """The run's result, without blocking the event loop.

        A timeout raises ``TimeoutError`` and leaves the consolidation running.
        """
        # Shielded: a timeout or a cancelled caller must not cancel the consolidation itself.
        waiting = asyncio.shield(asyncio.wrap_future(self.sync._future))
        return await asyncio.wait_for(waiting, timeout)

    def __repr__(self) -> str:
        return f"Async{self.sync!r}"
