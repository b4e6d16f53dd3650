"""The SDK's local mode: the core, embedded, with consolidation on a background thread."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar, cast

from agent_memory.app import Application
from agent_memory.app.messages import ConsolidateRun, Message, RecordFailure
from agent_memory.core.model.errors import TransientError
from agent_memory.core.workflows.consolidation import StepFailed, summary
from agent_memory.sdk.errors import ClientClosedError, ConsolidationError, answered
from agent_memory.sdk.events import ValidatedRun
from agent_memory.sdk.handles import RunHandle
from agent_memory.sdk.types import RunResult

R = TypeVar("R")


class LocalBackend:
    """Runs the core in-process against one store.

    Runs are consolidated on a small thread pool (one worker by default: SQLite has one writer,
    and runs then consolidate in the order they finished). A step failing on a transient error
    (a busy database) is retried, the whole run again, which is safe because every step is
    idempotent per run id.
    """

    def __init__(
        self,
        app: Application,
        *,
        max_workers: int = 1,
        transient_retries: int = 2,
        retry_delay: float = 0.5,
    ) -> None:
        self.app = app
        self._pool = ThreadPoolExecutor(max_workers, thread_name_prefix="agent-memory-consolidate")
        self._retries = transient_retries
        self._retry_delay = retry_delay
        self._closed = False
        self._lock = threading.Lock()

    def handle(self, message: Message[R]) -> R:
        """The application's answer, its errors as the SDK's."""
        return answered(self.app, message)

    def submit(self, run: ValidatedRun) -> RunHandle:
        """Queue a validated event for consolidation."""
        with self._lock:
            if self._closed:
                raise ClientClosedError("the memory client is closed")
            future = self._pool.submit(self._consolidate, run)
        return RunHandle(run.run.tenant_id, run.run.run_id, future)

    def close(self, *, wait: bool = True) -> None:
        """Accept no more runs; with ``wait``, return once queued runs are consolidated."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=wait)

    def _consolidate(self, validated: ValidatedRun) -> RunResult:
        detail, run = validated.detail, validated.run
        attempt = 0
        while True:
            key: str | None = None
            try:
                # Validated by the client already: the core takes the record as it is.
                state = self.app.handle(ConsolidateRun(detail, run))
                return cast(RunResult, {"status": "CONSOLIDATED", **summary(state)})
            except StepFailed as failure:
                # Already recorded for replay by the core.
                step, error, key = failure.step, failure.error, failure.failure_key
            except Exception as error_:
                # Raised before a step could be recorded (a ledger error): recorded here, as the
                # state machine's Catch does on AWS.
                step, error = "extract", error_
                if not self._retryable(error, attempt):
                    cause = {"Error": type(error).__name__, "Cause": str(error), "Step": step}
                    key = self.app.handle(RecordFailure(detail, error=cause)).record.key
            if not self._retryable(error, attempt):
                raise ConsolidationError(run.run_id, step, error, key or "(unknown)") from error
            attempt += 1
            time.sleep(self._retry_delay * attempt)

    def _retryable(self, error: BaseException, attempt: int) -> bool:
        return isinstance(error, TransientError) and attempt < self._retries
