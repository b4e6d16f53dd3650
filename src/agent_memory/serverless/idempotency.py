"""Powertools Idempotency for the write steps: one result per (function, tenant, agent, run id,
finished_at).

The core's writes are idempotent already (conditional puts, run-id sets); this short-circuits a
redelivered or replayed step so it returns its first result without touching the stores again.
Only steps after ``scrub`` use it: their results hold no unscrubbed text.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
    idempotent,
)
from aws_lambda_powertools.utilities.idempotency.exceptions import (
    IdempotencyAlreadyInProgressError,
    IdempotencyPersistenceLayerError,
)

from agent_memory.adapters.aws._errors import is_transient
from agent_memory.core.model.errors import TransientError
from agent_memory.wiring.aws import runtime

H = TypeVar("H", bound=Callable[..., Any])

RUN_IDEMPOTENCY_SECONDS = 7 * 86_400


class StepInProgress(TransientError):
    """Another delivery of this run holds the step. The state machine waits it out with a
    retrier of its own: no jitter, and longer in all than the step's timeout, after which
    Powertools lets the in-progress record lapse and this delivery takes the step over.
    """


def once_per_run(handler: H) -> H:
    """Decorate a step handler so each run's step result is computed once.

    Two deliveries of one run at once meet the step in progress (``StepInProgress``), and a
    throttled idempotency table fails the call (``TransientError``); the state machine retries
    both (Powertools' own errors are not in its Retry list, so they would dead-letter).
    """
    persistence = DynamoDBPersistenceLayer(
        table_name=runtime().settings.idempotency_table, boto3_client=runtime().client("dynamodb")
    )
    config = IdempotencyConfig(
        # A run is (tenant, agent, run id): two agents' runs of one id are two runs. Its
        # finished_at too: a run forgotten (MemoryClient.forget_run) and reported again, as
        # the LangGraph store's update does, is consolidated afresh, where a redelivery or a
        # replay of the same event is not. Records keyed without it only lapse: the core's
        # writes stay idempotent.
        event_key_jmespath="[run.tenant_id, run.agent_id, run.run_id, run.finished_at]",
        raise_on_no_idempotency_key=True,
        expires_after_seconds=RUN_IDEMPOTENCY_SECONDS,
    )
    once = idempotent(persistence_store=persistence, config=config)(handler)

    @functools.wraps(handler)
    def step(event: Any, context: Any) -> Any:
        try:
            return once(event, context)
        except IdempotencyAlreadyInProgressError as error:
            raise StepInProgress(f"this run's step is in progress elsewhere: {error}") from error
        except IdempotencyPersistenceLayerError as error:
            if error.__cause__ is not None and is_transient(error.__cause__):
                raise TransientError(f"idempotency store unavailable: {error}") from error
            raise

    return cast(H, step)
