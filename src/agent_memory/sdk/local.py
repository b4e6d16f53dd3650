"""The SDK's local mode: the core, embedded, with consolidation on a background thread."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, cast

from agent_memory.core.api.contracts import validate
from agent_memory.core.model.errors import Conflict, InvalidInput, NotFound, TransientError
from agent_memory.core.ports import MemoryPorts
from agent_memory.core.workflows.bootstrap import BootstrapRequest, bootstrap
from agent_memory.core.workflows.consolidation import (
    StepFailed,
    consolidate_or_record,
    record_failure,
    summary,
)
from agent_memory.core.workflows.episodes import run_episode_request
from agent_memory.sdk.errors import (
    ClientClosedError,
    ConflictError,
    ConsolidationError,
    NotFoundError,
    invalid,
)
from agent_memory.sdk.events import ValidatedRun
from agent_memory.sdk.handles import RunHandle
from agent_memory.sdk.types import BootstrapReply, RunResult


class LocalBackend:
    """Runs the core in-process against one store.

    Runs are consolidated on a small thread pool (one worker by default: SQLite has one writer,
    and runs then consolidate in the order they finished). A step failing on a transient error
    (a busy database) is retried, the whole run again, which is safe because every step is
    idempotent per run id.
    """

    def __init__(
        self,
        ports: MemoryPorts,
        *,
        max_workers: int = 1,
        transient_retries: int = 2,
        retry_delay: float = 0.5,
    ) -> None:
        self.ports = ports
        self._pool = ThreadPoolExecutor(max_workers, thread_name_prefix="agent-memory-consolidate")
        self._retries = transient_retries
        self._retry_delay = retry_delay
        self._closed = False
        self._lock = threading.Lock()

    def bootstrap(self, request: BootstrapRequest) -> BootstrapReply:
        """The memory context, from the core."""
        return bootstrap(request, self.ports)

    def submit(self, run: ValidatedRun) -> RunHandle:
        """Queue a validated event for consolidation."""
        with self._lock:
            if self._closed:
                raise ClientClosedError("the memory client is closed")
            future = self._pool.submit(self._consolidate, run)
        return RunHandle(run.run.tenant_id, run.run.run_id, future)

    def review(self, request: dict[str, Any]) -> dict[str, Any]:
        """One procedure-review operation, as the review Lambda would carry it out."""
        # The review function's own contract and logic (pure: pydantic and the core), so both
        # modes answer alike; imported here, as only reviewers need it.
        from agent_memory.core.api.review_request import ReviewRequest
        from agent_memory.core.workflows.review import run_review

        try:
            return run_review(validate(ReviewRequest, request), self.ports)
        except InvalidInput as error:
            raise invalid(error) from None
        except NotFound as error:
            raise NotFoundError(str(error)) from None
        except Conflict as error:
            raise ConflictError(str(error)) from None

    def episodes(self, request: dict[str, Any]) -> dict[str, Any]:
        """One operation on single episodes, by the core."""
        try:
            return run_episode_request(request, self.ports)
        except InvalidInput as error:
            raise invalid(error) from None

    def close(self, *, wait: bool = True) -> None:
        """Accept no more runs; with ``wait``, return once queued runs are consolidated."""
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=wait)

    def _consolidate(self, validated: ValidatedRun) -> RunResult:
        detail, run = validated.detail, validated.run
        run_id, tenant_id, agent_id = run.run_id, run.tenant_id, run.agent_id
        attempt = 0
        while True:
            try:
                # Validated by the client already: the core takes the record as it is.
                state = consolidate_or_record(detail, self.ports, run=run)
                return cast(RunResult, {"status": "CONSOLIDATED", **summary(state)})
            except StepFailed as failure:
                # Already recorded for replay by the core.
                step, error = failure.step, failure.error
            except Exception as error_:
                # ``extract`` failed (a model or ledger error): the core leaves recording it to
                # its caller, as the state machine's Catch does on AWS.
                step, error = "extract", error_
                if not self._retryable(error, attempt):
                    record_failure(
                        {
                            "event": detail,
                            "error": {
                                "Error": type(error).__name__,
                                "Cause": str(error),
                                "Step": step,
                            },
                        },
                        self.ports,
                    )
            if not self._retryable(error, attempt):
                raise ConsolidationError(
                    run_id,
                    step,
                    error,
                    self.ports.run_ledger.failure_key(tenant_id, agent_id, run_id),
                ) from error
            attempt += 1
            time.sleep(self._retry_delay * attempt)

    def _retryable(self, error: BaseException, attempt: int) -> bool:
        return isinstance(error, TransientError) and attempt < self._retries
