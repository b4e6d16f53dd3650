"""Lambda `stage_kb_docs`: consolidation step 5, write KB documents of confirmed facts."""

from typing import Any

from aws_lambda_powertools.utilities.typing import LambdaContext

from agent_memory.serverless import steps
from agent_memory.serverless.observability import logger, metrics, tracer


@logger.inject_lambda_context
@tracer.capture_lambda_handler
@metrics.log_metrics(capture_cold_start_metric=True)
def handler(event: dict[str, Any], context: LambdaContext) -> dict[str, Any]:
    """Parse, call the application, reply."""
    return steps.stage_kb_docs(event)
