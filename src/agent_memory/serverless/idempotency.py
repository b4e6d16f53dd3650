"""Powertools Idempotency for the write steps: one result per (function, tenant, run id).

The core's writes are idempotent already (conditional puts, run-id sets); this short-circuits a
redelivered or replayed step so it returns its first result without touching the stores again.
Only steps after ``scrub`` use it: their results hold no unscrubbed text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent,
)

from agent_memory.serverless.wiring import runtime

H = TypeVar("H", bound=Callable[..., Any])

RUN_IDEMPOTENCY_SECONDS = 7 * 86_400


def once_per_run(handler: H) -> H:
    """Decorate a step handler so each run's step result is computed once."""
    persistence = DynamoDBPersistenceLayer(
        table_name=runtime().settings.idempotency_table, boto3_client=runtime().client("dynamodb")
    )
    config = IdempotencyConfig(
        event_key_jmespath="[run.tenant_id, run.run_id]",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=RUN_IDEMPOTENCY_SECONDS,
    )
    return cast(H, idempotent(persistence_store=persistence, config=config)(handler))
