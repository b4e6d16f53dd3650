"""Throttling and transient faults on real botocore clients, through botocore's event system.

:class:`FaultInjector` is registered first on ``before-call`` of every client it is attached to,
so it sees each API call of the workflow (moto's and the served ones alike). At ``rate`` it
answers with a service error instead of the service: throttling or a 5xx, as what is left once
botocore's own retries gave up. A share of those faults happen *after* the call took effect
(``after-call``: a 500 that "may have succeeded", a lost reply), which is what a non-idempotent
write would get wrong. ``StartIngestionJob`` also meets ``ConflictException`` (a job is running).
"""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from botocore.awsrequest import AWSResponse
from botocore.exceptions import ClientError

# (code, HTTP status) a service answers when it throttles or fails for a while.
CODES: dict[str, tuple[tuple[str, int], ...]] = {
    "dynamodb": (
        ("ProvisionedThroughputExceededException", 400),
        ("ThrottlingException", 400),
        ("InternalServerError", 500),
    ),
    "s3": (("SlowDown", 503), ("InternalError", 500), ("ServiceUnavailable", 503)),
    "comprehend": (("ThrottlingException", 400), ("InternalServerException", 500)),
    "bedrock-runtime": (
        ("ThrottlingException", 429),
        ("ServiceUnavailableException", 503),
        ("ModelTimeoutException", 408),
    ),
    "bedrock-agent-runtime": (("ThrottlingException", 429), ("InternalServerException", 500)),
    "bedrock-agent": (("ThrottlingException", 429), ("InternalServerException", 500)),
}
# A 5xx after the request took effect.
APPLIED_CODES = {
    "dynamodb": ("InternalServerError", 500),
    "s3": ("InternalError", 500),
}
CONFLICT = ("ConflictException", 409)
_CONTEXT_KEY = "resilience_fault_after"


@dataclass
class FaultInjector:
    """Fails ``rate`` of the API calls of the clients it is attached to (seeded, thread-safe).

    ``applied_share`` of the faults on writable services let the call take effect first;
    ``services`` narrows the faults to some services.
    ``counts`` holds one entry per injected fault: (service, operation, code, when);
    ``calls`` the calls made while the injector was enabled, by service; ``seen`` every call
    that passed through it, enabled or not (which services it is attached to).
    """

    rate: float
    seed: int = 0
    applied_share: float = 0.25
    enabled: bool = True
    services: frozenset[str] | None = None  # None: every service
    counts: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)
    calls: Counter[str] = field(default_factory=Counter)
    seen: Counter[str] = field(default_factory=Counter)
    forced: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    _rng: random.Random = field(init=False)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    @property
    def injected(self) -> int:
        return sum(self.counts.values())

    def attach(self, client: Any) -> None:
        """Register on ``client``: first on ``before-call``, and on ``after-call``."""
        client.meta.events.register_first("before-call", self._before)
        client.meta.events.register("after-call", self._after)

    def force(self, operation: str, code: str, status: int) -> None:
        """Answer the next call of ``operation`` with ``code``, whatever the dice say."""
        with self._lock:
            self.forced.setdefault(operation, []).append((code, status))

    def _roll(self, service: str, operation: str) -> tuple[str, int, bool] | None:
        with self._lock:
            self.seen[service] += 1
            if self.forced.get(operation):
                code, status = self.forced[operation].pop(0)
                return code, status, False
            if not self.enabled or (self.services is not None and service not in self.services):
                return None
            self.calls[service] += 1
            if self._rng.random() >= self.rate:
                return None
            if operation == "StartIngestionJob" and self._rng.random() < 0.5:
                code, status = CONFLICT
                return code, status, False
            applied = service in APPLIED_CODES and self._rng.random() < self.applied_share
            code, status = (
                APPLIED_CODES[service] if applied else self._rng.choice(CODES.get(service, ()))
            )
            return code, status, applied

    def _before(self, event_name: str, context: dict[str, Any], **_: Any) -> Any:
        service, operation = event_name.split(".", 2)[1:]
        fault = self._roll(service, operation)
        if fault is None:
            return None
        code, status, applied = fault
        if applied:
            context[_CONTEXT_KEY] = (code, status)
            return None
        self._count(service, operation, code, "before")
        return error_response(code, status)

    def _after(
        self, event_name: str, http_response: Any, context: dict[str, Any], **_: Any
    ) -> None:
        fault = context.pop(_CONTEXT_KEY, None)
        if fault is None or http_response.status_code >= 300:
            return
        service, operation = event_name.split(".", 2)[1:]
        code, status = fault
        self._count(service, operation, code, "after")
        raise ClientError(error_body(code, status), operation)

    def _count(self, service: str, operation: str, code: str, when: str) -> None:
        with self._lock:
            self.counts[(service, operation, code, when)] += 1


def error_body(code: str, status: int) -> dict[str, Any]:
    """A parsed AWS error reply."""
    return {
        "Error": {"Code": code, "Message": f"injected {code}"},
        "ResponseMetadata": {"HTTPStatusCode": status, "HTTPHeaders": {}},
    }


def error_response(code: str, status: int) -> tuple[AWSResponse, dict[str, Any]]:
    """What a ``before-call`` handler returns to answer for the service with an error."""
    return AWSResponse("https://injected.invalid/", status, {}, None), error_body(code, status)


def ok_response(parsed: dict[str, Any]) -> tuple[AWSResponse, dict[str, Any]]:
    """What a ``before-call`` handler returns to answer for the service with ``parsed``."""
    reply = {**parsed, "ResponseMetadata": {"HTTPStatusCode": 200, "HTTPHeaders": {}}}
    return AWSResponse("https://served.invalid/", 200, {}, None), reply
