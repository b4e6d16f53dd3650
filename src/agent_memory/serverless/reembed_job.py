"""The re-embedding job on AWS: each invocation advances the migration until near its timeout.

The ``reembed`` Lambda is the AWS side of ``agent-memory reembed``
(``core/workflows/reembed.py``). It
re-embeds the DynamoDB records (episodes' summary and unit vectors, facts' vectors) page by
page and saves its position in the ledger after every page, so it is invoked again and again
(by an operator, or a temporary schedule sending ``{"action": "run"}``) until it reports
``done``. Requests::

    {"action": "start", "to": "amazon.titan-embed-text-v2:0"}   # begin, then work
    {"action": "run"}                                          # continue whatever stage is open
    {"action": "status", "coverage": true}                     # where it stands (coverage: a scan)
    {"action": "switch"}                                       # calibration check, catch-up, switch
    {"action": "finish"}                                       # drop the old vectors
    {"action": "abort"}                                        # drop the target's vectors instead

The serving functions cannot read the ledger's system records (they reach data only through
the tenant data role), so on AWS the model they embed with is the deployment's
``EMBEDDING_MODEL_ID``: ``switch`` records the new active model once it is safe, the deploy that
moves ``EMBEDDING_MODEL_ID`` (with a knowledge base created with that model) makes the serving
functions use it, and ``finish`` is refused until this function runs with the new model too.
The runbook: ``functions/reembed/README.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from aws_lambda_powertools.metrics import MetricUnit
from pydantic import BaseModel, ConfigDict, Field

from agent_memory.app.messages import MigrationStatus, Reembed
from agent_memory.core.model.records import to_json
from agent_memory.serverless.observability import logger, metrics
from agent_memory.serverless.parsing import parse_model
from agent_memory.wiring.aws import runtime

# A page is not started with less time left than this: one page (embedding included) fits in it.
STOP_MARGIN_MS = 180_000


class ReembedRequest(BaseModel):
    """One step of an embedding-model migration."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["start", "run", "status", "switch", "finish", "abort"] = "run"
    to: str | None = Field(default=None, min_length=1, max_length=256)
    page_size: int = Field(default=25, ge=1, le=1000)
    coverage: bool = False


_DECISIONS: dict[str, Literal["begin", "switch", "finish", "abort"]] = {
    "start": "begin",
    "switch": "switch",
    "finish": "finish",
    "abort": "abort",
}


def run_job(event: Any, remaining_ms: Callable[[], int]) -> dict[str, Any]:
    """Carry out one request; ``remaining_ms`` is the invocation's time left (the Lambda
    context's ``get_remaining_time_in_millis``). The report, as JSON.
    """
    request = parse_model(event, ReembedRequest)
    metrics.add_metric(name="ReembedSteps", unit=MetricUnit.Count, value=1)
    aws = runtime()
    app = aws.application(None)
    if request.action == "status":
        return dict(to_json(app.handle(MigrationStatus(coverage=request.coverage))))
    report = app.handle(
        Reembed(
            aws.embedder_for,
            None if request.action == "run" else _DECISIONS[request.action],
            to=request.to,
            page_size=request.page_size,
            should_stop=lambda: remaining_ms() < STOP_MARGIN_MS,
        )
    )
    for kind, counts in report.counts.items():
        metrics.add_metric(
            name=f"Reembedded{kind.title()}", unit=MetricUnit.Count, value=counts.embedded
        )
    logger.info(
        "reembed step",
        action=request.action,
        stage=report.stage,
        done=report.done,
        target=report.target_model_id,
        position=report.position,
    )
    return dict(to_json(report))
