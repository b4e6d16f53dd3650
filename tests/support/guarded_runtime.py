"""The Lambda runtime of the moto harnesses: fakes on its clients, DynamoDB guarded as on AWS."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from agent_memory.wiring import aws as wiring
from tests.integration.aws.moto_dynamodb import SerializedClient
from tests.support.leading_keys import LeadingKeysGuard

_PREPARED = "_harness_prepared"


def _leave_as_is(client: Any) -> None:
    del client


@dataclass
class GuardedRuntime(wiring.AwsRuntime):
    """The Lambda runtime with every tenant's DynamoDB client under ``dynamodb:LeadingKeys``.

    ``prepare_client`` runs once on each client the runtime makes (a fake answering its
    service's calls, a fault injector); with a ``dynamodb_lock`` every DynamoDB request runs
    under it (``SerializedClient``: DynamoDB applies a request atomically, moto does not).
    ``guarded`` holds the guard of each tenant client handed out.
    """

    prepare_client: Callable[[Any], None] = _leave_as_is
    dynamodb_lock: threading.Lock | None = None
    guarded: list[LeadingKeysGuard] = field(default_factory=list)

    def client(self, service: str, tenant_id: str | None = None) -> Any:
        client = self.prepare(super().client(service, tenant_id))
        if service != "dynamodb":
            return client
        if self.dynamodb_lock is not None:
            client = SerializedClient(client, self.dynamodb_lock)
        if tenant_id is None:
            return client
        guard = LeadingKeysGuard(client, tenant_id)
        self.guarded.append(guard)
        return guard

    def prepare(self, client: Any) -> Any:
        """Run ``prepare_client`` on ``client`` unless it already ran; the client."""
        if not getattr(client, _PREPARED, False):
            self.prepare_client(client)
            setattr(client, _PREPARED, True)
        return client
